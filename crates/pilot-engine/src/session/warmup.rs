//! The warm-up class of a session (Barrett et al., "Virtual Machine Warmup Blows Hot and Cold",
//! OOPSLA 2017): did the readings settle at a faster level (`warm-up`), a slower one
//! (`slowdown`), stay level (`flat`), or never settle (`no steady state`)?
//!
//! Barrett et al. classify one process execution by its change points: the segments before the
//! last are compared with it, and segments within a tolerance of each other are equivalent.
//! pilot's steady state is each round's stable phase, so it compares the first segment of what
//! came before the first stable phase (the short first rounds and the first analysed round's
//! prefix, split by change-point detection) with the range of the stable rounds' levels, and
//! each later round's prefix with that round's stable phase.

use pilot_stats::summary::Summary;

/// Most readings before the first stable phase kept (the first ones: a warm-up is at the
/// start).
const MAX_EARLY: usize = 1 << 16;
/// Most readings of a later round's prefix looked at.
const MAX_SAMPLE: usize = 1024;
/// Least readings before the steady state for it to count.
const MIN_EARLY: usize = 3;
/// Least tolerance between levels: two levels closer than 10% are equivalent.
pub(super) const MIN_TOLERANCE: f64 = 0.10;

/// The classes, as written in result documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum WarmUpClass {
    /// No level before the steady state differed from it.
    Flat,
    /// Readings before the steady state were slower: it warmed up.
    WarmUp,
    /// Readings before the steady state were faster, or the rounds kept getting slower.
    Slowdown,
    /// Most rounds had no dominant stable phase.
    NoSteadyState,
}

impl WarmUpClass {
    /// The name written in the `warm_up` key and shown in the table.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            WarmUpClass::Flat => "flat",
            WarmUpClass::WarmUp => "warm-up",
            WarmUpClass::Slowdown => "slowdown",
            WarmUpClass::NoSteadyState => "no steady state",
        }
    }
}

/// What a session gathers, round by round, to classify itself.
#[derive(Debug, Default)]
pub(crate) struct WarmUpEvidence {
    /// The readings before the first stable phase, in order (the first [`MAX_EARLY`]).
    early: Vec<f64>,
    /// The iterations each of `early` timed, as runs of (readings, iterations per reading).
    early_iterations: Vec<(usize, u64)>,
    /// Whether a round with a stable phase has been seen.
    settled: bool,
    /// Later rounds whose prefix was slower / faster than their stable phase by more than the
    /// least tolerance, and rounds with a stable phase.
    slower_prefixes: usize,
    faster_prefixes: usize,
    stable_rounds: usize,
}

/// The median of an evenly strided sample of at most [`MAX_SAMPLE`] of `xs`; `None` when
/// empty.
pub(super) fn median(xs: &[f64]) -> Option<f64> {
    let step = xs.len().div_ceil(MAX_SAMPLE).max(1);
    let mut v: Vec<f64> = xs.iter().step_by(step).copied().collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    Some(v[v.len() / 2])
}

impl WarmUpEvidence {
    /// Takes one round's unit readings (per iteration, of `iterations` iterations a unit) and
    /// its stable phase (`None` for a round that was not analysed or had none). O(n) with a
    /// sort of at most 1024 values.
    pub(crate) fn add_round(
        &mut self,
        units: &[f64],
        iterations: u64,
        stable: Option<(usize, usize)>,
    ) {
        let Some((start, end)) = stable else {
            if !self.settled {
                self.keep_early(units, iterations);
            }
            return;
        };
        self.stable_rounds += 1;
        let prefix = &units[..start];
        if !self.settled {
            self.settled = true;
            self.keep_early(prefix, iterations);
            return;
        }
        if prefix.len() < MIN_EARLY {
            return;
        }
        let (Some(before), Some(level)) = (median(prefix), median(&units[start..end])) else {
            return;
        };
        if before > level * (1.0 + MIN_TOLERANCE) {
            self.slower_prefixes += 1;
        } else if before < level * (1.0 - MIN_TOLERANCE) {
            self.faster_prefixes += 1;
        }
    }

    /// Bytes the evidence keeps (the early readings), which the leak check counts as pilot's.
    pub(crate) fn kept_bytes(&self) -> usize {
        self.early.capacity() * std::mem::size_of::<f64>()
            + self.early_iterations.capacity() * std::mem::size_of::<(usize, u64)>()
    }

