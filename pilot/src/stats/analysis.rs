//! The whole analysis of one series of unit readings: raw summary, stable segment, subsession
//! analysis, and the confidence interval of the stable-phase mean.
//!
//! This is the pipeline of Pilot's §III-A/§III-D applied to data already collected; `cargo pilot
//! analyze` and the adaptive session both use it.

use crate::error::{Result, check_confidence, check_finite, check_len};
use crate::stats::autocorr::{
    DEFAULT_AUTOCORRELATION_LIMIT, DEFAULT_MIN_SUBSESSIONS, SubsessionAnalysis,
    lag1_autocorrelation, subsession_analysis,
};
use crate::stats::changepoint::{ChangepointConfig, StableSegment, find_stable_segment};
use crate::stats::outliers::{DEFAULT_Z_THRESHOLD, zscore_outliers};
use crate::stats::summary::{ConfidenceInterval, Summary};
use crate::stats::trend::trend;

/// Settings of [`analyze`].
#[derive(Debug, Clone, PartialEq)]
pub struct AnalysisConfig {
    /// Confidence level of every interval (default 0.95).
    pub confidence: f64,
    /// Target half-width of the mean's interval relative to the mean (default 0.01), used for
    /// the required sample size.
    pub target_relative_half_width: f64,
    /// Bound on |lag-1 autocorrelation| for subsession analysis (default 0.1).
    pub autocorrelation_limit: f64,
    /// Least number of subsession samples subsession analysis may end with (default 30).
    pub min_subsessions: usize,
    /// Change-point detection settings; `None` analyses the whole series as stable.
    pub changepoints: Option<ChangepointConfig>,
}

impl Default for AnalysisConfig {
    fn default() -> Self {
        AnalysisConfig {
            confidence: 0.95,
            target_relative_half_width: 0.01,
            autocorrelation_limit: DEFAULT_AUTOCORRELATION_LIMIT,
            min_subsessions: DEFAULT_MIN_SUBSESSIONS,
            changepoints: Some(ChangepointConfig::default()),
        }
    }
}

/// What [`analyze`] found in a series.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// Summary of the raw series, all values.
    pub raw: Summary,
    /// Student-t interval of the raw mean, as if the values were independent (they rarely are).
    pub raw_ci: ConfidenceInterval,
    /// Lag-1 autocorrelation of the raw series.
    pub raw_autocorrelation: f64,
    /// The stable phase and the change points around it.
    pub stable: StableSegment,
    /// Summary of the values in the stable phase.
    pub stable_summary: Summary,
    /// Subsession analysis of the stable phase.
    pub subsession: SubsessionAnalysis,
    /// Mean of the stable phase's subsession samples: the result.
    pub mean: f64,
    /// Confidence interval of [`mean`](Self::mean) over the subsession samples, corrected for the
    /// correlation left between them ([`SubsessionAnalysis::adjusted_mean_ci`]).
    pub ci: ConfidenceInterval,
    /// Input samples needed (in the stable phase) for the target half-width, `h_req · q`;
    /// `None` when it cannot be known (a zero mean).
    pub required_n: Option<usize>,
    /// Plain-language warnings about the data (no steady state, outliers, drift, …).
    pub warnings: Vec<String>,
}

/// Analyses a series of readings in the order they were taken.
///
/// Steps: (1) summary and raw interval; (2) stable segment by change-point detection (or the
/// whole series when detection is off); (3) subsession analysis of the stable segment; (4) the
/// Student-t interval over the subsession samples and the required sample size for the target;
/// (5) warnings: no dominant stable segment, autocorrelation not removed, z-score outliers in the
/// stable segment, a trend across the stable segment.
///
/// Needs n ≥ 2 finite values. Time: dominated by change-point detection (see
/// [`find_stable_segment`]); the rest is O(n log n).
pub fn analyze(xs: &[f64], config: &AnalysisConfig) -> Result<Analysis> {
    check_len(xs, 2)?;
    check_finite(xs)?;
    check_confidence(config.confidence)?;
    let raw = Summary::of(xs)?;
    let raw_ci = raw.mean_ci(config.confidence)?;
    let raw_autocorrelation = lag1_autocorrelation(xs)?;
    let mut warnings = Vec::new();

    let stable = match &config.changepoints {
        Some(cp) => find_stable_segment(xs, cp)?,
        None => StableSegment {
            start: 0,
            end: xs.len(),
            changepoints: Vec::new(),
            dominant: true,
        },
    };
    if !stable.dominant {
        warnings.push(format!(
            "no steady state: the longest stable segment ({}..{}) holds only {} of {} values",
            stable.start,
            stable.end,
            stable.end - stable.start,
            xs.len()
        ));
    }
    let segment = &xs[stable.start..stable.end];
    let stable_summary = Summary::of(segment)?;
    let subsession = subsession_analysis(
        segment,
        config.autocorrelation_limit,
        config.min_subsessions,
    )?;
    if !subsession.converged {
        warnings.push(format!(
            "autocorrelation not removed: lag-1 autocorrelation {:.3} at subsession size {} \
             (limit ±{}); the interval is too narrow, collect more data",
            subsession.autocorrelation, subsession.size, config.autocorrelation_limit
        ));
    }
    let mean = subsession.mean();
    let ci = if subsession.count() >= 2 {
        subsession.adjusted_mean_ci(config.confidence)?
    } else {
        ConfidenceInterval {
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
            confidence: config.confidence,
        }
    };
    let required_n = subsession
        .required_count(
            config.target_relative_half_width * mean.abs(),
            config.confidence,
        )
        .map(|h| h * subsession.size);
    if subsession.count() < config.min_subsessions {
        warnings.push(format!(
            "only {} subsession samples (at least {} are recommended for a trustworthy interval)",
            subsession.count(),
            config.min_subsessions
        ));
    }
    let outliers = zscore_outliers(segment, DEFAULT_Z_THRESHOLD)?;
    if !outliers.is_empty() {
        warnings.push(format!(
            "{} outlier(s) beyond {} standard deviations in the stable segment, first at index {}",
            outliers.len(),
            DEFAULT_Z_THRESHOLD,
            outliers[0] + stable.start
        ));
    }
    // Drift is judged on the subsession samples, which are (nearly) independent.
    if subsession.count() >= 10 {
        let t = trend(&subsession.means, config.confidence)?;
        if t.p < 0.01 && t.relative_drift.abs() > config.target_relative_half_width {
            warnings.push(format!(
                "values drift across the stable segment: {:+.1}% from first to last (p = {:.2e})",
                100.0 * t.relative_drift,
                t.p
            ));
        }
    }
    Ok(Analysis {
        raw,
        raw_ci,
        raw_autocorrelation,
        stable,
        stable_summary,
        subsession,
        mean,
        ci,
        required_n,
        warnings,
    })
}
