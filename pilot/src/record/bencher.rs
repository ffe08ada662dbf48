//! The micro form's bencher: pilot runs the routine many times per work unit, so that a unit is
//! long enough for the clock's own cost to vanish in it.

use std::hint::black_box;
use std::time::Instant;

/// What the bencher does when the bench function calls [`Bencher::iter`] or
/// [`Bencher::iter_batched`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum BencherMode {
    /// Test mode: run the routine once, to see that it works.
    Test,
    /// Find how many iterations make a unit last at least `target_ns`.
    Calibrate { target_ns: u64 },
    /// Run `work` units of `iters` iterations each and time every unit.
    Measure { work: u64, iters: u64 },
}

/// Runs and times the routine of a micro-form bench.
///
/// ```
/// #[pilot::bench]
/// fn sort_1k(b: &mut pilot::Bencher) {
///     let input: Vec<u64> = (0..1000).rev().collect();
///     b.iter_batched(|| input.clone(), |mut v| v.sort());
/// }
/// ```
///
/// Call [`iter`](Bencher::iter) or [`iter_batched`](Bencher::iter_batched) once per call of the
/// bench function; code before it is setup and is not timed. pilot groups iterations into work
/// units long enough that reading the clock costs under 0.5% of a unit, and reports time per
/// iteration.
pub struct Bencher {
    mode: BencherMode,
    readings: Vec<u64>,
    /// Iterations per unit found by calibration.
    calibrated: Option<u64>,
    called: bool,
}

/// Most inputs `iter_batched` builds ahead of one unit: inputs live in memory together.
const MAX_BATCH: u64 = 4096;

impl Bencher {
    pub(crate) fn new(mode: BencherMode) -> Self {
        let capacity = match mode {
            BencherMode::Measure { work, .. } => work.min(1 << 26) as usize,
            _ => 1,
        };
        Bencher {
            mode,
            readings: Vec::with_capacity(capacity),
            calibrated: None,
            called: false,
        }
    }

    /// Times `routine`, called over and over; its result goes through [`black_box`] and is
    /// dropped inside the timing.
    pub fn iter<O>(&mut self, mut routine: impl FnMut() -> O) {
        self.called = true;
        match self.mode {
            BencherMode::Test => {
                let start = Instant::now();
                black_box(routine());
                self.readings.push(start.elapsed().as_nanos() as u64);
            }
            BencherMode::Calibrate { target_ns } => {
                self.calibrated = Some(calibrate(target_ns, u64::MAX, |iters| {
                    let start = Instant::now();
                    for _ in 0..iters {
                        black_box(routine());
                    }
                    start.elapsed().as_nanos() as u64
                }));
            }
            BencherMode::Measure { work, iters } => {
                for _ in 0..work {
                    let start = Instant::now();
                    for _ in 0..iters {
                        black_box(routine());
                    }
                    let end = Instant::now();
                    self.readings
                        .push(end.saturating_duration_since(start).as_nanos() as u64);
                }
            }
        }
    }

    /// Times `routine` on inputs made by `setup`; building the inputs and dropping the outputs
    /// are not timed. Each unit's inputs are built together before the unit starts (at most 4096
    /// at once), so `setup` should make small to medium inputs.
    pub fn iter_batched<I, O>(
        &mut self,
        mut setup: impl FnMut() -> I,
        mut routine: impl FnMut(I) -> O,
    ) {
        self.called = true;
        let mut inputs: Vec<I> = Vec::new();
        let mut outputs: Vec<O> = Vec::new();
        let mut unit = |iters: u64, inputs: &mut Vec<I>, outputs: &mut Vec<O>| -> u64 {
            inputs.extend((0..iters).map(|_| setup()));
            outputs.reserve(iters as usize);
            let start = Instant::now();
            for input in inputs.drain(..) {
                outputs.push(black_box(routine(input)));
            }
            let end = Instant::now();
            outputs.clear();
            end.saturating_duration_since(start).as_nanos() as u64
        };
        match self.mode {
            BencherMode::Test => {
                let ns = unit(1, &mut inputs, &mut outputs);
                self.readings.push(ns);
            }
            BencherMode::Calibrate { target_ns } => {
                self.calibrated = Some(calibrate(target_ns, MAX_BATCH, |iters| {
                    unit(iters, &mut inputs, &mut outputs)
                }));
            }
            BencherMode::Measure { work, iters } => {
                inputs.reserve(iters as usize);
                for _ in 0..work {
                    let ns = unit(iters, &mut inputs, &mut outputs);
                    self.readings.push(ns);
                }
            }
        }
    }

    /// Whether the bench function called `iter` or `iter_batched`.
    pub(crate) fn was_called(&self) -> bool {
        self.called
    }

    /// Iterations per unit found in calibration mode.
    pub(crate) fn calibrated_iters(&self) -> Option<u64> {
        self.calibrated
    }

    /// The unit readings in nanoseconds (whole units, not per iteration).
    pub(crate) fn take_readings(&mut self) -> Vec<u64> {
        std::mem::take(&mut self.readings)
    }
}

/// Doubles the iteration count from 1 until `time(iters)` reaches `target_ns` (or `max` is hit),
/// then returns that count. Jumps straight towards the target once a timing is meaningful.
fn calibrate(target_ns: u64, max: u64, mut time: impl FnMut(u64) -> u64) -> u64 {
    let mut iters: u64 = 1;
    loop {
        let ns = time(iters);
        if ns >= target_ns || iters >= max {
            return iters;
        }
        let next = if ns > target_ns / 16 {
            // Close enough to extrapolate; aim 20% past the target.
            (iters as f64 * 1.2 * target_ns as f64 / ns.max(1) as f64).ceil() as u64
        } else {
            iters * 2
        };
        iters = next.clamp(iters + 1, max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calibration_reaches_the_target() {
        // A routine of exactly 3 ns per iteration.
        let iters = calibrate(1000, u64::MAX, |n| 3 * n);
        assert!(3 * iters >= 1000, "{iters}");
        assert!(3 * iters <= 1500, "overshoots: {iters}");
        assert_eq!(calibrate(1000, 8, |n| n), 8);
        assert_eq!(calibrate(10, u64::MAX, |_| 50), 1);
    }

    #[test]
    fn measure_records_one_reading_per_unit() {
        let mut b = Bencher::new(BencherMode::Measure { work: 5, iters: 3 });
        let mut calls = 0;
        b.iter(|| calls += 1);
        assert_eq!(calls, 15);
        assert_eq!(b.take_readings().len(), 5);
        let mut b = Bencher::new(BencherMode::Measure { work: 4, iters: 2 });
        let (mut made, mut ran) = (0, 0);
        b.iter_batched(
            || {
                made += 1;
                made
            },
            |x| ran += x,
        );
        assert_eq!((made, ran), (8, 36));
        assert_eq!(b.take_readings().len(), 4);
        assert!(b.was_called());
    }
}
