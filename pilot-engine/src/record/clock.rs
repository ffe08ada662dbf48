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

/// The cost and resolution of reading the clock on this machine.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClockInfo {
    /// Nanoseconds one `Instant::now()` costs (median over batches of back-to-back reads).
    pub overhead_ns: f64,
    /// Smallest non-zero difference seen between two successive reads, in nanoseconds.
    pub resolution_ns: f64,
}

/// Measures [`ClockInfo`]: 21 batches of 1 000 back-to-back reads, the median batch gives the
/// cost of one read (robust to a preemption in one batch). Takes about a millisecond.
pub fn measure_clock() -> ClockInfo {
    const READS: u32 = 1000;
    let mut per_read: Vec<f64> = (0..21)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..READS {
                std::hint::black_box(Instant::now());
            }
            start.elapsed().as_nanos() as f64 / f64::from(READS)
        })
        .collect();
    per_read.sort_by(f64::total_cmp);
    let mut resolution = u128::MAX;
    let mut last = Instant::now();
    for _ in 0..10_000 {
        let now = Instant::now();
        let d = (now - last).as_nanos();
        if d > 0 {
            resolution = resolution.min(d);
        }
        last = now;
    }
    ClockInfo {
        overhead_ns: per_read[per_read.len() / 2],
        resolution_ns: if resolution == u128::MAX {
            1.0
        } else {
            resolution as f64
        },
    }
}
