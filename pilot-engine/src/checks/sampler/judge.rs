//! The rounds judged by the state they ran in: each round's marks, and the checks of the
//! states that touched enough of them (a busy machine, CPU steal, throttling, a saturated
//! device).

use std::time::Duration;

use super::counters::Devices;
use super::interval::{Interval, state_of};
use crate::checks::{Kind, check, figure};
use crate::schema::CheckDoc;

/// Cores other processes must keep busy, on average over a round, for it to be marked busy.
const BUSY_CORES: f64 = 0.25;
/// Share of the CPU time stolen by the hypervisor for a round to be marked.
const STEAL_SHARE: f64 = 0.05;
/// A device at least this busy is saturated (the paper's threshold).
const SATURATED: f64 = 0.8;
/// Bytes through read and write calls a process must move in a round, beyond the sampler's
/// own reads, for a saturated network link to be its concern: what is left of pilot's own
/// reads between rounds (the memory read, the rounding of the sampler's count) stays far
/// below it, and a bench whose traffic a busy link could slow moves more.
const OWN_IO_BYTES: f64 = 4096.0;
/// Share of rounds a state must touch before it is a check of the session: a blip of a few
/// rounds is marked in them, but says little about the result.
const ROUND_SHARE: f64 = 0.25;

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
///
/// A saturated device is a finding only for a round in which the bench itself used that kind
/// of device: a disk when the process read or wrote blocks, a network link when it moved
/// bytes through read and write calls beyond the sampler's own. A device kept busy by another
/// process does not hold up a bench that does not wait on it (a CPU-bound bench beside a
/// build); what the other process takes of the cores is the busy-machine state's to say.
/// Where the process's I/O cannot be read, a saturated device counts as before.
fn findings(
    state: &Interval,
    devices: &Devices,
    bottleneck: Option<&str>,
) -> [Option<(f64, String)>; 4] {
    // The device the bench declares as its bottleneck is meant to be busy.
    let disk = state
        .disk
        .filter(|_| bottleneck != Some("disk"))
        .filter(|_| state.own_disk_bytes.is_none_or(|b| b > 0.0))
        .map(|(i, busy)| (devices.disks.get(i).cloned(), busy));
    let net = state
        .net
        .filter(|_| bottleneck != Some("network"))
        .filter(|_| state.own_io_bytes.is_none_or(|b| b >= OWN_IO_BYTES))
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
                 with them, so its times are slower and noisier than on a quiet machine",
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
                 {during}: its CPU quota ran out, and the bench waited",
                100.0 * mean,
                100.0 * t.peak
            ),
        ),
        _ => (
            Kind::SaturatedDevice,
            format!(
                "`{}` was at least 80% busy while the bench used it (peak {:.0}%) {during}: \
                 its I/O waited on a device it does not declare, loaded by the bench or by \
                 another process",
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

    use super::super::counters::{OwnIo, Sample};
    use super::super::interval::interval;

    /// Ten samples 100 ms apart on a machine whose disk `vda` is busy the whole time and whose
    /// link `eth0` (100 Mb/s) is 90% busy, both kept so by another process; this process
    /// moves `block` bytes of disk I/O and `syscall` bytes through read and write calls (the
    /// sampler's own reads besides) between samples, and the sampler reads 2 KiB each time.
    fn busy_devices(block: u64, syscall: u64, io_readable: bool) -> Vec<Interval> {
        let devices = devices();
        let samples: Vec<Sample> = (0..10u64)
            .map(|i| Sample {
                at: Duration::from_millis(100 * i),
                total: 20 * i,
                idle: 10 * i,
                disks: vec![100 * i],
                nets: vec![1_125_000 * i],
                own_io: io_readable.then_some(OwnIo {
                    block_bytes: block * i,
                    syscall_bytes: (syscall + 2048) * i,
                }),
                sampler_bytes: 2048 * i,
                ..Sample::default()
            })
            .collect();
        samples
            .windows(2)
            .map(|w| interval(&w[0], &w[1], &devices, 2.0, 100.0))
            .collect()
    }

    fn devices() -> Devices {
        Devices {
            disks: vec!["vda".into()],
            nets: vec![("eth0".into(), Some(100))],
            cgroup_cpu_stat: None,
        }
    }

    /// The saturated-device check of rounds 10 ms into each interval, and the marked rounds.
    fn device_check(intervals: &[Interval], bottleneck: Option<&str>) -> (Option<CheckDoc>, usize) {
        let ms = Duration::from_millis;
        let windows: Vec<(Duration, Duration)> = (0..9)
            .map(|i| (ms(100 * i + 10), ms(100 * i + 90)))
            .collect();
        let (rounds, checks) = judge(intervals, &devices(), &windows, bottleneck);
        let marked = rounds
            .iter()
            .filter(|r| r.marks.contains(&"saturated_device"))
            .count();
        let check = checks.into_iter().find(|c| c.kind == "saturated_device");
        (check, marked)
    }

    #[test]
    fn a_device_another_process_keeps_busy_is_no_finding_for_a_bench_that_does_not_use_it() {
        // A CPU-only bench: no disk I/O of its own, and no bytes through read and write calls
        // but the sampler's.
        let cpu_only = busy_devices(0, 0, true);
        assert!(cpu_only.iter().all(|i| i.disk == Some((0, 1.0))));
        assert_eq!(cpu_only[3].own_disk_bytes, Some(0.0));
        assert_eq!(cpu_only[3].own_io_bytes, Some(0.0));
        assert_eq!(device_check(&cpu_only, None), (None, 0));
        // A bench that writes to the saturated disk: the disk is its bottleneck.
        let (check, marked) = device_check(&busy_devices(64 << 10, 64 << 10, true), None);
        let check = check.expect("a saturated disk the bench writes to");
        assert_eq!(check.figures["device"], "vda");
        assert_eq!(marked, 9);
        // Unless it declares the disk as what it measures.
        let (check, _) = device_check(&busy_devices(64 << 10, 64 << 10, true), Some("disk"));
        assert_eq!(check.unwrap().figures["device"], "eth0");
        // A bench that talks over the saturated link but keeps off the disk.
        let (check, _) = device_check(&busy_devices(0, 64 << 10, true), None);
        assert_eq!(check.unwrap().figures["device"], "eth0");
        // Where this process's I/O cannot be read, a saturated device counts as before.
        let (check, marked) = device_check(&busy_devices(0, 0, false), None);
        assert_eq!(check.unwrap().figures["device"], "vda");
        assert_eq!(marked, 9);
    }
}
