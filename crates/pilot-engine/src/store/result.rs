//! The result document of one bench, schema `pilot.result/1`.
//!
//! ```text
//! {"schema": "pilot.result/1", "name", "target", "form", "status", "status_detail",
//!  "pis": [{"name", "unit", "mean", "ci": {"low", "high", "confidence"}, "n",
//!           "subsession_size", "autocorrelation", "required_n", "interval_from",
//!           "reproducibility"?: {"state": "learnt", "center", "low", "high", "half_width",
//!           "sd", "dof", "runs", "learnt_from"} | {"state": "learning", "runs",
//!           "runs_needed", "spacing_s"}, "estimator"}],
//!  "subsession": {"count", "mean", "variance", "variance_inflation", "means"?},
//!  "processes": {"count", "means"},
//!  "config": {"ci", "confidence", "max_time", "min_time"},
//!  "rounds": [{"work", "duration_ns", "units", "stable": [start, end] | null, "analysed"}],
//!  "removed_readings", "readings", "iterations_per_unit", "clock": {"overhead_ns",
//!  "resolution_ns", "share_of_unit", "timer"?, "tsc_ghz"?}, "warnings": [..], "machine": {..},
//!  "started", "finished", "elapsed_s", "overhead"?: {"per_unit_ns", "ci", "share_of_unit",
//!  "blocks", "target_ns", "reached", "time_s"}, "allocations"?: {"reallocations", "deallocations",
//!  "cost_ns", "share_of_unit"}}
//! ```
//!
//! `pis[0]` is the time per work unit in nanoseconds (per iteration in the micro form), where
//! the session found one; without it, `pis` holds the counts alone (`--instructions`), if any.
//! Its `ci` is this run's interval alone; its `reproducibility` says where the next run's
//! estimate lands on this machine, once earlier runs taught it ([`crate::probe::reproducibility`]).
//! A throughput PI follows when the bench says what it counts, in that unit per second: `B/s`
//! or `elem/s` for `throughput = bytes(…)` or `elements(…)` (the amount per work unit times
//! work units per second), `<unit>/s` for `unit = "…"` (work units per second); its interval
//! is the inverted bounds of the time's (a bound is `null` when the time's interval reaches 0).
//! With a `CountingAlloc`, `allocations` (in `allocs`) and `allocated_bytes` (in `B`) per unit
//! follow, over the same stable units as the time, with the `allocations` section saying how
//! they were counted.
//!
//! `subsession` holds what a later comparison needs (Pilot paper §III-F): the count, mean and
//! variance of the estimate's independent samples, and the samples themselves when there are
//! at most 10 000. Those samples are the subsession means of the unit readings; or, when the
//! bench ran in several process executions, the processes' estimates (also listed in
//! `processes`); or, for a readings-only WPS fit, its fitted points, with the variance stated
//! so that `variance / count` is the slope's squared standard error. A change to these keys
//! bumps the schema's version.
//!
//! With `--instructions`, an `instructions` PI (instructions per unit, per iteration in the
//! micro form) follows, and `estimated_cycles` with `--cache-sim`: each the mean of its
//! counting processes' means, its interval Student's t over them; `counts` says how they were
//! counted and holds each process's mean.

use crate::checks::figure;
use crate::probe::Reproducibility;
use crate::record::ClockInfo;
use crate::session::{Estimate, RoundRecord, SessionConfig, SessionResult, Status, WarmUpWork};
use crate::settings::Estimator;
use pilot_format::{
    BandDoc, CiDoc, ClockDoc, ConfigDoc, LearningDoc, MAX_READING_BINS, MEAN_TIME_PI, MachineDoc,
    OutliersDoc, OverheadDoc, PiDoc, ProcessesDoc, RESULT_SCHEMA, ReproducibilityDoc, ResultDoc,
    RoundDoc, RoundMachineDoc, SubsessionDoc,
};
use pilot_stats::Summary;

mod allocations;
mod instructions;
mod rate;

use allocations::{allocation_pis, allocations_doc};
pub(crate) use instructions::add_counts;
use rate::Bounds;
pub use rate::Rate;
pub(crate) use rate::throughput;

/// Most subsession samples stored in a result document.
const MAX_STORED_MEANS: usize = 10_000;

