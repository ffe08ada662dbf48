//! pilot's statistics on plain numbers: every number pilot reports is computed here, and each
//! function is public for data from anywhere, as `cargo pilot analyze` uses it. The crate
//! depends on nothing of pilot's, so it can be used alone; a bench's code reaches it as
//! `pilot::stats`. Each function states its method, assumptions and cost:
//!
//! ```
//! use pilot_stats::{Summary, welch_test};
//!
//! let before = Summary::of(&[10.1, 10.3, 9.9, 10.0, 10.2])?;
//! let after = Summary::of(&[9.1, 9.3, 9.0, 9.2, 9.1])?;
//! let ci = before.mean_ci(0.95)?;
//! assert!(ci.low < 10.1 && 10.1 < ci.high);
//! let t = welch_test(&before.moments(), &after.moments(), 0.95)?;
//! assert!(t.p < 0.01);
//! # Ok::<(), pilot_stats::Error>(())
//! ```
//!
//!
//! - summary: [`Summary`] (n, mean, median, extremes, standard deviation), [`Moments`], Student-t
//!   [`ConfidenceInterval`]s and [`t_quantile`]; the variance of a mean of clustered readings
//!   ([`cluster_mean_variance`]).
//! - autocorrelation and subsession analysis (merging correlated samples):
//!   [`lag1_autocorrelation`], [`block_means`], [`subsession_analysis`].
//! - change points: E-Divisive with Medians ([`edm_multi`]) and the stable segment of a series of
//!   unit readings ([`find_stable_segment`]); the level changes of a history over commits by
//!   E-Divisive means and Student's t ([`level_changes`]), each change's p counted over the
//!   splits searched ([`searched_level_changes`], [`searched_p`]), a run too short to be a
//!   level left out ([`short_runs`]).
//! - regression: ordinary least squares ([`ols`]) and the work-per-second method ([`wps`]).
//! - a robust location of readings with rare interruptions: the trimmed mean of subsession means
//!   ([`robust_location`], [`robust_subsession_analysis`]), the Tukey–McLaughlin interval
//!   ([`trimmed_mean_ci`]) and Yuen's test ([`yuen_test`]).
//! - comparison: Welch's unequal-variance t-test ([`welch_test`]) and Fieller's interval of a
//!   ratio of means ([`fieller_interval`]).
//! - sample sizes: [`required_for_half_width`], [`required_to_resolve`].
//! - where the next run lands: the recency-weighted level and spread of runs' values
//!   ([`run_spread`]), the prediction interval of one more run ([`prediction_half_width`],
//!   from a plain sample [`sample_prediction_half_width`]), and Welch–Satterthwaite's degrees
//!   of freedom of a sum of variances ([`satterthwaite_dof`]).
//! - what a run-to-run variation allows: the smallest change a comparison detects
//!   ([`detectable_change`], between two runs [`detectable_between_runs`], over interleaved
//!   pairs [`detectable_in_pairs`]).
//! - [`zscore_outliers`] and [`mad_outliers`], a round's outliers under both ([`count_outliers`]),
//!   values far out from their median ([`far_out`]), and the slope of a series with its interval ([`trend`]).
//! - the whole pipeline for one series, stable segment to interval: [`analyze`].
//! - many tests at once: p-values adjusted for the family-wise error rate ([`holm`]) or the
//!   false-discovery rate ([`benjamini_hochberg`]).
//! - how a p-value is written: [`format_p`] and [`p_clause`].
//!
//! A statistic that has no answer for its input returns [`Error`], which names what is wrong.
//!
//! Every function accepts any finite `f64`: each divides its input by the power of two at or
//! below its largest magnitude ([`power_of_two_scale`]), computes, and multiplies the results
//! back, which is exact. So squares of values near 1e200 do not overflow, squares of values near
//! 1e-200 do not underflow, and a result is an error only when it is itself beyond `f64::MAX`.
#![deny(missing_docs)]

pub mod analysis;
pub(crate) mod autocorr;
pub(crate) mod changepoint;
pub(crate) mod clusters;
pub(crate) mod detectable;
mod error;
pub(crate) mod multiple;
pub(crate) mod outliers;
pub(crate) mod prediction;
mod pvalue;
pub(crate) mod ratio;
pub(crate) mod regression;
pub(crate) mod robust;
pub(crate) mod samplesize;
pub(crate) mod scale;
pub mod summary;
pub(crate) mod trend;
pub(crate) mod welch;

pub use analysis::{Analysis, AnalysisConfig, analyze, autocorrelation_warning};
pub use autocorr::{
    DEFAULT_AUTOCORRELATION_LIMIT, DEFAULT_MIN_SUBSESSIONS, SubsessionAnalysis, block_means,
    lag1_autocorrelation, subsession_analysis,
};
pub use changepoint::{
    ChangepointConfig, DivisiveCandidate, LevelChange, LevelChangeConfig, SHORT_RUN_LIMIT,
    StableSegment, divisive_candidate, edm_multi, find_stable_segment, level_changes,
    relative_interval, searched_level_changes, searched_p, short_runs, split_test,
};
pub use clusters::cluster_mean_variance;
pub use detectable::{detectable_between_runs, detectable_change, detectable_in_pairs};
pub use error::{Error, Result};
pub use multiple::{benjamini_hochberg, holm};
pub use outliers::{
    DEFAULT_MAD_THRESHOLD, DEFAULT_Z_THRESHOLD, OutlierCount, count_outliers, mad_outliers,
    zscore_outliers,
};
pub use prediction::{
    HALF_LIFE_RUNS, RunSpread, prediction_half_width, run_spread, sample_prediction_half_width,
    satterthwaite_dof,
};
pub use pvalue::{P_FLOOR, format_p, p_clause};
pub use ratio::fieller_interval;
pub use regression::{LinearFit, SpeedInterval, WpsFit, ols, wps};
pub use robust::{
    DEFAULT_TRIM, FAR_OUT, FarOut, IndependentLocation, PROCESS_FAR_SHARE, RobustLocation, Sides,
    Trimmed, far_out, independent_location, robust_location, robust_subsession_analysis,
    trimmed_location, trimmed_mean_ci, yuen_test,
};
pub use samplesize::{required_for_half_width, required_to_resolve};
pub use scale::power_of_two_scale;
pub use summary::{ConfidenceInterval, Moments, Summary, t_quantile};
pub use trend::{Trend, trend};
pub use welch::{WelchTest, welch_test};
