//! The clock: what a session reads to decide when to stop, and what it costs to read.

use std::time::{Duration, Instant};

/// Time as a session sees it, since the session began. The real clock reads `Instant`; tests
/// script it, so the planner and stopping rule are checked without waiting for real time.
pub trait Clock {
    /// Time elapsed since the clock was started.
    fn now(&self) -> Duration;
}

/// The wall clock (`std::time::Instant`, monotonic).
pub struct RealClock {
    start: Instant,
}

impl RealClock {
    /// A clock whose time 0 is now.
    pub fn start() -> Self {
        RealClock {
            start: Instant::now(),
        }
    }
}

impl Clock for RealClock {
    fn now(&self) -> Duration {
        self.start.elapsed()
    }
}

/// A clock that moves only when told to: scripted workloads advance it by the durations they
/// pretend to take.
#[cfg(test)]
#[derive(Clone, Default)]
pub(crate) struct ScriptedClock {
    now: std::rc::Rc<std::cell::Cell<Duration>>,
}

#[cfg(test)]
impl ScriptedClock {
    pub(crate) fn advance(&self, by: Duration) {
        self.now.set(self.now.get() + by);
    }
}

#[cfg(test)]
impl Clock for ScriptedClock {
    fn now(&self) -> Duration {
        self.now.get()
    }
}

/// The timer that times units, and the cost and resolution of reading it on this machine.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ClockInfo {
    /// Nanoseconds one read costs (median over batches of back-to-back reads).
    pub(crate) overhead_ns: f64,
    /// Smallest non-zero difference seen between two successive reads, in nanoseconds.
    pub(crate) resolution_ns: f64,
    /// The timer read: `Instant`, or the TSC with its calibration.
    pub(crate) timer: super::Timer,
}

/// Measures [`ClockInfo`] of `Instant` (see [`measure_timer`]).
pub fn measure_clock() -> ClockInfo {
    measure_timer(super::Timer::Instant)
}

/// Measures [`ClockInfo`] of `timer`: 21 batches of 1 000 back-to-back reads, the median batch
/// gives the cost of one read (robust to a preemption in one batch); the resolution is the
/// smallest non-zero step between two successive reads of 10 000 (so never below what a read
/// costs, for a clock finer than its reads). Takes about a millisecond.
pub(crate) fn measure_timer(timer: super::Timer) -> ClockInfo {
    const READS: u32 = 1000;
    let mut per_read: Vec<f64> = (0..21)
        .map(|_| timer.ns(timer.span_of_reads(READS)) / f64::from(READS))
        .collect();
    per_read.sort_by(f64::total_cmp);
    let step = timer.least_step(10_000);
    ClockInfo {
        overhead_ns: per_read[per_read.len() / 2],
        resolution_ns: if step == u64::MAX {
            1.0
        } else {
            timer.ns(step)
        },
        timer,
    }
}
