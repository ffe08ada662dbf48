//! Summary statistics of a sample and the Student-t confidence interval of its mean.

use statrs::distribution::{ChiSquared, ContinuousCDF, Normal, StudentsT};

use crate::error::{Error, Result, check_confidence, check_finite, check_len};
use crate::scale::{ldexp, scale_exponent, scaled};

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
    /// Half the interval's width (finite for any finite bounds, even where the width is not).
    pub fn half_width(&self) -> f64 {
        let width = self.high - self.low;
        if width.is_finite() {
            width / 2.0
        } else {
            self.high / 2.0 - self.low / 2.0
        }
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

/// Survival function `P(T > t)` of Student's t with `dof` degrees of freedom, for any `t`
/// (±∞ included) and any `dof > 0` (∞ included, where it is the normal's): `statrs`'s own `sf`
/// panics on a NaN, which this never passes it. NaN for a NaN `t` or an invalid `dof`.
/// Time: O(1).
pub(crate) fn t_sf(t: f64, dof: f64) -> f64 {
    if t.is_nan() || dof.is_nan() || dof <= 0.0 {
        return f64::NAN;
    }
    if t.is_infinite() {
        return if t > 0.0 { 0.0 } else { 1.0 };
    }
    match StudentsT::new(0.0, 1.0, dof) {
        Ok(dist) => dist.sf(t),
        Err(_) => f64::NAN,
    }
}

/// The quantile `χ²(p, dof)` of the chi-square distribution with `dof > 0` degrees of freedom
/// (statrs's inverse CDF). NaN for a `p` outside (0, 1) or an invalid `dof`. Time: O(1) (an
/// iterative inversion of the regularized gamma function).
pub fn chi_square_quantile(p: f64, dof: f64) -> f64 {
    if !(p > 0.0 && p < 1.0) || dof.is_nan() || dof <= 0.0 {
        return f64::NAN;
    }
    ChiSquared::new(dof).map_or(f64::NAN, |d| d.inverse_cdf(p))
}

/// The two-sided critical value `t(dof, 1 − (1 − confidence)/2)`.
pub fn t_critical(confidence: f64, dof: f64) -> f64 {
    t_quantile(1.0 - (1.0 - confidence) / 2.0, dof)
}

/// The summary of a sample: n, mean, median, min, max and the sample standard deviation.
///
/// Assumes nothing about the distribution. The variance uses the two-pass formula with the
/// `n − 1` divisor, which keeps 1e-15-relative accuracy on data with a large mean and a small
/// spread (readings in nanoseconds). Everything is computed on the sample divided by the power of
/// two at or below its largest magnitude ([`power_of_two_scale`](crate::power_of_two_scale))
/// and multiplied back, so values near ±1e308 or 1e-320 give the same relative accuracy as values
/// near 1. Time: O(n) (the median uses selection, not a sort); memory: the scaled copy of the
/// sample.
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
    /// Sample variance with the `n − 1` divisor; 0 when n = 1. It is `+∞` when it exceeds
    /// `f64::MAX` (a standard deviation above about 1.3e154): use [`std_dev`](Self::std_dev),
    /// which stays finite, for data that large.
    pub variance: f64,
    /// Sample standard deviation, the square root of [`variance`](Self::variance), computed on
    /// rescaled data so that it is finite whenever the variance overflows.
    pub std_dev: f64,
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

    /// Summarises `xs`. Errors on an empty sample, on a NaN or infinite value, and
    /// ([`Error::OutOfRange`]) when the standard deviation itself passes `f64::MAX` (values near
    /// ±1.8e308 of both signs).
    pub fn of(xs: &[f64]) -> Result<Summary> {
        check_len(xs, 1)?;
        check_finite(xs)?;
        let n = xs.len();
        let (ys, e) = scaled(xs);
        let mean = scaled_mean(&ys);
        let variance = if n > 1 {
            ys.iter().map(|y| (y - mean) * (y - mean)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        let std_dev = ldexp(variance.sqrt(), e);
        if !std_dev.is_finite() {
            return Err(Error::OutOfRange {
                quantity: "standard deviation",
            });
        }
        let (mut min, mut max) = (xs[0], xs[0]);
        for &x in xs {
            min = min.min(x);
            max = max.max(x);
        }
        Ok(Summary {
            n,
            mean: ldexp(mean, e),
            median: median(xs),
            min,
            max,
            variance: ldexp(variance, 2 * e),
            std_dev,
        })
    }

    /// Standard error of the mean, `s / sqrt(n)`.
    pub fn std_error(&self) -> f64 {
        self.std_dev / (self.n as f64).sqrt()
    }

    /// Student-t confidence interval of the mean: `mean ± t(n−1, 1−(1−c)/2) · s/√n`.
    ///
    /// Assumes independent, identically distributed values with a finite variance (for
    /// autocorrelated readings, run [`crate::autocorr::subsession_analysis`] first).
    /// Needs n ≥ 2. A constant sample gives the zero-width interval `[mean, mean]`. Errors with
    /// [`Error::OutOfRange`] when a bound passes `f64::MAX`.
    pub fn mean_ci(&self, confidence: f64) -> Result<ConfidenceInterval> {
        check_confidence(confidence)?;
        if self.n < 2 {
            return Err(crate::Error::TooFewValues {
                needed: 2,
                got: self.n,
            });
        }
        let half = t_critical(confidence, (self.n - 1) as f64) * self.std_error();
        interval(
            self.mean,
            half,
            confidence,
            "confidence interval of the mean",
        )
    }
}

/// `center ± half`, or [`Error::OutOfRange`] naming `quantity` when a bound is not finite.
pub(crate) fn interval(
    center: f64,
    half: f64,
    confidence: f64,
    quantity: &'static str,
) -> Result<ConfidenceInterval> {
    let (low, high) = (center - half, center + half);
    if low.is_finite() && high.is_finite() {
        Ok(ConfidenceInterval {
            low,
            high,
            confidence,
        })
    } else {
        Err(Error::OutOfRange { quantity })
    }
}

/// Arithmetic mean of a non-empty sample of finite values, accurate by a second correction pass
/// and computed on the sample divided by its power-of-two scale, so that no sum overflows.
pub fn mean(xs: &[f64]) -> f64 {
    let e = scale_exponent(xs);
    let inverse = ldexp(1.0, -e);
    let n = xs.len() as f64;
    let m = xs.iter().map(|x| x * inverse).sum::<f64>() / n;
    // One refinement step removes most of the rounding error of the naive sum.
    ldexp(m + xs.iter().map(|x| x * inverse - m).sum::<f64>() / n, e)
}

/// [`mean`] of values already scaled into `[-2, 2)`.
fn scaled_mean(ys: &[f64]) -> f64 {
    let n = ys.len() as f64;
    let m = ys.iter().sum::<f64>() / n;
    m + ys.iter().map(|y| y - m).sum::<f64>() / n
}

/// Median by selection; `xs` must be non-empty and free of NaN.
pub fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    let n = v.len();
    let mid = n / 2;
    let (_, &mut upper, _) = v.select_nth_unstable_by(mid, f64::total_cmp);
    if n % 2 == 1 {
        upper
    } else {
        let lower = v[..mid].iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let midpoint = (lower + upper) / 2.0;
        if midpoint.is_finite() {
            midpoint
        } else {
            // Two values near f64::MAX: their sum overflows, their halves do not.
            lower / 2.0 + upper / 2.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chi_square_quantiles_match_scipy() {
        // scipy.stats.chi2.ppf(p, dof): (0.9, 3) 6.251388631170325, (0.1, 3)
        // 0.5843743741551835, (0.9, 7) 12.017036623780532, (0.1, 4) 1.063623216779224.
        for (p, dof, want) in [
            (0.9, 3.0, 6.251388631170325),
            (0.1, 3.0, 0.5843743741551835),
            (0.9, 7.0, 12.017036623780532),
            (0.1, 4.0, 1.063623216779224),
        ] {
            let got = chi_square_quantile(p, dof);
            assert!(
                (got - want).abs() < 1e-8 * want,
                "χ²({p}, {dof}) = {got}, not {want}"
            );
        }
        assert!(chi_square_quantile(0.0, 3.0).is_nan());
        assert!(chi_square_quantile(0.5, 0.0).is_nan());
    }

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

    /// t(2, 0.975), scipy.stats.t.ppf(0.975, 2).
    const T2: f64 = 4.302652729911275;

    #[test]
    fn huge_values_are_summarised_as_their_scaled_copies() {
        // [1, 2, 3]: mean 2, s = 1, CI 2 ± T2/√3. Times 1e300 the variance (1e600) overflows,
        // which used to make the standard deviation and the interval infinite.
        let half = T2 / 3f64.sqrt();
        let s = Summary::of(&[1e300, 2e300, 3e300]).unwrap();
        // Within a few units in the last place of the values' scale.
        let close = |a: f64, b: f64| (a - b).abs() <= 4.0 * f64::EPSILON * b.abs().max(1e300);
        assert!(close(s.mean, 2e300), "{}", s.mean);
        assert!(close(s.std_dev, 1e300), "{}", s.std_dev);
        assert_eq!(s.variance, f64::INFINITY);
        assert_eq!(s.median, 2e300);
        // statrs's t quantile is within 1.1e-8 relative of scipy's (see `t_quantile`).
        let ci = s.mean_ci(0.95).unwrap();
        let near = |a: f64, b: f64| (a - b).abs() <= 1.1e-8 * half * 1e300;
        assert!(near(ci.low, (2.0 - half) * 1e300), "{ci:?}");
        assert!(near(ci.high, (2.0 + half) * 1e300), "{ci:?}");
        // Tiny values: the variance (1e-600) used to underflow to 0, a zero-width interval.
        let s = Summary::of(&[1e-300, 2e-300, 3e-300]).unwrap();
        let close = |a: f64, b: f64| (a - b).abs() <= 4.0 * f64::EPSILON * 1e-300;
        assert!(close(s.std_dev, 1e-300), "{}", s.std_dev);
        let ci = s.mean_ci(0.95).unwrap();
        let near = |a: f64, b: f64| (a - b).abs() <= 1.1e-8 * half * 1e-300;
        assert!(near(ci.low, (2.0 - half) * 1e-300), "{ci:?}");
        assert!(near(ci.high, (2.0 + half) * 1e-300), "{ci:?}");
    }

    #[test]
    fn a_power_of_two_factor_comes_out_exactly() {
        let base = Summary::of(&[1.0, 2.0, 3.0, 7.5]).unwrap();
        let base_ci = base.mean_ci(0.9).unwrap();
        for k in [-1000, -300, 300, 1000] {
            let f = 2f64.powi(k);
            let s = Summary::of(&[f, 2.0 * f, 3.0 * f, 7.5 * f]).unwrap();
            assert_eq!(s.mean, base.mean * f);
            assert_eq!(s.median, base.median * f);
            assert_eq!(s.std_dev, base.std_dev * f);
            let ci = s.mean_ci(0.9).unwrap();
            assert_eq!((ci.low, ci.high), (base_ci.low * f, base_ci.high * f));
        }
        // Subnormal: 1, 2, 3 units of 2^-1074 are exact; so are the mean 2 and s = 1 units.
        let unit = f64::from_bits(1);
        let s = Summary::of(&[unit, 2.0 * unit, 3.0 * unit]).unwrap();
        assert_eq!(
            (s.mean, s.std_dev, s.median),
            (2.0 * unit, unit, 2.0 * unit)
        );
    }

    #[test]
    fn values_near_the_largest_f64() {
        // Sums of these overflow; their scaled copies' do not.
        let s = Summary::of(&[f64::MAX, f64::MAX, f64::MAX / 2.0, f64::MAX / 2.0]).unwrap();
        assert!((s.mean / f64::MAX - 0.75).abs() < 1e-15, "{}", s.mean);
        assert!((s.median / f64::MAX - 0.75).abs() < 1e-15, "{}", s.median);
        assert_eq!(Summary::of(&[f64::MAX; 2]).unwrap().median, f64::MAX);
        // s = √2 · MAX for ±MAX: not an f64, refused rather than reported as ∞.
        assert_eq!(
            Summary::of(&[f64::MAX, -f64::MAX]),
            Err(Error::OutOfRange {
                quantity: "standard deviation"
            })
        );
        // s = MAX/√2 is finite, but 2 ± T2 · s/√2 is not.
        let s = Summary::of(&[f64::MAX, 0.0]).unwrap();
        assert!((s.std_dev / (f64::MAX / 2f64.sqrt()) - 1.0).abs() < 1e-15);
        assert!(matches!(s.mean_ci(0.95), Err(Error::OutOfRange { .. })));
    }

    #[test]
    fn t_survival_never_panics() {
        assert_eq!(t_sf(f64::INFINITY, 3.0), 0.0);
        assert_eq!(t_sf(f64::NEG_INFINITY, 3.0), 1.0);
        assert!(t_sf(f64::NAN, 3.0).is_nan());
        assert!(t_sf(1.0, 0.0).is_nan());
        assert_eq!(t_sf(0.0, f64::INFINITY), 0.5);
        // scipy.stats.t.sf(2, 10) = 0.036694017385370196.
        assert!((t_sf(2.0, 10.0) - 0.036694017385370196).abs() < 1e-12);
    }

    #[test]
    fn half_width_of_the_widest_interval() {
        let ci = ConfidenceInterval {
            low: -f64::MAX,
            high: f64::MAX,
            confidence: 0.95,
        };
        assert_eq!(ci.half_width(), f64::MAX);
    }

    #[test]
    fn constant_sample_has_zero_width_interval() {
        let ci = Summary::of(&[4.0; 10]).unwrap().mean_ci(0.95).unwrap();
        assert_eq!((ci.low, ci.high), (4.0, 4.0));
    }
}
