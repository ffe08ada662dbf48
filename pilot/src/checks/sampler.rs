//! The machine's state while a session runs (Pilot paper §III-B): the kernel's cumulative
//! counters are read between rounds (at most every [`PERIOD`]), and after the session each
//! round is given the state of the intervals it overlapped. A busy machine (other processes
//! taking a real share of the cores), CPU steal, cgroup throttling, or a saturated disk or
//! network link is a named check with its figures, and the rounds it touched are marked.
//!
//! The counters are read on the bench's own thread between rounds, not by a thread of their
//! own: a second thread would take glibc's allocator off its single-thread fast path for the
//! rest of the process (about 10 ns more per allocation, in every bench that allocates), and on
//! a machine of few cores it would compete with the bench for them. The counters are
//! cumulative, so a round's figures are exact over the intervals around it whatever the period.
//! A sample reads six small files (about 60 µs here) into buffers kept from the start, so it
//! allocates nothing and takes no time inside a round.
//!
//! Linux only: elsewhere nothing is sampled, and the result says so.

use std::time::{Duration, Instant};

use super::{Kind, check, figure};
use crate::schema::CheckDoc;

/// Least time between samples.
pub(crate) const PERIOD: Duration = Duration::from_millis(20);

/// Cores other processes must keep busy, on average over a round, for it to be marked busy.
const BUSY_CORES: f64 = 0.25;
/// Share of the CPU time stolen by the hypervisor for a round to be marked.
const STEAL_SHARE: f64 = 0.05;
/// A device at least this busy is saturated (the paper's threshold).
const SATURATED: f64 = 0.8;
/// Share of rounds a state must touch before it is a check of the session: a blip of a few
/// rounds is marked in them, but says little about the result.
const ROUND_SHARE: f64 = 0.25;

/// The kernel's cumulative counters at one moment. Device counters are in the order of the
/// sampler's [`Devices`], so a sample is read into the same buffers every time: the sampler
/// allocates nothing after its start (the leak check weighs the heap).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Sample {
    pub at: Duration,
    /// /proc/stat's aggregate jiffies: total, idle + iowait, iowait, steal.
    pub total: u64,
    pub idle: u64,
    pub iowait: u64,
    pub steal: u64,
    /// This process's user + system time, jiffies.
    pub own: u64,
    /// cgroup CPU throttling so far, microseconds.
    pub throttled_us: Option<u64>,
    /// Pressure stall: some task waiting for a CPU, microseconds so far.
    pub cpu_pressure_us: Option<u64>,
    /// Milliseconds each block device has been busy (`io_ticks`).
    pub disks: Vec<u64>,
    /// Bytes received + sent by each network interface.
    pub nets: Vec<u64>,
}

/// The block devices and network links a sampler watches, found at its start.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Devices {
    pub disks: Vec<String>,
    /// Interface names and link speeds in Mb/s where sysfs has them.
    pub nets: Vec<(String, Option<u64>)>,
    /// This process's cgroup's cpu.stat.
    pub cgroup_cpu_stat: Option<String>,
}

/// The state of the machine over an interval between two samples, or over a round (the
/// intervals it overlapped).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Interval {
    pub from: Duration,
    pub to: Duration,
    /// Cores kept busy by other processes.
    pub others_cores: f64,
    /// Cores this process kept busy.
    pub own_cores: f64,
    /// Share of the machine's CPU time stolen by the hypervisor, and waiting for I/O.
    pub steal: f64,
    pub iowait: f64,
    /// Share of the interval this cgroup was throttled.
    pub throttled: f64,
    /// Share of the interval some task waited for a CPU (`/proc/pressure/cpu`).
    pub cpu_pressure: Option<f64>,
    /// The busiest block device (index in [`Devices::disks`]) and its busy share.
    pub disk: Option<(usize, f64)>,
    /// The busiest network link with a known speed (index in [`Devices::nets`]) and its
    /// utilisation.
    pub net: Option<(usize, f64)>,
}

