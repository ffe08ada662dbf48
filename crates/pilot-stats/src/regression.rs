//! Ordinary least squares and the work-per-second (WPS) method (Pilot paper §III-A-b).
//!
//! A workload that cannot time its own work units still gives one reading per round: the work
//! amount `w` and the round's duration `t`. Setup, warm-up and cool-down cost about the same in
//! every round, so `t = α + w/v`: the slope `b = 1/v` is the stable phase's cost per unit of work
//! and `α` soaks up the rest.

use crate::autocorr::{DEFAULT_AUTOCORRELATION_LIMIT, block_means, lag1_autocorrelation};
use crate::error::{Error, Result, check_confidence, check_finite};
use crate::scale::{ldexp, scaled};
use crate::summary::{ConfidenceInterval, interval, mean, t_critical, t_sf};

/// A straight line `y = intercept + slope · x` fitted by ordinary least squares.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearFit {
    /// Number of points.
    pub n: usize,
    /// Intercept (`α` in the WPS model).
    pub intercept: f64,
    /// Slope (`1/v` in the WPS model).
    pub slope: f64,
    /// Standard error of the intercept.
    pub intercept_se: f64,
    /// Standard error of the slope, `sqrt(s² / Sxx)`.
    pub slope_se: f64,
    /// Residual variance `s² = SSE / (n − 2)`; `+∞` where it passes `f64::MAX` (residuals above
    /// about 1e154), when the standard errors are still finite.
    pub residual_variance: f64,
    /// Coefficient of determination; 1 when the y values are all equal and fitted exactly.
    pub r_squared: f64,
}

/// Fits `y = a + b·x` by ordinary least squares.
///
/// Assumes independent errors of equal variance; the standard errors and intervals also assume
/// normal errors (or many points). Needs n ≥ 3 (two points leave no residual degree of freedom)
/// and at least two distinct x values.
///
/// x and y are each divided by their power-of-two scale and the fit multiplied back (exact), so
/// any finite input fits without overflow; [`Error::OutOfRange`] when the slope, the intercept or
/// a standard error is itself beyond `f64::MAX` (a y range of 1e300 over an x range of 1e-300).
/// Time: O(n), two passes over centred data; memory: the scaled copies.
pub fn ols(x: &[f64], y: &[f64]) -> Result<LinearFit> {
    if x.len() != y.len() {
        return Err(Error::LengthMismatch {
            left: x.len(),
            right: y.len(),
        });
    }
    crate::error::check_len(x, 3)?;
    check_finite(x)?;
    check_finite(y)?;
    let ((x, ex), (y, ey)) = (scaled(x), scaled(y));
    ols_scaled(&x, &y)?.unscaled(ex, ey)
}

/// [`ols`] on finite values already scaled into `[-2, 2)`.
fn ols_scaled(x: &[f64], y: &[f64]) -> Result<LinearFit> {
    let n = x.len();
    let (mx, my) = (mean(x), mean(y));
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    for (xi, yi) in x.iter().zip(y) {
        let (dx, dy) = (xi - mx, yi - my);
        sxx += dx * dx;
        sxy += dx * dy;
        syy += dy * dy;
    }
    if sxx == 0.0 {
        return Err(Error::InvalidParameter {
            name: "x spread",
            value: 0.0,
            expected: "a regression needs at least two distinct x values",
        });
    }
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    let sse: f64 = x
        .iter()
        .zip(y)
        .map(|(xi, yi)| {
            let r = yi - intercept - slope * xi;
            r * r
        })
        .sum();
    let residual_variance = sse / (n - 2) as f64;
    let slope_se = (residual_variance / sxx).sqrt();
    let intercept_se = (residual_variance * (1.0 / n as f64 + mx * mx / sxx)).sqrt();
    let r_squared = if syy == 0.0 {
        1.0
    } else {
        (1.0 - sse / syy).clamp(0.0, 1.0)
    };
    Ok(LinearFit {
        n,
        intercept,
        slope,
        intercept_se,
        slope_se,
        residual_variance,
        r_squared,
    })
}

