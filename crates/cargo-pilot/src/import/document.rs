//! The `pilot.result/1` document of an imported series: its estimate with pilot's interval,
//! the figures and warnings a result holds, and the document checked as pilot reads it back.
//!
//! The estimate is the mean of every reading, the figure the other harness itself reports as
//! its mean: criterion's `mean` is the plain mean of `times[i] / iters[i]` over all its
//! samples (its `src/analysis/mod.rs`, `estimates`: `Sample::mean` of the per-iteration
//! times, with a bootstrap interval), and hyperfine's `mean` that of every run. Both harnesses
//! warm up before they sample, so none of their readings is a warm-up to cut. Cutting at a
//! change point, as pilot's own sessions do and as the import did before, leaves out samples
//! that the harness's mean holds; where those differ (criterion's first linear samples carry
//! the timer's fixed cost over few iterations each) the imported mean moved outside the
//! harness's own interval. The change points found are reported in the warnings instead, and
//! `cargo pilot analyze --from` still shows pilot's stable segment. The interval is pilot's:
//! subsession analysis over all the readings, Student's t over the subsession means.

use anyhow::anyhow;
use pilot_format::{CiDoc, ConfigDoc, PiDoc, RESULT_SCHEMA, ResultDoc, RoundDoc, SubsessionDoc};
use pilot_stats::{
    Analysis, AnalysisConfig, ConfidenceInterval, StableSegment, Summary, analyze,
    find_stable_segment,
};

use super::Series;

/// The analysis settings of an import, as `cargo pilot analyze` has them by default (its
/// change-point settings find the change points the warnings report).
pub fn analysis_config(confidence: f64, target: f64) -> AnalysisConfig {
    AnalysisConfig {
        confidence,
        target_relative_half_width: target,
        ..AnalysisConfig::default()
    }
}

/// An imported series analysed: over all its readings, and the stable segment change-point
/// detection finds in them (reported, not cut).
pub struct Imported {
    /// pilot's analysis of every reading, as one stable phase.
    pub analysis: Analysis,
    /// What change-point detection finds in the readings.
    pub found: StableSegment,
}

impl Imported {
    /// The estimate: the mean of every reading (the harness's own mean), and pilot's interval
    /// around it. The interval's half-width is that of subsession analysis, whose samples are
    /// whole subsessions (the last `q − 1` readings or fewer left out); it is centred on the
    /// mean of all readings, from which the subsessions' mean differs by those few only.
    pub fn estimate(&self) -> (f64, ConfidenceInterval) {
        let a = &self.analysis;
        let mean = a.raw.mean;
        let half = a.ci.half_width();
        (
            mean,
            ConfidenceInterval {
                low: mean - half,
                high: mean + half,
                ..a.ci
            },
        )
    }
}

/// Analyses a series over all its readings and finds its change points, naming its file on
/// failure.
pub fn analyze_series(s: &Series, config: &AnalysisConfig) -> anyhow::Result<Imported> {
    let failed = |e: pilot_stats::Error| {
        anyhow!(
            "`{}`: the readings of `{}` cannot be analysed: {e}",
            s.source.display(),
            s.origin
        )
    };
    let whole = AnalysisConfig {
        changepoints: None,
        ..config.clone()
    };
    let analysis = analyze(&s.readings, &whole).map_err(failed)?;
    let found = match &config.changepoints {
        Some(cp) => find_stable_segment(&s.readings, cp).map_err(failed)?,
        None => analysis.stable.clone(),
    };
    Ok(Imported { analysis, found })
}

/// The `pilot.result/1` document of an imported series: its time per unit with pilot's
/// interval, the subsession samples a comparison needs, the readings as one round, and
/// warnings saying where it came from.
pub fn document(s: &Series, i: &Imported, config: &AnalysisConfig, source: &str) -> ResultDoc {
    let a = &i.analysis;
    let sub = &a.subsession;
    let samples = Summary::of(&sub.means).expect("subsession samples are finite and non-empty");
    let (mean, ci) = i.estimate();
    let met = ci.half_width() <= config.target_relative_half_width * mean;
    let status = if !i.found.dominant {
        "no steady state"
    } else if met {
        "ok"
    } else {
        "time cap"
    };
    let stable_len = a.stable.end - a.stable.start;
    let finished = std::fs::metadata(&s.source)
        .and_then(|m| m.modified())
        .map(|t| humantime::format_rfc3339_seconds(t).to_string())
        .unwrap_or_default();
    ResultDoc {
        schema: RESULT_SCHEMA.to_string(),
        name: s.name.clone(),
        target: s.target.clone(),
        form: s.form,
        status: status.to_string(),
        status_detail: None,
        pis: pis(s, i, config),
        subsession: Some(SubsessionDoc {
            count: sub.count(),
            mean: samples.mean,
            variance: samples.variance,
            variance_inflation: sub.variance_inflation(),
            means: (sub.means.len() <= 10_000).then(|| sub.means.clone()),
        }),
        config: ConfigDoc {
            ci: config.target_relative_half_width,
            confidence: config.confidence,
            max_time: 0.0,
            min_time: 0.0,
        },
        rounds: vec![round(s, a)],
        processes: Default::default(),
        removed_readings: (s.readings.len() - stable_len) as u64,
        readings: s.readings.len() as u64,
        iterations_per_unit: None,
        clock: Default::default(),
        warnings: warnings(s, i, config, source, met),
        machine: None,
        started: String::new(),
        finished,
        elapsed_s: s.total_ns / 1e9,
        threads: None,
        checks: Vec::new(),
        warm_up: None,
        outliers: None,
        overhead: None,
        machine_state: None,
        warm_up_work: None,
        warm_up_skipped: None,
        allocations: None,
        counts: None,
    }
}

