//! Lag-1 autocorrelation and subsession analysis.
//!
//! Readings taken one after another on a computer are rarely independent: schedulers, caches and
//! frequency scaling make neighbouring readings alike. A confidence interval computed as if they
//! were independent is too narrow. Subsession analysis (Pilot paper §III-D, after Ferrari's
//! *Computer Systems Performance Evaluation*) merges each `q` consecutive samples into their mean
//! and raises `q` until the merged samples are nearly uncorrelated.

use crate::error::{Result, check_autocorrelation_limit, check_finite, check_len};
use crate::samplesize::required_for_half_width;
use crate::scale::{ldexp, scale_exponent, scaled};
use crate::summary::{ConfidenceInterval, Summary, interval, mean};

/// Default bound on |lag-1 autocorrelation| below which samples count as independent.
pub const DEFAULT_AUTOCORRELATION_LIMIT: f64 = 0.1;

/// Default least number of subsession samples (merged blocks) an analysis may end with.
pub const DEFAULT_MIN_SUBSESSIONS: usize = 30;

/// Lag-1 autocorrelation coefficient of a series:
/// `r1 = Σ (x_i − m)(x_{i+1} − m) / Σ (x_i − m)²` with `m` the mean of all values.
///
/// This is the usual sample autocorrelation (the estimator of statsmodels' `acf` and of Pilot's
/// C++ library). It is biased towards zero by about `−(1 + 3ρ)/n` on short series. A constant
/// series has no correlation to speak of and gives 0. Needs n ≥ 2. Computed on the series
/// divided by its power-of-two scale (r1 does not depend on the scale), so that no product of
/// deviations overflows or underflows. Time: O(n); memory: the scaled copy.
pub fn lag1_autocorrelation(xs: &[f64]) -> Result<f64> {
    check_len(xs, 2)?;
    check_finite(xs)?;
    Ok(lag1_unchecked(&scaled(xs).0))
}

/// r1 of values already scaled into `[-2, 2)`.
fn lag1_unchecked(xs: &[f64]) -> f64 {
    // Deviations are taken from the first value before the mean is subtracted: for readings
    // with a large offset (1e9 + noise) `x − x0` is exact, while `x − mean` would carry the
    // mean's rounding error into every product.
    let origin = xs[0];
    let centred = |x: f64| x - origin;
    let m = xs.iter().map(|&x| centred(x)).sum::<f64>() / xs.len() as f64;
    let dev = |x: f64| centred(x) - m;
    let denom: f64 = xs.iter().map(|&x| dev(x) * dev(x)).sum();
    // A relative test: deviations at the level of rounding error are a constant series.
    let scale = origin.abs() + m.abs();
    if denom <= f64::EPSILON * f64::EPSILON * scale * scale * xs.len() as f64 || denom == 0.0 {
        return 0.0;
    }
    let num: f64 = xs.windows(2).map(|w| dev(w[0]) * dev(w[1])).sum();
    num / denom
}

/// The means of consecutive blocks of `q` samples; the last `n mod q` samples (an incomplete
/// block) are dropped. The sums are taken on the samples divided by their power-of-two scale, so
/// they never overflow. Time: O(n).
pub fn block_means(xs: &[f64], q: usize) -> Vec<f64> {
    assert!(q > 0, "subsession size must be positive");
    let e = scale_exponent(xs);
    let inverse = ldexp(1.0, -e);
    xs.chunks_exact(q)
        .map(|c| ldexp(c.iter().map(|x| x * inverse).sum::<f64>() / q as f64, e))
        .collect()
}

/// The result of subsession analysis: the subsession size `q` and the `h = floor(n/q)` merged
/// samples it produced.
#[derive(Debug, Clone, PartialEq)]
pub struct SubsessionAnalysis {
    /// Subsession size `q`: how many consecutive samples each merged sample is the mean of.
    pub size: usize,
    /// The `h` subsession samples (block means), in order.
    pub means: Vec<f64>,
    /// Lag-1 autocorrelation of the subsession samples.
    pub autocorrelation: f64,
    /// Whether |autocorrelation| came within the limit. When it did not, `size` is the largest
    /// subsession size that still left the minimum number of subsession samples, and an interval
    /// computed from it is too narrow by an unknown amount.
    pub converged: bool,
    /// How many input samples the analysis saw (`size × means.len()` of them were used).
    pub input_len: usize,
    /// Lag-1 autocorrelation of the input samples (before merging).
    pub input_autocorrelation: f64,
}

