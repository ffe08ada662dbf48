//! A registered bench as the session sees it: rounds of a work amount, panics caught, the
//! micro form's iterations grown as its units shorten; [`measure`] sets one up (calibrated,
//! warmed up) and runs its session.

use std::time::Duration;

mod measure;

pub(super) use measure::{
    Measured, calibrate, failed_session, measure, measure_session, target_unit_ns,
};

use super::overhead_probe::OverheadProbe;
use super::panics::{NEVER_ITERATED, catch};
use super::registry::Bench;
use super::threads;
use crate::checks::sampler::Sampler;
use crate::entry::BenchBody;
use crate::record::{
    Bencher, BencherMode, ClockInfo, RealClock, Recorder, Stopwatch, Timer, UnitShape, most_within,
};
use crate::session::allocations::{RoundAllocations, estimate_allocations};
use crate::session::{
    MachineState, RoundData, SessionConfig, SessionResult, WarmUpWork, Workload, run_session,
};

/// What a session's own checks may spend time on.
#[derive(Debug, Clone, Copy)]
pub(super) struct SessionChecks {
    /// Sample the machine's state between rounds.
    pub(crate) sampling: bool,
    /// Measure the full form's instrumentation overhead.
    pub(crate) overhead: bool,
    /// Cost of one clock read, ns.
    pub(crate) clock_ns: f64,
    /// The clock's resolution, ns: the step of the readings the robust estimate must average.
    pub(crate) resolution_ns: f64,
    /// What times units.
    pub(crate) timer: Timer,
}

impl SessionChecks {
    /// The checks `args` ask for, with the clock's cost.
    pub(super) fn of(args: &crate::cli::Args, clock: ClockInfo) -> Self {
        SessionChecks {
            sampling: !args.no_sampling,
            overhead: !args.no_overhead_check,
            clock_ns: clock.overhead_ns,
            resolution_ns: clock.resolution_ns,
            timer: clock.timer,
        }
    }
}

/// A bench as the session sees it: rounds of a work amount.
pub(super) struct BenchWorkload<'c> {
    body: BenchBody,
    /// The micro form's body of a bench announced at run time (see [`super::driven`]), called
    /// in place of `body`'s function.
    closure: Option<Closure<'c>>,
    /// Index of the argument value (`args`).
    arg: usize,
    /// Threads running each round at once (`threads`).
    threads: usize,
    /// Iterations per unit in the micro form (of the next round).
    pub(super) iters: u64,
    /// Iterations per unit of the last micro-form round.
    last_iters: u64,
    /// Least unit duration in the micro form, so the clock's cost stays under 0.5% of a unit.
    target_unit_ns: u64,
    /// The most wall time a unit's iterations may take, their inputs' making included (see
    /// [`calibrate`]): units grow past the calibrated count only within it.
    inputs_ns: u64,
    /// Wall time per iteration of the last micro-form round, inputs' making included.
    wall_per_iter_ns: Option<f64>,
    /// Why the bench cannot run ([`Bench::broken`]): every round fails with it.
    broken: Option<String>,
    /// Samples the machine's state between rounds, when asked to.
    pub(super) sampler: Option<Sampler>,
    /// Measures the instrumentation overhead between rounds, when asked to (full form).
    pub(super) overhead: Option<OverheadProbe>,
    /// The device the bench declares it saturates (`bottleneck = …`).
    pub(super) bottleneck: Option<&'static str>,
    /// What times units.
    timer: Timer,
    /// What each round's units allocated, one entry per round run (`None` for a round whose
    /// units were not counted): kept when a `CountingAlloc` counts this process's allocations.
    allocations: Vec<Option<RoundAllocations>>,
    /// Bytes those counts hold: pilot's own memory, which the leak check leaves out.
    allocations_bytes: i64,
}

/// A micro-form body that is a closure borrowed for one session, not a registered function.
pub(crate) type Closure<'c> = &'c mut dyn FnMut(&mut Bencher);