/// Reads a small file into `buf` (cleared first), without allocating once `buf` is large
/// enough.
fn read_into(path: &str, buf: &mut String) -> Option<()> {
    use std::io::Read;
    buf.clear();
    std::fs::File::open(path).ok()?.read_to_string(buf).ok()?;
    Some(())
}

/// Reads one sample into `out` (`buf` is scratch), `None` where /proc/stat cannot be read.
pub(crate) fn read_sample(
    at: Duration,
    devices: &Devices,
    buf: &mut String,
    out: &mut Sample,
) -> Option<()> {
    read_into("/proc/stat", buf)?;
    let v = cpu_counters(buf)?;
    out.at = at;
    out.total = v.iter().sum();
    out.idle = v[3] + v[4];
    out.iowait = v[4];
    out.steal = v[7];
    out.own = read_into("/proc/self/stat", buf)
        .and_then(|_| own_jiffies(buf))
        .unwrap_or(0);
    out.throttled_us = devices
        .cgroup_cpu_stat
        .as_deref()
        .and_then(|p| read_into(p, buf))
        .and_then(|_| throttled_us(buf));
    out.cpu_pressure_us = read_into("/proc/pressure/cpu", buf).and_then(|_| pressure_total(buf));
    out.disks.resize(devices.disks.len(), 0);
    if read_into("/proc/diskstats", buf).is_some() {
        for (name, ticks) in disk_ticks(buf) {
            if let Some(i) = devices.disks.iter().position(|d| d == name) {
                out.disks[i] = ticks;
            }
        }
    }
    out.nets.resize(devices.nets.len(), 0);
    if read_into("/proc/net/dev", buf).is_some() {
        for (name, bytes) in net_bytes(buf) {
            if let Some(i) = devices.nets.iter().position(|(n, _)| n == name) {
                out.nets[i] = bytes;
            }
        }
    }
    Some(())
}

/// The first eight counters of /proc/stat's aggregate `cpu` line: user nice system idle iowait
/// irq softirq steal (guest time is inside user).
pub(crate) fn cpu_counters(stat: &str) -> Option<[u64; 8]> {
    let line = stat.lines().find(|l| l.starts_with("cpu "))?;
    let mut v = [0u64; 8];
    for (slot, x) in v.iter_mut().zip(line.split_whitespace().skip(1)) {
        *slot = x.parse().unwrap_or(0);
    }
    Some(v)
}

/// utime + stime of a /proc/PID/stat line (fields 14 and 15, after the parenthesised name).
fn own_jiffies(stat: &str) -> Option<u64> {
    let rest = stat.get(stat.rfind(')')? + 2..)?;
    // `rest` starts at field 3 (state): utime is field 14, stime 15.
    let mut f = rest.split_whitespace().skip(11);
    Some(f.next()?.parse::<u64>().ok()? + f.next()?.parse::<u64>().ok()?)
}

/// Throttled time of a cgroup's cpu.stat, in µs (v2's `throttled_usec`, v1's `throttled_time`
/// in ns).
fn throttled_us(stat: &str) -> Option<u64> {
    for line in stat.lines() {
        let mut f = line.split_whitespace();
        match (f.next(), f.next().and_then(|v| v.parse::<u64>().ok())) {
            (Some("throttled_usec"), Some(v)) => return Some(v),
            (Some("throttled_time"), Some(v)) => return Some(v / 1000),
            _ => {}
        }
    }
    None
}

/// `total` of the `some` line of a pressure file, µs.
fn pressure_total(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("some"))?;
    line.split_whitespace()
        .find_map(|f| f.strip_prefix("total="))?
        .parse()
        .ok()
}