/// Subsession analysis as Pilot defines it: for q = 1, 2, 3, … merge each q consecutive samples
/// into their mean (dropping the incomplete tail) until the lag-1 autocorrelation of the merged
/// samples is within `±limit`.
///
/// Gives up when the next q would leave fewer than `min_subsessions` merged samples, and says so
/// through [`SubsessionAnalysis::converged`]. q = 1 is always tried, so a short series is
/// analysed as it is. Needs n ≥ 2.
///
/// Assumes the series is (weakly) stationary, i.e. its non-stable phases were already removed;
/// a trend makes every block mean correlated with the next and drives q up.
///
/// Computed on the series divided by its power-of-two scale, the block means multiplied back:
/// exact on any finite input. Time: O(n) per q tried, computed from prefix sums as O(n/q), so
/// O(n log n) in the worst case. Memory: O(n).
pub fn subsession_analysis(
    xs: &[f64],
    limit: f64,
    min_subsessions: usize,
) -> Result<SubsessionAnalysis> {
    check_len(xs, 2)?;
    check_finite(xs)?;
    check_autocorrelation_limit(limit)?;
    let n = xs.len();
    let min_h = min_subsessions.max(2);
    let (xs, e) = scaled(xs);
    let xs = xs.as_slice();
    let unscale =
        |means: Vec<f64>| -> Vec<f64> { means.into_iter().map(|m| ldexp(m, e)).collect() };
    // Prefix sums relative to the first value keep cancellation small on large-offset data.
    let origin = xs[0];
    let mut prefix = Vec::with_capacity(n + 1);
    prefix.push(0.0);
    let mut acc = 0.0;
    for &x in xs {
        acc += x - origin;
        prefix.push(acc);
    }
    let means_for = |q: usize| -> Vec<f64> {
        (0..n / q)
            .map(|b| origin + (prefix[(b + 1) * q] - prefix[b * q]) / q as f64)
            .collect()
    };
    let mut q = 1;
    let mut means = xs.to_vec();
    let mut r1 = lag1_unchecked(&means);
    let input_autocorrelation = r1;
    while r1.abs() > limit {
        let next = q + 1;
        if n / next < min_h {
            return Ok(SubsessionAnalysis {
                size: q,
                means: unscale(means),
                autocorrelation: r1,
                converged: false,
                input_len: n,
                input_autocorrelation,
            });
        }
        q = next;
        means = means_for(q);
        r1 = lag1_unchecked(&means);
    }
    Ok(SubsessionAnalysis {
        size: q,
        means: unscale(means),
        autocorrelation: r1,
        converged: true,
        input_len: n,
        input_autocorrelation,
    })
}

impl SubsessionAnalysis {
    /// Number of subsession samples `h`.
    pub fn count(&self) -> usize {
        self.means.len()
    }

    /// Mean of the subsession samples (the mean of the `q·h` input samples used).
    pub fn mean(&self) -> f64 {
        mean(&self.means)
    }

    /// Sample variance `var_q` of the subsession samples (`n − 1` divisor); 0 for fewer than 2.
    /// `+∞` where it passes `f64::MAX` (see [`Summary::variance`]).
    pub fn variance(&self) -> f64 {
        self.summary().map_or(0.0, |s| s.variance)
    }

    /// The [`Summary`] of the subsession samples, when there are at least 2 of them.
    fn summary(&self) -> Option<Summary> {
        if self.means.len() < 2 {
            return None;
        }
        Summary::of(&self.means).ok()
    }

    /// Student-t interval of the mean over the h subsession samples, exactly as Pilot computes
    /// it: `mean ± t(h−1, 1−(1−c)/2) · sqrt(var_q / h)`. Needs h ≥ 2.
    ///
    /// It treats the subsession samples as independent. They are only nearly so, and q was chosen
    /// as the first size at which the (noisy) lag-1 estimate dipped within the limit, so on
    /// autocorrelated data this interval is a little too narrow (about 91% coverage at 95% on
    /// AR(1) φ = 0.7, n = 1000). [`adjusted_mean_ci`](Self::adjusted_mean_ci) corrects that.
    pub fn mean_ci(&self, confidence: f64) -> Result<ConfidenceInterval> {
        Summary::of(&self.means)?.mean_ci(confidence)
    }

    /// Estimate of the lag-1 correlation that remains between subsession samples, ≥ 0: the
    /// larger of
    /// - the observed lag-1 autocorrelation of the subsession samples with Kendall's bias
    ///   correction, `r1 + (1 + 3·r1)/h` (the plain estimate is biased towards 0 by about that);
    /// - the correlation an AR(1) process with the input's lag-1 autocorrelation `φ` (estimated
    ///   from all n inputs, so much less noisy) leaves between means of q consecutive values:
    ///   `φ(1−φ^q)² / (q(1−φ²) − 2φ(1−φ^q))`.
    ///
    /// Clamped to [0, 0.9]: negative correlation is not used to narrow an interval.
    pub fn residual_correlation(&self) -> f64 {
        let h = self.means.len() as f64;
        let r = self.autocorrelation;
        let observed = if h > 0.0 {
            r + (1.0 + 3.0 * r) / h
        } else {
            0.0
        };
        let phi = self.input_autocorrelation.clamp(0.0, 0.99);
        let q = self.size as f64;
        let predicted = if phi > 0.0 {
            let pq = 1.0 - phi.powf(q);
            phi * pq * pq / (q * (1.0 - phi * phi) - 2.0 * phi * pq)
        } else {
            0.0
        };
        observed.max(predicted).clamp(0.0, 0.9)
    }