/// Everything a result document says about one bench session.
pub struct BenchRecord<'a> {
    /// The bench's name (with its argument and thread count).
    pub name: &'a str,
    /// The bench target (binary) it belongs to.
    pub target: &'a str,
    /// `full`, `micro` or `readings-only`.
    pub form: pilot_format::Form,
    /// What the throughput PI counts, when the bench says.
    pub throughput: Option<&'a Rate>,
    /// The settings the session ran with.
    pub config: &'a SessionConfig,
    /// What the session found.
    pub session: &'a SessionResult,
    /// Iterations per timed unit in the micro form.
    pub iterations_per_unit: Option<u64>,
    /// The clock the readings were taken with.
    pub clock: ClockInfo,
    /// The machine it ran on; `None` where the caller has none to state (`cargo pilot bench
    /// --against`'s combination of its processes).
    pub machine: Option<&'a MachineDoc>,
    /// Where the next run's estimate lands on this machine; `None` where no run-to-run figure
    /// applies (a combination of processes the caller started).
    pub reproducibility: Option<&'a Reproducibility>,
    /// When the session started (RFC 3339).
    pub started: String,
    /// When it finished (RFC 3339).
    pub finished: String,
}

/// Which variation decided the interval: `readings` (subsession analysis of the unit readings),
/// `rounds` (the rounds' means varied more), `processes` (the process estimates varied more
/// than their own intervals), `modes` (processes split into speeds the run cannot tell apart,
/// and the interval spans them), or `regression` (readings-only WPS fit).
fn interval_from(e: &Estimate, s: &SessionResult) -> &'static str {
    if e.modes > 0 {
        return "modes";
    }
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

/// The `time` PI (`pis[0]`) of estimate `e`, whose interval (this run's) came from
/// `interval_from`, with where the next run lands when it is known.
fn time_pi(e: &Estimate, interval_from: &str, reproducibility: Option<&Reproducibility>) -> PiDoc {
    PiDoc {
        interval_from: Some(interval_from.to_string()),
        reproducibility: reproducibility.map(reproducibility_doc),
        estimator: e.wps.is_none().then(|| e.estimator.as_str().to_string()),
        ..pi(
            e,
            "time",
            "ns".into(),
            (Some(e.mean), Some(e.ci.low), Some(e.ci.high)),
        )
    }
}

/// A PI of estimate `e` with `(mean, low, high)`.
fn pi(e: &Estimate, name: &str, unit: String, (mean, low, high): Bounds) -> PiDoc {
    PiDoc {
        name: name.to_string(),
        unit,
        mean,
        ci: CiDoc {
            low,
            high,
            confidence: e.ci.confidence,
        },
        n: e.n,
        subsession_size: e.subsession_size,
        autocorrelation: e.autocorrelation,
        required_n: e.required_n,
        interval_from: None,
        reproducibility: None,
        machine: None,
        estimator: None,
    }
}

/// How a result document states where the next run's estimate lands (`pis[0].reproducibility`).
pub(crate) fn reproducibility_doc(r: &Reproducibility) -> ReproducibilityDoc {
    match r {
        Reproducibility::Learnt(b) => ReproducibilityDoc::Learnt(BandDoc {
            center: b.center,
            low: b.low(),
            high: b.high(),
            half_width: b.half_width,
            sd: b.sd,
            dof: b.dof,
            runs: b.runs,
            learnt_from: b.source.as_str().to_string(),
        }),
        Reproducibility::Learning { runs, runs_needed } => {
            ReproducibilityDoc::Learning(LearningDoc {
                runs: *runs,
                runs_needed: *runs_needed,
                spacing_s: crate::probe::history::SPACING_S,
            })
        }
    }
}

/// The PI of the plain mean beside a trimmed `time` ([`MEAN_TIME_PI`]).
fn mean_time_pi(e: &Estimate, p: &crate::session::MeanPi) -> PiDoc {
    PiDoc {
        estimator: Some(Estimator::Mean.as_str().to_string()),
        ..pi(
            e,
            MEAN_TIME_PI,
            "ns".into(),
            (Some(p.mean), Some(p.ci.low), Some(p.ci.high)),
        )
    }
}

