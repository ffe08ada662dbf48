//! The machine's state while a session runs (Pilot paper §III-B): the kernel's cumulative
//! counters are read between rounds (at most every [`PERIOD`]), and after the session each
//! round is given the state of the intervals it overlapped. A busy machine (other processes
//! taking a real share of the cores), CPU steal, cgroup throttling, or a saturated disk or
//! network link is a named check with its figures, and the rounds it touched are marked.
//!
//! The counters are read on the bench's own thread between rounds, not by a thread of their
//! own: a second thread would take glibc's allocator off its single-thread fast path for the
//! rest of the process (about 10 ns more per allocation, in every bench that allocates), and on
//! a machine of few cores it would compete with the bench for them. The counters are
//! cumulative, so a round's figures are exact over the intervals around it whatever the period.
//! A sample reads five small files and this process's CPU clock (about 60 µs here) into buffers kept from the start, so it
//! allocates nothing and takes no time inside a round.
//!
//! Linux only: elsewhere nothing is sampled, and the result says so.
//!
//! [`counters`] reads the kernel's counters, [`interval`](mod@interval) turns two samples into the state
//! between them, [`judge`](mod@judge) gives each round its state and the session its checks.

use std::time::{Duration, Instant};

mod counters;
mod interval;
mod judge;

use counters::{Sample, devices, read_sample};
use interval::interval;

pub(crate) use counters::{Devices, cpu_counters};
pub(crate) use interval::Interval;
pub(crate) use judge::{MARKED_KINDS, judge, judge_marked, mark};

/// Least time between samples.
pub(crate) const PERIOD: Duration = Duration::from_millis(20);

/// Intervals a sampler has room for before its buffer grows (over a minute of 20 ms rounds).
const CAPACITY: usize = 4096;

/// A sampler of the machine's state: read at the start and then between rounds, never on the
/// timing path.
pub(crate) struct Sampler {
    origin: Instant,
    devices: Devices,
    buf: String,
    previous: Sample,
    current: Sample,
    intervals: Vec<Interval>,
    cores: f64,
    /// Clock ticks a second, the unit of /proc/stat's counts.
    ticks: f64,
    /// Bytes the samples have read so far (see [`Sample::sampler_bytes`]).
    read: u64,
}

impl Sampler {
    /// Takes the first sample now (time 0 of the samples' `at`); `None` where /proc/stat
    /// cannot be read (not Linux).
    pub(crate) fn start() -> Option<Sampler> {
        let origin = Instant::now();
        let devices = devices();
        let mut buf = String::with_capacity(64 << 10);
        let mut previous = Sample::default();
        let mut read = 0;
        read_sample(Duration::ZERO, &devices, &mut buf, &mut previous, &mut read)?;
        Some(Sampler {
            origin,
            current: previous.clone(),
            previous,
            devices,
            buf,
            intervals: Vec::with_capacity(CAPACITY),
            cores: std::thread::available_parallelism().map_or(1.0, |n| n.get() as f64),
            // SAFETY: sysconf only reads a constant of the system.
            ticks: unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64,
            read,
        })
    }

    /// When the sampler started: the samples' times are measured from here.
    pub(crate) fn origin(&self) -> Instant {
        self.origin
    }

    /// Called between rounds: reads a sample if [`PERIOD`] has passed since the last one, so
    /// rounds shorter than that share an interval. About 60 µs when it reads; no allocation.
    pub(crate) fn tick(&mut self) {
        let at = self.origin.elapsed();
        if at.saturating_sub(self.previous.at) >= PERIOD {
            self.sample(at);
        }
    }

    fn sample(&mut self, at: Duration) {
        let read = &mut self.read;
        if read_sample(at, &self.devices, &mut self.buf, &mut self.current, read).is_some() {
            self.intervals.push(interval(
                &self.previous,
                &self.current,
                &self.devices,
                self.cores,
                self.ticks,
            ));
            std::mem::swap(&mut self.previous, &mut self.current);
        }
    }

    /// Takes a last sample and returns the intervals between samples, with the devices their
    /// indices name.
    pub(crate) fn finish(mut self) -> (Vec<Interval>, Devices) {
        let at = self.origin.elapsed();
        if at > self.previous.at {
            self.sample(at);
        }
        (self.intervals, self.devices)
    }
}
