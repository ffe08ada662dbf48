//! The whole analysis of one series of unit readings: raw summary, stable segment, subsession
//! analysis, and the confidence interval of the stable-phase mean.
//!
//! This is the pipeline of Pilot's §III-A/§III-D applied to data already collected; `cargo pilot
//! analyze` and the adaptive session both use it.

use crate::autocorr::{
    DEFAULT_AUTOCORRELATION_LIMIT, DEFAULT_MIN_SUBSESSIONS, SubsessionAnalysis,
    lag1_autocorrelation, subsession_analysis,
};
use crate::changepoint::{ChangepointConfig, StableSegment, find_stable_segment};
use crate::error::{Error, Result, check_confidence, check_finite, check_len};
use crate::outliers::{DEFAULT_Z_THRESHOLD, zscore_outliers};
use crate::samplesize::required_for_half_width;
use crate::scale::{ldexp, scaled};
use crate::summary::{ConfidenceInterval, Summary};
use crate::trend::trend;

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

/// What [`analyze`] found in a series. Every number in it is finite, except the summaries'
/// variances, which are `+∞` where they pass `f64::MAX` (their standard deviations are finite).
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
    /// `None` when it cannot be known: a zero mean (no relative target), or a count of 2^53 or
    /// more (a mean so close to 0 against the spread that no sample would do).
    pub required_n: Option<usize>,
    /// Plain-language warnings about the data (no steady state, outliers, drift, …).
    pub warnings: Vec<String>,
}

/// The warning of a subsession analysis that did not bring the lag-1 autocorrelation within
/// `limit` (`None` when it did): the interval over its samples is too narrow. [`analyze`]
/// adds it among its warnings; a caller that treats the values as independent instead drops
/// this one. O(1).
pub fn autocorrelation_warning(subsession: &SubsessionAnalysis, limit: f64) -> Option<String> {
    (!subsession.converged).then(|| {
        format!(
            "autocorrelation not removed: lag-1 autocorrelation {:.3} at subsession size {} \
             (limit ±{limit}); the interval is too narrow, collect more data",
            subsession.autocorrelation, subsession.size
        )
    })
}

