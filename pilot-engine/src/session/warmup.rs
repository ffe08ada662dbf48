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

use crate::stats::summary::Summary;

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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarmUpClass {
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

    /// The class named `name` (as [`WarmUpClass::as_str`] writes it).
    pub(crate) fn parse(name: &str) -> Option<WarmUpClass> {
        [
            WarmUpClass::Flat,
            WarmUpClass::WarmUp,
            WarmUpClass::Slowdown,
            WarmUpClass::NoSteadyState,
        ]
        .into_iter()
        .find(|w| w.as_str() == name)
    }
}

/// What a session gathers, round by round, to classify itself.
#[derive(Debug, Default)]
pub(crate) struct WarmUpEvidence {
    /// The readings before the first stable phase, in order (the first [`MAX_EARLY`]).
    early: Vec<f64>,
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
    /// Takes one round's unit readings and its stable phase (`None` for a round that was not
    /// analysed or had none). O(n) with a sort of at most 1024 values.
    pub(crate) fn add_round(&mut self, units: &[f64], stable: Option<(usize, usize)>) {
        let Some((start, end)) = stable else {
            if !self.settled {
                self.keep_early(units);
            }
            return;
        };
        self.stable_rounds += 1;
        let prefix = &units[..start];
        if !self.settled {
            self.settled = true;
            self.keep_early(prefix);
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
    }

    fn keep_early(&mut self, xs: &[f64]) {
        let room = MAX_EARLY.saturating_sub(self.early.len());
        self.early.extend_from_slice(&xs[..xs.len().min(room)]);
    }

    /// The level the readings before the steady state began at: the median of their first
    /// segment of at least [`MIN_EARLY`] readings by change-point detection (all of them when
    /// there is no change point). A shorter first segment is an interruption (one reading at
    /// 3× the rest was one in the examples' `one_add`), not a level. `None` with too few
    /// readings.
    fn early_level(&self) -> Option<f64> {
        if self.early.len() < MIN_EARLY {
            return None;
        }
        let config = crate::stats::changepoint::ChangepointConfig::default();
        let cuts = crate::stats::changepoint::find_stable_segment(&self.early, &config)
            .map(|seg| seg.changepoints)
            .unwrap_or_default();
        let mut from = 0;
        for to in cuts.into_iter().chain([self.early.len()]) {
            if to >= from + MIN_EARLY {
                return median(&self.early[from..to]);
            }
            from = to;
        }
        median(&self.early[from..])
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
        // machine whose speed switches between levels (shared machines do, by 10–20%) visits
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
        e.add_round(&level(160.0, 2000), None);
        e.add_round(&level(16.0, 8000), None);
        let mut first = level(16.5, 20);
        first.extend(level(16.0, 500));
        e.add_round(&first, Some((20, 520)));
        for _ in 0..10 {
            e.add_round(&level(16.0, 500), Some((0, 500)));
        }
        assert_eq!(e.classify(&[16.0; 11], true, None), WarmUpClass::WarmUp);
    }

    #[test]
    fn level_readings_are_flat_even_on_a_moving_machine() {
        let mut e = WarmUpEvidence::default();
        e.add_round(&level(10.5, 50), None);
        let means: Vec<f64> = (0..12)
            .map(|i| 10.0 * (1.0 + 0.04 * (i % 4) as f64))
            .collect();
        for m in &means {
            let mut r = level(m * 1.08, 30);
            r.extend(level(*m, 500));
            e.add_round(&r, Some((30, 530)));
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
        e.add_round(&level(0.62, 255), None);
        let means: Vec<f64> = (0..10).map(|i| if i < 4 { 0.74 } else { 0.64 }).collect();
        for m in &means {
            e.add_round(&level(*m, 500), Some((0, 500)));
        }
        assert_eq!(e.classify(&means, true, None), WarmUpClass::Flat);
    }

    #[test]
    fn the_start_outside_the_stable_range_is_measured() {
        // A start at 0.9 against stable rounds between 0.64 and 0.70: 0.9 / 0.70 − 1 = +28.6%.
        let mut e = WarmUpEvidence::default();
        e.add_round(&level(0.9, 255), None);
        let means = [0.64, 0.70, 0.66];
        for m in means {
            e.add_round(&level(m, 500), Some((0, 500)));
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
        e.add_round(&start, None);
        let means = [0.67, 0.72, 0.80, 0.70];
        for m in means {
            e.add_round(&level(m, 500), Some((0, 500)));
        }
        assert_eq!(e.classify(&means, true, None), WarmUpClass::Flat);
        assert!(e.start_change(&means).is_none());
    }

    #[test]
    fn faster_first_rounds_are_a_slowdown() {
        let mut e = WarmUpEvidence::default();
        e.add_round(&level(8.0, 100), None);
        for _ in 0..5 {
            e.add_round(&level(10.0, 500), Some((0, 500)));
        }
        assert_eq!(e.classify(&[10.0; 5], true, None), WarmUpClass::Slowdown);
    }
}