    fn keep_early(&mut self, xs: &[f64], iterations: u64) {
        let room = MAX_EARLY.saturating_sub(self.early.len());
        let kept = xs.len().min(room);
        self.early.extend_from_slice(&xs[..kept]);
        if kept > 0 {
            self.early_iterations.push((kept, iterations.max(1)));
        }
    }

    /// Where, between `from` and `to`, a slower segment ending near `cut` gives way to the
    /// faster one after it: the index that leaves fewest readings on the wrong side of the
    /// midpoint of the two segments' medians (change points are placed within a block of
    /// readings; this places the step to the reading, and a lone slow reading in the faster
    /// segment does not move it). O(to − from).
    fn step_end(&self, from: usize, cut: usize, to: usize) -> usize {
        let (Some(slow), Some(fast)) =
            (median(&self.early[from..cut]), median(&self.early[cut..to]))
        else {
            return cut;
        };
        let mid = (slow + fast) / 2.0;
        let xs = &self.early[from..to];
        // Wrong with the step at 0: every slow reading (they would all be in the faster part).
        let mut wrong = xs.iter().filter(|&&x| x > mid).count();
        let (mut best, mut best_wrong) = (0, wrong);
        for (i, &x) in xs.iter().enumerate() {
            // Moving the step past reading i: it is wrong now if it was fast.
            if x > mid {
                wrong -= 1;
            } else {
                wrong += 1;
            }
            if wrong < best_wrong {
                (best, best_wrong) = (i + 1, wrong);
            }
        }
        from + best
    }

    /// The early readings' segments by change-point detection, as index ranges in order
    /// (one segment when there is no change point).
    fn early_segments(&self) -> Vec<(usize, usize)> {
        let config = pilot_stats::ChangepointConfig::default();
        let cuts = pilot_stats::find_stable_segment(&self.early, &config)
            .map(|seg| seg.changepoints)
            .unwrap_or_default();
        let mut segments = Vec::with_capacity(cuts.len() + 1);
        let mut from = 0;
        for to in cuts.into_iter().chain([self.early.len()]) {
            if to > from {
                segments.push((from, to));
                from = to;
            }
        }
        segments
    }

    /// The work of a warm-up that ended among the early readings, given the stable rounds'
    /// means: the iterations the early readings timed, and their units' time, up to the end
    /// of the last segment of at least [`MIN_EARLY`] readings (by change-point detection)
    /// slower than the slowest stable round by more than the least tolerance. The short first
    /// rounds go on at the steady level long after a warm-up of a few thousand calls ended,
    /// and are not part of it. `None` when no segment was that slow, or the slow ones ran to
    /// the end of the kept early readings (then the warm-up reached the first stable phase,
    /// or past the readings kept). Calibration's iterations, before the first round, are not
    /// counted. Time: that of change-point detection on the early readings.
    pub(crate) fn ended_early(&self, round_means: &[f64]) -> Option<super::WarmUpWork> {
        let slowest = round_means.iter().copied().reduce(f64::max)?;
        let segments = self.early_segments();
        let last_slow = (0..segments.len()).rev().find(|&i| {
            let (from, to) = segments[i];
            to >= from + MIN_EARLY
                && median(&self.early[from..to])
                    .is_some_and(|m| m > slowest * (1.0 + MIN_TOLERANCE))
        })?;
        // The slow segments ran to the end of the kept readings: no steady one after them.
        let (_, to) = *segments.get(last_slow + 1)?;
        let (from, cut) = segments[last_slow];
        let end = self.step_end(from, cut, to);
        let (mut iterations, mut ns, mut at) = (0_u64, 0.0, 0);
        for &(count, per) in &self.early_iterations {
            let n = count.min(end - at);
            iterations = iterations.saturating_add(n as u64 * per);
            ns += self.early[at..at + n].iter().sum::<f64>() * per as f64;
            at += n;
            if at == end {
                break;
            }
        }
        Some(super::WarmUpWork {
            iterations,
            time: std::time::Duration::from_nanos(ns as u64),
        })
    }

    /// The level the readings before the steady state began at: the median of their first
    /// segment of at least [`MIN_EARLY`] readings by change-point detection (all of them when
    /// there is no change point). A shorter first segment is an interruption (a few readings
    /// a preemption or a page fault slowed), not a level. `None` with too few
    /// readings.
    fn early_level(&self) -> Option<f64> {
        if self.early.len() < MIN_EARLY {
            return None;
        }
        self.early_segments()
            .into_iter()
            .find(|&(from, to)| to >= from + MIN_EARLY)
            .and_then(|(from, to)| median(&self.early[from..to]))
    }