/// `io_ticks` (ms busy, field 13) of each whole block device (partitions, loop, ram and
/// device-mapper devices left out).
fn disk_ticks(text: &str) -> impl Iterator<Item = (&str, u64)> {
    text.lines().filter_map(|l| {
        let mut f = l.split_whitespace();
        let name = f.nth(2)?;
        let ticks: u64 = f.nth(9)?.parse().ok()?;
        let numbered = name.ends_with(|c: char| c.is_ascii_digit());
        let partition =
            (name.starts_with("sd") || name.starts_with("vd") || name.starts_with("xvd"))
                && numbered
                || name.starts_with("nvme") && name.contains('p')
                || name.starts_with("mmcblk") && name.contains('p');
        let virtual_device = ["loop", "ram", "zram", "dm-", "md", "sr"]
            .iter()
            .any(|p| name.starts_with(p));
        (!partition && !virtual_device).then_some((name, ticks))
    })
}

/// Bytes received + sent by each interface but loopback.
fn net_bytes(text: &str) -> impl Iterator<Item = (&str, u64)> {
    text.lines().skip(2).filter_map(|l| {
        let (name, rest) = l.split_once(':')?;
        let mut f = rest.split_whitespace();
        let rx: u64 = f.next()?.parse().ok()?;
        let tx: u64 = f.nth(7)?.parse().ok()?;
        let name = name.trim();
        (name != "lo").then_some((name, rx + tx))
    })
}

/// The devices to watch: the block devices and network interfaces the kernel lists now, and
/// this process's cgroup's cpu.stat.
fn devices() -> Devices {
    let mut buf = String::new();
    let disks = read_into("/proc/diskstats", &mut buf)
        .map(|_| disk_ticks(&buf).map(|(n, _)| n.to_string()).collect())
        .unwrap_or_default();
    let nets = read_into("/proc/net/dev", &mut buf)
        .map(|_| {
            net_bytes(&buf)
                .map(|(n, _)| {
                    let speed = crate::probe::read(&format!("/sys/class/net/{n}/speed"))
                        .and_then(|s| s.parse::<i64>().ok())
                        .filter(|s| *s > 0)
                        .map(|s| s as u64);
                    (n.to_string(), speed)
                })
                .collect()
        })
        .unwrap_or_default();
    Devices {
        disks,
        nets,
        cgroup_cpu_stat: cgroup_cpu_stat(),
    }
}

/// The state over the interval between samples `a` and `b`, on a machine of `cores` cores
/// whose jiffies are `1 / ticks` s.
pub(crate) fn interval(
    a: &Sample,
    b: &Sample,
    devices: &Devices,
    cores: f64,
    ticks: f64,
) -> Interval {
    let seconds = b.at.saturating_sub(a.at).as_secs_f64().max(1e-6);
    let total = b.total.saturating_sub(a.total) as f64;
    let share = |x: u64, y: u64| {
        if total > 0.0 {
            y.saturating_sub(x) as f64 / total
        } else {
            0.0
        }
    };
    let steal = share(a.steal, b.steal);
    let busy_share = (1.0 - share(a.idle, b.idle) - steal).max(0.0);
    let own_cores = b.own.saturating_sub(a.own) as f64 / ticks / seconds;
    let busy_cores = busy_share * cores;
    let micro =
        |x: Option<u64>, y: Option<u64>| Some((y?.saturating_sub(x?)) as f64 / 1e6 / seconds);
    let busiest =
        |values: &mut dyn Iterator<Item = (usize, f64)>| values.max_by(|x, y| x.1.total_cmp(&y.1));
    let disk = busiest(
        &mut a
            .disks
            .iter()
            .zip(&b.disks)
            .enumerate()
            .map(|(i, (x, y))| (i, (y.saturating_sub(*x) as f64 / 1e3 / seconds).min(1.0))),
    );
    let net = busiest(
        &mut a
            .nets
            .iter()
            .zip(&b.nets)
            .enumerate()
            .filter_map(|(i, (x, y))| {
                let speed = devices.nets.get(i)?.1? as f64 * 1e6;
                Some((i, y.saturating_sub(*x) as f64 * 8.0 / seconds / speed))
            }),
    );
    Interval {
        from: a.at,
        to: b.at,
        others_cores: (busy_cores - own_cores).max(0.0),
        own_cores,
        steal,
        iowait: share(a.iowait, b.iowait),
        throttled: micro(a.throttled_us, b.throttled_us)
            .unwrap_or(0.0)
            .min(1.0),
        cpu_pressure: micro(a.cpu_pressure_us, b.cpu_pressure_us).map(|p| p.min(1.0)),
        disk,
        net,
    }
}

