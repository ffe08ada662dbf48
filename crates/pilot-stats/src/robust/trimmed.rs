//! The trimmed mean with its winsorized variance, the Tukey–McLaughlin interval over
//! independent values, and Yuen's test of two trimmed means.

use crate::error::{Error, Result, check_confidence, check_finite, check_len};
use crate::scale::{ldexp, scaled};
use crate::summary::{ConfidenceInterval, Moments, interval, t_critical};
use crate::welch::{WelchTest, welch_test};

/// A trimmed mean with what its interval and comparisons need.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Trimmed {
    /// Values summarised (`n`).
    pub n: usize,
    /// Values trimmed from each end, `g = floor(trim · n)`.
    pub g: usize,
    /// Mean of the `n − 2g` middle values.
    pub mean: f64,
    /// Sample variance (`n − 1` divisor) of the values winsorized at the same `g`: the `g`
    /// smallest set to the next one up, the `g` largest to the next one down.
    pub winsorized_variance: f64,
}

impl Trimmed {
    /// The trimmed mean of `xs` with `trim` of the values cut from each end (`0 ≤ trim < 0.5`).
    /// Needs n ≥ 2 finite values and at least 2 left after trimming. Computed on the values
    /// divided by their power-of-two scale. Time: O(n log n) (a sort of a copy).
    pub fn of(xs: &[f64], trim: f64) -> Result<Trimmed> {
        check_len(xs, 2)?;
        check_finite(xs)?;
        if !(0.0..0.5).contains(&trim) {
            return Err(Error::InvalidParameter {
                name: "trim",
                value: trim,
                expected: "must be at least 0 and below 0.5",
            });
        }
        let n = xs.len();
        // scipy's `trimr` with `inclusive=True`: the count cut is truncated.
        let g = (trim * n as f64) as usize;
        if n - 2 * g < 2 {
            return Err(Error::TooFewValues {
                needed: 2 * g + 2,
                got: n,
            });
        }
        let (mut ys, e) = scaled(xs);
        ys.sort_unstable_by(f64::total_cmp);
        let middle = &ys[g..n - g];
        let mean = middle.iter().sum::<f64>() / middle.len() as f64;
        let (lo, hi) = (ys[g], ys[n - g - 1]);
        let w = |y: f64| y.clamp(lo, hi);
        let wmean = ys.iter().map(|&y| w(y)).sum::<f64>() / n as f64;
        let ss: f64 = ys.iter().map(|&y| (w(y) - wmean) * (w(y) - wmean)).sum();
        Ok(Trimmed {
            n,
            g,
            mean: ldexp(mean, e),
            winsorized_variance: ldexp(ldexp(ss / (n - 1) as f64, e), e),
        })
    }

    /// Values left after trimming, `h = n − 2g`.
    pub fn kept(&self) -> usize {
        self.n - 2 * self.g
    }

    /// The trimmed mean's standard error as Tukey and McLaughlin (1963) give it and scipy's
    /// `mstats.trimmed_stde` computes it: `s_w / ((1 − 2·trim) · √n)`.
    pub fn std_error(&self, trim: f64) -> f64 {
        self.winsorized_variance.sqrt() / ((1.0 - 2.0 * trim) * (self.n as f64).sqrt())
    }

    /// Yuen's standard error of the trimmed mean, `√((n − 1)·s_w² / (h(h − 1)))`: Tukey and
    /// McLaughlin's with the share actually trimmed (`g/n`) for the nominal one, so that it is
    /// the mean's standard error when nothing is trimmed.
    pub fn yuen_std_error(&self) -> f64 {
        let m = self.yuen_moments();
        (m.variance / m.n as f64).sqrt()
    }

    /// The trimmed mean's moments as Yuen's test uses them: `h` values, and the variance whose
    /// `1/h` is Yuen's squared standard error `(n − 1)·s_w² / (h(h − 1))`, so that Welch's test
    /// on them is Yuen's.
    pub fn yuen_moments(&self) -> Moments {
        let h = self.kept();
        Moments {
            n: h,
            mean: self.mean,
            variance: (self.n - 1) as f64 * self.winsorized_variance / (h - 1) as f64,
        }
    }
}

/// The Tukey–McLaughlin interval of the trimmed mean of independent values:
/// `tm ± t(h − 1, 1 − (1 − c)/2) · s_w / ((1 − 2·trim)·√n)` with `h = n − 2·floor(trim·n)`,
/// exactly scipy's `mstats.trimmed_mean_ci(xs, limits=(trim, trim), alpha=1 − c)`.
///
/// Assumes independent values from a distribution symmetric about the location it estimates
/// (for a skewed one, it estimates the trimmed mean of that distribution). Time: O(n log n).
pub fn trimmed_mean_ci(xs: &[f64], trim: f64, confidence: f64) -> Result<ConfidenceInterval> {
    check_confidence(confidence)?;
    let t = Trimmed::of(xs, trim)?;
    let half = t_critical(confidence, (t.kept() - 1) as f64) * t.std_error(trim);
    interval(t.mean, half, confidence, "interval of the trimmed mean")
}

/// Yuen's test: Welch's test on trimmed means with winsorized variances (Yuen 1974), exactly
/// scipy's `ttest_ind(base, other, equal_var=False, trim=trim)`. Signs follow "other minus
/// base". Assumes each sample's values independent. Time: O(n log n).
pub fn yuen_test(base: &[f64], other: &[f64], trim: f64, confidence: f64) -> Result<WelchTest> {
    let (b, o) = (Trimmed::of(base, trim)?, Trimmed::of(other, trim)?);
    welch_test(&b.yuen_moments(), &o.yuen_moments(), confidence)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trimmed_mean_by_hand() {
        // n = 10, trim 0.2: g = 2; sorted 1..=9 and 100; middle 3..=8 (mean 5.5);
        // winsorized 3 3 3 4 5 6 7 8 8 8 (mean 5.5), squares of deviations: 3·6.25 + 2.25
        // + 0.25 + 0.25 + 2.25 + 3·6.25 = 42.5, variance 42.5/9.
        let xs = [5.0, 1.0, 100.0, 2.0, 9.0, 3.0, 8.0, 4.0, 7.0, 6.0];
        let t = Trimmed::of(&xs, 0.2).unwrap();
        assert_eq!((t.n, t.g, t.kept()), (10, 2, 6));
        assert_eq!(t.mean, 5.5);
        assert!((t.winsorized_variance - 42.5 / 9.0).abs() < 1e-12);
        // The outlier moves nothing: replace 100 by 1e12.
        let mut ys = xs;
        ys[2] = 1e12;
        assert_eq!(Trimmed::of(&ys, 0.2).unwrap().mean, 5.5);
        assert!(Trimmed::of(&[1.0, 2.0, 3.0], 0.4).is_err());
        assert!(Trimmed::of(&xs, 0.5).is_err());
    }

    #[test]
    fn yuen_moments_give_yuens_standard_error() {
        // Yuen's d = (n − 1)·s_w² / (h(h − 1)) = 9 · (42.5/9) / (6 · 5) = 42.5/30.
        let xs = [5.0, 1.0, 100.0, 2.0, 9.0, 3.0, 8.0, 4.0, 7.0, 6.0];
        let m = Trimmed::of(&xs, 0.2).unwrap().yuen_moments();
        assert_eq!(m.n, 6);
        assert!((m.variance / m.n as f64 - 42.5 / 30.0).abs() < 1e-12);
    }
}