    /// Factor by which correlation between subsession samples inflates the variance of their
    /// mean, `(1 + ρ)/(1 − ρ)` with ρ = [`residual_correlation`](Self::residual_correlation)
    /// (exact for an AR(1) sequence of subsession samples). 1 for independent samples.
    pub fn variance_inflation(&self) -> f64 {
        let rho = self.residual_correlation();
        (1.0 + rho) / (1.0 - rho)
    }

    /// pilot's interval of the mean: Pilot's subsession interval with its variance multiplied by
    /// [`variance_inflation`](Self::variance_inflation):
    /// `mean ± t(h−1, 1−(1−c)/2) · sqrt(f · var_q / h)`.
    ///
    /// Measured coverage at 95% (seeded Monte Carlo, `tests/tests/validity.rs`): about 96% on
    /// AR(1) φ = 0.7, n = 1000, where [`mean_ci`](Self::mean_ci) reaches about 91%; on
    /// independent data the factor stays near 1. Needs h ≥ 2; [`Error::OutOfRange`](crate::Error::OutOfRange) when a bound
    /// passes `f64::MAX`. Time: O(h).
    pub fn adjusted_mean_ci(&self, confidence: f64) -> Result<ConfidenceInterval> {
        let s = Summary::of(&self.means)?;
        let plain = s.mean_ci(confidence)?;
        let half = plain.half_width() * self.variance_inflation().sqrt();
        interval(s.mean, half, confidence, "confidence interval of the mean")
    }

