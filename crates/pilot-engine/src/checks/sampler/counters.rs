//! The kernel's cumulative counters the sampler reads: /proc/stat, this process's CPU time,
//! its cgroup's throttling, CPU pressure, and each block device and network link, read into
//! buffers kept from the start.

use std::time::Duration;

/// The kernel's cumulative counters at one moment. Device counters are in the order of the
/// sampler's [`Devices`], so a sample is read into the same buffers every time: the sampler
/// allocates nothing after its start (the leak check weighs the heap).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Sample {
    pub(crate) at: Duration,
    /// /proc/stat's aggregate jiffies: total, idle + iowait, iowait, steal.
    pub(crate) total: u64,
    pub(crate) idle: u64,
    pub(crate) iowait: u64,
    pub(crate) steal: u64,
    /// This process's CPU time (every thread's, user and system), ns.
    pub(crate) own_ns: u64,
    /// cgroup CPU throttling so far, microseconds.
    pub(crate) throttled_us: Option<u64>,
    /// Pressure stall: some task waiting for a CPU, microseconds so far.
    pub(crate) cpu_pressure_us: Option<u64>,
    /// Milliseconds each block device has been busy (`io_ticks`).
    pub(crate) disks: Vec<u64>,
    /// Bytes received + sent by each network interface.
    pub(crate) nets: Vec<u64>,
    /// This process's own I/O so far (`/proc/self/io`), where it can be read.
    pub(crate) own_io: Option<OwnIo>,
    /// Bytes the sampler itself has read so far (the counters' files): part of
    /// [`OwnIo::syscall_bytes`] that is pilot's, not the bench's.
    pub(crate) sampler_bytes: u64,
}

/// A process's I/O so far, from `/proc/self/io`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct OwnIo {
    /// Bytes it had read from or written to block devices (`read_bytes + write_bytes`): the
    /// disk I/O it caused, not what a page cache served.
    pub(crate) block_bytes: u64,
    /// Bytes it passed through read and write calls of any kind (`rchar + wchar`): files,
    /// sockets, pipes and terminals, the sampler's own reads of /proc included.
    pub(crate) syscall_bytes: u64,
}

/// The block devices and network links a sampler watches, found at its start.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Devices {
    pub(crate) disks: Vec<String>,
    /// Interface names and link speeds in Mb/s where sysfs has them.
    pub(crate) nets: Vec<(String, Option<u64>)>,
    /// This process's cgroup's cpu.stat.
    pub(crate) cgroup_cpu_stat: Option<String>,
}

/// Reads a small file into `buf` (cleared first), without allocating once `buf` is large
/// enough.
fn read_into(path: &str, buf: &mut String) -> Option<()> {
    use std::io::Read;
    buf.clear();
    std::fs::File::open(path).ok()?.read_to_string(buf).ok()?;
    Some(())
}

/// [`read_into`], adding the bytes read to `counted` (the sampler's own share of this
/// process's I/O).
fn read_counted(path: &str, buf: &mut String, counted: &mut u64) -> Option<()> {
    let read = read_into(path, buf);
    *counted += buf.len() as u64;
    read
}

/// Reads one sample into `out` (`buf` is scratch), `None` where /proc/stat cannot be read.
/// `counted` is what the sampler has read so far, over every sample: this sample's reads are
/// added to it, and the total is the sample's [`Sample::sampler_bytes`].
pub(crate) fn read_sample(
    at: Duration,
    devices: &Devices,
    buf: &mut String,
    out: &mut Sample,
    counted: &mut u64,
) -> Option<()> {
    read_counted("/proc/stat", buf, counted)?;
    let v = cpu_counters(buf)?;
    out.at = at;
    out.total = v.iter().sum();
    out.idle = v[3] + v[4];
    out.iowait = v[4];
    out.steal = v[7];
    out.own_ns = own_cpu_ns();
    out.throttled_us = devices
        .cgroup_cpu_stat
        .as_deref()
        .and_then(|p| read_counted(p, buf, counted))
        .and_then(|_| throttled_us(buf));
    out.cpu_pressure_us =
        read_counted("/proc/pressure/cpu", buf, counted).and_then(|_| pressure_total(buf));
    out.disks.resize(devices.disks.len(), 0);
    if read_counted("/proc/diskstats", buf, counted).is_some() {
        for (name, ticks) in disk_ticks(buf) {
            if let Some(i) = devices.disks.iter().position(|d| d == name) {
                out.disks[i] = ticks;
            }
        }
    }
    out.nets.resize(devices.nets.len(), 0);
    if read_counted("/proc/net/dev", buf, counted).is_some() {
        for (name, bytes) in net_bytes(buf) {
            if let Some(i) = devices.nets.iter().position(|(n, _)| n == name) {
                out.nets[i] = bytes;
            }
        }
    }
    // Last, so that every read of this sample is in its `rchar`.
    out.own_io = read_counted("/proc/self/io", buf, counted).and_then(|_| own_io(buf));
    out.sampler_bytes = *counted;
    Some(())
}