/// The statistics of the estimate's independent samples that a later comparison needs;
/// `blocks` when the samples are subsession means (not process estimates).
///
/// For a trimmed mean of subsession means, `count`, `mean` and `variance` are Yuen's: the
/// samples kept after trimming, the trimmed mean, and the variance whose `1/count` is the
/// trimmed mean's squared standard error, so that Welch's test on them is Yuen's test.
fn subsession(e: &Estimate, blocks: bool) -> Option<SubsessionDoc> {
    if let Some(wps) = &e.wps {
        // A regression's independent samples are its fitted points (rounds merged by
        // subsession analysis); the variance is stated so that `variance / count` is the
        // slope's squared standard error, which is what a comparison needs.
        let points = wps.fit.n;
        return Some(SubsessionDoc {
            count: points,
            mean: wps.fit.slope,
            variance: wps.fit.slope_se * wps.fit.slope_se * points as f64,
            variance_inflation: 1.0,
            means: None,
        });
    }
    if let (true, Some(t)) = (blocks, &e.trimmed) {
        let m = t.yuen_moments();
        let n = e.subsession_means.len();
        return Some(SubsessionDoc {
            count: m.n,
            mean: m.mean,
            variance: m.variance,
            variance_inflation: e.variance_inflation,
            means: (n <= MAX_STORED_MEANS).then(|| e.subsession_means.clone()),
        });
    }
    let sum = Summary::of(&e.subsession_means).ok()?;
    Some(SubsessionDoc {
        count: sum.n,
        mean: sum.mean,
        variance: sum.variance,
        variance_inflation: e.variance_inflation,
        means: (sum.n <= MAX_STORED_MEANS).then(|| e.subsession_means.clone()),
    })
}

/// The settings of a session as a result document states them.
pub(crate) fn config_doc(config: &SessionConfig) -> ConfigDoc {
    ConfigDoc {
        ci: config.target,
        confidence: config.confidence,
        max_time: config.max_time.as_secs_f64(),
        min_time: config.min_time.as_secs_f64(),
    }
}

/// The `pilot.result/1` document.
pub fn document(r: &BenchRecord<'_>) -> ResultDoc {
    let s = r.session;
    let (pis, samples, share) = estimate_parts(r);
    ResultDoc {
        schema: RESULT_SCHEMA.to_string(),
        name: r.name.to_string(),
        target: r.target.to_string(),
        form: r.form,
        status: s.status.as_str().to_string(),
        status_detail: match &s.status {
            Status::Failed(msg) | Status::BelowShellResolution(msg) => Some(msg.clone()),
            Status::BelowResolution => Some(format!(
                "most unit readings were 0 ns: the units are shorter than the clock's \
                 resolution of {}",
                crate::fmt::format_ns(r.clock.resolution_ns)
            )),
            _ => None,
        },
        pis,
        subsession: samples,
        config: config_doc(r.config),
        rounds: round_docs(&s.rounds),
        processes: ProcessesDoc {
            count: s.process_means.len().max(1),
            means: s.process_means.clone(),
        },
        removed_readings: s.removed as u64,
        readings: s.readings as u64,
        iterations_per_unit: r.iterations_per_unit,
        clock: clock_doc(r.clock, share),
        warnings: s.warning_texts(),
        machine: r.machine.cloned(),
        started: r.started.clone(),
        finished: r.finished.clone(),
        elapsed_s: s.elapsed.as_secs_f64(),
        threads: None,
        checks: s.checks.clone(),
        warm_up: s.warm_up.map(|w| w.as_str().to_string()),
        outliers: s.outliers.map(|o| OutliersDoc {
            z: o.z,
            mad: o.mad,
            readings: o.readings,
            effect_on_mean: crate::checks::figure(o.effect_on_mean()),
        }),
        overhead: s
            .overhead
            .as_ref()
            .map(|o| overhead_doc(o, s.estimate.as_ref())),
        machine_state: s.machine_state.map(|m| m.as_str().to_string()),
        warm_up_work: s.warm_up_work.map(warm_up_work_doc),
        warm_up_skipped: None,
        allocations: s
            .allocations
            .map(|a| allocations_doc(&a, s.estimate.as_ref())),
        counts: None,
    }
}

