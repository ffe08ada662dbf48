//! The `pilot.result/1` document of an imported series: pilot's analysis of its readings, the
//! figures and warnings a result holds, and the document checked as pilot reads it back.

use anyhow::anyhow;
use pilot_engine::schema::{
    CiDoc, ConfigDoc, PiDoc, RESULT_SCHEMA, ResultDoc, RoundDoc, SubsessionDoc,
};
use pilot_engine::stats::{Analysis, AnalysisConfig, Summary, analyze};

use super::Series;

/// The analysis settings of an import, as `cargo pilot analyze` has them by default.
pub fn analysis_config(confidence: f64, target: f64) -> AnalysisConfig {
    AnalysisConfig {
        confidence,
        target_relative_half_width: target,
        ..AnalysisConfig::default()
    }
}

/// Analyses a series, naming its file on failure.
pub fn analyze_series(s: &Series, config: &AnalysisConfig) -> anyhow::Result<Analysis> {
    analyze(&s.readings, config).map_err(|e| {
        anyhow!(
            "`{}`: the readings of `{}` cannot be analysed: {e}",
            s.source.display(),
            s.origin
        )
    })
}

/// The `pilot.result/1` document of an imported series: its time per unit with pilot's
/// interval, the subsession samples a comparison needs, the readings as one round, and
/// warnings saying where it came from.
pub fn document(s: &Series, a: &Analysis, config: &AnalysisConfig, source: &str) -> ResultDoc {
    let sub = &a.subsession;
    let samples = Summary::of(&sub.means).expect("subsession samples are finite and non-empty");
    let met = a.ci.half_width() <= config.target_relative_half_width * a.mean;
    let status = if !a.stable.dominant {
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
        form: s.form.to_string(),
        status: status.to_string(),
        status_detail: None,
        pis: pis(s, a, config),
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
        warnings: warnings(s, a, config, source, met),
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
fn pis(s: &Series, a: &Analysis, config: &AnalysisConfig) -> Vec<PiDoc> {
    let sub = &a.subsession;
    let ci = CiDoc {
        low: Some(a.ci.low),
        high: Some(a.ci.high),
        confidence: config.confidence,
    };
    let mut pis = vec![PiDoc {
        name: "time".to_string(),
        unit: "ns".to_string(),
        mean: Some(a.mean),
        ci,
        n: a.stable_summary.n,
        subsession_size: sub.size,
        autocorrelation: sub.autocorrelation,
        required_n: a.required_n,
        interval_from: Some("readings".to_string()),
        machine: None,
        // Another harness's samples, analysed as pilot analyses data from anywhere: their mean.
        estimator: Some("mean".to_string()),
    }];
    if let Some((per_unit, unit)) = s.throughput {
        let rate = |t: f64| (t > 0.0).then(|| per_unit * 1e9 / t);
        pis.push(PiDoc {
            name: "throughput".to_string(),
            unit: format!("{unit}/s"),
            mean: rate(a.mean),
            ci: CiDoc {
                low: rate(a.ci.high),
                high: rate(a.ci.low),
                confidence: config.confidence,
            },
            ..pis[0].clone()
        });
        pis[1].interval_from = None;
    }
    pis
}

/// Where the series came from, whether the interval reached the target (`met`), and the
/// analysis's own warnings.
fn warnings(
    s: &Series,
    a: &Analysis,
    config: &AnalysisConfig,
    source: &str,
    met: bool,
) -> Vec<String> {
    let mut warnings = vec![format!(
        "imported from {source}: `{}` ({}), analysed by pilot; the machine it ran on is not \
         recorded",
        s.source.display(),
        s.what
    )];
    if !met && a.stable.dominant {
        warnings.push(format!(
            "the interval reached (±{:.2}%) is wider than the target (±{:.2}%): {source} \
             stopped measuring first",
            100.0 * a.ci.half_width() / a.mean,
            100.0 * config.target_relative_half_width
        ));
    }
    warnings.extend(a.warnings.iter().cloned());
    warnings
}

/// The series's readings as one round, with its stable phase.
fn round(s: &Series, a: &Analysis) -> RoundDoc {
    RoundDoc {
        work: s.work,
        duration_ns: s.total_ns.round() as u64,
        units: s.readings.len(),
        stable: a.stable.dominant.then_some([a.stable.start, a.stable.end]),
        analysed: true,
        // The imported readings in the bins a session's round keeps, so that `cargo pilot
        // report` draws them like pilot's own.
        readings: pilot_engine::stats::ReadingBins::of(
            &s.readings,
            pilot_engine::schema::MAX_READING_BINS,
        ),
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
