//! The full form's recorder: the workload marks each work unit, pilot times it.

use std::hint::black_box;
use std::time::Instant;

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
/// the workload times more units than its work amount.
pub struct Recorder {
    readings: Vec<u64>,
    /// `false` in the rounds that measure what recording costs, and in a process that counts
    /// instructions: units run without reading the clock.
    recording: bool,
    /// In a process under callgrind (`counting`): each unit runs between two switches of
    /// callgrind's collection, and is counted here, not timed.
    counting: bool,
    counted: u64,
}

impl Recorder {
    /// A recorder with room for `units` readings.
    pub(crate) fn with_capacity(units: u64) -> Self {
        Recorder {
            readings: Vec::with_capacity(units.min(1 << 26) as usize),
            recording: true,
            counting: false,
            counted: 0,
        }
    }

    /// A recorder that runs units without timing them (the instrumentation overhead's
    /// reference rounds).
    pub(crate) fn not_recording() -> Self {
        Recorder {
            readings: Vec::new(),
            recording: false,
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
        if !self.recording {
            return self.unrecorded(f);
        }
        let start = Instant::now();
        let out = black_box(f());
        let end = Instant::now();
        self.readings
            .push(end.saturating_duration_since(start).as_nanos() as u64);
        out
    }

    /// A unit that is not timed: run as it is, or between two switches of callgrind's
    /// collection when counting. Only this branch of [`unit`](Recorder::unit) knows about
    /// counting, so the timed path is what it was without it.
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

    /// Units counted so far (a counting recorder).
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
    }

    /// The readings in nanoseconds, leaving the recorder empty.
    pub(crate) fn take(&mut self) -> Vec<u64> {
        std::mem::take(&mut self.readings)
    }
}

/// A recorder outside any session, with room for `units` readings, for pilot's own benches of
/// what recording costs (`pilot/benches/overhead.rs`).
pub fn recorder(units: u64) -> Recorder {
    Recorder::with_capacity(units)
}

/// Forgets the readings of a recorder made by [`recorder`], keeping its buffer.
pub fn clear_recorder(rec: &mut Recorder) {
    rec.clear();
}