impl LinearFit {
    /// The fit of `y · 2^ey` on `x · 2^ex`, from this fit of `y` on `x`: every term multiplied by
    /// its power of two (exact), or [`Error::OutOfRange`] when one of them overflows.
    fn unscaled(self, ex: i32, ey: i32) -> Result<LinearFit> {
        let fit = LinearFit {
            intercept: ldexp(self.intercept, ey),
            slope: ldexp(self.slope, ey - ex),
            intercept_se: ldexp(self.intercept_se, ey),
            slope_se: ldexp(self.slope_se, ey - ex),
            residual_variance: ldexp(self.residual_variance, 2 * ey),
            ..self
        };
        for (value, quantity) in [
            (fit.slope, "slope of the fit"),
            (fit.intercept, "intercept of the fit"),
            (fit.slope_se, "standard error of the slope"),
            (fit.intercept_se, "standard error of the intercept"),
        ] {
            if !value.is_finite() {
                return Err(Error::OutOfRange { quantity });
            }
        }
        Ok(fit)
    }

    /// Confidence interval of the slope: `b ± t(n−2, 1−(1−c)/2) · se(b)`;
    /// [`Error::OutOfRange`] when a bound passes `f64::MAX`.
    pub fn slope_ci(&self, confidence: f64) -> Result<ConfidenceInterval> {
        check_confidence(confidence)?;
        let half = t_critical(confidence, (self.n - 2) as f64) * self.slope_se;
        interval(
            self.slope,
            half,
            confidence,
            "confidence interval of the slope",
        )
    }

    /// Confidence interval of the intercept: `a ± t(n−2, 1−(1−c)/2) · se(a)`;
    /// [`Error::OutOfRange`] when a bound passes `f64::MAX`.
    pub fn intercept_ci(&self, confidence: f64) -> Result<ConfidenceInterval> {
        check_confidence(confidence)?;
        let half = t_critical(confidence, (self.n - 2) as f64) * self.intercept_se;
        interval(
            self.intercept,
            half,
            confidence,
            "confidence interval of the intercept",
        )
    }

    /// Two-sided p-value of "slope = 0" (Student's t on n − 2 degrees of freedom).
    pub fn slope_p(&self) -> f64 {
        if self.slope_se == 0.0 {
            return if self.slope == 0.0 { 1.0 } else { 0.0 };
        }
        (2.0 * t_sf((self.slope / self.slope_se).abs(), (self.n - 2) as f64)).min(1.0)
    }
}

/// An interval of a speed `v = 1/b` obtained by inverting the slope's interval. A bound is
/// `None` when it is unbounded: when the slope's interval reaches 0 or below, the data do not
/// rule out an infinitely fast stable phase, and no upper bound on `v` exists. (A bound beyond
/// `f64::MAX`, from a slope bound within 5.6e-309 of 0, is `None` too.)
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpeedInterval {
    /// Lower bound of `v`, `1/b_high`; `None` when even the slope's upper bound is not positive.
    pub low: Option<f64>,
    /// Upper bound of `v`, `1/b_low`; `None` when the slope's lower bound is not positive.
    pub high: Option<f64>,
    /// Confidence level.
    pub confidence: f64,
}

/// The result of the WPS method.
#[derive(Debug, Clone, PartialEq)]
pub struct WpsFit {
    /// The fit of `t = α + b·w`: `α` and `b` from every round used; `n`, the standard errors,
    /// the residual variance and `R²` from the merged points (subsession means), which the
    /// intervals come from (or from every round, where those give the wider interval).
    pub fit: LinearFit,
    /// Confidence interval of the slope `b` (time per unit of work).
    pub slope_ci: ConfidenceInterval,
    /// The stable speed `v = 1/b` (work per unit of time); `None` when `b ≤ 0`.
    pub v: Option<f64>,
    /// `v`'s interval, by inverting the slope's bounds.
    pub v_ci: SpeedInterval,
    /// How many rounds went into the fit (rounds too short to cover `α` are dropped).
    pub rounds_used: usize,
    /// How many consecutive rounds were merged into each fitted point (subsession size).
    pub subsession_size: usize,
    /// Lag-1 autocorrelation of the fit's residuals, after merging.
    pub residual_autocorrelation: f64,
}