/// The path of this process's cgroup's cpu.stat (v2, else v1's cpu controller).
fn cgroup_cpu_stat() -> Option<String> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    for line in groups.lines() {
        let mut f = line.splitn(3, ':');
        let (_, controllers, path) = (f.next()?, f.next()?, f.next()?);
        let candidate = if controllers.is_empty() {
            format!("/sys/fs/cgroup{path}/cpu.stat")
        } else if controllers.split(',').any(|c| c == "cpu") {
            format!("/sys/fs/cgroup/{controllers}{path}/cpu.stat")
        } else {
            continue;
        };
        for p in [candidate, "/sys/fs/cgroup/cpu/cpu.stat".to_string()] {
            if std::path::Path::new(&p).exists() {
                return Some(p);
            }
        }
    }
    None
}

/// Intervals a sampler has room for before its buffer grows (over a minute of 20 ms rounds).
const CAPACITY: usize = 4096;

/// A sampler of the machine's state: read at the start and then between rounds, never on the
/// timing path.
pub(crate) struct Sampler {
    origin: Instant,
    devices: Devices,
    buf: String,
    previous: Sample,
    current: Sample,
    intervals: Vec<Interval>,
    cores: f64,
    ticks: f64,
}

impl Sampler {
    /// Takes the first sample now (time 0 of the samples' `at`); `None` where /proc/stat
    /// cannot be read (not Linux).
    pub(crate) fn start() -> Option<Sampler> {
        let origin = Instant::now();
        let devices = devices();
        let mut buf = String::with_capacity(64 << 10);
        let mut previous = Sample::default();
        read_sample(Duration::ZERO, &devices, &mut buf, &mut previous)?;
        Some(Sampler {
            origin,
            current: previous.clone(),
            previous,
            devices,
            buf,
            intervals: Vec::with_capacity(CAPACITY),
            cores: std::thread::available_parallelism().map_or(1.0, |n| n.get() as f64),
            // SAFETY: sysconf only reads a constant of the system.
            ticks: unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64,
        })
    }

    /// When the sampler started: the samples' times are measured from here.
    pub(crate) fn origin(&self) -> Instant {
        self.origin
    }

    /// Called between rounds: reads a sample if [`PERIOD`] has passed since the last one, so
    /// rounds shorter than that share an interval. About 60 µs when it reads; no allocation.
    pub(crate) fn tick(&mut self) {
        let at = self.origin.elapsed();
        if at.saturating_sub(self.previous.at) >= PERIOD {
            self.sample(at);
        }
    }

    fn sample(&mut self, at: Duration) {
        if read_sample(at, &self.devices, &mut self.buf, &mut self.current).is_some() {
            self.intervals.push(interval(
                &self.previous,
                &self.current,
                &self.devices,
                self.cores,
                self.ticks,
            ));
            std::mem::swap(&mut self.previous, &mut self.current);
        }
    }

    /// Takes a last sample and returns the intervals between samples, with the devices their
    /// indices name.
    pub(crate) fn finish(mut self) -> (Vec<Interval>, Devices) {
        let at = self.origin.elapsed();
        if at > self.previous.at {
            self.sample(at);
        }
        (self.intervals, self.devices)
    }
}

