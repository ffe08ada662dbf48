//! How many samples a target confidence-interval width, or a difference to resolve, needs.

use crate::summary::{t_critical, t_quantile};

/// The least sample size reported as beyond counting, 2^53.
const BEYOND_COUNT: f64 = 9_007_199_254_740_992.0;

/// Required number of independent samples for a confidence-interval half-width of
/// `target_half_width`: `ceil(variance · (T / e)²)` with `T = t(dof, 1 − (1 − c)/2)` (Pilot
/// paper eq. 6). `dof` is that of the current estimate (n − 1), since the final n is unknown.
///
/// Returns `None` when the target or the confidence is not usable, or when the count reaches
/// 2^53 (no such count is meaningful, nor exact in an `f64`). At least 2 samples are always
/// needed for an interval. Time: O(1).
pub fn required_for_half_width(
    variance: f64,
    dof: f64,
    target_half_width: f64,
    confidence: f64,
) -> Option<usize> {
    let usable = target_half_width > 0.0 && confidence > 0.0 && confidence < 1.0 && dof > 0.0;
    if !usable {
        return None;
    }
    let t = t_critical(confidence, dof);
    let req = (variance * (t / target_half_width).powi(2)).ceil();
    if req < BEYOND_COUNT {
        Some((req as usize).max(2))
    } else {
        None
    }
}

/// Samples needed in each of two groups so that Welch's test resolves a true difference of means
/// `difference` at two-sided significance `alpha` with probability `power`.
///
/// Uses the normal-approximation formula `n = (t_{1−α/2} + t_{power})² (s_a² + s_b²) / d²`
/// with Student-t quantiles on the Welch–Satterthwaite degrees of freedom of equal group sizes:
/// the least n that satisfies it (n is on both sides, through the degrees of freedom). Assumes
/// independent samples (subsession samples) and that the variances stay as estimated. `power = 0.5` gives the size at which the observed
/// difference is just significant. Returns `None` for a zero difference or bad parameters.
/// Time: O(log n) quantile evaluations.
pub fn required_to_resolve(
    variance_a: f64,
    variance_b: f64,
    difference: f64,
    alpha: f64,
    power: f64,
) -> Option<usize> {
    let d2 = difference * difference;
    let spread = variance_a + variance_b;
    let usable = d2 > 0.0 && alpha > 0.0 && alpha < 1.0 && power > 0.0 && power < 1.0;
    if !usable {
        return None;
    }
    if spread == 0.0 {
        return Some(2);
    }
    // The least n with n ≥ f(n) = z(n)² · spread / d², where z(n) uses the Welch–Satterthwaite
    // degrees of freedom of n samples in each group. f falls as n grows, so the condition holds
    // from some n on: find that n by doubling, then bisection. Being the least such n makes the
    // answer monotone in the difference, which a fixed-point iteration is not.
    let needed = |n: f64| {
        let dof = spread * spread * (n - 1.0)
            / (variance_a * variance_a + variance_b * variance_b).max(f64::MIN_POSITIVE);
        let dof = dof.max(1.0);
        let z = t_quantile(1.0 - alpha / 2.0, dof) + t_quantile(power, dof);
        z * z * spread / d2
    };
    let holds = |n: u64| n as f64 >= needed(n as f64);
    let (mut low, mut high) = (1_u64, 2_u64);
    while !holds(high) {
        if high > 1 << 52 {
            return None;
        }
        low = high;
        high *= 2;
    }
    // Invariant: the condition fails at `low` (or low = 1) and holds at `high`.
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if holds(mid) {
            high = mid;
        } else {
            low = mid;
        }
    }
    Some(high as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_width_by_hand() {
        // variance 4, dof 9: T = 2.2621571627409915; ceil(4 · (T/1)²) = ceil(20.469) = 21.
        assert_eq!(required_for_half_width(4.0, 9.0, 1.0, 0.95), Some(21));
        assert_eq!(required_for_half_width(0.0, 9.0, 1.0, 0.95), Some(2));
        assert_eq!(required_for_half_width(4.0, 9.0, 0.0, 0.95), None);
    }

    #[test]
    fn resolving_needs_more_for_smaller_differences() {
        let big = required_to_resolve(1.0, 1.0, 1.0, 0.01, 0.8).unwrap();
        let small = required_to_resolve(1.0, 1.0, 0.5, 0.01, 0.8).unwrap();
        assert!(small > 3 * big, "{small} vs {big}");
        // Large-sample limit: (z_.995 + z_.8)² · 2 / 0.1² = (2.5758 + 0.8416)² · 200 = 2336.
        let n = required_to_resolve(1.0, 1.0, 0.1, 0.01, 0.8).unwrap() as f64;
        assert!((n - 2336.0).abs() < 10.0, "{n}");
        assert_eq!(required_to_resolve(1.0, 1.0, 0.0, 0.01, 0.8), None);
    }
}
