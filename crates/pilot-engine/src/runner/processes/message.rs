//! The child's message to its parent: what one process of a bench found ([`ProcessResult`]),
//! or why it found nothing to combine ([`ProcessEnd`]), with what `cargo pilot bench
//! --against` reads beside it. The child builds it from its session and writes it as JSON to
//! the scratch file its parent named (`--json FILE`); the parent reads it back into the same
//! type. It is no result document: nothing saves it, and no other tool reads it.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::record::ClockInfo;
use crate::runner::registry::Bench;
use crate::runner::workload::{Measured, form};
use crate::session::allocations::AllocationsEstimate;
use crate::session::process_estimate::ProcessEstimate;
use crate::session::{Estimate, RoundRecord, SessionConfig, SessionResult, Status, Warning};
use crate::session::{MachineState, WarmUpClass, WarmUpWork};
use crate::store::result::Rate;
use pilot_format::CheckDoc;
use pilot_stats::OutlierCount;

/// The layout of [`ChildMessage`], which a reader checks first: a bench binary built with
/// another version of pilot (the base build of `cargo pilot bench --against`) may write
/// another. Raised with any change to the message's fields.
const MESSAGE_SCHEMA: &str = "pilot.child-message/1";

/// What a child process writes for its parent.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct ChildMessage {
    /// [`MESSAGE_SCHEMA`].
    schema: String,
    /// What the process found, or why it has nothing to combine.
    pub(super) outcome: Result<ProcessResult, ProcessEnd>,
    /// How the bench's units are timed.
    pub(super) form: pilot_format::Form,
    /// What the bench's throughput counts, when it says.
    pub(super) rate: Option<Rate>,
    /// The clock the process timed units with.
    pub(super) clock: ClockInfo,
    /// The confidence level of its intervals.
    pub(super) confidence: f64,
}

/// What one process execution found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct ProcessResult {
    pub(super) estimate: ProcessEstimate,
    /// Every round of its session, in order.
    pub(super) rounds: Vec<RoundRecord>,
    pub(super) removed: usize,
    pub(super) readings: usize,
    pub(super) warnings: Vec<Warning>,
    pub(super) checks: Vec<CheckDoc>,
    pub(super) machine_state: Option<MachineState>,
    pub(super) warm_up: WarmUpFinding,
    /// Its outliers' counts (their sums left at 0: a combined count moves no mean).
    pub(super) outliers: Option<OutlierCount>,
    pub(super) iters: Option<u64>,
    /// The process's readings-only fit had a non-positive slope ([`Status::Unresolved`]):
    /// its mean is that slope, a draw the combination keeps.
    pub(super) unresolved: bool,
    /// Its instrumentation overhead's samples: each one's difference per unit, ns.
    pub(super) overhead_samples: Vec<f64>,
    /// Seconds its overhead's blocks took.
    pub(super) overhead_time_s: f64,
    /// What one read of its clock cost, ns.
    pub(super) clock_ns: f64,
    /// Its allocations per unit, when a `CountingAlloc` counted them.
    pub(super) allocations: Option<AllocationsEstimate>,
}

/// What one process showed of its bench's warm-up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub(super) struct WarmUpFinding {
    /// Its class, of what it measured: its session, after the work it `skipped`.
    pub(super) class: Option<WarmUpClass>,
    /// The work its session's own warm-up took, when its class is `warm-up`.
    pub(super) own: Option<WarmUpWork>,
    /// The work it ran unmeasured before its session (the warm-up its bench's earlier
    /// processes showed), when it ran any.
    pub(super) skipped: Option<WarmUpWork>,
}

impl WarmUpFinding {
    /// The bench's warm-up as this process showed it, when it showed one: its own; after work
    /// it skipped, that work and its own warm-up beyond it, when that is at least a tenth of
    /// the skipped work (a slower start of a few rounds, which a neighbour can cause, would
    /// otherwise compound from process to process).
    pub(super) fn shown(&self) -> Option<WarmUpWork> {
        let own = self.own?;
        let Some(skipped) = self.skipped else {
            return Some(own);
        };
        (own.iterations >= skipped.iterations / 10).then(|| WarmUpWork {
            iterations: skipped.iterations.saturating_add(own.iterations),
            time: skipped.time + own.time,
        })
    }
}

/// Why a child's process gave nothing to combine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) enum ProcessEnd {
    /// Its session ended without an estimate (no steady state, below the clock's resolution, a
    /// cap too short): the bench's outcome, with that status, not a failure.
    NoEstimate(Status),
    /// It failed (a panic, an exit before reporting, an unreadable message): what happened.
    Failed(String),
}

impl std::fmt::Display for ProcessEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProcessEnd::NoEstimate(status) => write!(
                f,
                "the bench's process found no estimate ({})",
                status.as_str()
            ),
            ProcessEnd::Failed(message) => f.write_str(message),
        }
    }
}

impl ChildMessage {
    /// The message of a process that measured bench `b` with `config` and `clock`.
    pub(super) fn of(
        b: &Bench,
        config: &SessionConfig,
        clock: ClockInfo,
        measured: Measured,
    ) -> ChildMessage {
        ChildMessage {
            schema: MESSAGE_SCHEMA.to_string(),
            outcome: ProcessResult::of(measured, clock),
            form: form(&b.def.body),
            rate: b.rate.clone(),
            clock,
            confidence: config.confidence,
        }
    }

