//! What a child process reported: its result document read into a [`ProcessResult`] for the
//! parent, and as a [`ChildReport`] for `cargo pilot bench --against`, which starts the
//! processes itself.

use std::time::Duration;

use crate::record::ClockInfo;
use crate::session::processes::ProcessEstimate;
use crate::session::{RoundRecord, Status, WarmUpClass, WarmUpWork};
use crate::store::result::{Rate, warm_up_work_of};
use crate::store::typed;
use pilot_format::ResultDoc;
use pilot_stats::OutlierCount;

/// What one process execution reported.
#[derive(Clone)]
pub(super) struct ProcessResult {
    pub(super) estimate: ProcessEstimate,
    pub(super) rounds: Vec<crate::session::RoundRecord>,
    pub(super) removed: usize,
    pub(super) readings: usize,
    pub(super) warnings: Vec<String>,
    pub(super) checks: Vec<pilot_format::CheckDoc>,
    pub(super) machine_state: Option<&'static str>,
    pub(super) warm_up: WarmUpFinding,
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
    pub(super) allocations: Option<crate::session::allocations::AllocationsEstimate>,
}

/// What one process showed of its bench's warm-up.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
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
#[derive(Debug, Clone, PartialEq)]
pub(super) enum ProcessEnd {
    /// Its session ended without an estimate (no steady state, below the clock's resolution, a
    /// cap too short): the bench's outcome, with that status, not a failure.
    NoEstimate(Status),
    /// It failed (a panic, an exit before reporting, an unreadable document): what happened.
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

/// The status of a bench one of whose processes ended without an estimate, from the status
/// its document names (`doc_status`): the same status, never a failure.
fn no_estimate_status(doc_status: &str) -> Status {
    match doc_status {
        s if s == Status::NoSteadyState.as_str() => Status::NoSteadyState,
        s if s == Status::BelowResolution.as_str() => Status::BelowResolution,
        _ => Status::TimeCap,
    }
}

/// A child's result document. It is read without [`ResultDoc::validate`]: an unresolved
/// readings-only fit reports its non-positive slope, which the combination keeps.
pub(super) fn child_document(text: &str) -> Result<ResultDoc, String> {
    serde_json::from_str::<serde_json::Value>(text)
        .map_err(|e| e.to_string())
        .and_then(typed)
        .map_err(|e| format!("unreadable child result: {e}"))
}

/// What a child's result document `doc` says of its process.
pub(super) fn process_result(doc: &ResultDoc) -> Result<ProcessResult, ProcessEnd> {
    if doc.status == "failed" {
        return Err(ProcessEnd::Failed(
            doc.status_detail
                .clone()
                .unwrap_or_else(|| "the bench failed".to_string()),
        ));
    }
    let Some(estimate) =
        estimate_of(doc).filter(|e| e.mean.is_finite() && e.half_width.is_finite())
    else {
        return Err(ProcessEnd::NoEstimate(no_estimate_status(&doc.status)));
    };
    let rounds = rounds_of(doc);
    Ok(ProcessResult {
        estimate,
        rounds,
        removed: doc.removed_readings as usize,
        readings: doc.readings as usize,
        iters: doc.iterations_per_unit,
        unresolved: doc.status == Status::Unresolved.as_str(),
        warnings: doc.warnings.clone(),
        checks: doc.checks.clone(),
        machine_state: match doc.machine_state.as_deref() {
            Some("sampled") => Some("sampled"),
            Some("off") => Some("off"),
            Some(_) => Some("not sampled"),
            None => None,
        },
        warm_up: WarmUpFinding {
            class: doc.warm_up.as_deref().and_then(WarmUpClass::parse),
            own: doc.warm_up_work.as_ref().and_then(warm_up_work_of),
            skipped: doc.warm_up_skipped.as_ref().and_then(warm_up_work_of),
        },
        allocations: crate::store::result::allocations_of(doc),
        overhead_samples: doc
            .overhead
            .as_ref()
            .map(|o| o.samples_ns.clone())
            .unwrap_or_default(),
        overhead_time_s: doc.overhead.as_ref().and_then(|o| o.time_s).unwrap_or(0.0),
        clock_ns: doc.clock.overhead_ns,
        // The document keeps the counts, not the sums: a combined count moves no mean.
        outliers: doc.outliers.map(|o| OutlierCount {
            z: o.z,
            mad: o.mad,
            readings: o.readings,
            ..OutlierCount::default()
        }),
    })
}

/// The estimate of a child's document `doc`: its time PI with the figures the combination
/// over processes needs; `None` without one.
fn estimate_of(doc: &ResultDoc) -> Option<ProcessEstimate> {
    doc.pis.first().and_then(|pi| {
        let (mean, low, high) = (pi.mean?, pi.ci.low?, pi.ci.high?);
        Some(ProcessEstimate {
            mean,
            half_width: (high - low) / 2.0,
            n: pi.n,
            subsession_size: pi.subsession_size.max(1),
            autocorrelation: pi.autocorrelation,
            rounds: doc.rounds.iter().filter(|r| r.analysed).count(),
            estimator: match pi.estimator.as_deref() {
                Some("trimmed") => crate::settings::Estimator::Trimmed,
                _ => crate::settings::Estimator::Mean,
            },
            plain: doc
                .pis
                .iter()
                .find(|p| p.name == pilot_format::MEAN_TIME_PI)
                .and_then(|p| Some((p.mean?, (p.ci.high? - p.ci.low?) / 2.0))),
            busy: busy_share(&doc.rounds),
        })
    })
}

/// The share of the sampled analysed `rounds`' time the sampler marked the machine busy
/// beside the process (other processes on its cores, steal, throttling); `None` when none was
/// sampled. Time: O(rounds).
fn busy_share(rounds: &[pilot_format::RoundDoc]) -> Option<f64> {
    use crate::checks::sampler::MARKED_KINDS;
    let sampled = rounds.iter().filter(|r| r.analysed && r.machine.is_some());
    let (busy, all) = sampled.fold((0.0, 0.0), |(busy, all), r| {
        let t = r.duration_ns as f64;
        let marked = r.marks.iter().any(|m| MARKED_KINDS.contains(&m.as_str()));
        (busy + if marked { t } else { 0.0 }, all + t)
    });
    (all > 0.0).then(|| busy / all)
}

/// The rounds of a child's document `doc`, as the parent's session records them.
fn rounds_of(doc: &ResultDoc) -> Vec<RoundRecord> {
    doc.rounds
        .iter()
        .map(|r| RoundRecord {
            work: r.work,
            duration: Duration::from_nanos(r.duration_ns),
            units: r.units,
            iterations: 1,
            stable: r.stable.map(|[a, b]| (a, b)),
            analysed: r.analysed,
            mean_ns: None,
            bins: r.readings.clone(),
            rss_bytes: r.rss_bytes,
            end: Duration::ZERO,
            machine: r.machine.map(|m| crate::checks::sampler::Interval {
                others_cores: m.others_cores,
                own_cores: m.own_cores,
                steal: m.steal,
                iowait: m.iowait,
                throttled: m.throttled,
                cpu_pressure: m.cpu_pressure,
                ..Default::default()
            }),
            marks: r
                .marks
                .iter()
                .filter_map(|m| crate::checks::sampler::mark(m))
                .collect(),
        })
        .collect()
}

/// One process execution's report, read from the result document a bench binary writes in
/// child mode (`PILOT_CHILD=1 BINARY --bench --exact NAME --json FILE`). `cargo pilot bench
/// --against` starts the processes of two builds itself and combines each side's reports
/// with [`combine_children`](super::combine_children), as `measure_in_processes` does for one
/// build.
#[derive(Clone)]
pub struct ChildReport {
    pub(super) result: ProcessResult,
    pub(super) form: pilot_format::Form,
    /// What the bench's throughput counts, when it says.
    pub(super) rate: Option<Rate>,
    pub(super) clock: ClockInfo,
    pub(super) confidence: f64,
}

/// A process execution that ended without an estimate.
#[derive(Debug, Clone, PartialEq)]
pub struct ChildFailure {
    /// The bench's status: `failed`, or the status of a session that found no estimate (`no
    /// steady state`, `below clock resolution`, `time cap`).
    pub status: String,
    /// What happened, in words.
    pub message: String,
}

impl ChildReport {
    /// Reads a child's result document.
    ///
    /// # Errors
    ///
    /// The bench failed (a panic), the session ended without an estimate, or the text is not a
    /// result document.
    pub fn parse(text: &str) -> Result<ChildReport, ChildFailure> {
        let failed = Status::Failed(String::new()).as_str().to_string();
        let doc = child_document(text).map_err(|message| ChildFailure {
            status: failed.clone(),
            message,
        })?;
        let result = process_result(&doc).map_err(|end| ChildFailure {
            status: match &end {
                ProcessEnd::NoEstimate(status) => status.as_str().to_string(),
                ProcessEnd::Failed(_) => failed,
            },
            message: end.to_string(),
        })?;
        let rate = rate_of(&doc);
        Ok(ChildReport {
            result,
            form: doc.form,
            rate,
            clock: crate::store::result::clock_of(&doc.clock),
            confidence: doc.config.confidence,
        })
    }