    /// Required number of subsession samples for a half-width of `target_half_width` (absolute,
    /// in the samples' unit): `h_req = ceil(var_q · (T / e)²)` with `T = t(h−1, 1−(1−c)/2)`
    /// (Pilot paper eq. 6), where `var_q` is taken with the
    /// [`variance_inflation`](Self::variance_inflation) that [`adjusted_mean_ci`](Self::adjusted_mean_ci)
    /// applies. Multiply by [`size`](Self::size) for input samples.
    ///
    /// Returns `None` when it cannot be known: fewer than 2 subsession samples, a target ≤ 0, or
    /// a count beyond any number (the target is more than 1e150 times finer than the spread).
    /// A zero-variance series needs only the 2 samples an interval is defined for. Computed from
    /// the ratio of the standard deviation to the target, which stays finite where the variance
    /// and the target's square would overflow or underflow.
    pub fn required_count(&self, target_half_width: f64, confidence: f64) -> Option<usize> {
        let s = self.summary()?;
        let usable_target = target_half_width > 0.0;
        if !usable_target {
            return None;
        }
        let ratio = s.std_dev / target_half_width;
        required_for_half_width(
            ratio * ratio * self.variance_inflation(),
            (s.n - 1) as f64,
            1.0,
            confidence,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lag1_by_hand() {
        // m = 2.5; deviations -1.5 -0.5 0.5 1.5; num = 0.75 - 0.25 + 0.75 = 1.25; den = 5.
        assert!((lag1_autocorrelation(&[1.0, 2.0, 3.0, 4.0]).unwrap() - 0.25).abs() < 1e-15);
        // Alternating: deviations ±1, num = -(n-1), den = n.
        let alt: Vec<f64> = (0..10)
            .map(|i| if i % 2 == 0 { 1.0 } else { -1.0 })
            .collect();
        assert!((lag1_autocorrelation(&alt).unwrap() + 0.9).abs() < 1e-15);
        assert_eq!(lag1_autocorrelation(&[3.0; 5]).unwrap(), 0.0);
        assert!(lag1_autocorrelation(&[1.0]).is_err());
    }

    #[test]
    fn lag1_does_not_depend_on_the_scale() {
        // 0.25 by hand above. At 1e300 the squared deviations overflowed (r1 = NaN); at 1e-300
        // they underflowed to 0 and the series counted as constant (r1 = 0).
        for f in [1e300, 1e-300, f64::from_bits(1)] {
            let xs: Vec<f64> = [1.0, 2.0, 3.0, 4.0].iter().map(|x| x * f).collect();
            let r1 = lag1_autocorrelation(&xs).unwrap();
            assert!((r1 - 0.25).abs() < 1e-15, "{f:e}: {r1}");
        }
    }

    #[test]
    fn block_means_of_the_largest_values() {
        // The sum of a block overflowed: MAX + MAX = ∞.
        assert_eq!(block_means(&[f64::MAX; 4], 2), vec![f64::MAX; 2]);
        assert_eq!(
            block_means(&[f64::MAX, -f64::MAX, 1e300, 3e300], 2),
            vec![0.0, 2e300]
        );
    }

    #[test]
    fn subsession_analysis_of_scaled_series_is_scaled_exactly() {
        let alt: Vec<f64> = (0..100)
            .map(|i| if i % 3 == 0 { 1.0 } else { -0.5 } + f64::from(i % 7))
            .collect();
        let base = subsession_analysis(&alt, 0.1, 30).unwrap();
        for k in [-1020, -600, 600, 1016] {
            let f = 2f64.powi(k);
            let xs: Vec<f64> = alt.iter().map(|x| x * f).collect();
            let s = subsession_analysis(&xs, 0.1, 30).unwrap();
            assert_eq!(
                (s.size, s.autocorrelation),
                (base.size, base.autocorrelation)
            );
            let expected: Vec<f64> = base.means.iter().map(|m| m * f).collect();
            assert_eq!(s.means, expected, "2^{k}");
            let (ci, base_ci) = (
                s.adjusted_mean_ci(0.95).unwrap(),
                base.adjusted_mean_ci(0.95).unwrap(),
            );
            assert_eq!((ci.low, ci.high), (base_ci.low * f, base_ci.high * f));
        }
    }

    #[test]
    fn required_count_of_huge_and_tiny_samples() {
        // 78 by hand below for [1, 5, 2, 4, 3] and a half-width of 0.5. Scaled by 1e200 the
        // variance overflowed (no answer); scaled by 1e-200 it underflowed (2 samples "enough").
        for f in [1e200, 1e-200] {
            let xs: Vec<f64> = [1.0, 5.0, 2.0, 4.0, 3.0].iter().map(|x| x * f).collect();
            let s = subsession_analysis(&xs, 0.9, 2).unwrap();
            assert_eq!(s.required_count(0.5 * f, 0.95), Some(78), "{f:e}");
        }
    }

    #[test]
    fn block_means_drop_the_tail() {
        assert_eq!(block_means(&[1.0, 3.0, 5.0, 7.0, 100.0], 2), vec![2.0, 6.0]);
    }

    #[test]
    fn alternating_series_merges_into_pairs() {
        // r1 = -0.9 at q = 1; pairs of (1, -1) are all 0: constant, r1 = 0 at q = 2.
        let alt: Vec<f64> = (0..100)
            .map(|i| if i % 2 == 0 { 1.0 } else { -1.0 })
            .collect();
        let s = subsession_analysis(&alt, 0.1, 30).unwrap();
        assert_eq!((s.size, s.count(), s.converged), (2, 50, true));
        assert_eq!(s.variance(), 0.0);
    }

    #[test]
    fn gives_up_and_says_so_on_a_trend() {
        let trend: Vec<f64> = (0..100).map(f64::from).collect();
        let s = subsession_analysis(&trend, 0.1, 30).unwrap();
        assert!(!s.converged);
        assert_eq!(s.size, 3); // 100/4 = 25 < 30 blocks
        assert_eq!(s.count(), 33);
    }

    #[test]
    fn required_count_by_hand() {
        // Means 1..=5 with q = 1: var = 2.5; T = t(4, .975) = 2.7764451051977987;
        // h_req = ceil(2.5 · (T/0.5)²) = ceil(77.08...) = 78.
        let s = subsession_analysis(&[1.0, 5.0, 2.0, 4.0, 3.0], 0.9, 2).unwrap();
        assert_eq!(s.size, 1);
        assert_eq!(s.required_count(0.5, 0.95), Some(78));
        assert_eq!(s.required_count(0.0, 0.95), None);
    }

    #[test]
    fn residual_correlation_by_hand() {
        let mut s = SubsessionAnalysis {
            size: 10,
            means: vec![0.0; 50],
            autocorrelation: 0.05,
            converged: true,
            input_len: 500,
            input_autocorrelation: 0.7,
        };
        // AR(1) prediction for φ = 0.7, q = 10: 0.7·(1−0.7¹⁰)² / (10·0.51 − 1.4·(1−0.7¹⁰)),
        // evaluated in Python from the formula.
        assert!((s.residual_correlation() - 0.1767626114134799).abs() < 1e-12);
        assert!((s.variance_inflation() - 1.4294329044432186).abs() < 1e-12);
        // Observed 0.3 with h = 50: 0.3 + 1.9/50 = 0.338 dominates the prediction.
        s.autocorrelation = 0.3;
        assert!((s.residual_correlation() - 0.338).abs() < 1e-12);
        // Independent input and negative block correlation: no inflation.
        s.input_autocorrelation = -0.2;
        s.autocorrelation = -0.4;
        assert_eq!(s.variance_inflation(), 1.0);
    }
}
