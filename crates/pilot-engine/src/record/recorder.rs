//! The full form's recorder: the workload marks each work unit, pilot times it (and counts
//! what it allocates, when a [`CountingAlloc`](crate::allocations::CountingAlloc) is
//! installed).

use std::hint::black_box;

use super::timer::{Stopwatch, Timer};

/// Times the work units of one round of a full-form bench.
///
/// ```
/// # fn expensive_setup() -> Vec<u8> { vec![0; 16] }
/// # fn process(_: &[u8]) {}
/// fn checksum(work: u64, rec: &mut pilot::Recorder) {
///     let data = expensive_setup(); // not timed: outside every unit
///     for _ in 0..work {
///         rec.unit(|| process(&data));
///     }
/// }
/// ```
///
/// Each [`unit`](Recorder::unit) costs two clock reads and a store into a buffer reserved for
/// the round's work amount before the round starts: nothing allocates while units run, unless
/// the workload times more units than its work amount. With a
/// [`CountingAlloc`](crate::allocations::CountingAlloc) it also reads the thread's allocation
/// counts on each side (outside the two clock reads) and stores two more numbers.
pub struct Recorder {
    /// Each unit's duration, in the timer's raw units.
    readings: Vec<u64>,
    /// Each unit's allocations, when counting.
    allocations: AllocationReadings,
    /// `None` in the rounds that measure what recording costs: units run without reading
    /// the clock.
    watch: Option<Stopwatch>,
    /// In a process under callgrind (`counting`): each unit runs between two switches of
    /// callgrind's collection, and is counted here, not timed.
    counting: bool,
    counted: u64,
}

/// What the units of a round allocated, as a
/// [`CountingAlloc`](crate::allocations::CountingAlloc) counted it on their thread: each
/// timed unit's allocations and bytes, and the round's reallocations and deallocations.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AllocationReadings {
    /// Allocations (`alloc`, `alloc_zeroed`, `realloc`) of each timed unit.
    pub allocations: Vec<u64>,
    /// Bytes those allocations asked for, per timed unit.
    pub bytes: Vec<u64>,
    /// Reallocations over all the units (counted among `allocations` too).
    pub reallocations: u64,
    /// Deallocations over all the units.
    pub deallocations: u64,
}

impl AllocationReadings {
    /// Room for `units` units.
    pub(crate) fn with_capacity(units: usize) -> Self {
        AllocationReadings {
            allocations: Vec::with_capacity(units),
            bytes: Vec::with_capacity(units),
            reallocations: 0,
            deallocations: 0,
        }
    }

    /// Adds one unit's counts.
    #[inline(always)]
    pub(crate) fn push(&mut self, c: crate::allocations::Counts) {
        self.allocations.push(c.allocations);
        self.bytes.push(c.bytes);
        self.reallocations += c.reallocations;
        self.deallocations += c.deallocations;
    }

    /// Forgets the counts, keeping the buffers.
    pub(crate) fn clear(&mut self) {
        self.allocations.clear();
        self.bytes.clear();
        self.reallocations = 0;
        self.deallocations = 0;
    }

    /// Appends `other`'s units (another thread's of the same round).
    pub(crate) fn extend(&mut self, other: AllocationReadings) {
        self.allocations.extend(other.allocations);
        self.bytes.extend(other.bytes);
        self.reallocations += other.reallocations;
        self.deallocations += other.deallocations;
    }
}

/// Most units a round's buffers are reserved for up front.
const MOST_RESERVED: u64 = 1 << 26;

impl Recorder {
    /// A recorder with room for `units` readings, timing with `Instant`.
    pub(crate) fn with_capacity(units: u64) -> Self {
        Recorder::timed(units, Stopwatch::instant())
    }

    /// A recorder with room for `units` readings, timing (and counting) with `watch`.
    pub(crate) fn timed(units: u64, watch: Stopwatch) -> Self {
        let room = units.min(MOST_RESERVED) as usize;
        Recorder {
            readings: Vec::with_capacity(room),
            allocations: if watch.counting {
                AllocationReadings::with_capacity(room)
            } else {
                AllocationReadings::default()
            },
            watch: Some(watch),
            counting: false,
            counted: 0,
        }
    }

    /// A recorder that runs units without timing them (the instrumentation overhead's
    /// reference rounds).
    pub(crate) fn not_recording() -> Self {
        Recorder {
            readings: Vec::new(),
            allocations: AllocationReadings::default(),
            watch: None,
            counting: false,
            counted: 0,
        }
    }

    /// A recorder that runs each unit with callgrind's collection switched on around it, and
    /// counts the units (a process that counts instructions under callgrind).
    pub(crate) fn counting() -> Self {
        Recorder {
            counting: true,
            ..Recorder::not_recording()
        }
    }

    /// Runs `f` as one work unit and records how long it took. Returns what `f` returns, passed
    /// through [`black_box`] so the optimiser cannot drop the work.
    #[inline(always)]
    pub fn unit<R>(&mut self, f: impl FnOnce() -> R) -> R {
        let Some(watch) = self.watch else {
            return self.unrecorded(f);
        };
        let mark = watch.start();
        let out = black_box(f());
        let lap = watch.stop(mark);
        self.readings.push(lap.raw);
        if watch.counting {
            self.allocations.push(lap.counts);
        }
        out
    }

    /// Runs `f` as a unit that is not timed: between callgrind's switches when counting,
    /// else plainly (the instrumentation overhead's reference rounds).
    #[inline(always)]
    fn unrecorded<R>(&mut self, f: impl FnOnce() -> R) -> R {
        if self.counting {
            self.counted += 1;
            super::callgrind::toggle_collect();
            let out = black_box(f());
            super::callgrind::toggle_collect();
            return out;
        }
        black_box(f())
    }

    /// How many units a counting recorder ran.
    pub(crate) fn counted(&self) -> u64 {
        self.counted
    }

    /// Number of units recorded so far in this round.
    pub fn units(&self) -> usize {
        self.readings.len()
    }

    /// Forgets the readings, keeping the buffer.
    pub(crate) fn clear(&mut self) {
        self.readings.clear();
        self.allocations.clear();
    }

    /// The readings in nanoseconds, leaving the recorder empty.
    pub(crate) fn take(&mut self) -> Vec<f64> {
        let timer = self.watch.map_or(Timer::Instant, |w| w.timer);
        std::mem::take(&mut self.readings)
            .into_iter()
            .map(|raw| timer.ns(raw))
            .collect()
    }

    /// What the units allocated, when a `CountingAlloc` counted them; leaves them empty.
    pub(crate) fn take_allocations(&mut self) -> Option<AllocationReadings> {
        self.watch
            .is_some_and(|w| w.counting)
            .then(|| std::mem::take(&mut self.allocations))
    }
}

/// A recorder outside any session, with room for `units` readings, for pilot's own benches of
/// what recording costs (`crates/pilot/benches/overhead.rs`).
pub fn recorder(units: u64) -> Recorder {
    Recorder::with_capacity(units)
}

/// [`recorder`] timing with `timer`.
pub fn recorder_timed_by(units: u64, timer: Timer) -> Recorder {
    Recorder::timed(units, Stopwatch::new(timer))
}

/// Forgets the readings of a recorder made by [`recorder`], keeping its buffer.
pub fn clear_recorder(rec: &mut Recorder) {
    rec.clear();
}