/// The performance indices: the time per unit with pilot's interval, and the throughput when
/// the bench declared one.
fn pis(s: &Series, i: &Imported, config: &AnalysisConfig) -> Vec<PiDoc> {
    let a = &i.analysis;
    let sub = &a.subsession;
    let (mean, interval) = i.estimate();
    let ci = CiDoc {
        low: Some(interval.low),
        high: Some(interval.high),
        confidence: config.confidence,
    };
    let mut pis = vec![PiDoc {
        name: "time".to_string(),
        unit: "ns".to_string(),
        mean: Some(mean),
        ci,
        n: a.stable_summary.n,
        subsession_size: sub.size,
        autocorrelation: sub.autocorrelation,
        required_n: a.required_n,
        interval_from: Some("readings".to_string()),
        reproducibility: None,
        machine: None,
        // Another harness's samples: the mean of them all, as that harness reports it.
        estimator: Some("mean".to_string()),
    }];
    if let Some((per_unit, unit)) = s.throughput {
        let rate = |t: f64| (t > 0.0).then(|| per_unit * 1e9 / t);
        pis.push(PiDoc {
            name: "throughput".to_string(),
            unit: format!("{unit}/s"),
            mean: rate(mean),
            ci: CiDoc {
                low: rate(interval.high),
                high: rate(interval.low),
                confidence: config.confidence,
            },
            ..pis[0].clone()
        });
        pis[1].interval_from = None;
    }
    pis
}

/// Where the series came from and what its estimate is, whether the interval reached the
/// target (`met`), the change points found (not cut), and the analysis's own warnings.
fn warnings(
    s: &Series,
    i: &Imported,
    config: &AnalysisConfig,
    source: &str,
    met: bool,
) -> Vec<String> {
    let (mean, ci) = i.estimate();
    let mut warnings = vec![format!(
        "imported from {source}: `{}` ({}); the time per unit is the mean of every reading, \
         as {source} reports it, with pilot's interval; the machine it ran on is not recorded",
        s.source.display(),
        s.what
    )];
    if !met {
        warnings.push(format!(
            "the interval reached (±{:.2}%) is wider than the target (±{:.2}%): {source} \
             stopped measuring first",
            100.0 * ci.half_width() / mean,
            100.0 * config.target_relative_half_width
        ));
    }
    let found = &i.found;
    if !found.changepoints.is_empty() {
        let at: Vec<String> = found.changepoints.iter().map(|c| c.to_string()).collect();
        warnings.push(format!(
            "change point(s) at reading {} of {}: not every reading comes from one steady \
             state ({}the longest stable segment is readings {}..{}); all are in the mean, \
             as in {source}'s (`cargo pilot analyze --from {source}` shows the stable \
             segment's)",
            at.join(", "),
            s.readings.len(),
            if found.dominant {
                ""
            } else {
                "no steady state: "
            },
            found.start,
            found.end,
        ));
    }
    warnings.extend(i.analysis.warnings.iter().cloned());
    warnings
}

/// The series's readings as one round, all of them analysed as its stable phase.
fn round(s: &Series, a: &Analysis) -> RoundDoc {
    RoundDoc {
        work: s.work,
        duration_ns: s.total_ns.round() as u64,
        units: s.readings.len(),
        stable: a.stable.dominant.then_some([a.stable.start, a.stable.end]),
        analysed: true,
        // The imported readings in the bins a session's round keeps, so that `cargo pilot
        // report` draws them like pilot's own.
        readings: pilot_format::ReadingBins::of(&s.readings, pilot_format::MAX_READING_BINS),
        rss_bytes: None,
        marks: Vec::new(),
        machine: None,
    }
}

/// The JSON of `doc`, read back in memory as pilot reads a baseline's file: an error names the
/// input file and the bench, not where the result would have gone.
pub fn checked_text(s: &Series, doc: &ResultDoc) -> anyhow::Result<String> {
    let text = serde_json::to_string_pretty(doc).expect("a result document serialises");
    let invalid = |problem: String| {
        anyhow!(
            "`{}`: `{}` does not make a valid pilot result: {problem}",
            s.source.display(),
            s.origin
        )
    };
    let back: ResultDoc =
        serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_str(&text))
            .map_err(|e| invalid(format!("`{}`: {}", e.path(), e.inner())))?;
    match pilot_engine::store::from_document(&back, &s.source) {
        Ok(_) => Ok(text),
        Err(pilot_engine::Error::InvalidResult { problem, .. }) => Err(invalid(problem)),
        Err(e) => Err(invalid(e.to_string())),
    }
}
