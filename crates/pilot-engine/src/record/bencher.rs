//! The micro form's bencher: pilot runs the routine many times per work unit, so that a unit is
//! long enough for the clock's own cost to vanish in it.

use std::hint::black_box;
use std::time::Duration;

use super::batch::{BatchSize, UnitLimit};
pub(crate) use super::calibration::{Calibration, most_within};
use super::recorder::AllocationReadings;
use super::timer::{Lap, Stopwatch};
use crate::allocations::Counts;

/// What the bencher does when the bench function calls one of its `iter` methods.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum BencherMode {
    /// Test mode: run the routine once, to see that it works.
    Test,
    /// Find how many iterations make a unit last at least `target_ns`, its inputs made in
    /// at most `inputs_ns` (see [`Calibration`]).
    Calibrate { target_ns: u64, inputs_ns: u64 },
    /// Run `work` units of `iters` iterations each (fewer where the batch size says so) and
    /// time every unit.
    Measure { work: u64, iters: u64 },
    /// In a process under callgrind: run `work` units of `iters` iterations each (fewer where
    /// the batch size says so), each between two switches of callgrind's collection where
    /// the other modes read the clock; nothing is timed.
    Count { work: u64, iters: u64 },
}

/// What marks the start and the end of a unit: the stopwatch when measuring ([`Timed`]), the
/// switch of callgrind's collection when counting ([`Counted`]). Each `iter` method writes its
/// unit once, generic over the marks, so counting adds nothing to the timed code: `Timed`'s
/// marks are exactly the stopwatch's reads they stand for.
pub(crate) trait UnitMarks {
    /// What a unit's start gives: a clock reading (with allocation counts), or nothing.
    type Mark;
    /// Marks a unit's start.
    fn start(watch: Stopwatch) -> Self::Mark;
    /// Marks its end: the lap from `start` (nothing when counting).
    fn stop(watch: Stopwatch, start: Self::Mark) -> Lap;
    /// Marks the start or end of a unit that times itself (`iter_custom`): nothing when
    /// measuring, the switch when counting.
    fn custom();
}

/// The marks of measured units: the stopwatch.
pub(crate) struct Timed;

impl UnitMarks for Timed {
    type Mark = super::timer::Mark;

    #[inline(always)]
    fn start(watch: Stopwatch) -> Self::Mark {
        watch.start()
    }

    #[inline(always)]
    fn stop(watch: Stopwatch, start: Self::Mark) -> Lap {
        watch.stop(start)
    }

    #[inline(always)]
    fn custom() {}
}

/// The marks of counted units: callgrind's collection switched on, then off.
pub(crate) struct Counted;

/// A counted unit's mark: the switch happened; there is nothing to read.
pub(crate) struct Switched;

impl UnitMarks for Counted {
    type Mark = Switched;

    #[inline(always)]
    fn start(_: Stopwatch) -> Switched {
        super::callgrind::toggle_collect();
        Switched
    }

    #[inline(always)]
    fn stop(_: Stopwatch, _: Switched) -> Lap {
        super::callgrind::toggle_collect();
        Lap {
            raw: 0,
            counts: Counts::default(),
        }
    }

