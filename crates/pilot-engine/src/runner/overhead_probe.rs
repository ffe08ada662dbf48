//! The instrumentation overhead's probe: blocks of short rounds with unit recording on and
//! off, run between a full-form bench's rounds, within a sixth of the session's time, until
//! their interval is as narrow as its target (the method: [`crate::checks::overhead`]).

use std::time::{Duration, Instant};

use super::panics::catch;
use crate::checks::overhead::{self, Block};
use crate::record::{Recorder, Stopwatch};

/// A full-form bench's body: `f(arg, work, rec)`.
type FullBody = fn(usize, u64, &mut Recorder);

/// What the probe has gathered in a session, and what it needs to plan the next blocks.
pub(super) struct OverheadProbe {
    /// Cost of one clock read, ns.
    clock_ns: f64,
    /// Confidence level of the interval.
    confidence: f64,
    /// When the session started: the blocks may take [`overhead::BUDGET_SHARE`] of its time.
    started: Instant,
    /// Time the blocks took so far.
    spent: Duration,
    /// The last session round: its work amount, mean unit reading (ns) and the time it spent
    /// outside its units (its setup, ns).
    last: Option<(u64, f64, f64)>,
    /// The latest mean unit reading, ns: the target is a share of it.
    unit_ns: f64,
    /// Each block's difference per unit, ns.
    differences: Vec<f64>,
    /// Each sample's (two consecutive blocks'), ns.
    pub(super) samples: Vec<f64>,
    /// Whether the next block runs its recording-off rounds first (B A A B).
    off_first: bool,
    /// Whether the interval reached its target: no more blocks.
    done: bool,
}

impl OverheadProbe {
    /// A probe for a session starting now, reading a clock whose read costs `clock_ns`.
    pub(super) fn new(clock_ns: f64, confidence: f64) -> Self {
        OverheadProbe {
            clock_ns,
            confidence,
            started: Instant::now(),
            spent: Duration::ZERO,
            last: None,
            unit_ns: 0.0,
            differences: Vec::new(),
            samples: Vec::new(),
            off_first: false,
            done: false,
        }
    }

    /// Takes a session round of `work` units whose `readings` (ns) it timed, and which took
    /// `round_ns` from the call to its return. Its setup is what the round took beyond its
    /// readings and their recording (two clock reads a unit, the part of recording that no
    /// reading holds; on a round of many short units, far more than a short setup, which it
    /// would otherwise pass for).
    pub(super) fn saw_round(&mut self, work: u64, readings: &[f64], round_ns: f64) {
        if readings.is_empty() {
            return;
        }
        let sum: f64 = readings.iter().sum();
        let unit_ns = sum / readings.len() as f64;
        self.unit_ns = unit_ns;
        let recording = readings.len() as f64 * 2.0 * self.clock_ns;
        self.last = Some((work, unit_ns, (round_ns - sum - recording).max(0.0)));
    }

    /// Time the blocks took so far.
    pub(super) fn spent(&self) -> Duration {
        self.spent
    }

    /// The half-width the interval aims at for the latest unit.
    fn target_ns(&self) -> f64 {
        overhead::target_ns(self.unit_ns, self.clock_ns)
    }

    /// The work amount of the next blocks' rounds, when blocks should run after the last
    /// round: units of about [`overhead::PROBE_ROUND_NS`] in all, or five times the setup when
    /// that is longer (so the setup stays a sixth of a round), never more than the last round's
    /// work. `None` when the target is reached, no round was seen since the last blocks, or the
    /// clock's two reads are under [`overhead::MIN_CLOCK_SHARE`] of a unit.
    fn next_work(&mut self) -> Option<u64> {
        let (work, unit_ns, setup_ns) = self.last.take()?;
        if self.done || unit_ns <= 0.0 || 2.0 * self.clock_ns < overhead::MIN_CLOCK_SHARE * unit_ns
        {
            return None;
        }
        let units_ns = overhead::PROBE_ROUND_NS.max(5.0 * setup_ns);
        Some(((units_ns / unit_ns).ceil() as u64).clamp(1, work.max(1)))
    }

    /// Whether the blocks may take more time: under [`overhead::BUDGET_SHARE`] of the session's.
    fn has_budget(&self) -> bool {
        self.spent.as_secs_f64() < overhead::BUDGET_SHARE * self.started.elapsed().as_secs_f64()
    }

    /// Takes a block's difference; with its pair, a sample; looks whether the interval reached
    /// its target when a look is due ([`overhead::due`]).
    fn add(&mut self, block: &Block) {
        self.differences.push(block.difference());
        if !self.differences.len().is_multiple_of(2) {
            return;
        }
        let pair = &self.differences[self.differences.len() - 2..];
        self.samples.push(overhead::samples(pair)[0]);
        if overhead::due(self.samples.len()) {
            self.done = overhead::reached(&self.samples, self.confidence, self.target_ns());
        }
    }

    /// After a session round of bench `f` (argument `arg`): blocks while their budget lasts and
    /// the target is not reached, recording with `watch` in the recording-on rounds.
    pub(super) fn run_blocks(&mut self, f: FullBody, arg: usize, watch: Stopwatch) {
        let Some(work) = self.next_work() else {
            return;
        };
        while self.has_budget() && !self.done && !crate::session::stop_request::requested() {
            let began = Instant::now();
            let block = run_block(f, arg, work, watch, self.off_first);
            self.spent += began.elapsed();
            self.off_first = !self.off_first;
            match block {
                Some(block) => self.add(&block),
                // A panicking block: the session's own rounds will report the panic.
                None => return,
            }
        }
    }
}

/// One block of four rounds of `work` units: A B B A with A recording on, or B A A B when
/// `off_first`. Each round is timed whole with `Instant`; `None` when one panicked.
fn run_block(
    f: FullBody,
    arg: usize,
    work: u64,
    watch: Stopwatch,
    off_first: bool,
) -> Option<Block> {
    let timed = |recording: bool| -> Option<f64> {
        // The recorder's buffer is reserved before the clock starts, as in a session round.
        let mut rec = if recording {
            Recorder::timed(work, watch)
        } else {
            Recorder::not_recording()
        };
        let start = Instant::now();
        catch(|| f(arg, work, &mut rec)).ok()?;
        Some(start.elapsed().as_nanos() as f64)
    };
    // What the block's calls leave allocated is not the session's rounds' doing: the leak check
    // counts it as pilot's own (a leak per call would otherwise look larger per round by the
    // blocks' share).
    let before = crate::checks::memory::read().held;
    let first = !off_first;
    let a = timed(first)?;
    let b = timed(!first)?;
    let c = timed(!first)?;
    let d = timed(first)?;
    if let (Some(x), Some(y)) = (before, crate::checks::memory::read().held) {
        crate::checks::memory::keep((y - x) as i64);
    }
    let (on_ns, off_ns) = if first {
        ([a, d], [b, c])
    } else {
        ([b, c], [a, d])
    };
    Some(Block {
        work,
        on_ns,
        off_ns,
    })
}
