//! The statistics engine: every number pilot reports is computed here.
//!
//! One module per method, each stating its assumptions and cost:
//!
//! - [`summary`]: n, mean, median, extremes, standard deviation and Student-t confidence intervals.
//! - [`autocorr`]: lag-1 autocorrelation and subsession analysis (merging correlated samples).
//! - [`changepoint`]: E-Divisive with Medians and the stable segment of a series of unit readings.
//! - [`regression`]: ordinary least squares and the work-per-second (WPS) method.
//! - [`welch`]: Welch's unequal-variance t-test for comparing two results.
//! - [`ratio`]: Fieller's confidence interval of a ratio of means (relative changes).
//! - [`samplesize`]: how many samples a target interval width or a difference needs.
//! - [`outliers`]: z-score outliers.
//! - [`trend`]: the slope of a series with its confidence interval (drifts, leaks).
//! - [`analysis`]: the whole pipeline for one series: stable segment, subsession analysis, interval.

pub mod analysis;
pub mod autocorr;
pub mod changepoint;
pub mod outliers;
pub mod ratio;
pub mod regression;
pub mod samplesize;
pub mod summary;
pub mod trend;
pub mod welch;

pub use summary::{ConfidenceInterval, Moments, Summary, t_quantile};