/// The state over a round from `from` to `to`: the intervals it overlaps, each weighed by the
/// overlap (a round inside one interval gets that interval's figures); the busiest device of
/// any of them.
fn state_of(intervals: &[Interval], from: Duration, to: Duration) -> Option<Interval> {
    let mut weight = 0.0;
    let mut s = Interval {
        from,
        to,
        ..Interval::default()
    };
    for i in intervals.iter().filter(|i| i.to > from && i.from < to) {
        // A round shorter than the period still gets the interval it fell in.
        let overlap = (i.to.min(to).saturating_sub(i.from.max(from)))
            .as_secs_f64()
            .max(1e-9);
        weight += overlap;
        s.others_cores += overlap * i.others_cores;
        s.own_cores += overlap * i.own_cores;
        s.steal += overlap * i.steal;
        s.iowait += overlap * i.iowait;
        s.throttled += overlap * i.throttled;
        if let Some(p) = i.cpu_pressure {
            s.cpu_pressure = Some(s.cpu_pressure.unwrap_or(0.0) + overlap * p);
        }
        for (mine, theirs) in [(&mut s.disk, i.disk), (&mut s.net, i.net)] {
            if let Some((device, busy)) = theirs {
                if mine.is_none_or(|(_, b)| b < busy) {
                    *mine = Some((device, busy));
                }
            }
        }
    }
    (weight > 0.0).then(|| Interval {
        others_cores: s.others_cores / weight,
        own_cores: s.own_cores / weight,
        steal: s.steal / weight,
        iowait: s.iowait / weight,
        throttled: s.throttled / weight,
        cpu_pressure: s.cpu_pressure.map(|p| p / weight),
        ..s
    })
}

/// What the sampler saw during one round: the machine's state (when a sample covered the
/// round) and the marks of the states that touched it.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct RoundState {
    /// The machine's state over the round, when it was sampled.
    pub machine: Option<Interval>,
    /// The marks of the states that touched the round ([`MARKS`]).
    pub marks: Vec<&'static str>,
}

/// Gives each round (its window `(from, to)`, timed from the sampler's start) the state it ran
/// in, and returns the session's checks: a state becomes a check when it touched at least a
/// quarter of the sampled rounds. A saturated device of the kind the bench declares as its
/// `bottleneck` (`disk` or `network`) is no finding. Time: O(rounds · intervals).
pub(crate) fn judge(
    intervals: &[Interval],
    devices: &Devices,
    windows: &[(Duration, Duration)],
    bottleneck: Option<&str>,
) -> (Vec<RoundState>, Vec<CheckDoc>) {
    let mut tallies: [Tally; 4] = Default::default();
    let mut seen = 0;
    let mut states = Vec::with_capacity(windows.len());
    for &(from, to) in windows {
        let Some(state) = state_of(intervals, from, to) else {
            states.push(RoundState::default());
            continue;
        };
        seen += 1;
        let mut marks = Vec::new();
        for (k, f) in findings(&state, devices, bottleneck)
            .into_iter()
            .enumerate()
        {
            if let Some((value, what)) = f {
                tallies[k].add(value, what);
                marks.push(MARKS[k]);
            }
        }
        states.push(RoundState {
            machine: Some(state),
            marks,
        });
    }
    let checks = tallies
        .iter()
        .enumerate()
        .filter(|(_, t)| seen > 0 && (t.rounds as f64) >= ROUND_SHARE * seen as f64)
        .map(|(k, t)| state_check(k, t, seen))
        .collect();
    (states, checks)
}

/// The rounds one state touched, with the sum and peak of its figure.
#[derive(Default)]
struct Tally {
    rounds: usize,
    sum: f64,
    peak: f64,
    /// The device at the peak (saturated devices only).
    what: String,
}

impl Tally {
    fn add(&mut self, value: f64, what: String) {
        self.rounds += 1;
        self.sum += value;
        if value >= self.peak {
            self.peak = value;
            self.what = what;
        }
    }
}

/// The four states of [`MARKS`] in one round's `state`, each with its figure (and the device's
/// name for a saturated device) when it is there.
fn findings(
    state: &Interval,
    devices: &Devices,
    bottleneck: Option<&str>,
) -> [Option<(f64, String)>; 4] {
    // The device the bench declares as its bottleneck is meant to be busy.
    let disk = state
        .disk
        .filter(|_| bottleneck != Some("disk"))
        .map(|(i, busy)| (devices.disks.get(i).cloned(), busy));
    let net = state
        .net
        .filter(|_| bottleneck != Some("network"))
        .map(|(i, busy)| (devices.nets.get(i).map(|n| n.0.clone()), busy));
    let device = [disk, net]
        .into_iter()
        .flatten()
        .filter(|(_, busy)| *busy >= SATURATED)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(name, busy)| (busy, name.unwrap_or_default()));
    [
        (state.others_cores >= BUSY_CORES).then_some((state.others_cores, String::new())),
        (state.steal >= STEAL_SHARE).then_some((state.steal, String::new())),
        (state.throttled > 0.0).then_some((state.throttled, String::new())),
        device,
    ]
}