/// A process's I/O counters (`/proc/PID/io`): its block I/O and its bytes through read and
/// write calls.
fn own_io(text: &str) -> Option<OwnIo> {
    let field = |name: &str| -> Option<u64> {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(':'))?
            .trim()
            .parse()
            .ok()
    };
    Some(OwnIo {
        block_bytes: field("read_bytes")? + field("write_bytes")?,
        syscall_bytes: field("rchar")? + field("wchar")?,
    })
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

/// This process's CPU time so far, ns (`CLOCK_PROCESS_CPUTIME_ID`: every thread's, to the
/// nanosecond); 0 where it cannot be read. /proc/self/stat has it in clock ticks (10 ms), and
/// utime and stime each rounded down: over the sampler's 20 ms a tick either way is half a
/// core, which the busy cores less this process's showed as other processes' load.
fn own_cpu_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to write.
    if unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) } != 0 {
        return 0;
    }
    (t.tv_sec as u64)
        .saturating_mul(1_000_000_000)
        .saturating_add(t.tv_nsec as u64)
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
pub(super) fn devices() -> Devices {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sample_counts_what_the_sampler_read_so_far() {
        // Samples are read into two buffers in turn: each one's count is the sampler's whole
        // reading so far, not what was left in the buffer from two samples back.
        let devices = devices();
        let mut buf = String::new();
        let (mut a, mut b) = (Sample::default(), Sample::default());
        let mut counted = 0;
        if read_sample(Duration::ZERO, &devices, &mut buf, &mut a, &mut counted).is_none() {
            return; // no /proc/stat: not Linux
        }
        let first = a.sampler_bytes;
        assert!(first > 0 && first == counted);
        read_sample(Duration::ZERO, &devices, &mut buf, &mut b, &mut counted).unwrap();
        std::mem::swap(&mut a, &mut b);
        read_sample(Duration::ZERO, &devices, &mut buf, &mut b, &mut counted).unwrap();
        // `a` holds the second sample, `b` (the first's buffer) the third.
        assert!(a.sampler_bytes > first);
        assert!(b.sampler_bytes > a.sampler_bytes);
        assert_eq!(b.sampler_bytes, counted);
        assert!(
            b.sampler_bytes - a.sampler_bytes < 2 * first,
            "one sample's reads"
        );
    }

    #[test]
    fn proc_lines_are_parsed() {
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
        let io = "rchar: 6976\nwchar: 24\nsyscr: 10\nsyscw: 1\nread_bytes: 4096\n\
                  write_bytes: 8192\ncancelled_write_bytes: 0\n";
        assert_eq!(
            own_io(io),
            Some(OwnIo {
                block_bytes: 12_288,
                syscall_bytes: 7000
            })
        );
        assert_eq!(own_io("rchar: 1\n"), None);
        let cpu = "cpu  100 5 30 800 20 1 2 3 0 0\ncpu0 50 0 15 400 10 0 1 1 0 0\n";
        assert_eq!(cpu_counters(cpu), Some([100, 5, 30, 800, 20, 1, 2, 3]));
    }

    #[test]
    fn this_process_cpu_time_moves_by_the_work_between_two_reads() {
        // Two reads in a row differ by what one read costs (microseconds), not by a clock
        // tick (10 ms) as /proc/self/stat's counts do; a time stuck at 0 never moves.
        let started = std::time::Instant::now();
        let first = own_cpu_ns();
        loop {
            let now = own_cpu_ns();
            if now != first {
                assert!(now - first < 1_000_000, "a step of {} ns", now - first);
                break;
            }
            assert!(started.elapsed().as_secs() < 10, "the CPU time never moved");
        }
    }
}
