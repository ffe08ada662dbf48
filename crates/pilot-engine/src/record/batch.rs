//! How many inputs a batched routine's unit holds: the [`BatchSize`] a bench chooses, and the
//! limits it puts on calibration and on each round's units.

/// How many inputs [`Bencher::iter_batched_with`](crate::Bencher::iter_batched_with) and
/// [`Bencher::iter_batched_ref_with`](crate::Bencher::iter_batched_ref_with) build ahead of one
/// timed work unit.
///
/// A batched unit is one batch: its inputs are all built by `setup` before the unit's first clock
/// read and its outputs (and, by reference, its inputs) dropped after the second, so the inputs of
/// a unit live in memory together, and every batch costs two clock reads. Fewer inputs per unit
/// hold less memory but make the unit shorter; once a unit is shorter than pilot's target
/// (200× the cost of its two clock reads), reading the clock takes more than 0.5% of each unit
/// reading and pilot's `clock_overhead` check reports the share above 1%. The variants mean what
/// criterion's do; the numbers below are pilot's.
///
/// ```
/// use pilot::BatchSize;
///
/// #[pilot::bench]
/// fn sum_64mib(b: &mut pilot::Bencher) {
///     // Each input is 64 MiB: at most a few of them may exist at once.
///     b.iter_batched_with(
///         || vec![1u8; 64 << 20],
///         |v| v.iter().map(|&x| x as u64).sum::<u64>(),
///         BatchSize::LargeInput,
///     );
/// }
/// # fn main() {}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BatchSize {
    /// Inputs are small enough that thousands may be held at once: a unit holds as many as make
    /// it long enough for the clock, up to 4096, and fewer (one at least) where building them
    /// would take longer than a quarter of a process's share of the time cap and 1000 unit
    /// targets (a millisecond at least):
    /// inputs that cost far more than the routine buy more units, not longer ones. What the
    /// two-argument
    /// [`iter_batched`](crate::Bencher::iter_batched) uses; prefer it unless memory says
    /// otherwise.
    SmallInput,
    /// Inputs (or outputs) are large: a unit holds at most 8 of them. A routine shorter than
    /// an eighth of the unit target then gets units shorter than that target, and a larger share
    /// of clock cost in each reading.
    LargeInput,
    /// Each input is very large or holds a scarce resource: one input at a time, one iteration
    /// per unit. Every reading then carries the cost of two clock reads, so a routine shorter
    /// than 200 clock reads gets a clock share above 1%, which pilot's `clock_overhead` check
    /// reports.
    PerIteration,
    /// The iterations calibration finds for one unit (at most 4096) split into this many units
    /// of their own: each unit holds 1/n of the inputs and lasts 1/n of the unit target, so the
    /// clock's share of a reading grows about n-fold. Must not be 0.
    NumBatches(u64),
    /// Exactly this many iterations, and inputs, in every unit, however long that makes the
    /// unit. Must not be 0.
    NumIterations(u64),
}

/// Most inputs a `SmallInput` unit holds (and what `NumBatches` divides).
pub(crate) const SMALL_BATCH: u64 = 4096;
/// Most inputs a `LargeInput` unit holds.
pub(crate) const LARGE_BATCH: u64 = 8;

/// What a timed routine allows its units to hold: any number of iterations (`iter`,
/// `iter_custom`), or a batch size's inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UnitLimit {
    /// Iterations build no inputs ahead of the unit: any count goes.
    Any,
    /// Each unit is one batch of inputs.
    Batched(BatchSize),
}

impl UnitLimit {
    /// The limit of a batched routine; panics (failing the bench with this message) on a batch
    /// size of 0, as nothing could be timed.
    pub(crate) fn batched(size: BatchSize) -> Self {
        match size {
            BatchSize::NumBatches(0) => {
                panic!("`BatchSize::NumBatches(0)` splits a unit into no batch")
            }
            BatchSize::NumIterations(0) => {
                panic!("`BatchSize::NumIterations(0)` times no iteration")
            }
            _ => UnitLimit::Batched(size),
        }
    }

    /// Most iterations calibration may put in one unit while looking for the unit target.
    pub(crate) fn calibration_max(self) -> u64 {
        match self {
            UnitLimit::Any => u64::MAX,
            UnitLimit::Batched(size) => match size {
                BatchSize::SmallInput | BatchSize::NumBatches(_) => SMALL_BATCH,
                BatchSize::LargeInput => LARGE_BATCH,
                BatchSize::PerIteration => 1,
                BatchSize::NumIterations(n) => n,
            },
        }
    }

    /// Iterations per unit once calibration found that `wanted` (at most
    /// [`calibration_max`](Self::calibration_max)) reach the unit target.
    pub(crate) fn per_unit(self, wanted: u64) -> u64 {
        match self {
            UnitLimit::Batched(BatchSize::NumBatches(n)) => wanted.div_ceil(n),
            UnitLimit::Batched(BatchSize::NumIterations(n)) => n,
            _ => wanted,
        }
    }

    /// Iterations per unit when the runner asks for `iters`: as many, within the batch size.
    pub(crate) fn clamp(self, iters: u64) -> u64 {
        match self {
            UnitLimit::Any => iters,
            UnitLimit::Batched(size) => match size {
                BatchSize::SmallInput => iters.min(SMALL_BATCH),
                BatchSize::LargeInput => iters.min(LARGE_BATCH),
                BatchSize::PerIteration => 1,
                BatchSize::NumBatches(n) => iters.min(SMALL_BATCH.div_ceil(n)),
                BatchSize::NumIterations(n) => n,
            },
        }
    }

    /// Whether the runner may lengthen units when they turn out shorter than the unit target
    /// (a routine that sped up after calibration); the fixed sizes keep their length.
    pub(crate) fn may_grow(self) -> bool {
        matches!(
            self,
            UnitLimit::Any | UnitLimit::Batched(BatchSize::SmallInput | BatchSize::LargeInput)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_size_bounds_the_inputs_of_a_unit() {
        let small = UnitLimit::batched(BatchSize::SmallInput);
        assert_eq!((small.calibration_max(), small.per_unit(300)), (4096, 300));
        assert_eq!((small.clamp(10_000), small.clamp(7)), (4096, 7));
        let large = UnitLimit::batched(BatchSize::LargeInput);
        assert_eq!((large.calibration_max(), large.clamp(100)), (8, 8));
        let one = UnitLimit::batched(BatchSize::PerIteration);
        assert_eq!((one.calibration_max(), one.clamp(100)), (1, 1));
        // 4096 wanted in 3 batches: 1366, 1366 and 1364 in criterion; a pilot unit is one batch.
        let thirds = UnitLimit::batched(BatchSize::NumBatches(3));
        assert_eq!(
            (thirds.per_unit(4096), thirds.clamp(1_000_000)),
            (1366, 1366)
        );
        assert_eq!(thirds.per_unit(10), 4);
        let five = UnitLimit::batched(BatchSize::NumIterations(5));
        assert_eq!(
            (five.per_unit(4096), five.clamp(1), five.calibration_max()),
            (5, 5, 5)
        );
        assert!(UnitLimit::Any.may_grow() && large.may_grow());
        assert!(!one.may_grow() && !thirds.may_grow() && !five.may_grow());
        assert_eq!(UnitLimit::Any.clamp(1 << 40), 1 << 40);
    }

    #[test]
    #[should_panic(expected = "NumIterations(0)")]
    fn zero_iterations_fail_the_bench() {
        UnitLimit::batched(BatchSize::NumIterations(0));
    }
}