/// The check of state `k` ([`MARKS`]' order) that touched `t.rounds` of `seen` rounds.
fn state_check(k: usize, t: &Tally, seen: usize) -> CheckDoc {
    let mean = t.sum / t.rounds as f64;
    let figures = serde_json::json!({
        "rounds": t.rounds,
        "of_rounds": seen,
        "mean": figure(mean),
        "peak": figure(t.peak),
    });
    let during = format!("during {} of {} rounds", t.rounds, seen);
    let (kind, message) = match k {
        0 => (
            Kind::BusyMachine,
            format!(
                "the machine was busy with other processes {during}: they kept {mean:.2} \
                 cores busy on average (peak {:.2}); the bench shared its cores and caches \
                 with them, so its times are slower and noisier than on a quiet machine; \
                 stop the other work, or compare alternatives in a group (interleaved)",
                t.peak
            ),
        ),
        1 => (
            Kind::CpuSteal,
            format!(
                "the hypervisor took {:.1}% of the CPU time (peak {:.1}%) {during}: the \
                 virtual machine's neighbours ran on its cores; its times change with their \
                 load",
                100.0 * mean,
                100.0 * t.peak
            ),
        ),
        2 => (
            Kind::Throttled,
            format!(
                "the process's cgroup was throttled for {:.1}% of the time (peak {:.1}%) \
                 {during}: its CPU quota ran out, and the bench waited; raise the container's \
                 CPU limit or give the bench fewer threads",
                100.0 * mean,
                100.0 * t.peak
            ),
        ),
        _ => (
            Kind::SaturatedDevice,
            format!(
                "`{}` was at least 80% busy (peak {:.0}%) {during}: a device the bench does \
                 not measure was its bottleneck, or another process's",
                t.what,
                100.0 * t.peak
            ),
        ),
    };
    let mut c = check(kind, message, figures);
    if k == 3 {
        c.figures
            .insert("device".into(), serde_json::Value::String(t.what.clone()));
    }
    c
}

/// The marks of [`judge`]'s four states, in its order.
const MARKS: [&str; 4] = ["busy_machine", "cpu_steal", "throttled", "saturated_device"];

