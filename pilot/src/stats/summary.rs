//! Summary statistics of a sample and the Student-t confidence interval of its mean.

use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

use crate::error::{Result, check_confidence, check_finite, check_len};

/// A two-sided confidence interval: `[low, high]` holds the true value with probability
/// `confidence` under the method's assumptions.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ConfidenceInterval {
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
    /// Confidence level in (0, 1), e.g. `0.95`.
    pub confidence: f64,
}

impl ConfidenceInterval {
    /// Half the interval's width.
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// Whether `x` lies inside the interval, bounds included.
    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }

    /// Whether the two intervals share at least one point.
    pub fn overlaps(&self, other: &ConfidenceInterval) -> bool {
        self.low <= other.high && other.low <= self.high
    }
}

/// Above this many degrees of freedom [`t_quantile`] uses the expansion around the normal
/// quantile: `statrs`'s inverse (through the inverse regularised beta function) loses accuracy
/// beyond it (3e-7 relative at 3e4, 7% at 1e7) and does not return at all for 1e9.
const LARGE_DOF: f64 = 1e4;

/// The `p` quantile of Student's t distribution with `dof` degrees of freedom.
///
/// Up to 1e4 degrees of freedom it is `statrs`'s inverse CDF; above, the Cornish–Fisher expansion
/// of t around the normal quantile z (Abramowitz & Stegun 26.7.5, four terms in 1/dof), exact to
/// a few units in the last place there. Against scipy's `t.ppf` (`tests/tests/stats_reference.rs`)
/// the first is within 1.1e-8 relative, the second within 1.1e-15.
///
/// `dof` may be fractional (Welch–Satterthwaite). Panics never; returns NaN for `dof <= 0` or `p`
/// outside (0, 1), which callers rule out beforehand. Time: O(1).
pub fn t_quantile(p: f64, dof: f64) -> f64 {
    let valid = p > 0.0 && p < 1.0 && dof > 0.0;
    if !valid {
        return f64::NAN;
    }
    if dof > LARGE_DOF {
        return t_quantile_large_dof(p, dof);
    }
    match StudentsT::new(0.0, 1.0, dof) {
        Ok(t) => t.inverse_cdf(p),
        Err(_) => f64::NAN,
    }
}

/// A&S 26.7.5: `t = z + g1(z)/ν + g2(z)/ν² + g3(z)/ν³ + g4(z)/ν⁴`.
fn t_quantile_large_dof(p: f64, dof: f64) -> f64 {
    let z = Normal::new(0.0, 1.0)
        .expect("standard normal")
        .inverse_cdf(p);
    let z2 = z * z;
    let g1 = z * (z2 + 1.0) / 4.0;
    let g2 = z * ((5.0 * z2 + 16.0) * z2 + 3.0) / 96.0;
    let g3 = z * (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) / 384.0;
    let g4 = z * ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) / 92160.0;
    z + (g1 + (g2 + (g3 + g4 / dof) / dof) / dof) / dof
}

/// The two-sided critical value `t(dof, 1 − (1 − confidence)/2)`.
pub(crate) fn t_critical(confidence: f64, dof: f64) -> f64 {
    t_quantile(1.0 - (1.0 - confidence) / 2.0, dof)
}

/// The summary of a sample: n, mean, median, min, max and the sample standard deviation.
///
/// Assumes nothing about the distribution. The variance uses the two-pass formula with the
/// `n − 1` divisor, which keeps 1e-15-relative accuracy on data with a large mean and a small
/// spread (readings in nanoseconds). Time: O(n) (the median uses selection, not a sort);
/// memory: one copy of the sample for the median.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Summary {
    /// Number of values.
    pub n: usize,
    /// Arithmetic mean.
    pub mean: f64,
    /// Median (mean of the two middle values when n is even).
    pub median: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Sample variance with the `n − 1` divisor; 0 when n = 1.
    pub variance: f64,
}

/// The three numbers a saved result keeps of a sample, enough to compare it with another
/// (Pilot paper §III-F): size, mean and variance.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Moments {
    /// Number of samples.
    pub n: usize,
    /// Mean.
    pub mean: f64,
    /// Sample variance (`n − 1` divisor).
    pub variance: f64,
}

impl Summary {
    /// The sample's size, mean and variance.
    pub fn moments(&self) -> Moments {
        Moments {
            n: self.n,
            mean: self.mean,
            variance: self.variance,
        }
    }

    /// Summarises `xs`. Errors on an empty sample or on a NaN or infinite value.
    pub fn of(xs: &[f64]) -> Result<Summary> {
        check_len(xs, 1)?;
        check_finite(xs)?;
        let n = xs.len();
        let mean = mean(xs);
        let variance = if n > 1 {
            sum_sq_dev(xs, mean) / (n - 1) as f64
        } else {
            0.0
        };
        let (mut min, mut max) = (xs[0], xs[0]);
        for &x in xs {
            min = min.min(x);
            max = max.max(x);
        }
        Ok(Summary {
            n,
            mean,
            median: median(xs),
            min,
            max,
            variance,
        })
    }

