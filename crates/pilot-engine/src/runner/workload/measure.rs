//! How one session of a bench is set up and run, in this process or in a child process of it:
//! the workload, its calibration, the warm-up an earlier process showed, the session.

use std::time::Duration;

use super::super::panics::NEVER_ITERATED;
use super::super::registry::Bench;
use super::{BenchWorkload, Closure, SessionChecks};
use crate::entry::BenchBody;
use crate::record::{Bencher, BencherMode, ClockInfo};
use crate::report::LiveProgress;
use crate::session::{SessionConfig, SessionResult, Status, WarmUpWork};

/// A unit must last 200× what its two clock reads cost: the clock's share stays under 0.5%.
pub(in crate::runner) fn target_unit_ns(clock: ClockInfo) -> u64 {
    (400.0 * clock.overhead_ns).max(1000.0) as u64
}

/// The share of a session's time cap (a process's share of the bench's) that one calibrated
/// unit's inputs may take to build: a session then holds a few units however costly its
/// inputs. Only units that no session could hold a few of are shortened: how many inputs a
/// unit holds sets its working set (a unit of one input searches memory its setup just
/// wrote), so units are left as long as the unit target asks wherever a session can afford
/// them, as divan's and criterion's are (a search over a large set reads far faster at one
/// input a unit, whose memory is still in cache, than at the many a unit target holds).
const INPUTS_SHARE: u32 = 4;

/// Finds the micro form's iterations per unit, for a session capped at `max_time`; nothing to
/// do for the other forms. A batched routine's unit stops short of the target when building
/// its inputs would take more than 1/[`INPUTS_SHARE`] of `max_time` and more than 1000 times
/// the target (a millisecond at least): see `record::bencher::Calibration`.
pub(in crate::runner) fn calibrate(
    workload: &mut BenchWorkload,
    max_time: Duration,
) -> Result<(), String> {
    if let Some(msg) = &workload.broken {
        return Err(msg.clone());
    }
    if let BenchBody::Micro(f) = workload.body {
        let inputs_ns = ((max_time / INPUTS_SHARE).as_nanos() as u64)
            .max(workload.target_unit_ns.saturating_mul(1000));
        let mut bencher = Bencher::new(BencherMode::Calibrate {
            target_ns: workload.target_unit_ns,
            inputs_ns,
        })
        .timed_by(workload.timer);
        workload.call_micro(f, &mut bencher)?;
        workload.iters = bencher
            .calibrated_iters()
            .ok_or_else(|| NEVER_ITERATED.to_string())?;
        workload.inputs_ns = inputs_ns;
    }
    Ok(())
}

/// What one session of a bench found: the session, the micro form's iterations per unit, and
/// the warm-up run unmeasured before it.
pub(in crate::runner) struct Measured {
    pub(in crate::runner) session: SessionResult,
    /// Iterations per unit of the micro form's last round; `None` for the other forms.
    pub(in crate::runner) iters: Option<u64>,
    /// The work run unmeasured before the session (see [`BenchWorkload::warm_up`]), when any
    /// was asked for and run.
    pub(in crate::runner) skipped: Option<WarmUpWork>,
}

/// Runs one session of bench `b` (whose micro-form body is `closure` when it was announced at
/// run time), in this process or in one of its child processes: the workload timed by
/// `clock`'s timer, the micro form calibrated for `config`'s cap, the `warm_up` (iterations
/// within a budget) an earlier process showed run unmeasured, then the session, which calls
/// `on_estimate` with each estimate. A failure to calibrate or warm up is the session's.
pub(in crate::runner) fn measure_session(
    b: &Bench,
    closure: Option<Closure<'_>>,
    (config, checks): (&SessionConfig, SessionChecks),
    clock: ClockInfo,
    warm_up: Option<(u64, Duration)>,
    on_estimate: crate::session::OnEstimate<'_>,
) -> Measured {
    let mut workload = BenchWorkload::new(b, target_unit_ns(clock))
        .timed_by(clock.timer)
        .with_closure(closure);
    let ready = calibrate(&mut workload, config.max_time).and_then(|()| match warm_up {
        Some((iterations, budget)) => workload.warm_up(iterations, budget),
        None => Ok(None),
    });
    let (session, skipped) = match ready {
        Err(msg) => (failed_session(&msg), None),
        Ok(skipped) => (workload.session(config, checks, on_estimate), skipped),
    };
    let iters = matches!(b.def.body, BenchBody::Micro(_)).then_some(workload.iters);
    Measured {
        session,
        iters,
        skipped,
    }
}

/// Runs one bench's session in this process with live progress; returns it with the micro
/// form's iteration count.
pub(in crate::runner) fn measure(
    b: &Bench,
    closure: Option<Closure<'_>>,
    config: &SessionConfig,
    clock: ClockInfo,
    checks: SessionChecks,
) -> (SessionResult, Option<u64>) {
    let mut progress = LiveProgress::start(&b.name);
    let measured = measure_session(
        b,
        closure,
        (config, checks),
        clock,
        None,
        &mut |e, elapsed| {
            // ETA from the rate at which stable readings have come so far.
            let eta = e.required_n.filter(|&r| r > e.n && e.n > 0).map(|r| {
                let rate = e.n as f64 / elapsed.as_secs_f64().max(1e-3);
                let left = (r - e.n) as f64 / rate;
                Duration::from_secs_f64(left.min(config.max_time.as_secs_f64()))
            });
            progress.update(e.mean, e.relative_half_width(), config.target, eta);
        },
    );
    progress.finish();
    (measured.session, measured.iters)
}

pub(in crate::runner) fn failed_session(msg: &str) -> SessionResult {
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
        checks: Vec::new(),
        warm_up: None,
        outliers: None,
        overhead: None,
        machine_state: None,
        warm_up_start: None,
        warm_up_work: None,
        allocations: None,
    }
}
