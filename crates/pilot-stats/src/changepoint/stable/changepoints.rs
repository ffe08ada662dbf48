//! The change points of the stable segment's steps 1 and 2: EDM's on block medians, each
//! placed at full resolution by the split of one shift in the mean, then kept only when the
//! means on its two sides differ under AR(1) noise; and the split EDM missed, found the same
//! way.

use super::noise::Noise;
use crate::changepoint::ChangepointConfig;
use crate::changepoint::edm::{edm_multi_rescaled, edm_multi_unchecked, median_in, min_max};

/// Most points EDM sees: longer series are compressed into block medians first.
const MAX_POINTS: usize = 512;

/// Least |z| a change point must reach, after allowing for autocorrelation, to be kept; the bar
/// rises to `sqrt(2 ln n)` on long series (see [`confirm_z`]).
const CONFIRM_Z: f64 = 4.0;

/// How many times [`confirm_z`] a change EDM missed must reach to be added: the safety net is
/// for clear steps, not for the leftover of a slow trend.
const SPLIT_Z_FACTOR: f64 = 2.0;

/// EDM's change points of `xs`, on block medians when `xs` is long, placed at full resolution.
pub(super) fn coarse_changepoints(xs: &[f64], config: &ChangepointConfig) -> Vec<usize> {
    let n = xs.len();
    let b = n.div_ceil(MAX_POINTS);
    let (coarse, reach) = if b == 1 {
        (edm_multi_unchecked(xs, config), config.min_segment)
    } else {
        let blocks = n / b;
        let mut scratch = Vec::with_capacity(2 * b);
        let medians: Vec<f64> = (0..blocks)
            .map(|i| {
                let hi = if i + 1 == blocks { n } else { (i + 1) * b };
                median_in(&xs[i * b..hi], &mut scratch)
            })
            .collect();
        let min_blocks = config.min_segment.div_ceil(b).max(2);
        let block_config = ChangepointConfig {
            min_segment: min_blocks,
            ..*config
        };
        let (lo, hi) = min_max(xs);
        let coarse = edm_multi_rescaled(&medians, lo, hi, &block_config)
            .into_iter()
            .map(|k| k * b);
        (coarse.collect::<Vec<usize>>(), (2 * b).max(min_blocks * b))
    };
    // Each change point moves to the best split within `reach` of it: ±2 blocks covers the
    // blocks a change straddles, and one minimum segment lets a phase shorter than EDM's
    // minimum at either end of the series be split off where it really ends.
    let mut refined = Vec::with_capacity(coarse.len());
    for (i, &c) in coarse.iter().enumerate() {
        // Windows stop half-way to the neighbouring change points, so they never overlap.
        let left = if i == 0 {
            0
        } else {
            (coarse[i - 1] + c).div_ceil(2)
        };
        let right = if i + 1 == coarse.len() {
            n
        } else {
            (c + coarse[i + 1]) / 2
        };
        let lo = left.max(c.saturating_sub(reach));
        let hi = right.min(c + reach);
        refined.push(lo + best_split(&xs[lo..hi]).unwrap_or(c - lo));
    }
    refined
}

/// The split `t` (1 ≤ t < len) of `w` maximising `t(len − t)/len · (mean(w[..t]) −
/// mean(w[t..]))²`, the likelihood-ratio statistic of one shift in the mean; `None` for fewer
/// than 2 values. (EDM's median statistic is flat while less than half of a side is
/// contaminated, so it drifts towards the window's centre; the mean's does not.) Time: O(len).
fn best_split(w: &[f64]) -> Option<usize> {
    best_split_within(w, 1)
}

/// [`best_split`] among the splits leaving at least `min_side` values on each side.
fn best_split_within(w: &[f64], min_side: usize) -> Option<usize> {
    let len = w.len();
    let min_side = min_side.max(1);
    if len < 2 * min_side {
        return None;
    }
    let origin = w[0];
    let total: f64 = w.iter().map(|x| x - origin).sum();
    let mut left = 0.0;
    let mut best = (f64::NEG_INFINITY, None);
    for t in 1..=len - min_side {
        left += w[t - 1] - origin;
        if t < min_side {
            continue;
        }
        let (nl, nr) = (t as f64, (len - t) as f64);
        let diff = left / nl - (total - left) / nr;
        let stat = nl * nr / len as f64 * diff * diff;
        if stat > best.0 {
            best = (stat, Some(t));
        }
    }
    best.1
}

/// The split of `w` (each side at least `min_segment` values and an eighth of `w`) where the means differ most, if
/// they differ by |z| ≥ [`SPLIT_Z_FACTOR`] · [`confirm_z`]`(n)` under AR(1) noise: a change EDM missed (its
/// recursion is approximate and can skip a clean step). Time: O(len).
pub(super) fn significant_split(w: &[f64], min_segment: usize, n: usize) -> Option<usize> {
    // Changes near the ends are the edge walk's job, which places them more precisely.
    let t = best_split_within(w, min_segment.max(w.len() / 8))?;
    let bounds = [0, t, w.len()];
    let means = [crate::summary::mean(&w[..t]), crate::summary::mean(&w[t..])];
    let noise = Noise::of_residuals(w, &bounds, &means);
    let se2 = noise.mean_variance(t) + noise.mean_variance(w.len() - t);
    (z_score((means[0] - means[1]).abs(), se2) >= SPLIT_Z_FACTOR * confirm_z(n)).then_some(t)
}

/// Drops, weakest first, every change point whose two neighbouring segments' means do not
/// differ by |z| ≥ [`confirm_z`] under AR(1) noise. Time: O(n) per round.
pub(super) fn confirmed(xs: &[f64], mut changepoints: Vec<usize>) -> Vec<usize> {
    let n = xs.len();
    while !changepoints.is_empty() {
        let mut bounds = Vec::with_capacity(changepoints.len() + 2);
        bounds.push(0);
        bounds.extend_from_slice(&changepoints);
        bounds.push(n);
        let means: Vec<f64> = bounds
            .windows(2)
            .map(|w| crate::summary::mean(&xs[w[0]..w[1]]))
            .collect();
        let noise = Noise::of_residuals(xs, &bounds, &means);
        let weakest = (1..bounds.len() - 1)
            .map(|i| {
                let (nl, nr) = (bounds[i] - bounds[i - 1], bounds[i + 1] - bounds[i]);
                let diff = (means[i - 1] - means[i]).abs();
                let se2 = noise.mean_variance(nl) + noise.mean_variance(nr);
                (i - 1, z_score(diff, se2))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1));
        match weakest {
            Some((i, z)) if z < confirm_z(n) => {
                changepoints.remove(i);
            }
            _ => break,
        }
    }
    changepoints
}

/// The bar of a change point's |z| on `n` values. The z of the best of about n candidate splits
/// grows with n even on pure noise; `sqrt(2 ln n)`, the level the largest of n independent
/// normal values stays below with high probability, is a conservative bound for these strongly
/// dependent candidates (4.29 at 10⁴ values, 5.26 at 10⁶).
fn confirm_z(n: usize) -> f64 {
    CONFIRM_Z.max((2.0 * (n as f64).ln()).sqrt())
}

/// `diff / sqrt(se2)`, with a zero difference scoring 0 and a non-zero one over zero noise ∞.
fn z_score(diff: f64, se2: f64) -> f64 {
    if diff == 0.0 {
        0.0
    } else if se2 > 0.0 {
        diff / se2.sqrt()
    } else {
        f64::INFINITY
    }
}