/// The WPS method: fits `t = α + w/v` over rounds of work amount `work[i]` and duration
/// `duration[i]`, with `v`'s confidence interval.
///
/// Steps: (1) fit all rounds; (2) drop the rounds whose work amount costs less stable-phase time
/// than `α` (`w·b < α`: they are mostly overhead) when at least 3 remain, and refit: that fit's
/// `α` and `b` are the estimate; (3) subsession analysis on the rounds, in order: merge each `q`
/// consecutive rounds into the mean of their `w` and their `t` (the model is linear, so it holds
/// for the means) and raise `q` until the lag-1 autocorrelation of the residuals is within
/// `±autocorrelation_limit` or fewer than 3 merged points would remain; (4) the standard errors
/// are the merged fit's, and the slope's interval is `b ± t·se(b)` with Student's t on the
/// merged points' n − 2 degrees of freedom (not Pilot's fixed ±2 standard errors); where the
/// fit of every round, taken as independent, gives a wider interval (a merging that cancels a
/// periodic noise leaves no residual), its standard errors and degrees of freedom are used.
///
/// As with a mean, where subsessions change the variance and not the estimate, merging only
/// decides how uncertain the fit is: the merged means of rounds swept in order of their work
/// amounts spread less than the rounds do, so a slope fitted to them alone is noisier, and with
/// a few merged points left it can fall to zero or below while every round's fit has a clear
/// positive slope. The estimate from every round is unbiased whenever the noise does not depend
/// on the work amount, autocorrelated or not; the merged fit's error is the larger, so its
/// interval is conservative for it (`tests/tests/wps_coverage.rs` checks the coverage;
/// `lab/wps-interval` compares it with the alternatives).
///
/// Assumes the rounds' work amounts differ enough (the bisection sequence makes them) and that
/// setup, warm-up and cool-down cost about the same in every round. Needs 3 rounds with at least
/// two distinct work amounts.
///
/// Work amounts and durations are each divided by their power-of-two scale and the fit
/// multiplied back (exact), so any finite input is fitted without overflow;
/// [`Error::OutOfRange`] when the fit or `v` itself is beyond `f64::MAX`. Time: O(n log n).
pub fn wps(
    work: &[f64],
    duration: &[f64],
    confidence: f64,
    autocorrelation_limit: f64,
) -> Result<WpsFit> {
    check_confidence(confidence)?;
    check_finite(work)?;
    check_finite(duration)?;
    let ((work, ew), (duration, et)) = (scaled(work), scaled(duration));
    let (work, duration) = (work.as_slice(), duration.as_slice());
    let first = ols(work, duration)?;
    let (mut w, mut t): (Vec<f64>, Vec<f64>) = (work.to_vec(), duration.to_vec());
    if first.slope > 0.0 && first.intercept > 0.0 {
        let keep: Vec<usize> = (0..w.len())
            .filter(|&i| w[i] * first.slope >= first.intercept)
            .collect();
        let distinct = keep.iter().any(|&i| w[i] != w[keep[0]]);
        if keep.len() >= 3 && keep.len() < w.len() && distinct {
            w = keep.iter().map(|&i| work[i]).collect();
            t = keep.iter().map(|&i| duration[i]).collect();
        }
    }
    let rounds_used = w.len();
    let limit = if autocorrelation_limit > 0.0 {
        autocorrelation_limit
    } else {
        DEFAULT_AUTOCORRELATION_LIMIT
    };
    let mut q = 1;
    let every = ols(&w, &t)?;
    let mut fit = every;
    let mut r1 = residual_lag1(&w, &t, &fit);
    while r1.abs() > limit && rounds_used / (q + 1) >= 3 {
        let (mw, mt) = (block_means(&w, q + 1), block_means(&t, q + 1));
        match ols(&mw, &mt) {
            Ok(f) => {
                q += 1;
                fit = f;
                r1 = residual_lag1(&mw, &mt, &fit);
            }
            // Merging made every work amount alike: keep the last usable size.
            Err(_) => break,
        }
    }
    // Every round's line with the merged fit's uncertainty, never narrower than every round's
    // fit gives alone: a merging that cancels a periodic noise leaves no residual, and would
    // otherwise shrink the interval to nothing.
    let (merged, every) = (fit.unscaled(ew, et)?, every.unscaled(ew, et)?);
    let (merged_ci, every_ci) = (merged.slope_ci(confidence)?, every.slope_ci(confidence)?);
    let fit = if merged_ci.half_width() >= every_ci.half_width() {
        LinearFit {
            intercept: every.intercept,
            slope: every.slope,
            ..merged
        }
    } else {
        every
    };
    let slope_ci = fit.slope_ci(confidence)?;
    let inv = |b: f64| Some(1.0 / b).filter(|v| b > 0.0 && v.is_finite());
    let v = inv(fit.slope);
    if fit.slope > 0.0 && v.is_none() {
        return Err(Error::OutOfRange {
            quantity: "speed v = work / time",
        });
    }
    Ok(WpsFit {
        fit,
        slope_ci,
        v,
        v_ci: SpeedInterval {
            low: inv(slope_ci.high),
            high: inv(slope_ci.low),
            confidence,
        },
        rounds_used,
        subsession_size: q,
        residual_autocorrelation: r1,
    })
}