/// The mark named `name` (as a round document writes it).
pub(crate) fn mark(name: &str) -> Option<&'static str> {
    MARKS.iter().copied().find(|m| *m == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_lines_are_parsed() {
        let stat = "1234 (my (odd) name) R 1 2 3 4 5 6 7 8 9 10 150 25 0 0 20 0 3";
        assert_eq!(own_jiffies(stat), Some(175));
        assert_eq!(
            throttled_us("nr_periods 5\nnr_throttled 2\nthrottled_usec 1500\n"),
            Some(1500)
        );
        assert_eq!(
            throttled_us("nr_throttled 2\nthrottled_time 7000000\n"),
            Some(7000)
        );
        let psi = "some avg10=0.08 avg60=0.08 avg300=1.92 total=608865857\nfull total=0\n";
        assert_eq!(pressure_total(psi), Some(608_865_857));
        let disks = "   7       0 loop0 5 0 0 0 0 0 0 0 0 9 0 0 0\n 253       0 vda 100 0 0 0 0 0 0 0 0 4000 0\n 253       1 vda1 90 0 0 0 0 0 0 0 0 3900 0\n";
        assert_eq!(disk_ticks(disks).collect::<Vec<_>>(), [("vda", 4000)]);
        let net = "Inter-|\n face |\n    lo: 10 1 0 0 0 0 0 0 10 1 0 0 0 0 0 0\n  eth0: 1000 3 0 0 0 0 0 0 200 2 0 0 0 0 0 0\n";
        assert_eq!(net_bytes(net).collect::<Vec<_>>(), [("eth0", 1200)]);
        let cpu = "cpu  100 5 30 800 20 1 2 3 0 0\ncpu0 50 0 15 400 10 0 1 1 0 0\n";
        assert_eq!(cpu_counters(cpu), Some([100, 5, 30, 800, 20, 1, 2, 3]));
    }

    fn sample(at_ms: u64, total: u64, idle: u64, steal: u64, own: u64) -> Sample {
        Sample {
            at: Duration::from_millis(at_ms),
            total,
            idle,
            steal,
            own,
            ..Sample::default()
        }
    }

    #[test]
    fn others_are_the_busy_cores_less_this_process() {
        // 2 cores, 100 ticks/s, 0.1 s: 20 jiffies in all; 4 idle, none stolen: 1.6 cores busy,
        // 8 of them this process's (0.8 cores): others 0.8 cores.
        let none = Devices::default();
        let i = interval(
            &sample(0, 0, 0, 0, 0),
            &sample(100, 20, 4, 0, 8),
            &none,
            2.0,
            100.0,
        );
        assert!((i.others_cores - 0.8).abs() < 1e-9, "{i:?}");
        assert!((i.own_cores - 0.8).abs() < 1e-9);
        // A tenth stolen: busy is what is left after idle and steal.
        let i = interval(
            &sample(0, 0, 0, 0, 0),
            &sample(100, 20, 8, 2, 10),
            &none,
            2.0,
            100.0,
        );
        assert!((i.steal - 0.1).abs() < 1e-9);
        assert!(i.others_cores.abs() < 1e-9, "{i:?}");
    }

    #[test]
    fn rounds_in_busy_intervals_are_marked_and_make_a_check() {
        let ms = Duration::from_millis;
        let busy = |from: u64, others: f64| Interval {
            from: Duration::from_millis(from),
            to: Duration::from_millis(from + 100),
            others_cores: others,
            ..Interval::default()
        };
        let intervals: Vec<Interval> = (0..10)
            .map(|i| busy(100 * i, if i < 5 { 0.0 } else { 1.3 }))
            .collect();
        // Rounds of 90 ms, each ending 95 ms into a 100 ms interval.
        let windows: Vec<(Duration, Duration)> = (0..10)
            .map(|i| (ms(100 * i + 5), ms(100 * i + 95)))
            .collect();
        let (rounds, checks) = judge(&intervals, &Devices::default(), &windows, None);
        assert_eq!(checks.len(), 1);
        assert_eq!(checks[0].kind, "busy_machine");
        assert_eq!(checks[0].figures["rounds"], 5);
        assert!((checks[0].figures["mean"].as_f64().unwrap() - 1.3).abs() < 1e-9);
        assert!(rounds[..5].iter().all(|r| r.marks.is_empty()));
        assert!(rounds[5..].iter().all(|r| r.marks == ["busy_machine"]));
        // Each round records the state it ran in: 90 ms inside one 100 ms interval.
        assert_eq!(rounds[7].machine.as_ref().unwrap().others_cores, 1.3);
        assert_eq!(rounds[2].machine.as_ref().unwrap().others_cores, 0.0);
        // Two busy rounds in twenty are marked, but they are no check of the session.
        let one: Vec<Interval> = (0..10)
            .map(|i| busy(100 * i, if i == 3 { 2.0 } else { 0.0 }))
            .collect();
        let twenty: Vec<(Duration, Duration)> =
            (0..20).map(|i| (ms(50 * i + 5), ms(50 * i + 45))).collect();
        let (twenty, checks) = judge(&one, &Devices::default(), &twenty, None);
        assert!(checks.is_empty(), "{checks:?}");
        assert_eq!(twenty.iter().filter(|r| !r.marks.is_empty()).count(), 2);
    }
}
