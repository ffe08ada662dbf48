//! Subsession analysis for a robust location: block sizes whose means are nearly
//! uncorrelated by a lag-1 autocorrelation that interruptions cannot hide, and large enough to
//! average the clock's ticks away.

use super::select_median;
use crate::autocorr::SubsessionAnalysis;
use crate::error::{Result, check_autocorrelation_limit, check_finite, check_len};
use crate::scale::{ldexp, scale_exponent};

/// Lag-1 autocorrelation of `xs` (times `scale`) winsorized at `median ± 3 · 1.4826 · MAD`: the
/// plain coefficient ([`lag1_autocorrelation`](crate::lag1_autocorrelation)) is decided
/// by a few interrupted readings (one reading 50 times the rest holds nearly all the variance
/// and pulls r1 to 0, hiding the correlation of the rest). A MAD of 0 (over half the values
/// equal) leaves the values as they are. `scale` brings the values into `[-2, 2)`. Time: O(n);
/// memory: one copy (the session calls this after every round, on up to 2^20 readings, and a
/// growing scratch would read as a leak of the bench's).
fn robust_lag1(xs: &[f64], scale: f64) -> f64 {
    let mut v: Vec<f64> = xs.iter().map(|x| x * scale).collect();
    let med = select_median(&mut v);
    for x in v.iter_mut() {
        *x = (*x - med).abs();
    }
    let mad = select_median(&mut v) * 1.482_602_218_505_602;
    drop(v);
    let (lo, hi) = if mad > 0.0 {
        (med - 3.0 * mad, med + 3.0 * mad)
    } else {
        (f64::NEG_INFINITY, f64::INFINITY)
    };
    lag1_of(xs.len(), |i| (xs[i] * scale).clamp(lo, hi))
}

/// The lag-1 autocorrelation of the `n` values `f(0)`, …, `f(n − 1)`, as
/// [`lag1_autocorrelation`](crate::lag1_autocorrelation) computes it (deviations taken
/// from the first value before the mean), without storing them. Time: O(n).
fn lag1_of(n: usize, f: impl Fn(usize) -> f64) -> f64 {
    if n < 2 {
        return 0.0;
    }
    let origin = f(0);
    let m = (0..n).map(|i| f(i) - origin).sum::<f64>() / n as f64;
    let dev = |i: usize| f(i) - origin - m;
    let denom: f64 = (0..n).map(|i| dev(i) * dev(i)).sum();
    let size = origin.abs() + m.abs();
    if denom <= f64::EPSILON * f64::EPSILON * size * size * n as f64 || denom == 0.0 {
        return 0.0;
    }
    (1..n).map(|i| dev(i - 1) * dev(i)).sum::<f64>() / denom
}