    /// The class, given the stable rounds' means and whether the session found a steady state
    /// and a significant drift across rounds (`+` slower): `warm-up` when the start was more
    /// than 10% slower than the slowest stable round (or most later rounds' prefixes were
    /// slower than their stable phase), `slowdown` when it was more than 10% faster than the
    /// fastest (or the rounds drift slower by more than 10% and twice their relative spread),
    /// else `flat`.
    pub(crate) fn classify(
        &self,
        round_means: &[f64],
        steady: bool,
        drift: Option<f64>,
    ) -> WarmUpClass {
        if !steady || round_means.is_empty() {
            return WarmUpClass::NoSteadyState;
        }
        // The early readings are compared with the range the stable rounds' means covered: a
        // machine whose speed switches between levels (shared machines do) visits
        // them in steady state too, so only a start slower than the slowest stable round, or
        // faster than the fastest, is the workload's own.
        let slowest = round_means.iter().copied().fold(f64::MIN, f64::max);
        let fastest = round_means.iter().copied().fold(f64::MAX, f64::min);
        let spread = Summary::of(round_means)
            .ok()
            .filter(|s| s.n >= 3 && s.mean > 0.0)
            .map_or(0.0, |s| s.std_dev / s.mean);
        let tolerance = MIN_TOLERANCE.max(2.0 * spread);
        let early = self.early_level();
        let slower = early.is_some_and(|e| e > slowest * (1.0 + MIN_TOLERANCE));
        let faster = early.is_some_and(|e| e < fastest * (1.0 - MIN_TOLERANCE));
        let most = |n: usize| 2 * n > self.stable_rounds.saturating_sub(1).max(1);
        if slower || (!faster && most(self.slower_prefixes)) {
            WarmUpClass::WarmUp
        } else if faster || drift.is_some_and(|d| d > tolerance) || most(self.faster_prefixes) {
            WarmUpClass::Slowdown
        } else {
            WarmUpClass::Flat
        }
    }