fn residual_lag1(x: &[f64], y: &[f64], fit: &LinearFit) -> f64 {
    let res: Vec<f64> = x
        .iter()
        .zip(y)
        .map(|(xi, yi)| yi - fit.intercept - fit.slope * xi)
        .collect();
    lag1_autocorrelation(&res).unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ols_by_hand() {
        // x 1..5, y 2,4,5,4,5: mx 3, my 4, Sxx 10, Sxy 6 -> b 0.6, a 2.2;
        // residuals -0.8, 0.6, 1.0, -0.6, -0.2: SSE 2.4, s² 0.8, se(b) = sqrt(0.08).
        let f = ols(&[1.0, 2.0, 3.0, 4.0, 5.0], &[2.0, 4.0, 5.0, 4.0, 5.0]).unwrap();
        assert!((f.slope - 0.6).abs() < 1e-15);
        assert!((f.intercept - 2.2).abs() < 1e-14);
        assert!((f.residual_variance - 0.8).abs() < 1e-14);
        assert!((f.slope_se - 0.08f64.sqrt()).abs() < 1e-15);
        assert!((f.r_squared - 0.6).abs() < 1e-14); // SST = 6
        assert!(ols(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]).is_err());
        assert!(ols(&[1.0, 2.0], &[1.0, 2.0]).is_err());
    }

    #[test]
    fn ols_of_scaled_data_is_scaled_exactly() {
        // x · 2^-300 and y · 2^600: Σ dy² (2^1200) overflowed, so did s² and the standard errors.
        let (x, y) = ([1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 4.0, 5.0, 4.0, 5.0]);
        let base = ols(&x, &y).unwrap();
        let (fx, fy) = (2f64.powi(-300), 2f64.powi(600));
        let xs: Vec<f64> = x.iter().map(|v| v * fx).collect();
        let ys: Vec<f64> = y.iter().map(|v| v * fy).collect();
        let f = ols(&xs, &ys).unwrap();
        assert_eq!(f.slope, base.slope * 2f64.powi(900));
        assert_eq!(f.intercept, base.intercept * fy);
        assert_eq!(f.slope_se, base.slope_se * 2f64.powi(900));
        assert_eq!(f.intercept_se, base.intercept_se * fy);
        assert_eq!(f.r_squared, base.r_squared);
        assert_eq!(f.residual_variance, f64::INFINITY);
        assert_eq!(f.slope_p(), base.slope_p());
        // A slope of 1e300 / 1e-300 is no f64.
        let steep = ols(&[0.0, 1e-300, 2e-300], &[0.0, 1e300, 2e300]);
        assert!(matches!(steep, Err(Error::OutOfRange { .. })), "{steep:?}");
    }

    #[test]
    fn slope_p_of_values_near_the_largest_f64() {
        // The trend of a series near ±1e308 gave t = NaN, on which statrs panicked.
        let y: Vec<f64> = (0..12)
            .map(|i| {
                if i % 3 == 0 {
                    -1.7e308
                } else {
                    1.6e308 - 1e307 * f64::from(i)
                }
            })
            .collect();
        let x: Vec<f64> = (0..12).map(f64::from).collect();
        let f = ols(&x, &y).unwrap();
        let p = f.slope_p();
        assert!((0.0..=1.0).contains(&p), "{p}");
    }

    #[test]
    fn wps_of_huge_durations() {
        // t = 5e300 + w · 0.5e300: v = 2e-300 (the durations' squares overflowed).
        let w: Vec<f64> = [50.0, 25.0, 75.0, 12.0, 37.0, 62.0, 87.0].to_vec();
        let t: Vec<f64> = w.iter().map(|w| 5e300 + w * 0.5e300).collect();
        let r = wps(&w, &t, 0.95, 0.1).unwrap();
        assert!((r.v.unwrap() / 2e-300 - 1.0).abs() < 1e-12, "{:?}", r.v);
        assert!((r.fit.intercept / 5e300 - 1.0).abs() < 1e-12);
    }

    #[test]
    fn wps_recovers_speed_of_an_exact_line() {
        // t = 5 + w/2: a perfect fit gives v = 2 with a zero-width interval.
        let w: Vec<f64> = [50.0, 25.0, 75.0, 12.0, 37.0, 62.0, 87.0].to_vec();
        let t: Vec<f64> = w.iter().map(|w| 5.0 + w / 2.0).collect();
        let r = wps(&w, &t, 0.95, 0.1).unwrap();
        assert!((r.v.unwrap() - 2.0).abs() < 1e-12);
        assert!((r.fit.intercept - 5.0).abs() < 1e-12);
        assert_eq!(r.rounds_used, 7);
    }

    #[test]
    fn wps_unbounded_when_slope_interval_reaches_zero() {
        // Durations unrelated to work: slope's interval straddles 0.
        let w = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let t = [10.0, 12.0, 9.0, 11.0, 10.0, 10.5];
        let r = wps(&w, &t, 0.95, 0.1).unwrap();
        assert!(r.slope_ci.low < 0.0);
        assert_eq!(r.v_ci.high, None);
    }

    #[test]
    fn merging_that_cancels_a_periodic_noise_does_not_narrow_the_interval_to_nothing() {
        // Flat durations with a noise of period 3: +1, −1, +0.5. Merging threes leaves four
        // equal means (slope 0, no residual), while every round's fit has a small slope and
        // residuals: the interval is every round's, and holds 0.
        let w = [
            8.0, 4.0, 12.0, 2.0, 6.0, 10.0, 14.0, 1.0, 3.0, 5.0, 7.0, 9.0,
        ];
        let t: Vec<f64> = (0..w.len())
            .map(|i| 100.0 + [1.0, -1.0, 0.5][i % 3])
            .collect();
        let r = wps(&w, &t, 0.95, 0.1).unwrap();
        assert_eq!(r.subsession_size, 3);
        let every = ols(&w, &t).unwrap();
        assert_eq!(r.fit.slope, every.slope);
        assert!(every.slope > 0.0);
        assert_eq!(r.slope_ci, every.slope_ci(0.95).unwrap());
        assert!(r.slope_ci.low < 0.0);
        assert_eq!(r.v_ci.high, None);
    }
}