/// The document's form of the work a warm-up took.
fn warm_up_work_doc(w: WarmUpWork) -> pilot_format::WarmUpWorkDoc {
    pilot_format::WarmUpWorkDoc {
        iterations: w.iterations,
        seconds: w.time.as_secs_f64(),
    }
}

/// What a result document says of the clock `clock`, whose two reads take `share` of a unit.
fn clock_doc(clock: ClockInfo, share: Option<f64>) -> ClockDoc {
    let tsc = match clock.timer {
        crate::record::Timer::Tsc(tsc) => Some(tsc),
        crate::record::Timer::Instant => None,
    };
    ClockDoc {
        overhead_ns: clock.overhead_ns,
        resolution_ns: clock.resolution_ns,
        share_of_unit: share,
        timer: tsc.map(|_| "tsc".to_string()),
        tsc_ghz: tsc.map(|t| t.ghz()),
    }
}

/// What a result document says of the estimate: its PIs (time, throughput, the mean beside a
/// robust headline), the independent samples for later comparisons, and the share of a unit
/// that the clock's two reads take. Empty without an estimate.
fn estimate_parts(r: &BenchRecord<'_>) -> (Vec<PiDoc>, Option<SubsessionDoc>, Option<f64>) {
    let s = r.session;
    let Some(e) = &s.estimate else {
        return (Vec::new(), None, None);
    };
    let mut pis = vec![time_pi(e, interval_from(e, s), r.reproducibility)];
    if let Some(rate) = r.throughput {
        let bounds = rate.bounds(e.mean, e.ci.low, e.ci.high);
        pis.push(pi(e, "throughput", rate.pi_unit(), bounds));
    }
    if let Some(p) = &e.plain {
        pis.push(mean_time_pi(e, p));
    }
    if let Some(a) = &s.allocations {
        pis.extend(allocation_pis(a));
    }
    let samples = subsession(e, s.process_means.is_empty());
    let unit_ns = e.mean * r.iterations_per_unit.unwrap_or(1) as f64;
    let share = (unit_ns > 0.0).then(|| 2.0 * r.clock.overhead_ns / unit_ns);
    (pis, samples, share)
}

/// The rounds as a result document holds them: every round's reading bins merged alike, so
/// that all of them fit the document's budget of [`MAX_READING_BINS`].
fn round_docs(rounds: &[RoundRecord]) -> Vec<RoundDoc> {
    let bins: usize = rounds
        .iter()
        .filter_map(|r| r.bins.as_ref())
        .map(|b| b.mean.len())
        .sum();
    let merge = bins.div_ceil(MAX_READING_BINS).max(1);
    rounds
        .iter()
        .map(|round| RoundDoc {
            readings: round.bins.as_ref().map(|b| {
                if merge > 1 {
                    b.merged(merge)
                } else {
                    b.clone()
                }
            }),
            work: round.work,
            duration_ns: round.duration.as_nanos() as u64,
            units: round.units,
            stable: round.stable.map(|(a, b)| [a, b]),
            analysed: round.analysed,
            rss_bytes: round.rss_bytes,
            marks: round.marks.iter().map(|m| m.to_string()).collect(),
            machine: round.machine.as_ref().map(|m| RoundMachineDoc {
                others_cores: figure(m.others_cores),
                own_cores: figure(m.own_cores),
                steal: figure(m.steal),
                iowait: figure(m.iowait),
                throttled: figure(m.throttled),
                cpu_pressure: m.cpu_pressure.map(figure),
            }),
        })
        .collect()
}