    #[inline(always)]
    fn custom() {
        super::callgrind::toggle_collect();
    }
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
/// Call one `iter` method once per call of the bench function; code before it is setup and is
/// not timed. If a bench function calls more than one, the last call's units are the ones
/// measured (as in criterion). pilot groups iterations into work units long enough that reading the clock costs
/// under 0.5% of a unit, and reports time per iteration:
///
/// - [`iter`](Bencher::iter): the routine alone, its result dropped inside the timing;
/// - [`iter_batched`](Bencher::iter_batched) and [`iter_batched_ref`](Bencher::iter_batched_ref):
///   inputs made by `setup` outside the timing, passed by value or by reference, with
///   [`iter_batched_with`](Bencher::iter_batched_with) and
///   [`iter_batched_ref_with`](Bencher::iter_batched_ref_with) to choose how many inputs a unit
///   holds ([`BatchSize`]);
/// - [`iter_custom`](Bencher::iter_custom): the routine times its iterations itself;
/// - [`to_async`](Bencher::to_async): the same for routines that return futures.
pub struct Bencher {
    pub(super) mode: BencherMode,
    /// Each unit's duration, in nanoseconds.
    pub(super) readings: Vec<f64>,
    /// Each unit's allocations, when counting (see [`Bencher::take_allocations`]).
    pub(super) allocations: AllocationReadings,
    /// Whether every unit of the measured call was counted (`iter_custom`'s are not).
    pub(super) counted: bool,
    /// The timer, and whether allocations are counted.
    pub(super) watch: Stopwatch,
    /// Iterations per unit found by calibration.
    pub(super) calibrated: Option<u64>,
    /// Wall time of the measured call's units, their inputs' making included, ns.
    pub(super) wall_ns: f64,
    /// Iterations in each unit measured, and what limits them.
    pub(super) unit_iters: u64,
    pub(super) limit: UnitLimit,
    pub(super) called: bool,
}

/// Runs the units that the bencher's mode asks for, each with `$unit`, an expression of
/// `$iters: u64` (the unit's iterations) that runs and times one unit and gives its
/// [`UnitReading`]. A macro, not a function, so that the async forms run the same schedule with
/// `.await` inside `$unit`. Between units it only pushes into the reserved readings buffers.
/// Keeps a routine's output until the unit's time is read: one that needs dropping is stored
/// in `outputs` (dropped after the unit ends, and its drop reads it, so the routine cannot be
/// optimised away); one that does not goes through `black_box`.
///
/// Not `outputs.push(black_box(output))`: that stores the output, reloads it and stores it
/// again, and reloading a value written in parts (an `Option<i32>`'s tag and payload) waits for
/// both stores to reach the cache (a store-forwarding stall) every iteration: divan's example
/// `collections::pop_front::VecDeque<i32>::0` read many times a plain loop's time that way.
#[inline(always)]
pub(crate) fn keep<O>(outputs: &mut Vec<O>, output: O) {
    if std::mem::needs_drop::<O>() {
        outputs.push(output);
    } else {
        black_box(output);
    }
}

macro_rules! drive {
    ($bencher:expr, $limit:expr, |$iters:ident, $marks:ident| $unit:expr) => {{
        let bencher: &mut $crate::record::Bencher = $bencher;
        let limit: $crate::record::batch::UnitLimit = $limit;
        // A second `iter` call in one bench-function call replaces the first's readings, as
        // criterion keeps only the last routine's time: two routines' units in one round are
        // two workloads, not one with a warm-up.
        let again = bencher.called;
        if again {
            bencher.readings.clear();
            bencher.allocations.clear();
        }
        bencher.called = true;
        bencher.counted = bencher.watch.counting;
        bencher.limit = limit;
        match bencher.mode {
            $crate::record::BencherMode::Test => {
                type $marks = $crate::record::bencher::Timed;
                let $iters: u64 = 1;
                let unit: $crate::record::bencher::UnitReading = $unit;
                bencher.unit_iters = 1;
                bencher.push(unit);
            }
            $crate::record::BencherMode::Calibrate {
                target_ns,
                inputs_ns,
            } => {
                type $marks = $crate::record::bencher::Timed;
                let mut calibration =
                    $crate::record::bencher::Calibration::new(target_ns, limit.calibration_max())
                        .inputs_within(inputs_ns);
                loop {
                    let $iters: u64 = calibration.iters();
                    // The unit's wall time, its inputs' making included (calibration only:
                    // measured units read the clock twice, around the routine alone).
                    let began = std::time::Instant::now();
                    let unit: $crate::record::bencher::UnitReading = $unit;
                    let wall = began.elapsed().as_nanos() as u64;
                    if calibration.reached(unit.ns as u64, wall) {
                        break;
                    }
                }
                bencher.calibrated = Some(limit.per_unit(calibration.iters()));
            }
            $crate::record::BencherMode::Measure { work, iters } => {
                type $marks = $crate::record::bencher::Timed;
                let $iters: u64 = limit.clamp(iters);
                bencher.unit_iters = $iters;
                // The round's wall time, inputs' making included, read outside every unit.
                let began = std::time::Instant::now();
                for _ in 0..work {
                    let unit: $crate::record::bencher::UnitReading = $unit;
                    bencher.push(unit);
                }
                bencher.wall_ns = began.elapsed().as_nanos() as f64;
            }
            $crate::record::BencherMode::Count { work, iters } => {
                type $marks = $crate::record::bencher::Counted;
                if again {
                    // The earlier call's units are not this round's: forget their counts (in
                    // a dump of no label, which the reader skips).
                    $crate::record::callgrind::dump_stats();
                }
                let $iters: u64 = limit.clamp(iters);
                bencher.unit_iters = $iters;
                for _ in 0..work {
                    let _: $crate::record::bencher::UnitReading = $unit;
                }
            }
        }
    }};
}
pub(super) use drive;

/// One timed unit as the bencher keeps it: its duration, and what its thread allocated when
/// that was counted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct UnitReading {
    pub(crate) ns: f64,
    pub(crate) counts: Option<Counts>,
}

