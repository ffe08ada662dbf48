//! The machine's state while a session runs (Pilot paper §III-B): the kernel's cumulative
//! counters are read between rounds (at most every [`PERIOD`]), and after the session each
//! round is given the state of the intervals it overlapped. A busy machine (other processes
//! taking a real share of the cores), CPU steal, cgroup throttling, or a saturated disk or
//! network link is a named check with its figures, and the rounds it touched are marked.
//!
//! The counters are read on the bench's own thread between rounds, not by a thread of their
//! own: a second thread would take glibc's allocator off its single-thread fast path for the
//! rest of the process (its locked, multi-threaded path, in every bench that allocates), and on
//! a machine of few cores it would compete with the bench for them. The counters are
//! cumulative, so a round's figures are exact over the intervals around it whatever the period.
//! A sample reads five small files and this process's CPU clock into buffers kept from the
//! start, between rounds, so it allocates nothing and takes no time inside a round.
//!
//! Linux only: elsewhere nothing is sampled, and the result says so.
//!
//! [`counters`] reads the kernel's counters, [`interval`](mod@interval) turns two samples into the state
//! between them, [`judge`](mod@judge) gives each round its state and the session its checks.
//!
//! [`BusyMeter`] reads the same counters over a span in which this process ran children
//! (`cargo pilot noise`'s processes): their CPU time is this process's, not other processes'.

use std::time::{Duration, Instant};

mod counters;
mod interval;
mod judge;

use counters::{Sample, devices, read_sample};
use interval::interval;

pub(crate) use counters::{Devices, cpu_counters};
pub(crate) use interval::Interval;
pub(crate) use judge::{MARKED_KINDS, judge, judge_marked, marks};

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
    /// rounds shorter than that share an interval. A few system calls when it reads; no
    /// allocation.
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

/// Other processes' load over a span in which this process starts children and waits for them
/// (`cargo pilot noise`): the sampler's counters read at [`start`](Self::start) and at each
/// [`busy`](Self::busy), with the CPU time of this process's children that have been waited
/// for counted as this process's own, so that what is left is other processes'. A child still
/// running when `busy` reads counts as another process.
///
/// Linux only (`None` elsewhere). Each reading reads a few small files under /proc and
/// allocates nothing after the start.
pub struct BusyMeter {
    origin: Instant,
    devices: Devices,
    buf: String,
    first: Sample,
    last: Sample,
    cores: f64,
    ticks: f64,
    read: u64,
}

/// Other processes' load over a span, from [`BusyMeter::busy`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Busy {
    /// The span, seconds.
    pub(crate) seconds: f64,
    /// Cores other processes kept busy on average: the busy cores (/proc/stat's, stolen time
    /// left out) less this process's and its waited-for children's, never below 0.
    pub others_cores: f64,
    /// The machine's cores (those this process may run on).
    pub cores: f64,
    /// Share of the machine's CPU time the hypervisor stole.
    pub steal: f64,
    /// What one clock tick of /proc/stat's counts makes in cores over the span: how far
    /// [`others_cores`](Self::others_cores) can be off by rounding.
    pub(crate) tick_cores: f64,
}

impl BusyMeter {
    /// Reads the counters now: the start of the span. `None` where /proc/stat cannot be read
    /// (not Linux).
    pub fn start() -> Option<BusyMeter> {
        let origin = Instant::now();
        let devices = Devices::default();
        let mut buf = String::with_capacity(16 << 10);
        let mut first = Sample::default();
        let mut read = 0;
        read_sample(Duration::ZERO, &devices, &mut buf, &mut first, &mut read)?;
        first.own_ns += children_cpu_ns();
        Some(BusyMeter {
            origin,
            last: first.clone(),
            first,
            devices,
            buf,
            cores: std::thread::available_parallelism().map_or(1.0, |n| n.get() as f64),
            // SAFETY: sysconf only reads a constant of the system.
            ticks: unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64,
            read,
        })
    }

    /// Other processes' load from the start until now; `None` when the counters cannot be
    /// read again.
    pub fn busy(&mut self) -> Option<Busy> {
        let at = self.origin.elapsed();
        read_sample(
            at,
            &self.devices,
            &mut self.buf,
            &mut self.last,
            &mut self.read,
        )?;
        self.last.own_ns += children_cpu_ns();
        let i = interval(
            &self.first,
            &self.last,
            &self.devices,
            self.cores,
            self.ticks,
        );
        Some(Busy {
            seconds: at.as_secs_f64(),
            others_cores: i.others_cores.max(0.0),
            cores: self.cores,
            steal: i.steal,
            tick_cores: i.tick_cores,
        })
    }
}

/// The CPU time (user and system) of this process's children that have ended and been waited
/// for, ns (`getrusage(RUSAGE_CHILDREN)`, to the microsecond); 0 where it cannot be read.
fn children_cpu_ns() -> u64 {
    // SAFETY: an all-zero rusage is a valid value of the plain C struct, and getrusage only
    // writes into it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is valid for writes.
    if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) } != 0 {
        return 0;
    }
    let us = |t: libc::timeval| (t.tv_sec as u64).saturating_mul(1_000_000) + t.tv_usec as u64;
    us(usage.ru_utime)
        .saturating_add(us(usage.ru_stime))
        .saturating_mul(1000)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_waited_for_child_s_cpu_time_is_this_process_s_own() {
        let before = children_cpu_ns();
        let mut meter = BusyMeter::start().expect("/proc/stat on Linux");
        // A child that keeps a core busy for a while (a shell's loop), waited for.
        let status = std::process::Command::new("sh")
            .args(["-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"])
            .status()
            .unwrap();
        assert!(status.success());
        let spent = children_cpu_ns() - before;
        assert!(spent > 10_000_000, "the child's CPU time: {spent} ns");
        let busy = meter.busy().unwrap();
        assert!(busy.seconds > 0.0 && busy.cores >= 1.0, "{busy:?}");
        // Whatever else the machine runs, the result is a share of its cores: the child's
        // core is not in it twice (busy and own), nor below nothing.
        assert!(
            (0.0..=busy.cores + busy.tick_cores).contains(&busy.others_cores),
            "{busy:?}"
        );
    }
}