/// The instrumentation overhead as a result document states it, with its share of the
/// estimated unit (without its samples, which a bench's parent process pools from its
/// children's messages).
fn overhead_doc(o: &crate::checks::overhead::Overhead, estimate: Option<&Estimate>) -> OverheadDoc {
    OverheadDoc {
        per_unit_ns: o.per_unit_ns,
        ci: CiDoc {
            low: Some(o.low),
            high: Some(o.high),
            confidence: o.confidence,
        },
        share_of_unit: estimate
            .filter(|e| e.mean > 0.0)
            .map(|e| o.per_unit_ns / e.mean),
        blocks: o.blocks,
        target_ns: Some(figure(o.target_ns)),
        reached: Some(o.reached()),
        time_s: Some(figure(o.time_s)),
        samples_ns: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::time::Duration;

    use super::*;
    use crate::session::Estimate;
    use pilot_stats::wps;

    fn record<'a>(session: &'a SessionResult, config: &'a SessionConfig) -> BenchRecord<'a> {
        BenchRecord {
            name: "fold",
            target: "t",
            form: pilot_format::Form::ReadingsOnly,
            throughput: None,
            config,
            session,
            iterations_per_unit: None,
            clock: ClockInfo {
                overhead_ns: 20.0,
                resolution_ns: 1.0,
                timer: crate::record::Timer::Instant,
            },
            machine: None,
            reproducibility: None,
            started: "s".into(),
            finished: "f".into(),
        }
    }

    #[test]
    fn throughput_in_bytes_is_the_amount_over_the_time_per_unit() {
        // 4096 B per unit in 2000 ns ± 100 ns: 4096e9 / 2000 = 2.048e9 B/s, between
        // 4096e9 / 2100 = 1.9505e9 and 4096e9 / 1900 = 2.1558e9 B/s.
        let rate = Rate {
            unit: "B".into(),
            per_unit: 4096.0,
        };
        let (mean, low, high) = rate.bounds(2000.0, 1900.0, 2100.0);
        assert_eq!(mean, Some(2.048e9));
        assert!((low.unwrap() - 4096e9 / 2100.0).abs() < 1e-3);
        assert!((high.unwrap() - 4096e9 / 1900.0).abs() < 1e-3);
        assert_eq!(rate.pi_unit(), "B/s");
        // An interval reaching 0 has no upper throughput bound.
        assert_eq!(rate.bounds(2000.0, 0.0, 2100.0).2, None);
        assert_eq!(
            Rate::units("MiB").bounds(2000.0, 1900.0, 2100.0).0,
            Some(5e5)
        );
    }

    #[test]
    fn a_readings_only_result_reads_back_with_its_slope_standard_error() {
        // t = 100 + 2w with residuals ±1, ±3 over six rounds: by hand, Sxx = 17.5·10⁴ for
        // w = 100..600 step 100, and the slope's se² = s²/Sxx.
        let w = [100.0, 200.0, 300.0, 400.0, 500.0, 600.0];
        let noise = [1.0, -1.0, 3.0, -3.0, 1.0, -1.0];
        let t: Vec<f64> = w
            .iter()
            .zip(noise)
            .map(|(w, e)| 100.0 + 2.0 * w + e)
            .collect();
        let fit = wps(&w, &t, 0.95, 0.9).unwrap();
        assert_eq!(fit.subsession_size, 1);
        let session = SessionResult {
            status: Status::Converged,
            estimate: Some(Estimate::from_wps(fit.clone())),
            rounds: Vec::new(),
            removed: 0,
            readings: 0,
            elapsed: Duration::from_millis(5),
            warnings: Vec::new(),
            process_means: Vec::new(),
            unresolved_fit: None,
            drift: None,
            checks: Vec::new(),
            warm_up: Some(crate::session::WarmUpClass::Flat),
            outliers: None,
            overhead: None,
            machine_state: None,
            warm_up_start: None,
            warm_up_work: None,
            allocations: None,
        };
        let config = SessionConfig::default();
        let doc = document(&record(&session, &config));
        let saved = crate::store::from_document(&doc, Path::new("fold.json")).unwrap();
        let e = saved.time.unwrap();
        assert_eq!(e.interval_from, "regression");
        assert_eq!(e.dof, 4.0);
        // By hand: Σ(w − w̄)e = −500, so the slope is 2 − 500/Sxx, and the residual sum of
        // squares is Σe² − 500²/Sxx = 22 − 500²/Sxx, over n − 2 = 4 dof.
        let sxx = 17.5e4;
        assert!((e.mean - (2.0 - 500.0 / sxx)).abs() < 1e-12);
        let se2 = (22.0 - 500.0 * 500.0 / sxx) / 4.0 / sxx;
        assert!(
            (e.standard_error_squared() - se2).abs() < 1e-12 * se2,
            "{} vs {se2}",
            e.standard_error_squared()
        );
    }
}