    /// Sample standard deviation (`sqrt` of the `n − 1` variance).
    pub fn std_dev(&self) -> f64 {
        self.variance.sqrt()
    }

    /// Standard error of the mean, `s / sqrt(n)`.
    pub fn std_error(&self) -> f64 {
        (self.variance / self.n as f64).sqrt()
    }

    /// Student-t confidence interval of the mean: `mean ± t(n−1, 1−(1−c)/2) · s/√n`.
    ///
    /// Assumes independent, identically distributed values with a finite variance (for
    /// autocorrelated readings, run [`crate::stats::autocorr::subsession_analysis`] first).
    /// Needs n ≥ 2. A constant sample gives the zero-width interval `[mean, mean]`.
    pub fn mean_ci(&self, confidence: f64) -> Result<ConfidenceInterval> {
        check_confidence(confidence)?;
        if self.n < 2 {
            return Err(crate::Error::TooFewValues {
                needed: 2,
                got: self.n,
            });
        }
        let half = t_critical(confidence, (self.n - 1) as f64) * self.std_error();
        Ok(ConfidenceInterval {
            low: self.mean - half,
            high: self.mean + half,
            confidence,
        })
    }
}

/// Arithmetic mean of a non-empty sample, accurate by a second correction pass.
pub(crate) fn mean(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    // One refinement step removes most of the rounding error of the naive sum.
    m + xs.iter().map(|x| x - m).sum::<f64>() / n
}

/// Sum of squared deviations from `mean`.
pub(crate) fn sum_sq_dev(xs: &[f64], mean: f64) -> f64 {
    xs.iter().map(|x| (x - mean) * (x - mean)).sum()
}

/// Median by selection; `xs` must be non-empty and free of NaN.
pub(crate) fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    let n = v.len();
    let mid = n / 2;
    let (_, &mut upper, _) = v.select_nth_unstable_by(mid, f64::total_cmp);
    if n % 2 == 1 {
        upper
    } else {
        let lower = v[..mid].iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (lower + upper) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_summary() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, squared deviations sum to 32, variance 32/7.
        let s = Summary::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap();
        assert_eq!(s.n, 8);
        assert_eq!(s.mean, 5.0);
        assert_eq!(s.median, 4.5);
        assert_eq!((s.min, s.max), (2.0, 9.0));
        assert!((s.variance - 32.0 / 7.0).abs() < 1e-15);
    }

    #[test]
    fn odd_median_and_single_value() {
        assert_eq!(Summary::of(&[3.0, 1.0, 2.0]).unwrap().median, 2.0);
        let one = Summary::of(&[7.0]).unwrap();
        assert_eq!((one.mean, one.variance, one.median), (7.0, 0.0, 7.0));
        assert!(one.mean_ci(0.95).is_err());
    }

    #[test]
    fn t_quantiles_match_printed_tables() {
        // Values from any printed t table (rounded to 3 decimals there).
        assert!((t_quantile(0.975, 1.0) - 12.706).abs() < 5e-4);
        assert!((t_quantile(0.975, 10.0) - 2.228).abs() < 5e-4);
        assert!((t_quantile(0.995, 30.0) - 2.750).abs() < 5e-4);
        assert!(t_quantile(0.5, 5.0).abs() < 1e-12);
    }

    #[test]
    fn t_quantiles_for_huge_dof() {
        // scipy.stats.t.ppf(0.975, dof) for dof = 1e7 and 1e9; z(0.975) = 1.959963984540054.
        assert!((t_quantile(0.975, 1e7) / 1.959964221767205 - 1.0).abs() < 1e-12);
        assert!((t_quantile(0.975, 1e9) / 1.959963986912325 - 1.0).abs() < 1e-12);
        assert!((t_quantile(0.975, f64::INFINITY) - 1.959963984540054).abs() < 1e-15);
    }

    #[test]
    fn rejects_bad_input() {
        assert!(Summary::of(&[]).is_err());
        assert!(matches!(
            Summary::of(&[1.0, f64::NAN]),
            Err(crate::Error::NotFinite { index: 1, .. })
        ));
        assert!(matches!(
            Summary::of(&[1.0, f64::INFINITY]),
            Err(crate::Error::NotFinite { index: 1, .. })
        ));
        assert!(Summary::of(&[1.0, 2.0]).unwrap().mean_ci(1.0).is_err());
    }

    #[test]
    fn constant_sample_has_zero_width_interval() {
        let ci = Summary::of(&[4.0; 10]).unwrap().mean_ci(0.95).unwrap();
        assert_eq!((ci.low, ci.high), (4.0, 4.0));
    }
}
