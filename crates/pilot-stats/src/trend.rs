//! The trend of a series: does it drift (a slowdown, a leak) across rounds?

use crate::error::Result;
use crate::regression::ols;
use crate::summary::ConfidenceInterval;

/// A linear trend `x_i ≈ a + slope · i` of a series in order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Trend {
    /// Change per step of the index, in the values' unit.
    pub slope: f64,
    /// The slope's Student-t confidence interval (n − 2 degrees of freedom).
    pub slope_ci: ConfidenceInterval,
    /// Two-sided p-value of "no trend" (slope = 0).
    pub p: f64,
    /// The fitted drift across the whole series relative to its mean,
    /// `slope · (n − 1) / mean`: +0.1 means the last value is fitted 10% of the mean above the first.
    /// NaN for a zero mean; ±∞ when a mean close to 0 makes it pass `f64::MAX`.
    pub relative_drift: f64,
}

/// Fits a straight line over the index of `xs` and returns its slope with a confidence interval.
///
/// Assumes independent residuals: on autocorrelated readings the interval is too narrow, so run it
/// on per-round means or subsession samples. Needs n ≥ 3. Any finite values work: the fit is
/// computed on rescaled values ([`ols`]). Time: O(n).
pub fn trend(xs: &[f64], confidence: f64) -> Result<Trend> {
    let idx: Vec<f64> = (0..xs.len()).map(|i| i as f64).collect();
    let fit = ols(&idx, xs)?;
    let m = crate::summary::mean(xs);
    let relative_drift = if m != 0.0 {
        fit.slope / m * (xs.len() - 1) as f64
    } else {
        f64::NAN
    };
    Ok(Trend {
        slope: fit.slope,
        slope_ci: fit.slope_ci(confidence)?,
        p: fit.slope_p(),
        relative_drift,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_line_and_flat_series() {
        let line: Vec<f64> = (0..10).map(|i| 100.0 + 2.0 * i as f64).collect();
        let t = trend(&line, 0.95).unwrap();
        assert!((t.slope - 2.0).abs() < 1e-12);
        assert_eq!(t.p, 0.0);
        assert!((t.relative_drift - 18.0 / 109.0).abs() < 1e-12);
        let flat = trend(&[5.0, 6.0, 5.0, 6.0, 5.0, 6.0, 5.0], 0.95).unwrap();
        assert!(flat.slope_ci.contains(0.0));
        assert!(flat.p > 0.5);
    }
}