    /// Writes this message to `path`.
    pub(super) fn write(&self, path: &Path) -> std::io::Result<()> {
        let bytes = serde_json::to_vec(self).expect("a child's message serialises");
        // A scratch file in the parent's temporary folder, read once as this process ends: not
        // synced to disk (a sync sets the kernel writing back while the next process starts,
        // which its first round saw as other processes' load).
        std::fs::write(path, bytes)
    }

    /// The message in `bytes`, read from the file at `path` (which errors name).
    ///
    /// # Errors
    ///
    /// The bytes are no message of this version's layout: cut short, corrupt, or written by
    /// a bench binary of another version of pilot.
    pub(super) fn parse(bytes: &[u8], path: &Path) -> Result<ChildMessage, String> {
        let what = match serde_json::from_slice::<ChildMessage>(bytes) {
            Ok(m) if m.schema == MESSAGE_SCHEMA => return Ok(m),
            Ok(m) => another_schema(&m.schema),
            Err(e) => match serde_json::from_slice::<Schema>(bytes) {
                Ok(Schema { schema: Some(s) }) if s != MESSAGE_SCHEMA => another_schema(&s),
                _ => e.to_string(),
            },
        };
        Err(format!(
            "failed to read the message of the bench's process `{}`: {what}",
            crate::fmt::terminal(&path.display().to_string())
        ))
    }
}

/// Only the schema of what a child wrote, to say why a message of another layout is not read.
#[derive(Deserialize)]
struct Schema {
    schema: Option<String>,
}

/// Why a message of `schema` is not read.
fn another_schema(schema: &str) -> String {
    format!(
        "it is `{}`, not `{MESSAGE_SCHEMA}`: the bench binary was built with another version \
         of pilot",
        crate::fmt::terminal(schema)
    )
}

impl ProcessResult {
    /// What a process's session (`measured`, timed by `clock`) gives its parent to combine:
    /// its estimate and what the combination merges, or why it has nothing.
    pub(super) fn of(measured: Measured, clock: ClockInfo) -> Result<ProcessResult, ProcessEnd> {
        let Measured {
            session: s,
            iters,
            skipped,
        } = measured;
        if let Status::Failed(msg) = s.status {
            return Err(ProcessEnd::Failed(msg));
        }
        // An unresolved readings-only fit is no estimate of the process's, but its slope is a
        // draw the combination over processes keeps.
        let Some(estimate) = (s.unresolved_fit.as_ref().or(s.estimate.as_ref()))
            .map(|e| process_estimate(e, &s))
            .filter(|e| e.mean.is_finite() && e.half_width.is_finite())
        else {
            return Err(ProcessEnd::NoEstimate(no_estimate_status(&s.status)));
        };
        Ok(ProcessResult {
            estimate,
            removed: s.removed,
            readings: s.readings,
            iters,
            unresolved: s.status == Status::Unresolved,
            warnings: s.warnings,
            checks: s.checks,
            machine_state: s.machine_state,
            warm_up: WarmUpFinding {
                class: s.warm_up,
                own: s.warm_up_work,
                skipped,
            },
            // Allocations per unit are over the estimate's stable units, so only beside it.
            allocations: s.estimate.as_ref().and(s.allocations),
            overhead_samples: s
                .overhead
                .as_ref()
                .map(|o| o.samples.clone())
                .unwrap_or_default(),
            overhead_time_s: s.overhead.as_ref().map_or(0.0, |o| o.time_s),
            clock_ns: clock.overhead_ns,
            outliers: s.outliers.map(|o| OutlierCount {
                z: o.z,
                mad: o.mad,
                readings: o.readings,
                ..OutlierCount::default()
            }),
            rounds: s.rounds,
        })
    }
}

/// The status of a bench one of whose processes ended at `status` without an estimate: the
/// same status when it says why (no steady state, below the clock's resolution), else the
/// time cap; never a failure.
fn no_estimate_status(status: &Status) -> Status {
    match status {
        Status::NoSteadyState => Status::NoSteadyState,
        Status::BelowResolution => Status::BelowResolution,
        _ => Status::TimeCap,
    }
}

/// Estimate `e` of session `s` with the figures the combination over processes needs.
fn process_estimate(e: &Estimate, s: &SessionResult) -> ProcessEstimate {
    ProcessEstimate {
        mean: e.mean,
        half_width: (e.ci.high - e.ci.low) / 2.0,
        n: e.n,
        subsession_size: e.subsession_size.max(1),
        autocorrelation: e.autocorrelation,
        rounds: s.rounds.iter().filter(|r| r.analysed).count(),
        // A fit's slope is a mean of its points.
        estimator: match e.wps {
            Some(_) => crate::settings::Estimator::Mean,
            None => e.estimator,
        },
        plain: e.plain.map(|p| (p.mean, (p.ci.high - p.ci.low) / 2.0)),
        busy: busy_share(&s.rounds),
    }
}

/// The share of the sampled analysed `rounds`' time the sampler marked the machine busy
/// beside the process (other processes on its cores, steal, throttling); `None` when none was
/// sampled. Time: O(rounds).
fn busy_share(rounds: &[RoundRecord]) -> Option<f64> {
    use crate::checks::sampler::MARKED_KINDS;
    let sampled = rounds.iter().filter(|r| r.analysed && r.machine.is_some());
    let (busy, all) = sampled.fold((0.0, 0.0), |(busy, all), r| {
        let t = r.duration.as_nanos() as f64;
        let marked = r.marks.iter().any(|m| MARKED_KINDS.contains(m));
        (busy + if marked { t } else { 0.0 }, all + t)
    });
    (all > 0.0).then(|| busy / all)
}

#[cfg(test)]
mod tests;