impl Workload for BenchWorkload<'_> {
    fn between_rounds(&mut self) {
        if let Some(s) = &mut self.sampler {
            s.tick();
        }
        if let (BenchBody::Full(f), Some(probe)) = (self.body, &mut self.overhead) {
            probe.run_blocks(f, self.arg, Stopwatch::new(self.timer));
        }
    }

    fn start_sampling(&mut self) {
        self.sampler = Sampler::start();
    }

    fn unit_growth(&self) -> f64 {
        self.iters as f64 / self.last_iters.max(1) as f64
    }

    fn round(&mut self, work: u64) -> Result<RoundData, String> {
        if let Some(msg) = &self.broken {
            return Err(msg.clone());
        }
        let arg = self.arg;
        if self.threads > 1 {
            return self.threaded_round(work);
        }
        match self.body {
            BenchBody::Full(f) => {
                let mut rec = Recorder::timed(work, Stopwatch::new(self.timer));
                // Timed whole only for the overhead probe, which sizes its rounds by the setup.
                let began = self.overhead.is_some().then(std::time::Instant::now);
                catch(|| f(arg, work, &mut rec))?;
                let round_ns = began.map(|b| b.elapsed().as_nanos() as f64);
                let readings = rec.take();
                self.keep_allocations(rec.take_allocations(), 1);
                if let (Some(probe), Some(round_ns)) = (&mut self.overhead, round_ns) {
                    probe.saw_round(work, &readings, round_ns);
                }
                Ok(RoundData::Units {
                    readings,
                    iterations: 1,
                })
            }
            BenchBody::Micro(f) => {
                let iters = self.iters;
                let mut b = Bencher::new(BencherMode::Measure { work, iters }).timed_by(self.timer);
                self.call_micro(f, &mut b)?;
                if !b.was_called() {
                    return Err(NEVER_ITERATED.into());
                }
                let shape = b.unit_shape();
                self.wall_per_iter_ns = b.wall_per_iter_ns();
                self.keep_allocations(b.take_allocations(), shape.iters);
                Ok(self.micro_round(b.take_readings(), shape))
            }
            BenchBody::ReadingsOnly(f) => {
                catch(|| f(arg, work))?;
                Ok(RoundData::Whole)
            }
        }
    }
}

impl<'c> BenchWorkload<'c> {
    /// The workload of bench `b`, its micro-form units at least `target_unit_ns` long.
    pub(super) fn new(b: &Bench, target_unit_ns: u64) -> Self {
        BenchWorkload {
            body: b.def.body,
            closure: None,
            arg: b.arg,
            threads: b.threads,
            iters: 1,
            last_iters: 1,
            target_unit_ns,
            inputs_ns: u64::MAX,
            wall_per_iter_ns: None,
            broken: b.broken.clone(),
            sampler: None,
            overhead: None,
            bottleneck: b.def.options.bottleneck,
            timer: Timer::Instant,
            allocations: Vec::new(),
            allocations_bytes: 0,
        }
    }

    /// The same workload timed by `timer`.
    pub(super) fn timed_by(mut self, timer: Timer) -> Self {
        self.timer = timer;
        self
    }

    /// Keeps what a round's units allocated (units of `iterations` each), when they were
    /// counted; a round of a counting process whose units were not (`iter_custom`) is kept as
    /// `None`, so that the entries stay one per round.
    fn keep_allocations(
        &mut self,
        readings: Option<crate::record::AllocationReadings>,
        iterations: u64,
    ) {
        if readings.is_some() || crate::allocations::counting() {
            if let Some(r) = &readings {
                let bytes = (r.allocations.capacity() + r.bytes.capacity()) * 8;
                crate::checks::memory::keep(bytes as i64);
                self.allocations_bytes += bytes as i64;
            }
            self.allocations
                .push(readings.map(|readings| RoundAllocations {
                    readings,
                    iterations,
                }));
        }
    }

    /// Adds to `session` (whose rounds are this workload's, in order) the allocations per unit
    /// of its stable units, when a `CountingAlloc` counted them, with what counting cost.
    pub(super) fn judge_allocations(&mut self, session: &mut SessionResult, confidence: f64) {
        let counted = std::mem::take(&mut self.allocations);
        crate::checks::memory::keep(-std::mem::take(&mut self.allocations_bytes));
        if counted.len() != session.rounds.len() {
            return;
        }
        session.allocations =
            estimate_allocations(&session.rounds, &counted, confidence).map(|e| {
                crate::session::allocations::AllocationsEstimate {
                    cost_ns: crate::allocations::counting_cost(),
                    ..e
                }
            });
    }

    /// The same workload with `closure` as its micro-form body.
    pub(super) fn with_closure(mut self, closure: Option<Closure<'c>>) -> Self {
        self.closure = closure;
        self
    }

    /// Calls the micro form's body (`f`, or the closure that replaces it) with `b`.
    fn call_micro(&mut self, f: fn(usize, &mut Bencher), b: &mut Bencher) -> Result<(), String> {
        let arg = self.arg;
        match &mut self.closure {
            Some(closure) => catch(|| closure(b)),
            None => catch(|| f(arg, b)),
        }
    }

    /// Runs a session of this workload, sampling the machine's state between its rounds when
    /// `checks.sampling`, and measuring the full form's instrumentation overhead when
    /// `checks.overhead` (and judging both after).
    pub(super) fn session(
        &mut self,
        config: &SessionConfig,
        checks: SessionChecks,
        on_estimate: crate::session::OnEstimate<'_>,
    ) -> SessionResult {
        self.sampler = if checks.sampling {
            Sampler::start()
        } else {
            None
        };
        let full = matches!(self.body, BenchBody::Full(_)) && self.threads == 1;
        self.overhead = (checks.overhead && full)
            .then(|| OverheadProbe::new(checks.clock_ns, config.confidence));
        self.timer = checks.timer;
        self.allocations.clear();
        crate::checks::memory::keep(-std::mem::take(&mut self.allocations_bytes));
        let offset = self.sampler.as_ref().map(|s| s.origin().elapsed());
        let config = &SessionConfig {
            resolution_ns: checks.resolution_ns,
            ..config.clone()
        };
        let mut session = run_session(self, &RealClock::start(), config, on_estimate);
        self.judge_allocations(&mut session, config.confidence);
        session.machine_state = Some(match (checks.sampling, self.sampler.take(), offset) {
            (false, ..) => MachineState::Off,
            (true, Some(sampler), Some(offset)) => {
                session.judge_machine(&sampler.finish(), offset, self.bottleneck);
                MachineState::Sampled
            }
            _ => MachineState::NotSampled,
        });
        if let Some(probe) = self.overhead.take() {
            let spent = probe.spent().as_secs_f64();
            session.judge_overhead(&probe.samples, config.confidence, checks.clock_ns, spent);
        }
        session
    }