impl Stopwatch {
    /// The reading of `lap`, in nanoseconds, with its counts when counting.
    #[inline(always)]
    pub(crate) fn reading(self, lap: Lap) -> UnitReading {
        UnitReading {
            ns: self.timer.ns(lap.raw),
            counts: self.counting.then_some(lap.counts),
        }
    }
}

/// The reading of a unit the routine timed itself (`iter_custom`): its duration, in
/// nanoseconds, and no counts (pilot cannot tell which allocations the duration covers).
pub(super) fn custom_reading(d: Duration) -> UnitReading {
    UnitReading {
        ns: d.as_nanos() as f64,
        counts: None,
    }
}

impl Bencher {
    /// A bencher in `mode`, timing with `Instant` (see [`Bencher::timed_by`]).
    pub(crate) fn new(mode: BencherMode) -> Self {
        let (capacity, unit_iters) = match mode {
            BencherMode::Measure { work, iters } => (work.min(1 << 26) as usize, iters),
            _ => (1, 1),
        };
        let watch = Stopwatch::instant();
        Bencher {
            mode,
            readings: Vec::with_capacity(capacity),
            allocations: if watch.counting {
                AllocationReadings::with_capacity(capacity)
            } else {
                AllocationReadings::default()
            },
            counted: false,
            watch,
            calibrated: None,
            wall_ns: 0.0,
            unit_iters,
            limit: UnitLimit::Any,
            called: false,
        }
    }

    /// The same bencher timing with `timer`.
    pub(crate) fn timed_by(mut self, timer: super::Timer) -> Self {
        self.watch.timer = timer;
        self
    }

    /// Keeps one unit's reading (between units: the buffers are reserved).
    #[inline(always)]
    pub(crate) fn push(&mut self, unit: UnitReading) {
        self.readings.push(unit.ns);
        match unit.counts {
            Some(c) => self.allocations.push(c),
            None => self.counted = false,
        }
    }

    /// Times `routine`, called over and over; its result goes through [`black_box`] and is
    /// dropped inside the timing.
    pub fn iter<O>(&mut self, mut routine: impl FnMut() -> O) {
        let watch = self.watch;
        drive!(self, UnitLimit::Any, |iters, Marks| {
            let mark = Marks::start(watch);
            for _ in 0..iters {
                black_box(routine());
            }
            watch.reading(Marks::stop(watch, mark))
        });
    }

    /// Times `routine` on inputs made by `setup`; building the inputs and dropping the outputs
    /// are not timed. Each unit's inputs are built together before the unit starts, up to 4096
    /// at once ([`BatchSize::SmallInput`]); for larger inputs choose a [`BatchSize`] with
    /// [`iter_batched_with`](Bencher::iter_batched_with).
    pub fn iter_batched<I, O>(&mut self, setup: impl FnMut() -> I, routine: impl FnMut(I) -> O) {
        self.iter_batched_with(setup, routine, BatchSize::SmallInput);
    }

    /// [`iter_batched`](Bencher::iter_batched) with `size` saying how many inputs a unit holds
    /// (and so how many live in memory at once).
    ///
    /// ```
    /// use pilot::BatchSize;
    ///
    /// #[pilot::bench]
    /// fn sort_1m(b: &mut pilot::Bencher) {
    ///     let input: Vec<u64> = (0..1 << 20).rev().collect();
    ///     // 8 MiB an input: a few at a time, not thousands.
    ///     b.iter_batched_with(|| input.clone(), |mut v| v.sort(), BatchSize::LargeInput);
    /// }
    /// # fn main() {}
    /// ```
    pub fn iter_batched_with<I, O>(
        &mut self,
        mut setup: impl FnMut() -> I,
        mut routine: impl FnMut(I) -> O,
        size: BatchSize,
    ) {
        let mut inputs: Vec<I> = Vec::new();
        let mut outputs: Vec<O> = Vec::new();
        let watch = self.watch;
        drive!(self, UnitLimit::batched(size), |iters, Marks| {
            inputs.extend((0..iters).map(|_| setup()));
            black_box(&mut inputs);
            if std::mem::needs_drop::<O>() {
                outputs.reserve(iters as usize);
            }
            let mark = Marks::start(watch);
            for input in inputs.drain(..) {
                keep(&mut outputs, routine(input));
            }
            let lap = Marks::stop(watch, mark);
            outputs.clear();
            watch.reading(lap)
        });
    }

