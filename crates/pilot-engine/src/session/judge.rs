//! What a session's result learns once its rounds are done: the machine's states sampled
//! during them, the instrumentation overhead, and a slow start or a drift that the machine,
//! not the workload, explains.

use std::time::Duration;

use super::{RoundRecord, SessionResult, WarmUpClass, Warning, drift_check};

/// The largest slow start (relative to the slowest stable round) that other processes are
/// allowed to explain (see [`SessionResult::blame_warm_up`]): half again as slow.
const MACHINE_EXPLAINS_START: f64 = 0.5;
/// The least excess of other processes' cores during the start over the stable rounds that
/// explains a slow start: a tenth of a core, a small share, since a neighbour needs to run
/// for only part of a short start to slow it (`tests/fixture-bench/checks_bars.sh` measures
/// the warm-up class on a real machine).
const MACHINE_START_CORES: f64 = 0.1;

impl SessionResult {
    /// Marks the rounds with the machine's states sampled during the session (`intervals`,
    /// timed from the sampler's start, which came `offset` before the session's) and adds the
    /// checks they make; `bottleneck` is the device the bench declares it saturates.
    pub(crate) fn judge_machine(
        &mut self,
        (intervals, devices): &(
            Vec<crate::checks::sampler::Interval>,
            crate::checks::sampler::Devices,
        ),
        offset: Duration,
        bottleneck: Option<&str>,
    ) {
        let windows: Vec<(Duration, Duration)> = (self.rounds.iter())
            .map(|r| {
                let end = offset + r.end;
                (end.saturating_sub(r.duration), end)
            })
            .collect();
        let (states, checks) =
            crate::checks::sampler::judge(intervals, devices, &windows, bottleneck);
        for (r, state) in self.rounds.iter_mut().zip(states) {
            r.machine = state.machine;
            r.marks.extend(state.marks);
        }
        for c in checks {
            self.add_check(c);
        }
        self.blame_warm_up();
        self.blame_drift_on_load();
    }

    /// Takes the instrumentation overhead's samples (pairs of blocks of rounds, their
    /// differences per unit, see [`crate::checks::overhead`]), measured with a clock whose read
    /// costs `clock_ns` in blocks that took `time_s` seconds: the overhead per unit, aiming at
    /// ±2% of this session's unit or two clock reads, and its check when it is more than 1% of
    /// a unit.
    pub(crate) fn judge_overhead(
        &mut self,
        samples: &[f64],
        confidence: f64,
        clock_ns: f64,
        time_s: f64,
    ) {
        let unit_ns = self.estimate.as_ref().map_or(0.0, |e| e.mean);
        let target = crate::checks::overhead::target_ns(unit_ns, clock_ns);
        self.overhead = crate::checks::overhead::estimate(samples, confidence, target)
            .map(|o| crate::checks::overhead::Overhead { time_s, ..o });
        let (Some(o), Some(e)) = (&self.overhead, &self.estimate) else {
            return;
        };
        if let Some(c) = crate::checks::overhead::overhead_check(o, e.mean) {
            self.add_check(c);
        }
    }

    /// A slow start that other processes explain is no warm-up of the workload's. The class
    /// `warm-up` from a start slower than every stable round by at most
    /// [`MACHINE_EXPLAINS_START`] becomes `flat`, with a warning that says why, when the rounds
    /// up to the first stable one ran while other processes kept at least
    /// [`MACHINE_START_CORES`] more cores busy than in the median later stable round. Other
    /// processes slow a thread that shares a core, or a cache, with them; they cannot make it
    /// many times slower, so a larger warm-up stays the workload's. Needs the rounds' sampled
    /// machine state (see [`Self::judge_machine`]); O(rounds).
    fn blame_warm_up(&mut self) {
        let (Some(start), Some(WarmUpClass::WarmUp)) = (self.warm_up_start, self.warm_up) else {
            return;
        };
        let Some(first) = self.rounds.iter().position(|r| r.stable.is_some()) else {
            return;
        };
        if !(0.0..=MACHINE_EXPLAINS_START).contains(&start) {
            return;
        }
        let others = |r: &RoundRecord| r.machine.as_ref().map(|m| m.others_cores);
        let Some(early) = self.rounds[..=first]
            .iter()
            .filter_map(others)
            .reduce(f64::max)
        else {
            return;
        };
        let mut later: Vec<f64> = self.rounds[first + 1..]
            .iter()
            .filter(|r| r.stable.is_some())
            .filter_map(others)
            .collect();
        if later.is_empty() {
            return;
        }
        later.sort_by(f64::total_cmp);
        let usual = later[later.len() / 2];
        if early - usual >= MACHINE_START_CORES {
            self.warm_up = Some(WarmUpClass::Flat);
            // No warm-up for later processes to run first.
            self.warm_up_work = None;
            self.warnings.push(Warning::Note(format!(
                "the first readings were {:.0}% slower than every stable round, while other \
                 processes kept {early:.2} cores busy (against {usual:.2} in the usual stable \
                 round): the machine's start, not a warm-up of the workload's; classed flat",
                100.0 * start,
            )));
        }
    }

    /// Rewrites the drift's warning with what the speed probe saw of the machine during the
    /// session: `machine` is the relative change of the probe's time from before to after.
    pub fn blame_drift(&mut self, machine: f64) {
        let Some(d) = self.drift else { return };
        // A drift the load already explained is `machine_drift`, never the neutral check's
        // kind: its check stays.
        let neutral = drift_check(d, None);
        self.replace_check(&neutral.kind, drift_check(d, Some(machine)));
    }
}
