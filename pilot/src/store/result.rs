//! The result document of one bench, schema `pilot.result/1`.
//!
//! ```text
//! {"schema": "pilot.result/1", "name", "target", "form", "status", "status_detail",
//!  "pis": [{"name", "unit", "mean", "ci": {"low", "high", "confidence"}, "n",
//!           "subsession_size", "autocorrelation", "required_n", "interval_from"}],
//!  "subsession": {"count", "mean", "variance", "variance_inflation", "means"?},
//!  "processes": {"count", "means"},
//!  "config": {"ci", "confidence", "max_time", "min_time"},
//!  "rounds": [{"work", "duration_ns", "units", "stable": [start, end] | null, "analysed"}],
//!  "removed_readings", "readings", "iterations_per_unit", "clock": {"overhead_ns",
//!  "resolution_ns", "share_of_unit"}, "warnings": [..], "machine": {..},
//!  "started", "finished", "elapsed_s"}
//! ```
//!
//! `pis[0]` is always the time per work unit in nanoseconds (per iteration in the micro form);
//! a throughput PI follows when the bench names its `unit`,
//! `processes` holds each process execution's estimate when the bench ran in several (then
//! `subsession` describes those process estimates: they are the independent samples); its interval the inverted bounds of
//! the time's (a bound is `null` when the time's interval reaches 0). `subsession` holds what a
//! later comparison needs (Pilot paper §III-F): the subsession samples' count, mean and
//! variance, and the samples themselves when there are at most 10 000. A change to these keys
//! bumps the schema's version.

use serde_json::{Value, json};

use crate::record::ClockInfo;
use crate::session::{SessionConfig, SessionResult, Status};
use crate::stats::Summary;

/// The schema name of result documents.
pub(crate) const RESULT_SCHEMA: &str = "pilot.result/1";

/// Most subsession samples stored in a result document.
const MAX_STORED_MEANS: usize = 10_000;

/// Everything a result document says about one bench session.
pub(crate) struct BenchRecord<'a> {
    pub name: &'a str,
    pub target: &'a str,
    /// `full`, `micro` or `readings-only`.
    pub form: &'static str,
    pub unit: Option<&'a str>,
    pub config: &'a SessionConfig,
    pub session: &'a SessionResult,
    pub iterations_per_unit: Option<u64>,
    pub clock: ClockInfo,
    pub machine: &'a Value,
    pub started: String,
    pub finished: String,
}

/// A throughput interval from a time interval (ns per unit): `1e9 / time`, bounds swapped.
pub(crate) fn throughput(
    mean_ns: f64,
    low_ns: f64,
    high_ns: f64,
) -> (Option<f64>, Option<f64>, Option<f64>) {
    let inv = |t: f64| if t > 0.0 { Some(1e9 / t) } else { None };
    (inv(mean_ns), inv(high_ns), inv(low_ns))
}

fn status_detail(status: &Status) -> Value {
    match status {
        Status::Failed(msg) => json!(msg),
        _ => Value::Null,
    }
}

/// Which variation decided the interval: `readings` (subsession analysis of the unit readings),
/// `rounds` (the rounds' means varied more), `processes` (the process estimates varied more
/// than their own intervals), or `regression` (readings-only WPS fit).
fn interval_from(e: &crate::session::Estimate, s: &SessionResult) -> &'static str {
    match (
        e.wps.is_some(),
        s.process_means.is_empty(),
        e.between_rounds,
    ) {
        (true, _, _) => "regression",
        (false, false, true) => "processes",
        (false, true, true) => "rounds",
        _ => "readings",
    }
}

/// The `pilot.result/1` document.
pub(crate) fn document(r: &BenchRecord<'_>) -> Value {
    let s = r.session;
    let mut pis = Vec::new();
    let mut subsession = Value::Null;
    let mut share = Value::Null;
    if let Some(e) = &s.estimate {
        pis.push(json!({
            "name": "time",
            "unit": "ns",
            "mean": e.mean,
            "ci": {"low": e.ci.low, "high": e.ci.high, "confidence": e.ci.confidence},
            "n": e.n,
            "subsession_size": e.subsession_size,
            "autocorrelation": e.autocorrelation,
            "required_n": e.required_n,
            "interval_from": interval_from(e, s),
        }));
        if let Some(unit) = r.unit {
            let (mean, low, high) = throughput(e.mean, e.ci.low, e.ci.high);
            pis.push(json!({
                "name": "throughput",
                "unit": format!("{unit}/s"),
                "mean": mean,
                "ci": {"low": low, "high": high, "confidence": e.ci.confidence},
                "n": e.n,
                "subsession_size": e.subsession_size,
                "autocorrelation": e.autocorrelation,
                "required_n": e.required_n,
            }));
        }
        if let Ok(sum) = Summary::of(&e.subsession_means) {
            let inflation = e.variance_inflation;
            subsession = json!({
                "count": sum.n,
                "mean": sum.mean,
                "variance": sum.variance,
                "variance_inflation": inflation,
                "means": (sum.n <= MAX_STORED_MEANS).then_some(&e.subsession_means),
            });
        }
        let unit_ns = e.mean * r.iterations_per_unit.unwrap_or(1) as f64;
        if unit_ns > 0.0 {
            share = json!(2.0 * r.clock.overhead_ns / unit_ns);
        }
    }
    let rounds: Vec<Value> = s
        .rounds
        .iter()
        .map(|round| {
            json!({
                "work": round.work,
                "duration_ns": round.duration.as_nanos() as u64,
                "units": round.units,
                "stable": round.stable.map(|(a, b)| [a, b]),
                "analysed": round.analysed,
            })
        })
        .collect();
    json!({
        "schema": RESULT_SCHEMA,
        "name": r.name,
        "target": r.target,
        "form": r.form,
        "status": s.status.as_str(),
        "status_detail": status_detail(&s.status),
        "pis": pis,
        "subsession": subsession,
        "config": {
            "ci": r.config.target,
            "confidence": r.config.confidence,
            "max_time": r.config.max_time.as_secs_f64(),
            "min_time": r.config.min_time.as_secs_f64(),
        },
        "rounds": rounds,
        "processes": {
            "count": s.process_means.len().max(1),
            "means": s.process_means,
        },
        "removed_readings": s.removed,
        "readings": s.readings,
        "iterations_per_unit": r.iterations_per_unit,
        "clock": {
            "overhead_ns": r.clock.overhead_ns,
            "resolution_ns": r.clock.resolution_ns,
            "share_of_unit": share,
        },
        "warnings": s.warnings,
        "machine": r.machine,
        "started": r.started,
        "finished": r.finished,
        "elapsed_s": s.elapsed.as_secs_f64(),
    })
}