    /// Times `routine` on inputs made by `setup` and lent to it by mutable reference: building
    /// the inputs and dropping them and the outputs are not timed. Each unit's inputs are built
    /// together, up to 4096 at once ([`BatchSize::SmallInput`]).
    ///
    /// ```
    /// #[pilot::bench]
    /// fn clear_map(b: &mut pilot::Bencher) {
    ///     // Building the maps, and dropping them once cleared, are not timed: only `clear` is.
    ///     b.iter_batched_ref(
    ///         || (0..1000u32).map(|i| (i, i)).collect::<std::collections::HashMap<_, _>>(),
    ///         |map| map.clear(),
    ///     );
    /// }
    /// # fn main() {}
    /// ```
    pub fn iter_batched_ref<I, O>(
        &mut self,
        setup: impl FnMut() -> I,
        routine: impl FnMut(&mut I) -> O,
    ) {
        self.iter_batched_ref_with(setup, routine, BatchSize::SmallInput);
    }

    /// [`iter_batched_ref`](Bencher::iter_batched_ref) with `size` saying how many inputs a unit
    /// holds.
    pub fn iter_batched_ref_with<I, O>(
        &mut self,
        mut setup: impl FnMut() -> I,
        mut routine: impl FnMut(&mut I) -> O,
        size: BatchSize,
    ) {
        let mut inputs: Vec<I> = Vec::new();
        let mut outputs: Vec<O> = Vec::new();
        let watch = self.watch;
        drive!(self, UnitLimit::batched(size), |iters, Marks| {
            inputs.extend((0..iters).map(|_| setup()));
            black_box(&mut inputs);
            if std::mem::needs_drop::<O>() {
                outputs.reserve(iters as usize);
            }
            let mark = Marks::start(watch);
            for input in inputs.iter_mut() {
                keep(&mut outputs, routine(input));
            }
            let lap = Marks::stop(watch, mark);
            outputs.clear();
            inputs.clear();
            watch.reading(lap)
        });
    }

    /// Lets `routine` time the unit itself: pilot calls it with the unit's iteration count
    /// `iters`, and the [`Duration`] it returns is the unit reading (pilot reads no clock).
    ///
    /// The routine must time exactly the `iters` iterations it means to measure, and leave
    /// its own setup, teardown and anything else out of the returned duration: pilot cannot tell
    /// what the duration covers. Calibration calls it too, with growing `iters`, to find a count
    /// whose duration reaches the unit target. Useful where the work happens elsewhere (another
    /// thread or process, a device) or needs a clock of its own.
    ///
    /// ```
    /// use std::time::Instant;
    ///
    /// #[pilot::bench]
    /// fn spawn_thread(b: &mut pilot::Bencher) {
    ///     b.iter_custom(|iters| {
    ///         let start = Instant::now();
    ///         for _ in 0..iters {
    ///             std::thread::spawn(|| ()).join().unwrap();
    ///         }
    ///         start.elapsed()
    ///     });
    /// }
    /// # fn main() {}
    /// ```
    pub fn iter_custom(&mut self, mut routine: impl FnMut(u64) -> Duration) {
        drive!(self, UnitLimit::Any, |iters, Marks| {
            Marks::custom();
            let d = routine(iters);
            Marks::custom();
            custom_reading(d)
        });
    }

    /// Whether the bench function called an `iter` method.
    pub(crate) fn was_called(&self) -> bool {
        self.called
    }

    /// Iterations per unit found in calibration mode.
    pub(crate) fn calibrated_iters(&self) -> Option<u64> {
        self.calibrated
    }

    /// What the units of the measured call held.
    pub(crate) fn unit_shape(&self) -> UnitShape {
        UnitShape {
            iters: self.unit_iters,
            may_grow: self.limit.may_grow(),
        }
    }

    /// Wall time per iteration of the measured call's units, their inputs' making included
    /// (`None` before any unit).
    pub(crate) fn wall_per_iter_ns(&self) -> Option<f64> {
        let iterations = self.readings.len() as f64 * self.unit_iters.max(1) as f64;
        (iterations > 0.0).then(|| self.wall_ns / iterations)
    }

    /// The unit readings in nanoseconds (whole units, not per iteration).
    pub(crate) fn take_readings(&mut self) -> Vec<f64> {
        std::mem::take(&mut self.readings)
    }

    /// What the measured call's units allocated (whole units, not per iteration), when a
    /// `CountingAlloc` counted every one of them (`iter_custom`'s are not counted).
    pub(crate) fn take_allocations(&mut self) -> Option<AllocationReadings> {
        (self.called && self.counted).then(|| std::mem::take(&mut self.allocations))
    }
}

/// The iterations in each unit of a measured call: the runner's count, or fewer where the batch
/// size holds fewer inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct UnitShape {
    pub(crate) iters: u64,
    /// Whether later units may hold more iterations: false for the batch sizes that fix a
    /// unit's length.
    pub(crate) may_grow: bool,
}

#[cfg(test)]
mod tests;