/// Analyses a series of readings in the order they were taken.
///
/// Steps: (1) summary and raw interval; (2) stable segment by change-point detection (or the
/// whole series when detection is off); (3) subsession analysis of the stable segment; (4) the
/// Student-t interval over the subsession samples and the required sample size for the target;
/// (5) warnings: no dominant stable segment, autocorrelation not removed, z-score outliers in the
/// stable segment, a trend across the stable segment.
///
/// Needs n ≥ 2 finite values, of any magnitude: each step computes on rescaled values (see
/// [`power_of_two_scale`](crate::power_of_two_scale)), so values near ±1e308 or 1e-320
/// are analysed as accurately as values near 1, and the analysis of `xs · 2^k` is exactly `2^k`
/// times that of `xs` wherever both stay in the normal range. [`Error::OutOfRange`] when a
/// reported number itself passes `f64::MAX` (a standard deviation or interval bound of values
/// near ±1.8e308 of both signs). Time: dominated by change-point detection (see
/// [`find_stable_segment`]); the rest is O(n log n).
pub fn analyze(xs: &[f64], config: &AnalysisConfig) -> Result<Analysis> {
    check_len(xs, 2)?;
    check_finite(xs)?;
    check_confidence(config.confidence)?;
    let raw = Summary::of(xs)?;
    let raw_ci = raw.mean_ci(config.confidence)?;
    let raw_autocorrelation = lag1_autocorrelation(xs)?;
    let mut warnings = Vec::new();

    let stable = stable_segment(xs, config, &mut warnings)?;
    let segment = &xs[stable.start..stable.end];
    let stable_summary = Summary::of(segment)?;
    // From here on the stable segment is worked on divided by its power-of-two scale, and the
    // results multiplied back once at the end: subsession means of subnormal readings would
    // otherwise be rounded before the interval and the required N are computed from them.
    let (scaled_segment, e) = scaled(segment);
    let mut subsession = subsession_analysis(
        &scaled_segment,
        config.autocorrelation_limit,
        config.min_subsessions,
    )?;
    warnings.extend(autocorrelation_warning(
        &subsession,
        config.autocorrelation_limit,
    ));
    let mean = ldexp(subsession.mean(), e);
    // Subsession analysis keeps at least 2 samples of n ≥ 2 values; the interval needs them.
    let ci = subsession.adjusted_mean_ci(config.confidence)?;
    let ci = ConfidenceInterval {
        low: ldexp(ci.low, e),
        high: ldexp(ci.high, e),
        ..ci
    };
    if !(ci.low.is_finite() && ci.high.is_finite()) {
        return Err(Error::OutOfRange {
            quantity: "confidence interval of the mean",
        });
    }
    let required_n = relative_required_count(&subsession, config)?.map(|h| h * subsession.size);
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
    warnings.extend(drift_warning(&subsession, config)?);
    subsession.means = subsession.means.iter().map(|m| ldexp(*m, e)).collect();
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

/// The stable segment of `xs` by change-point detection (all of `xs` without it), with a
/// warning when it is not the dominant part. Time: that of [`find_stable_segment`].
fn stable_segment(
    xs: &[f64],
    config: &AnalysisConfig,
    warnings: &mut Vec<String>,
) -> Result<StableSegment> {
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
    Ok(stable)
}

/// A warning when the subsession means (nearly independent, at least 10 of them) drift by
/// more than the target half-width at p < 0.01. Time: O(subsessions).
fn drift_warning(
    subsession: &SubsessionAnalysis,
    config: &AnalysisConfig,
) -> Result<Option<String>> {
    if subsession.count() < 10 {
        return Ok(None);
    }
    let t = trend(&subsession.means, config.confidence)?;
    // NaN (a zero mean) compares false: no relative drift to speak of.
    if !(t.p < 0.01 && t.relative_drift.abs() > config.target_relative_half_width) {
        return Ok(None);
    }
    let percent = 100.0 * t.relative_drift;
    Ok(Some(if percent.is_finite() {
        format!(
            "values drift across the stable segment: {percent:+.1}% from first to last \
             ({})",
            crate::pvalue::p_clause(t.p)
        )
    } else {
        format!(
            "values drift across the stable segment by far more than their mean, which is \
             close to 0 ({})",
            crate::pvalue::p_clause(t.p)
        )
    }))
}

/// Subsession samples needed for a half-width of `target_relative_half_width · |mean|`, from
/// the ratio of their standard deviation to their mean (finite where the target itself would
/// underflow, for a mean near 1e-320): `h_req = ceil(f · (s / (r · |m|))² · T²)` with `f` the
/// variance inflation and `T` the critical t on h − 1 degrees of freedom (as
/// [`SubsessionAnalysis::required_count`]). `None` for a zero mean or a count of 2^53 or more.
fn relative_required_count(
    subsession: &SubsessionAnalysis,
    config: &AnalysisConfig,
) -> Result<Option<usize>> {
    let s = Summary::of(&subsession.means)?;
    let usable_target = config.target_relative_half_width > 0.0;
    if s.mean == 0.0 || !usable_target {
        return Ok(None);
    }
    let ratio = s.std_dev / s.mean.abs() / config.target_relative_half_width;
    Ok(required_for_half_width(
        ratio * ratio * subsession.variance_inflation(),
        (s.n - 1) as f64,
        1.0,
        config.confidence,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 40 values cycling 1, 2, 3, 4 (mean 2.5) with a little irregular noise.
    fn cyclic() -> Vec<f64> {
        (0..40)
            .map(|i| f64::from(i % 4 + 1) + 0.01 * f64::from((i * 7) % 5))
            .collect()
    }

    #[test]
    fn analysis_of_huge_and_tiny_values_is_that_of_their_scaled_copies() {
        let base = analyze(&cyclic(), &AnalysisConfig::default()).unwrap();
        assert!(base.required_n.is_some());
        // 1e155 up: the variance overflowed (± inf, NaN); 1e-154 down: it underflowed (a
        // zero-width interval, invented change points). 2^k keeps everything exact.
        for f in [2f64.powi(1000), 2f64.powi(-1000)] {
            let xs: Vec<f64> = cyclic().iter().map(|x| x * f).collect();
            let a = analyze(&xs, &AnalysisConfig::default()).unwrap();
            assert_eq!(a.stable, base.stable);
            assert_eq!(a.subsession.size, base.subsession.size);
            assert_eq!(a.raw_autocorrelation, base.raw_autocorrelation);
            assert_eq!(a.required_n, base.required_n, "{f:e}");
            assert_eq!(a.warnings, base.warnings);
            assert_eq!(a.mean, base.mean * f);
            assert_eq!((a.ci.low, a.ci.high), (base.ci.low * f, base.ci.high * f));
            assert_eq!(a.raw.std_dev, base.raw.std_dev * f);
        }
        // Decimal factors: the same up to rounding of the inputs.
        for f in [1e300, 1e-300] {
            let xs: Vec<f64> = cyclic().iter().map(|x| x * f).collect();
            let a = analyze(&xs, &AnalysisConfig::default()).unwrap();
            let near = |a: f64, b: f64| (a - b).abs() <= 1e-14 * b.abs();
            assert!(near(a.mean, base.mean * f));
            assert!(near(a.ci.low, base.ci.low * f) && near(a.ci.high, base.ci.high * f));
            assert_eq!(a.required_n, base.required_n);
        }
    }

    #[test]
    fn values_near_the_largest_f64_do_not_panic() {
        // The drift test's t was NaN here, and statrs's Student-t panicked (XOutOfRange).
        let xs: Vec<f64> = (0..60)
            .map(|i| {
                let sign = if i % 3 == 0 { -1.0 } else { 1.0 };
                sign * (1e307 + 1.5e306 * f64::from(i % 7))
            })
            .collect();
        let a = analyze(&xs, &AnalysisConfig::default()).unwrap();
        assert!(a.mean.is_finite() && a.ci.low.is_finite() && a.ci.high.is_finite());
        assert!(a.raw.std_dev.is_finite() && a.raw_autocorrelation.is_finite());
        // ±MAX: the standard deviation itself is beyond f64, and says so.
        let xs: Vec<f64> = (0..10)
            .map(|i| if i % 2 == 0 { f64::MAX } else { -f64::MAX })
            .collect();
        assert_eq!(
            analyze(&xs, &AnalysisConfig::default()),
            Err(crate::Error::OutOfRange {
                quantity: "standard deviation"
            })
        );
    }

    #[test]
    fn required_n_is_unknown_only_for_a_zero_mean() {
        let config = AnalysisConfig {
            changepoints: None,
            ..AnalysisConfig::default()
        };
        // Integers 1..4 in units of the smallest subnormal: 0.01 · |mean| underflowed to 0,
        // and the required N was "unknown (the mean is 0)".
        let unit = f64::from_bits(1);
        let ints: Vec<f64> = (0..40).map(|i| f64::from(i % 4 + 1)).collect();
        let tiny: Vec<f64> = ints.iter().map(|x| x * unit).collect();
        let (a, b) = (
            analyze(&ints, &config).unwrap(),
            analyze(&tiny, &config).unwrap(),
        );
        assert!(a.required_n.is_some());
        assert_eq!(b.required_n, a.required_n);
        // The interval is computed before the one rounding to subnormal: the bound in units of
        // 2^-1074 is that of the integers, rounded to a whole unit.
        assert_eq!(b.mean, 2.5 * unit);
        assert_eq!(b.ci.high, a.ci.high.round() * unit);
        // A mean of exactly 0: no relative target.
        let zero: Vec<f64> = (0..40).map(|i| f64::from(i % 4) - 1.5).collect();
        assert_eq!(analyze(&zero, &config).unwrap().required_n, None);
    }
}
