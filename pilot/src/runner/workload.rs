//! A registered bench as the session sees it: rounds of a work amount, panics caught, the
//! micro form's iterations calibrated.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use super::registry::Bench;
use super::threads;
use crate::entry::{BenchBody, BenchDef};
use crate::record::{Bencher, BencherMode, ClockInfo, RealClock, Recorder};
use crate::report::LiveProgress;
use crate::session::{RoundData, SessionConfig, SessionResult, Status, Workload, run_session};

/// The message of a micro-form bench that never timed anything.
pub(super) const NEVER_ITERATED: &str =
    "the bench never called `b.iter(...)` or `b.iter_batched(...)`";

/// Runs `f`, turning a panic into its message.
pub(super) fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "the bench panicked".to_string())
    })
}

/// A bench as the session sees it: rounds of a work amount.
pub(super) struct BenchWorkload {
    body: BenchBody,
    /// Index of the argument value (`args`).
    arg: usize,
    /// Threads running each round at once (`threads`).
    threads: usize,
    /// Iterations per unit in the micro form.
    pub(super) iters: u64,
    /// Least unit duration in the micro form, so the clock's cost stays under 0.5% of a unit.
    target_unit_ns: u64,
    /// Why the bench cannot run ([`Bench::broken`]): every round fails with it.
    broken: Option<String>,
}

impl Workload for BenchWorkload {
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
                let mut rec = Recorder::with_capacity(work);
                catch(|| f(arg, work, &mut rec))?;
                Ok(RoundData::Units {
                    readings: rec.take().into_iter().map(|ns| ns as f64).collect(),
                    iterations: 1,
                })
            }
            BenchBody::Micro(f) => {
                let iters = self.iters;
                let mut b = Bencher::new(BencherMode::Measure { work, iters });
                catch(|| f(arg, &mut b))?;
                if !b.was_called() {
                    return Err(NEVER_ITERATED.into());
                }
                let units = b.take_readings();
                self.recalibrate(&units);
                Ok(RoundData::Units {
                    readings: units
                        .into_iter()
                        .map(|ns| ns as f64 / iters as f64)
                        .collect(),
                    iterations: iters,
                })
            }
            BenchBody::ReadingsOnly(f) => {
                catch(|| f(arg, work))?;
                Ok(RoundData::Whole)
            }
        }
    }
}

impl BenchWorkload {
    /// The workload of bench `b`, its micro-form units at least `target_unit_ns` long.
    pub(super) fn new(b: &Bench, target_unit_ns: u64) -> Self {
        BenchWorkload {
            body: b.def.body,
            arg: b.arg,
            threads: b.threads,
            iters: 1,
            target_unit_ns,
            broken: b.broken.clone(),
        }
    }

    /// A round on [`BenchWorkload::threads`] threads at once, unit readings pooled.
    fn threaded_round(&mut self, work: u64) -> Result<RoundData, String> {
        let units = threads::round(self.body, self.arg, work, self.iters, self.threads)?;
        Ok(match self.body {
            BenchBody::ReadingsOnly(_) => RoundData::Whole,
            BenchBody::Full(_) => RoundData::Units {
                readings: units.into_iter().map(|ns| ns as f64).collect(),
                iterations: 1,
            },
            BenchBody::Micro(_) => {
                self.recalibrate(&units);
                let iters = self.iters;
                RoundData::Units {
                    readings: units
                        .into_iter()
                        .map(|ns| ns as f64 / iters as f64)
                        .collect(),
                    iterations: iters,
                }
            }
        })
    }

    /// Calibration can run while the routine is still slow (a warm-up), leaving units too short
    /// once it is fast: raise the iteration count when a round's median unit falls below the
    /// target. Readings are per iteration, so earlier rounds stay comparable.
    fn recalibrate(&mut self, units: &[u64]) {
        if units.is_empty() {
            return;
        }
        let mut sorted = units.to_vec();
        sorted.sort_unstable();
        let median = sorted[sorted.len() / 2].max(1);
        if median < self.target_unit_ns {
            let scale = 1.2 * self.target_unit_ns as f64 / median as f64;
            self.iters = ((self.iters as f64 * scale).ceil() as u64).max(self.iters + 1);
        }
    }
}

pub(super) fn form(body: &BenchBody) -> &'static str {
    match body {
        BenchBody::Full(_) => "full",
        BenchBody::Micro(_) => "micro",
        BenchBody::ReadingsOnly(_) => "readings-only",
    }
}

/// A unit must last 200× what its two clock reads cost: the clock's share stays under 0.5%.
pub(super) fn target_unit_ns(clock: ClockInfo) -> u64 {
    (400.0 * clock.overhead_ns).max(1000.0) as u64
}

/// Finds the micro form's iterations per unit; nothing to do for the other forms.
pub(super) fn calibrate(workload: &mut BenchWorkload, def: &BenchDef) -> Result<(), String> {
    if let Some(msg) = &workload.broken {
        return Err(msg.clone());
    }
    if let BenchBody::Micro(f) = def.body {
        let mut bencher = Bencher::new(BencherMode::Calibrate {
            target_ns: workload.target_unit_ns,
        });
        let arg = workload.arg;
        catch(|| f(arg, &mut bencher))?;
        workload.iters = bencher
            .calibrated_iters()
            .ok_or_else(|| NEVER_ITERATED.to_string())?;
    }
    Ok(())
}

/// Runs one bench's session with live progress; returns it with the micro form's iteration
/// count.
pub(super) fn measure(
    b: &Bench,
    config: &SessionConfig,
    clock: ClockInfo,
) -> (SessionResult, Option<u64>) {
    let mut progress = LiveProgress::start(&b.name);
    let mut workload = BenchWorkload::new(b, target_unit_ns(clock));
    if let Err(msg) = calibrate(&mut workload, b.def) {
        progress.finish();
        return (failed_session(&msg), None);
    }
    let real = RealClock::start();
    let session = run_session(&mut workload, &real, config, &mut |e, elapsed| {
        // ETA from the rate at which stable readings have come so far.
        let eta = e.required_n.filter(|&r| r > e.n && e.n > 0).map(|r| {
            let rate = e.n as f64 / elapsed.as_secs_f64().max(1e-3);
            Duration::from_secs_f64(((r - e.n) as f64 / rate).min(config.max_time.as_secs_f64()))
        });
        progress.update(e.mean, e.relative_half_width(), config.target, eta);
    });
    progress.finish();
    let iters = matches!(b.def.body, BenchBody::Micro(_)).then_some(workload.iters);
    (session, iters)
}

pub(super) fn failed_session(msg: &str) -> SessionResult {
    SessionResult {
        status: Status::Failed(msg.to_string()),
        estimate: None,
        rounds: Vec::new(),
        removed: 0,
        readings: 0,
        elapsed: Duration::ZERO,
        warnings: Vec::new(),
        process_means: Vec::new(),
        unresolved_fit: None,
        drift: None,
    }
}
