//! The machine's state over an interval between two samples, and over a round (the intervals
//! it overlapped).

use std::time::Duration;

use super::counters::{Devices, Sample};

/// The state of the machine over an interval between two samples, or over a round (the
/// intervals it overlapped).
///
/// A round's state travels in a bench's child process's message to its parent, which judges
/// every process's rounds together on their CPU states (see `judge_marked`): the interval's
/// bounds, the clock tick's size and the devices' figures stay behind, since they are this
/// process's own (a device is an index into its sampler's list).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Interval {
    #[serde(skip)]
    pub(crate) from: Duration,
    #[serde(skip)]
    pub(crate) to: Duration,
    /// Cores kept busy by other processes. Over one interval between samples it may be
    /// below zero (the kernel's counts are rounded to clock ticks); over a round it is not.
    pub(crate) others_cores: f64,
    /// Cores this process kept busy.
    pub(crate) own_cores: f64,
    /// Share of the machine's CPU time stolen by the hypervisor, and waiting for I/O.
    pub(crate) steal: f64,
    pub(crate) iowait: f64,
    /// Share of the interval this cgroup was throttled.
    pub(crate) throttled: f64,
    /// Share of the interval some task waited for a CPU (`/proc/pressure/cpu`).
    pub(crate) cpu_pressure: Option<f64>,
    /// The cores one clock tick makes over the interval, `1 / (ticks per second · seconds)`:
    /// what /proc/stat's counts, whole ticks, can be off by with each read (0 where not known).
    #[serde(skip)]
    pub(crate) tick_cores: f64,
    /// The busiest block device (index in [`Devices::disks`]) and its busy share.
    #[serde(skip)]
    pub(crate) disk: Option<(usize, f64)>,
    /// The busiest network link with a known speed (index in [`Devices::nets`]) and its
    /// utilisation.
    #[serde(skip)]
    pub(crate) net: Option<(usize, f64)>,
    /// Bytes this process read from or wrote to block devices over the interval; `None` where
    /// `/proc/self/io` could not be read.
    #[serde(skip)]
    pub(crate) own_disk_bytes: Option<f64>,
    /// Bytes this process passed through read and write calls over the interval, less the
    /// sampler's own reads (sockets among them); `None` where `/proc/self/io` could not be
    /// read.
    #[serde(skip)]
    pub(crate) own_io_bytes: Option<f64>,
}

/// The state over the interval between samples `a` and `b`, on a machine of `cores` cores
/// whose kernel counts `ticks` clock ticks a second.
/// Other processes' cores are the busy cores less this process's, not rounded up to zero: the
/// kernel's counts are in clock ticks, so over a short interval they are off by a tick either
/// way, and only their average over a longer span (see [`state_of`]) is near the truth.
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
    let own_cores = b.own_ns.saturating_sub(a.own_ns) as f64 / 1e9 / seconds;
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
    let (own_disk_bytes, own_io_bytes) = match (a.own_io, b.own_io) {
        (Some(x), Some(y)) => {
            let sampler = b.sampler_bytes.saturating_sub(a.sampler_bytes);
            (
                Some(y.block_bytes.saturating_sub(x.block_bytes) as f64),
                Some(
                    y.syscall_bytes
                        .saturating_sub(x.syscall_bytes)
                        .saturating_sub(sampler) as f64,
                ),
            )
        }
        _ => (None, None),
    };
    Interval {
        from: a.at,
        to: b.at,
        others_cores: busy_cores - own_cores,
        own_cores,
        steal,
        iowait: share(a.iowait, b.iowait),
        throttled: micro(a.throttled_us, b.throttled_us)
            .unwrap_or(0.0)
            .min(1.0),
        cpu_pressure: micro(a.cpu_pressure_us, b.cpu_pressure_us).map(|p| p.min(1.0)),
        tick_cores: 1.0 / ticks / seconds,
        disk,
        net,
        own_disk_bytes,
        own_io_bytes,
    }
}

/// The state over a round from `from` to `to`: the intervals it overlaps, each weighed by the
/// overlap (a round inside one interval gets that interval's figures); the busiest device of
/// any of them, and this process's own I/O over all of them (the device's busy share and the
/// process's I/O are then of the same span).
pub(super) fn state_of(intervals: &[Interval], from: Duration, to: Duration) -> Option<Interval> {
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
            if let Some((device, busy)) = theirs
                && mine.is_none_or(|(_, b)| b < busy)
            {
                *mine = Some((device, busy));
            }
        }
        for (mine, theirs) in [
            (&mut s.own_disk_bytes, i.own_disk_bytes),
            (&mut s.own_io_bytes, i.own_io_bytes),
        ] {
            if let Some(bytes) = theirs {
                *mine = Some(mine.unwrap_or(0.0) + bytes);
            }
        }
    }
    (weight > 0.0).then(|| Interval {
        others_cores: (s.others_cores / weight).max(0.0),
        own_cores: s.own_cores / weight,
        steal: s.steal / weight,
        iowait: s.iowait / weight,
        throttled: s.throttled / weight,
        cpu_pressure: s.cpu_pressure.map(|p| p / weight),
        ..s
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(at_ms: u64, total: u64, idle: u64, steal: u64, own_ms: u64) -> Sample {
        Sample {
            at: Duration::from_millis(at_ms),
            total,
            idle,
            steal,
            own_ns: own_ms * 1_000_000,
            ..Sample::default()
        }
    }

    #[test]
    fn others_are_the_busy_cores_less_this_process() {
        // 2 cores, 100 ticks/s, 0.1 s: 20 jiffies in all; 4 idle, none stolen: 1.6 cores busy,
        // 80 ms of them this process's (0.8 cores): others 0.8 cores.
        let none = Devices::default();
        let i = interval(
            &sample(0, 0, 0, 0, 0),
            &sample(100, 20, 4, 0, 80),
            &none,
            2.0,
            100.0,
        );
        assert!((i.others_cores - 0.8).abs() < 1e-9, "{i:?}");
        assert!((i.own_cores - 0.8).abs() < 1e-9);
        // A tenth stolen: busy is what is left after idle and steal.
        let i = interval(
            &sample(0, 0, 0, 0, 0),
            &sample(100, 20, 8, 2, 100),
            &none,
            2.0,
            100.0,
        );
        assert!((i.steal - 0.1).abs() < 1e-9);
        assert!(i.others_cores.abs() < 1e-9, "{i:?}");
        // The busy cores' count a tick short of this process's time: below zero over this
        // interval, which a round's average over a longer span evens out.
        let i = interval(
            &sample(0, 0, 0, 0, 0),
            &sample(20, 4, 3, 0, 20),
            &none,
            2.0,
            100.0,
        );
        assert!((i.others_cores + 0.5).abs() < 1e-9, "{i:?}");
        // One tick of 100 a second over 20 ms: half a core.
        assert!((i.tick_cores - 0.5).abs() < 1e-9);
    }
}
