//! The rounds judged by the state they ran in: each round's marks, and the checks of the
//! states that touched enough of them (a busy machine, CPU steal, throttling, a saturated
//! device).

use std::time::Duration;

use super::counters::Devices;
use super::interval::{Interval, state_of};
use crate::checks::{Kind, check, figure};
use pilot_format::CheckDoc;

/// Cores other processes must keep busy, on average over a round, for it to be marked busy
/// (beyond the kernel's counts' rounding).
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
/// Share of the sampled rounds' time a state must touch before it is a check of the session:
/// a blip of a few rounds is marked in them, but says little about the result. Time, not a
/// count of rounds: the first rounds of a session are short, and a dozen of them fit in one
/// interval between samples, so by count one sample would decide.
const ROUND_SHARE: f64 = 0.25;

/// What the sampler saw during one round: the machine's state (when a sample covered the
/// round) and the marks of the states that touched it.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct RoundState {
    /// The machine's state over the round, when it was sampled.
    pub(crate) machine: Option<Interval>,
    /// The marks of the states that touched the round ([`MARKS`]).
    pub(crate) marks: Vec<&'static str>,
}

/// Gives each round (its window `(from, to)`, timed from the sampler's start) the state it ran
/// in, and returns the session's checks: a state becomes a check when the rounds it touched
/// took at least a quarter of the sampled rounds' time, with its figures over those rounds,
/// weighed by their time. Other processes touch a round when they kept at least
/// [`BUSY_CORES`] busy beyond what the kernel's counts, in clock ticks, can be off by over the
/// samples around it (see [`Interval::tick_cores`]): two ticks, half a core over 40 ms of a
/// two-core machine, a twentieth over 0.4 s. A saturated device of the kind the bench declares
/// as its `bottleneck` (`disk` or `network`) is no finding. Time: O(rounds · intervals).
pub(crate) fn judge(
    intervals: &[Interval],
    devices: &Devices,
    windows: &[(Duration, Duration)],
    bottleneck: Option<&str>,
) -> (Vec<RoundState>, Vec<CheckDoc>) {
    let mut tallies: [Tally; 4] = Default::default();
    let (mut seen, mut seen_time) = (0, 0.0);
    let mut states = Vec::with_capacity(windows.len());
    for &(from, to) in windows {
        let Some(state) = state_of(intervals, from, to) else {
            states.push(RoundState::default());
            continue;
        };
        // A round shorter than the period still counts a little.
        let time = to.saturating_sub(from).as_secs_f64().max(1e-9);
        seen += 1;
        seen_time += time;
        let mut marks = Vec::new();
        let rounding = 2.0 * tick_cores(intervals, from, to);
        for (k, f) in findings(&state, rounding, devices, bottleneck)
            .into_iter()
            .enumerate()
        {
            if let Some((value, what)) = f {
                tallies[k].add(value, what, time);
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
        .filter(|(_, t)| t.rounds > 0 && t.time >= ROUND_SHARE * seen_time)
        .map(|(k, t)| state_check(k, t, (seen, seen_time)))
        .collect();
    (states, checks)
}

/// The checks of the machine's CPU over rounds each judged already (marked) by the process
/// that ran it: the rounds of a bench's processes, each given as its time, marks and state.
/// As in [`judge`], a state is a check when the rounds it marked took at least a quarter of
/// the sampled rounds' time, with its figures over those rounds: a neighbour busy for most of
/// one process in eight is no finding of the bench (that process's estimate is one of eight,
/// and the combination names a process far from the rest). A saturated device is left to the
/// processes' own checks: a round's record keeps no device's figures. Time: O(rounds).
pub(crate) fn judge_marked<'a>(
    rounds: impl IntoIterator<Item = (Duration, &'a [&'static str], Option<&'a Interval>)>,
) -> Vec<CheckDoc> {
    let mut tallies: [Tally; 3] = Default::default();
    let (mut seen, mut seen_time) = (0, 0.0);
    for (duration, marks, state) in rounds {
        let Some(state) = state else { continue };
        let time = duration.as_secs_f64().max(1e-9);
        seen += 1;
        seen_time += time;
        let figures = [state.others_cores, state.steal, state.throttled];
        for (k, (tally, value)) in tallies.iter_mut().zip(figures).enumerate() {
            if marks.contains(&MARKS[k]) {
                tally.add(value, String::new(), time);
            }
        }
    }
    (tallies.iter().enumerate())
        .filter(|(_, t)| t.rounds > 0 && t.time >= ROUND_SHARE * seen_time)
        .map(|(k, t)| state_check(k, t, (seen, seen_time)))
        .collect()
}

/// The kinds of the checks [`judge_marked`] makes.
pub(crate) const MARKED_KINDS: [&str; 3] = [MARKS[0], MARKS[1], MARKS[2]];

/// The cores one clock tick of the kernel's counts makes over the samples around the round
/// `from..to` (the intervals it overlaps): the counts are cumulative, so over several
/// intervals a tick is one tick of their whole span.
fn tick_cores(intervals: &[Interval], from: Duration, to: Duration) -> f64 {
    let ticks_spanned: f64 = (intervals.iter())
        .filter(|i| i.to > from && i.from < to && i.tick_cores > 0.0)
        .map(|i| 1.0 / i.tick_cores)
        .sum();
    if ticks_spanned > 0.0 {
        1.0 / ticks_spanned
    } else {
        0.0
    }
}

/// The rounds one state touched, with their time, the time-weighted sum and the peak of its
/// figure.
#[derive(Default)]
struct Tally {
    rounds: usize,
    /// Seconds.
    time: f64,
    /// The figure times each round's seconds.
    sum: f64,
    peak: f64,
    /// The device at the peak (saturated devices only).
    what: String,
}

impl Tally {
    fn add(&mut self, value: f64, what: String, time: f64) {
        self.rounds += 1;
        self.time += time;
        self.sum += value * time;
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
/// Where the process's I/O cannot be read, a saturated device counts as before. Other
/// processes' cores must pass [`BUSY_CORES`] by `rounding`, what the kernel's counts can be
/// off by around the round.
fn findings(
    state: &Interval,
    rounding: f64,
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
        (state.others_cores - rounding >= BUSY_CORES)
            .then_some((state.others_cores, String::new())),
        (state.steal >= STEAL_SHARE).then_some((state.steal, String::new())),
        (state.throttled > 0.0).then_some((state.throttled, String::new())),
        device,
    ]
}

/// The check of state `k` ([`MARKS`]' order) that touched `t.rounds` of `seen` rounds, which
/// took `seen_time` seconds.
fn state_check(k: usize, t: &Tally, (seen, seen_time): (usize, f64)) -> CheckDoc {
    // Every round weighs at least a nanosecond (see `judge`): neither time is zero.
    let mean = t.sum / t.time;
    let share = (t.time / seen_time).min(1.0);
    let figures = serde_json::json!({
        "rounds": t.rounds,
        "of_rounds": seen,
        "share": figure(share),
        "mean": figure(mean),
        "peak": figure(t.peak),
    });
    let during = format!(
        "during {} of {} rounds ({:.0}% of their time)",
        t.rounds,
        seen,
        100.0 * share
    );
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

/// A round's marks as a bench's child process's message carries them to its parent (serde's
/// `with` for `RoundRecord::marks`): by name, read back to the marks they name.
pub(crate) mod marks {
    use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error};

    pub(crate) fn serialize<S: Serializer>(
        marks: &[&'static str],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        marks.serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<&'static str>, D::Error> {
        let names = Vec::<String>::deserialize(d)?;
        (names.iter())
            .map(|n| super::mark(n).ok_or_else(|| D::Error::custom(format!("no mark `{n}`"))))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::counters::Sample;
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

    use super::super::counters::OwnIo;
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

    #[test]
    fn a_benchs_processes_are_judged_over_all_their_rounds() {
        // Eight processes of twelve 50 ms rounds; a neighbour on a core during the first
        // `busy` of them, whose rounds their processes marked.
        let rounds = |busy: usize| -> Vec<(Duration, Vec<&'static str>, Interval)> {
            (0..8 * 12)
                .map(|i| {
                    let on = i / 12 < busy;
                    let state = Interval {
                        others_cores: if on { 1.0 } else { 0.02 },
                        ..Interval::default()
                    };
                    let marks = if on { vec!["busy_machine"] } else { vec![] };
                    (Duration::from_millis(50), marks, state)
                })
                .collect()
        };
        let judged = |r: &[(Duration, Vec<&'static str>, Interval)]| {
            judge_marked(r.iter().map(|(d, m, s)| (*d, m.as_slice(), Some(s))))
        };
        // One process of eight: an eighth of the bench's time, no finding of the bench.
        assert!(judged(&rounds(1)).is_empty());
        // Three of eight: over a quarter of it.
        let checks = judged(&rounds(3));
        assert_eq!(checks.len(), 1, "{checks:?}");
        assert_eq!(checks[0].kind, "busy_machine");
        assert_eq!(checks[0].figures["rounds"], 36);
        assert_eq!(checks[0].figures["of_rounds"], 96);
        assert_eq!(checks[0].figures["mean"].as_f64(), Some(1.0));
        assert_eq!(checks[0].figures["share"].as_f64(), Some(0.375));
        assert!(
            checks[0]
                .message
                .contains("during 36 of 96 rounds (38% of their time)")
        );
        // Rounds without a sampled state (no /proc) are not counted.
        assert!(judge_marked([(Duration::from_millis(50), &[][..], None)]).is_empty());
    }

    /// A two-core machine whose kernel counts 100 ticks a second, running a bench on one core
    /// from time 0 while other processes keep `others(ms)` cores busy; its session's rounds
    /// last `rounds` (ms). Returns the samples' intervals, as the sampler reads them between
    /// rounds (every 20 ms at most), and the rounds' windows.
    ///
    /// /proc/stat's counts are the cores' nanoseconds summed and rounded down to whole ticks;
    /// `phase` is where within a tick each count (busy, idle) stood at time 0. This process's
    /// CPU time is exact.
    fn machine(
        others: impl Fn(f64) -> f64,
        rounds: &[f64],
        phase: (f64, f64),
    ) -> (Vec<Interval>, Vec<(Duration, Duration)>) {
        const TICK_MS: f64 = 10.0;
        let (mut others_ms, mut at) = (0.0, 0.0);
        let sample = |at: f64, others_ms: f64| {
            let busy = (phase.0 + (at + others_ms) / TICK_MS).floor() as u64;
            let idle = (phase.1 + (2.0 * at - at - others_ms) / TICK_MS).floor() as u64;
            Sample {
                at: Duration::from_secs_f64(at / 1e3),
                total: busy + idle,
                idle,
                own_ns: (at * 1e6) as u64,
                ..Sample::default()
            }
        };
        let mut samples = vec![sample(0.0, 0.0)];
        let mut windows = Vec::new();
        for &ms in rounds {
            // Others' time over the round, in steps of a tenth of a millisecond.
            for step in 0..(ms * 10.0) as usize {
                others_ms += others(at + step as f64 / 10.0) / 10.0;
            }
            windows.push((Duration::from_secs_f64(at / 1e3), {
                at += ms;
                Duration::from_secs_f64(at / 1e3)
            }));
            if at - samples.last().unwrap().at.as_secs_f64() * 1e3 >= 20.0 {
                samples.push(sample(at, others_ms));
            }
        }
        if samples.last().unwrap().at.as_secs_f64() * 1e3 < at {
            samples.push(sample(at, others_ms));
        }
        let none = Devices::default();
        let intervals = samples
            .windows(2)
            .map(|w| super::super::interval::interval(&w[0], &w[1], &none, 2.0, 100.0))
            .collect();
        (intervals, windows)
    }

    /// A process's session of a bench on a short share of a capped run: eleven short rounds
    /// in its first 20 ms, three longer ones after them.
    const SHORT_SESSION: [f64; 14] = [
        0.5, 0.5, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 3.0, 3.0, 4.0, 40.0, 60.0, 90.0,
    ];

    #[test]
    fn a_quiet_machine_is_not_busy_where_the_ticks_round_one_interval_up() {
        // Nothing else runs but pilot's other processes (cargo pilot and the bench binary that
        // started this one, waiting): a fiftieth of a core. The counts at time 0 stood just
        // before a busy tick and just after an idle one, so over the first 20 ms the busy
        // count gains three ticks and idle one: 1.5 cores busy, 0.5 of them not the bench's.
        let (intervals, windows) = machine(|_| 0.02, &SHORT_SESSION, (0.99, 0.0));
        assert!(intervals[0].others_cores > 0.45, "{:?}", intervals[0]);
        let (rounds, checks) = judge(&intervals, &Devices::default(), &windows, None);
        // That interval holds eleven of the fourteen rounds, but 20 ms of a 0.21 s session,
        // and over 20 ms a tick either way is half a core: nothing is marked.
        assert!(checks.is_empty(), "{checks:?}");
        assert!(rounds.iter().all(|r| r.marks.is_empty()), "{rounds:?}");
        // Wherever the counts stood at time 0.
        for phase in [
            (0.0, 0.0),
            (0.5, 0.5),
            (0.99, 0.99),
            (0.0, 0.99),
            (0.3, 0.8),
        ] {
            let (intervals, windows) = machine(|_| 0.02, &SHORT_SESSION, phase);
            let (_, checks) = judge(&intervals, &Devices::default(), &windows, None);
            assert!(checks.is_empty(), "{phase:?}: {checks:?}");
        }
    }

    #[test]
    fn a_neighbour_on_a_core_makes_the_machine_busy() {
        // Another process spinning on the second core the whole session.
        for phase in [(0.0, 0.0), (0.99, 0.0), (0.0, 0.99), (0.5, 0.5)] {
            let (intervals, windows) = machine(|_| 1.0, &SHORT_SESSION, phase);
            let (rounds, checks) = judge(&intervals, &Devices::default(), &windows, None);
            assert_eq!(checks.len(), 1, "{phase:?}: {checks:?}");
            assert_eq!(checks[0].kind, "busy_machine");
            let mean = checks[0].figures["mean"].as_f64().unwrap();
            assert!((0.8..=1.2).contains(&mean), "{phase:?}: {mean}");
            // The longer rounds are marked (the short ones are too short to tell).
            assert!(rounds[11..].iter().all(|r| r.marks == ["busy_machine"]));
        }
        // A neighbour during the second half of a session of longer rounds: half its time.
        let rounds: Vec<f64> = [0.5, 1.0, 2.0, 4.0, 8.0, 16.0]
            .into_iter()
            .chain([100.0; 10])
            .collect();
        let (intervals, windows) = machine(
            |ms| if ms >= 531.5 { 1.0 } else { 0.0 },
            &rounds,
            (0.3, 0.6),
        );
        let (states, checks) = judge(&intervals, &Devices::default(), &windows, None);
        assert_eq!(checks.len(), 1, "{checks:?}");
        assert_eq!(checks[0].figures["rounds"], 5, "{checks:?}");
        assert!(states[11..].iter().all(|r| r.marks == ["busy_machine"]));
        assert!(states[..11].iter().all(|r| r.marks.is_empty()));
    }
}
