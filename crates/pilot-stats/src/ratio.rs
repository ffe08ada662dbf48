//! The confidence interval of a ratio of two means (Fieller's theorem), for relative changes
//! such as "3.1% slower, CI [1.2%, 5.0%]".

/// Fieller's confidence interval for `θ = μ_num / μ_den` from two independent, normally
/// distributed estimates `num` and `den` with squared standard errors `se2_num` and `se2_den`,
/// at critical value `t` (e.g. Student's t at the Welch–Satterthwaite degrees of freedom).
///
/// The interval is the set of θ for which `(num − θ·den)² ≤ t² (se2_num + θ² se2_den)`, the
/// values not rejected by a t-test of `num − θ·den = 0`. Unlike `difference / den`, it
/// accounts for the denominator's own uncertainty and is not symmetric around `num / den`.
/// Returns `None` when the denominator is not significantly different from zero
/// (`den² ≤ t² se2_den`): the set is then unbounded. Time: O(1).
pub fn fieller_interval(
    num: f64,
    se2_num: f64,
    den: f64,
    se2_den: f64,
    t: f64,
) -> Option<(f64, f64)> {
    let t2 = t * t;
    let a = den * den - t2 * se2_den;
    if a.is_nan() || a <= 0.0 {
        return None;
    }
    let b = num * den;
    let c = num * num - t2 * se2_num;
    // a·θ² − 2b·θ + c ≤ 0; a > 0 makes the discriminant b² − a·c ≥ 0.
    let root = (b * b - a * c).max(0.0).sqrt();
    Some(((b - root) / a, (b + root) / a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The t statistic of `num − θ·den = 0`: at Fieller's bounds it equals ±t by definition.
    fn t_at(theta: f64, num: f64, se2_num: f64, den: f64, se2_den: f64) -> f64 {
        (num - theta * den) / (se2_num + theta * theta * se2_den).sqrt()
    }

    #[test]
    fn by_hand() {
        // num 110 (se² 4), den 100 (se² 1), t 2: a = 10000 − 4 = 9996, b = 11000,
        // c = 12100 − 16 = 12084, b² − ac = 121 000 000 − 120 791 664 = 208 336,
        // θ = (11000 ∓ 456.4384...) / 9996 = 1.0547781..., 1.1461023...
        let (lo, hi) = fieller_interval(110.0, 4.0, 100.0, 1.0, 2.0).unwrap();
        assert!((lo - (11000.0 - 208_336f64.sqrt()) / 9996.0).abs() < 1e-15);
        assert!((lo - 1.054_778_1).abs() < 1e-7, "{lo}");
        assert!((hi - 1.146_102_3).abs() < 1e-7, "{hi}");
        // With no uncertainty in the denominator it is num/den ± t·se_num/den.
        let (lo, hi) = fieller_interval(110.0, 4.0, 100.0, 0.0, 2.0).unwrap();
        assert!((lo - 1.06).abs() < 1e-12 && (hi - 1.14).abs() < 1e-12);
        // A denominator indistinguishable from zero: unbounded.
        assert_eq!(fieller_interval(1.0, 1.0, 1.0, 1.0, 2.0), None);
    }

    proptest! {
        #[test]
        fn bounds_are_where_the_test_statistic_is_t(
            num in 1.0f64..1e6, den in 1.0f64..1e6,
            rel_num in 0.0f64..0.2, rel_den in 0.0f64..0.2, t in 1.0f64..4.0,
        ) {
            let (se2n, se2d) = ((rel_num * num).powi(2), (rel_den * den).powi(2));
            if let Some((lo, hi)) = fieller_interval(num, se2n, den, se2d, t) {
                prop_assert!(lo <= num / den && num / den <= hi);
                if se2n + se2d > 0.0 {
                    prop_assert!((t_at(lo, num, se2n, den, se2d) - t).abs() < 1e-6 * t);
                    prop_assert!((t_at(hi, num, se2n, den, se2d) + t).abs() < 1e-6 * t);
                }
            } else {
                prop_assert!(den * den <= t * t * se2d);
            }
        }
    }
}