    /// How far the start lay outside the stable rounds' range, when it did by more than the
    /// least tolerance: `start / slowest − 1` (> 0, slower) or `start / fastest − 1` (< 0).
    pub(crate) fn start_change(&self, round_means: &[f64]) -> Option<f64> {
        let slowest = round_means.iter().copied().fold(f64::MIN, f64::max);
        let fastest = round_means.iter().copied().fold(f64::MAX, f64::min);
        let early = self.early_level()?;
        if round_means.is_empty() {
            None
        } else if early > slowest * (1.0 + MIN_TOLERANCE) {
            Some(early / slowest - 1.0)
        } else if early < fastest * (1.0 - MIN_TOLERANCE) {
            Some(early / fastest - 1.0)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(x: f64, n: usize) -> Vec<f64> {
        (0..n).map(|i| x * (1.0 + 0.01 * (i % 3) as f64)).collect()
    }

    #[test]
    fn slow_first_rounds_are_a_warm_up() {
        let mut e = WarmUpEvidence::default();
        // 2000 slow readings, then short rounds of fast ones: the slow ones are a minority of
        // what came before the first stable phase, but its first segment.
        e.add_round(&level(160.0, 2000), 1, None);
        e.add_round(&level(16.0, 8000), 1, None);
        let mut first = level(16.5, 20);
        first.extend(level(16.0, 500));
        e.add_round(&first, 1, Some((20, 520)));
        for _ in 0..10 {
            e.add_round(&level(16.0, 500), 1, Some((0, 500)));
        }
        assert_eq!(e.classify(&[16.0; 11], true, None), WarmUpClass::WarmUp);
    }

    #[test]
    fn level_readings_are_flat_even_on_a_moving_machine() {
        let mut e = WarmUpEvidence::default();
        e.add_round(&level(10.5, 50), 1, None);
        let means: Vec<f64> = (0..12)
            .map(|i| 10.0 * (1.0 + 0.04 * (i % 4) as f64))
            .collect();
        for m in &means {
            let mut r = level(m * 1.08, 30);
            r.extend(level(*m, 500));
            e.add_round(&r, 1, Some((30, 530)));
        }
        assert_eq!(e.classify(&means, true, None), WarmUpClass::Flat);
        assert_eq!(e.classify(&means, false, None), WarmUpClass::NoSteadyState);
        assert_eq!(e.classify(&means, true, Some(0.25)), WarmUpClass::Slowdown);
    }

    #[test]
    fn a_machine_switching_speed_is_not_a_warm_up() {
        // Rounds at 0.64 and at 0.74 (the machine's two speeds), and a start at 0.62: within
        // the levels the stable rounds themselves took.
        let mut e = WarmUpEvidence::default();
        e.add_round(&level(0.62, 255), 1, None);
        let means: Vec<f64> = (0..10).map(|i| if i < 4 { 0.74 } else { 0.64 }).collect();
        for m in &means {
            e.add_round(&level(*m, 500), 1, Some((0, 500)));
        }
        assert_eq!(e.classify(&means, true, None), WarmUpClass::Flat);
    }

    #[test]
    fn the_start_outside_the_stable_range_is_measured() {
        // A start at 0.9 against stable rounds between 0.64 and 0.70: 0.9 / 0.70 − 1 = +28.6%.
        let mut e = WarmUpEvidence::default();
        e.add_round(&level(0.9, 255), 1, None);
        let means = [0.64, 0.70, 0.66];
        for m in means {
            e.add_round(&level(m, 500), 1, Some((0, 500)));
        }
        let start = e.start_change(&means).unwrap();
        // The sample's median is 0.9 · 1.01 (the `level` helper's pattern).
        assert!((start - (0.909 / 0.70 - 1.0)).abs() < 1e-9, "{start}");
        assert!(e.start_change(&[0.85, 0.9]).is_none());
    }

    #[test]
    fn an_interruption_at_the_start_is_no_level() {
        // The second reading took 3× the rest (an interrupt): change-point detection gives it
        // a segment of its own with the first, but a level of two readings is no warm-up.
        let mut e = WarmUpEvidence::default();
        let mut start = vec![0.79, 2.9];
        start.extend(level(0.75, 253));
        e.add_round(&start, 1, None);
        let means = [0.67, 0.72, 0.80, 0.70];
        for m in means {
            e.add_round(&level(m, 500), 1, Some((0, 500)));
        }
        assert_eq!(e.classify(&means, true, None), WarmUpClass::Flat);
        assert!(e.start_change(&means).is_none());
    }

    #[test]
    fn a_warm_up_ends_where_the_readings_reach_the_steady_level() {
        // Readings per iteration: 300 units of 7 iterations at ten times the steady level
        // (2 100 calls), then 724 more of 7 at the steady level with a lone slow one among
        // them, then stable rounds of 61 iterations a unit.
        let mut e = WarmUpEvidence::default();
        let mut first = level(100.0, 300);
        first.extend(level(10.0, 212));
        first[400] = 100.0;
        e.add_round(&first, 7, None);
        e.add_round(&level(10.0, 512), 7, None);
        let means = [10.0, 10.2, 10.1];
        for m in means {
            e.add_round(&level(m, 500), 61, Some((0, 500)));
        }
        let w = e.ended_early(&means).expect("a warm-up that ended");
        assert_eq!(w.iterations, 2_100);
        // The `level` helper's readings average 1.01 times the level: 300 · 7 · 101 ns.
        assert_eq!(w.time, std::time::Duration::from_nanos(212_100));
        // Slow up to the first stable phase: the rounds before it tell (see `WarmUpWork`).
        let mut e = WarmUpEvidence::default();
        e.add_round(&level(100.0, 300), 7, None);
        for m in means {
            e.add_round(&level(m, 500), 61, Some((0, 500)));
        }
        assert_eq!(e.ended_early(&means), None);
        // No early level slower than the stable rounds': no warm-up to measure.
        let mut e = WarmUpEvidence::default();
        e.add_round(&level(10.5, 300), 7, None);
        for m in means {
            e.add_round(&level(m, 500), 61, Some((0, 500)));
        }
        assert_eq!(e.ended_early(&means), None);
    }

    #[test]
    fn faster_first_rounds_are_a_slowdown() {
        let mut e = WarmUpEvidence::default();
        e.add_round(&level(8.0, 100), 1, None);
        for _ in 0..5 {
            e.add_round(&level(10.0, 500), 1, Some((0, 500)));
        }
        assert_eq!(e.classify(&[10.0; 5], true, None), WarmUpClass::Slowdown);
    }
}