    /// The process's mean time per unit (ns).
    pub fn mean(&self) -> f64 {
        self.result.estimate.mean
    }
}

/// What a result document's throughput PI counts: its unit, and the amount per work unit, which
/// is the throughput times the time per unit (`B/s × ns / 1e9`). Amounts of bytes and elements
/// are whole numbers (`throughput = bytes(…)` takes a `u64`), so the product is rounded; a
/// bench's own `unit` is one per work unit.
fn rate_of(doc: &ResultDoc) -> Option<Rate> {
    let pi = doc.pis.iter().find(|pi| pi.name == "throughput")?;
    let unit = pi.unit.strip_suffix("/s")?.to_string();
    let per_unit = if unit == crate::fmt::BYTES || unit == crate::fmt::ELEMENTS {
        let time = doc.pis.first()?.mean?;
        (pi.mean? * time / 1e9).round()
    } else {
        1.0
    };
    Some(Rate { unit, per_unit })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_without_an_estimate_is_the_benchs_status_not_a_failure() {
        assert_eq!(no_estimate_status("no steady state"), Status::NoSteadyState);
        assert_eq!(
            no_estimate_status("below clock resolution"),
            Status::BelowResolution
        );
        assert_eq!(no_estimate_status("time cap"), Status::TimeCap);
        assert_eq!(
            ProcessEnd::NoEstimate(Status::NoSteadyState).to_string(),
            "the bench's process found no estimate (no steady state)"
        );
    }
}
