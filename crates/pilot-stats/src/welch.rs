//! Welch's unequal-variance t-test (Pilot paper §III-F, eqs. 6–8).

use crate::error::{Error, Result, check_confidence};
use crate::summary::{ConfidenceInterval, Moments, interval, t_critical, t_sf};

/// The outcome of comparing a base sample with another by Welch's t-test.
///
/// Signs follow "other minus base": a positive difference means `other` has the larger mean
/// (for times, `other` is slower).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WelchTest {
    /// The t statistic, `(mean_other − mean_base) / sqrt(s_b²/n_b + s_o²/n_o)`.
    pub t: f64,
    /// Welch–Satterthwaite degrees of freedom ν (fractional).
    pub dof: f64,
    /// Two-sided p-value of the null hypothesis "equal means", `2 · P(T_ν > |t|)`.
    pub p: f64,
    /// `mean_other − mean_base`.
    pub difference: f64,
    /// Confidence interval of the difference, `difference ± t(ν) · se`.
    pub difference_ci: ConfidenceInterval,
}

/// Welch's t-test of `base` against `other`, with the confidence interval of the difference of
/// means at `confidence`.
///
/// Assumes each sample is independent (use subsession samples, not raw readings) and its mean
/// roughly normal; the variances and sizes may differ. Needs n ≥ 2 in both samples. When both
/// variances are zero the test degenerates: equal means give t = 0, p = 1; different means give
/// t = ±∞, p = 0, and ν is taken as `n_b + n_o − 2`.
///
/// ν is computed from the two variances of the means divided by the larger, so that squaring
/// them neither overflows nor underflows; [`Error::OutOfRange`] when the difference of the means
/// or a bound of its interval passes `f64::MAX`. Time: O(1).
pub fn welch_test(base: &Moments, other: &Moments, confidence: f64) -> Result<WelchTest> {
    check_confidence(confidence)?;
    for m in [base, other] {
        if m.n < 2 {
            return Err(Error::TooFewValues {
                needed: 2,
                got: m.n,
            });
        }
        if !(m.mean.is_finite() && m.variance.is_finite() && m.variance >= 0.0) {
            return Err(Error::InvalidParameter {
                name: "sample moments",
                value: if m.mean.is_finite() {
                    m.variance
                } else {
                    m.mean
                },
                expected: "mean must be finite and variance finite and non-negative",
            });
        }
    }
    let difference = other.mean - base.mean;
    if !difference.is_finite() {
        return Err(Error::OutOfRange {
            quantity: "difference of the means",
        });
    }
    let vb = base.variance / base.n as f64;
    let vo = other.variance / other.n as f64;
    let largest = vb.max(vo);
    let (t, dof, se) = if largest == 0.0 {
        let dof = (base.n + other.n - 2) as f64;
        let t = if difference == 0.0 {
            0.0
        } else {
            f64::INFINITY.copysign(difference)
        };
        (t, dof, 0.0)
    } else {
        // Relative to the larger, the two are in [0, 1]: their squares cannot overflow, and the
        // larger's square is 1.
        let (b, o) = (vb / largest, vo / largest);
        let se = largest.sqrt() * (b + o).sqrt();
        let dof = (b + o) * (b + o) / (b * b / (base.n - 1) as f64 + o * o / (other.n - 1) as f64);
        (difference / se, dof, se)
    };
    // sf(|t|) directly, not 1 − cdf, keeps tiny p-values exact.
    let p = if t == 0.0 {
        1.0
    } else {
        (2.0 * t_sf(t.abs(), dof)).min(1.0)
    };
    let half = t_critical(confidence, dof) * se;
    Ok(WelchTest {
        t,
        dof,
        p,
        difference,
        difference_ci: interval(
            difference,
            half,
            confidence,
            "confidence interval of the difference of the means",
        )?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(n: usize, mean: f64, variance: f64) -> Moments {
        Moments { n, mean, variance }
    }

    #[test]
    fn by_hand_from_the_definition() {
        // base: n 10, mean 5, var 4 -> vb = 0.4; other: n 20, mean 6, var 9 -> vo = 0.45.
        // se² = 0.85, t = 1/sqrt(.85) = 1.0846522890932808,
        // ν = 0.85² / (0.16/9 + 0.2025/19) = 0.7225 / 0.028435672514619883 = 25.40825...
        let w = welch_test(&m(10, 5.0, 4.0), &m(20, 6.0, 9.0), 0.95).unwrap();
        assert!((w.t - 1.0846522890932808).abs() < 1e-12);
        assert!((w.dof - 0.7225 / (0.16 / 9.0 + 0.2025 / 19.0)).abs() < 1e-9);
        assert!(w.p > 0.28 && w.p < 0.30, "{}", w.p);
    }

    #[test]
    fn tiny_and_huge_moments_give_the_same_test() {
        // The case above with means times 1e-85 and variances times 1e-170: vb² (1e-342) and
        // vo² underflowed to 0, so ν = 0/0 and statrs's StudentsT::new(NaN) panicked.
        let w = welch_test(&m(10, 5e-85, 4e-170), &m(20, 6e-85, 9e-170), 0.95).unwrap();
        assert!((w.t - 1.0846522890932808).abs() < 1e-12, "{}", w.t);
        assert!((w.dof - 0.7225 / (0.16 / 9.0 + 0.2025 / 19.0)).abs() < 1e-9);
        assert!(w.p > 0.28 && w.p < 0.30, "{}", w.p);
        // Times 1e150 and 1e300: vb² and the sum of the variances' squares overflowed.
        let w = welch_test(&m(10, 5e150, 4e300), &m(20, 6e150, 9e300), 0.95).unwrap();
        assert!((w.t - 1.0846522890932808).abs() < 1e-12, "{}", w.t);
        assert!((w.dof - 0.7225 / (0.16 / 9.0 + 0.2025 / 19.0)).abs() < 1e-9);
        // A difference beyond f64::MAX is refused.
        assert!(matches!(
            welch_test(&m(5, -1e308, 1.0), &m(5, 1e308, 1.0), 0.95),
            Err(Error::OutOfRange { .. })
        ));
    }

    #[test]
    fn degenerate_zero_variance() {
        let same = welch_test(&m(5, 1.0, 0.0), &m(5, 1.0, 0.0), 0.95).unwrap();
        assert_eq!((same.t, same.p), (0.0, 1.0));
        let diff = welch_test(&m(5, 1.0, 0.0), &m(5, 2.0, 0.0), 0.95).unwrap();
        assert_eq!((diff.t, diff.p), (f64::INFINITY, 0.0));
        assert_eq!(
            (diff.difference_ci.low, diff.difference_ci.high),
            (1.0, 1.0)
        );
        assert!(welch_test(&m(1, 1.0, 0.0), &m(5, 2.0, 0.0), 0.95).is_err());
    }
}