/// The least block size whose means are continuous enough to trim: readings quantised to steps
/// of `quantum` (the clock's resolution per reading) have block means in steps of
/// `quantum / q`, and those steps must be small against the block means' spread, about
/// `σ / √q` for readings of spread `σ`: `quantum / q ≤ σ / (4√q)`, so `q ≥ 16 · (quantum/σ)²`.
/// `σ` is the standard deviation of the readings winsorized at their 1st and 99th percentiles
/// (so that interruptions do not make it look wide). 1 for continuous readings (`quantum` 0).
/// Time: O(n); memory: one copy.
fn least_block(xs: &[f64], quantum: f64) -> usize {
    if quantum <= 0.0 || xs.len() < 4 {
        return 1;
    }
    let n = xs.len();
    let (lo, hi) = {
        let mut v = xs.to_vec();
        let k = n / 100;
        let lo = *v.select_nth_unstable_by(k, f64::total_cmp).1;
        let hi = *v.select_nth_unstable_by(n - 1 - k, f64::total_cmp).1;
        (lo, hi)
    };
    let clipped = |i: usize| xs[i].clamp(lo, hi);
    let m = (0..n).map(clipped).sum::<f64>() / n as f64;
    let sd = ((0..n).map(|i| (clipped(i) - m).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt();
    if sd <= 0.0 {
        // Every reading on one tick (bar the 1% at each end): no block averages the tick away;
        // the largest blocks that leave enough of them are the best there is.
        return usize::MAX;
    }
    let ratio = quantum / sd;
    (16.0 * ratio * ratio).ceil().clamp(1.0, 1e9) as usize
}

/// Subsession analysis for a robust location: Pilot's (merge each `q` consecutive readings into
/// their mean, raise `q` until the merged samples are nearly uncorrelated), with two changes.
/// The lag-1 autocorrelation is that of the block means winsorized at 3 MADs (see
/// `robust_lag1`), so interrupted readings cannot hide correlation; and `q` starts at the
/// least size whose block means average the clock's ticks away (`quantum`, the resolution of
/// one reading in its unit; 0 for continuous readings).
///
/// Gives up, as [`subsession_analysis`](crate::subsession_analysis) does, when the next
/// `q` would leave fewer than `min_subsessions` samples, and says so through `converged`.
/// Computed on the readings divided by their power-of-two scale, the block means multiplied
/// back. Time: O(n) per `q` tried from prefix sums, O(n log n) in all; memory: the prefix sums
/// and one copy at a time.
pub fn robust_subsession_analysis(
    xs: &[f64],
    limit: f64,
    min_subsessions: usize,
    quantum: f64,
) -> Result<SubsessionAnalysis> {
    check_len(xs, 2)?;
    check_finite(xs)?;
    check_autocorrelation_limit(limit)?;
    let n = xs.len();
    let min_h = min_subsessions.max(2);
    let e = scale_exponent(xs);
    let inverse = ldexp(1.0, -e);
    let quantum = ldexp(quantum.max(0.0), -e);
    let origin = xs[0] * inverse;
    let mut prefix = Vec::with_capacity(n + 1);
    prefix.push(0.0);
    let mut acc = 0.0;
    for &x in xs {
        acc += x * inverse - origin;
        prefix.push(acc);
    }
    let means_for = |q: usize| -> Vec<f64> {
        (0..n / q)
            .map(|b| origin + (prefix[(b + 1) * q] - prefix[b * q]) / q as f64)
            .collect()
    };
    let input_autocorrelation = robust_lag1(xs, inverse);
    // The least size that still leaves the minimum count, when the data ask for larger.
    let largest = (n / min_h).max(1);
    let mut q = least_block_scaled(xs, inverse, quantum).min(largest);
    let mut means = means_for(q);
    let mut r1 = robust_lag1(&means, 1.0);
    let mut converged = r1.abs() <= limit;
    while !converged && n / (q + 1) >= min_h {
        q += 1;
        means = means_for(q);
        r1 = robust_lag1(&means, 1.0);
        converged = r1.abs() <= limit;
    }
    Ok(SubsessionAnalysis {
        size: q,
        means: means.into_iter().map(|m| ldexp(m, e)).collect(),
        autocorrelation: r1,
        converged,
        input_len: n,
        input_autocorrelation,
    })
}

/// [`least_block`] of the readings times `scale` against `quantum` in the same scale: the
/// ratio `quantum/σ` does not depend on the scale, so the unscaled readings and the unscaled
/// quantum give the same size.
fn least_block_scaled(xs: &[f64], scale: f64, quantum: f64) -> usize {
    least_block(xs, quantum / scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interruptions_do_not_hide_correlation() {
        // A slow square wave (runs of 20 alike) is strongly correlated; two readings 1000 times
        // the rest took the plain r1 of the series to about 0.
        let mut xs: Vec<f64> = (0..2000)
            .map(|i| if (i / 20) % 2 == 0 { 1.0 } else { 1.1 })
            .collect();
        xs[500] = 1000.0;
        xs[1500] = 1000.0;
        let plain = crate::lag1_autocorrelation(&xs).unwrap();
        assert!(plain.abs() < 0.1, "{plain}");
        let e = crate::scale::scale_exponent(&xs);
        assert!(robust_lag1(&xs, ldexp(1.0, -e)) > 0.8);
        let s = robust_subsession_analysis(&xs, 0.1, 30, 0.0).unwrap();
        assert!(s.size >= 10, "{}", s.size);
    }
}