    /// A round on [`BenchWorkload::threads`] threads at once, unit readings pooled.
    fn threaded_round(&mut self, work: u64) -> Result<RoundData, String> {
        let watch = Stopwatch::new(self.timer);
        let round = threads::Round {
            body: self.body,
            arg: self.arg,
            work,
            iters: self.iters,
            threads: self.threads,
        };
        let (units, shape, allocations) = threads::round(&round, watch)?;
        let iterations = match self.body {
            BenchBody::Micro(_) => shape.map_or(self.iters, |s| s.iters),
            _ => 1,
        };
        self.keep_allocations(allocations, iterations);
        Ok(match self.body {
            BenchBody::ReadingsOnly(_) => RoundData::Whole,
            BenchBody::Full(_) => RoundData::Units {
                readings: units,
                iterations: 1,
            },
            BenchBody::Micro(_) => self.micro_round(
                units,
                shape.unwrap_or(UnitShape {
                    iters: self.iters,
                    may_grow: true,
                }),
            ),
        })
    }

    /// A micro-form round's readings per iteration, from its units of `shape.iters` iterations
    /// each (what the bencher ran, which a batch size can hold below the planned count); then
    /// the count for the next round.
    fn micro_round(&mut self, units: Vec<f64>, shape: UnitShape) -> RoundData {
        self.iters = shape.iters;
        self.last_iters = shape.iters;
        let readings = units.iter().map(|&ns| ns / shape.iters as f64).collect();
        if shape.may_grow {
            self.recalibrate(&units);
        }
        RoundData::Units {
            readings,
            iterations: shape.iters,
        }
    }

    /// Runs the routine unmeasured for `iterations` iterations (units in the full form), in
    /// rounds of doubling work amounts, until they are done, `budget` has passed, or a stop
    /// is requested: the warm-up an earlier process of the same bench showed, so that this
    /// process's session starts at the steady state. Returns the iterations it ran and their
    /// wall time, which the bench's warm-up counts (`None` when it ran none). A readings-only
    /// workload has no iterations to count and runs nothing here. A panic of the workload is
    /// its failure.
    pub(super) fn warm_up(
        &mut self,
        iterations: u64,
        budget: Duration,
    ) -> Result<Option<WarmUpWork>, String> {
        if matches!(self.body, BenchBody::ReadingsOnly(_)) {
            return Ok(None);
        }
        let start = std::time::Instant::now();
        let (mut done, mut work) = (0u64, 1u64);
        while done < iterations
            && start.elapsed() < budget
            && !crate::runner::interrupt::requested()
        {
            let per_unit = match self.body {
                BenchBody::Micro(_) => self.iters.max(1),
                _ => 1,
            };
            let w = work.min((iterations - done).div_ceil(per_unit)).max(1);
            self.round(w)?;
            done = done.saturating_add(w.saturating_mul(per_unit));
            work = work.saturating_mul(2);
        }
        Ok((done > 0).then(|| WarmUpWork {
            iterations: done,
            time: start.elapsed(),
        }))
    }

    /// Calibration can run while the routine is still slow (a warm-up), leaving units too short
    /// once it is fast: raise the iteration count when a round's median unit falls below the
    /// target. Readings are per iteration, so earlier rounds stay comparable.
    fn recalibrate(&mut self, units: &[f64]) {
        if units.is_empty() {
            return;
        }
        let mut sorted = units.to_vec();
        sorted.sort_unstable_by(f64::total_cmp);
        let median = sorted[sorted.len() / 2].max(1.0);
        if median < self.target_unit_ns as f64 {
            let scale = 1.2 * self.target_unit_ns as f64 / median;
            let grown = ((self.iters as f64 * scale).ceil() as u64).max(self.iters + 1);
            // Not past what the inputs' budget allows (costly inputs: see `calibrate`).
            let most = self
                .wall_per_iter_ns
                .map_or(u64::MAX, |w| most_within(self.inputs_ns, w));
            self.iters = grown.min(most.max(self.iters));
        }
    }
}

pub(super) fn form(body: &BenchBody) -> pilot_format::Form {
    match body {
        BenchBody::Full(_) => pilot_format::Form::Full,
        BenchBody::Micro(_) => pilot_format::Form::Micro,
        BenchBody::ReadingsOnly(_) => pilot_format::Form::ReadingsOnly,
    }
}
