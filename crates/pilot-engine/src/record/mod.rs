//! Taking unit readings: the [`Recorder`] of the full form, the [`Bencher`] sugar of the micro
//! form (with its [`BatchSize`] and async forms), the [`Timer`] that times units (`Instant` or
//! the TSC), and the [`Clock`] seam through which the session sees time; and in a process under
//! callgrind, counting units' instructions instead through Valgrind's client requests
//! ([`callgrind`]).
//!
//! Everything on the timing path is kept to a clock read on each side of the unit and a push
//! into a buffer reserved before the round: no allocation, lock or output while a unit runs.
//! With a [`CountingAlloc`](crate::allocations::CountingAlloc) installed, the thread's
//! allocation counts are read too, outside the two clock reads.

mod async_bencher;
mod batch;
mod bencher;
mod calibration;
pub(crate) mod callgrind;
mod clock;
mod recorder;
mod timer;

pub use async_bencher::{AsyncBencher, AsyncExecutor, BlockingExecutor};
pub use batch::BatchSize;
pub use bencher::Bencher;
pub(crate) use bencher::{BencherMode, UnitShape, most_within};
pub(crate) use clock::measure_timer;
pub use clock::{Clock, ClockInfo, RealClock, measure_clock};
pub use recorder::{AllocationReadings, Recorder, clear_recorder, recorder, recorder_timed_by};
pub(crate) use timer::Stopwatch;
pub use timer::{Timer, Tsc};

#[cfg(test)]
pub(crate) use clock::ScriptedClock;
