//! The stable segment: coarse change points by EDM, checked and refined at full resolution, then
//! the stable segment's two ends walked inward past gradual or short non-stable phases.

use super::edm::{edm_multi_rescaled, edm_multi_unchecked, median_in, min_max};
use super::{ChangepointConfig, StableSegment, validate};
use crate::error::{Result, check_finite};
use crate::stats::scale::scaled;

/// Most points EDM sees: longer series are compressed into block medians first.
const MAX_POINTS: usize = 512;

/// Least |z| a change point must reach, after allowing for autocorrelation, to be kept; the bar
/// rises to `sqrt(2 ln n)` on long series (see [`confirm_z`]).
const CONFIRM_Z: f64 = 4.0;

/// Least |z| the leading (or trailing) readings of the stable segment must reach to be trimmed
/// when nothing is known about the edge; rises to `sqrt(2 ln len)` (see [`detect_z`]).
const EDGE_DETECT_Z: f64 = 4.5;

/// One-sided z for each further trim once an edge phase is known (the rest of a gradual ramp,
/// or what is left of a phase beyond a change point).
const EDGE_CONTINUE_Z: f64 = 3.0;

/// Allowance `k` of the CUSUM that places an edge trim, in noise standard deviations: a trim
/// ends where the edge phase's excess over the stable level has fallen to about `k`.
const EDGE_ALLOWANCE: f64 = 0.5;

/// How many times [`confirm_z`] a change EDM missed must reach to be added: the safety net is
/// for clear steps, not for the leftover of a slow trend.
const SPLIT_Z_FACTOR: f64 = 2.0;

/// Most changes added to those EDM found (see [`significant_split`]).
const MAX_EXTRA_SPLITS: usize = 8;

/// Most trims per edge.
const MAX_EDGE_STEPS: usize = 24;

/// Shortest stable segment (in readings) whose edges are still tested.
const MIN_EDGE_LEN: usize = 16;

/// Largest lag-1 autocorrelation assumed, so that the variance factors stay finite.
const MAX_PHI: f64 = 0.99;

/// Finds the stable phase of `xs`: the longest segment between change points, with any
/// warm-up or cool-down left at its ends trimmed off.
///
/// Method, in four steps:
///
/// 1. **Coarse change points** by [`edm_multi`](super::edm_multi) with `config`. A series of more
///    than 512 values is first compressed into the medians of `b = ⌈n / 512⌉` consecutive
///    values (minimum segment `⌈min_segment / b⌉` blocks, at least 2), rescaled to [0, 1] by the
///    extremes of the raw values so that the penalty weighs a shift as it would on them (block
///    medians scaled by their own narrow range would make EDM see changes in noise). Each change
///    point is then placed at full resolution within ±max(2 blocks, one minimum segment) of it,
///    at the split of largest `t(w − t)/w · (mean(left) − mean(right))²`, the likelihood-ratio
///    statistic of one shift. This also corrects the reference's own placement, which its
///    approximate recursion can put several readings past a clean step.
/// 2. **Confirmation**: a change point is kept only when the means of the segments on its two
///    sides differ by |z| ≥ max(4, sqrt(2 ln n)), with the standard error of each mean computed
///    for AR(1) noise (lag-1 autocorrelation and variance pooled from the residuals about the
///    segment means). The weakest change point is dropped and the rest re-tested until all
///    pass. This removes the spurious changes EDM reports on autocorrelated noise.
/// 3. **Stable segment**: the longest segment (the later one on a tie), its edges trimmed as in
///    step 4. If the trimmed segment's best single split (each side at least a minimum segment
///    and an eighth of it) passes the test of step 2 at twice its bar, EDM missed a change: the split is added
///    and steps 3–4 repeat. It is *dominant* when it holds more than half of the values (Pilot's
///    rule).
/// 4. **Edges**: from each end of the segment, the cumulative deviation of the first `j`
///    readings from the mean of the segment's middle half is standardised for AR(1) noise and
///    scanned over `j` up to half the segment. If its maximum |z| reaches max(4.5,
///    sqrt(2 ln len)), the readings are trimmed up to the peak of a CUSUM with allowance 0.5 σ
///    (where the phase's excess has fallen to about 0.5 σ; at most the maximising `j`) and the
///    test repeats on what is left, one-sided with threshold 3 within twice the last trim, to
///    follow a gradual ramp to its end. An edge that is a confirmed change point starts in the
///    one-sided mode. This finds abrupt and exponential warm-ups and cool-downs down to a few
///    readings; an edge trims at most half of the segment.
///
/// [`StableSegment::changepoints`] holds the confirmed change points and the two trimmed edges
/// (other than 0 and n). Only EDM's own change points keep the minimum spacing; a trimmed edge
/// may lie a few readings from the end of the series.
///
/// Assumes the stable phase is stationary with at most AR(1)-like short-range dependence;
/// long-range dependence or a drift across the whole stable phase makes the edge test trim
/// more (up to half of the segment at each end). Empty and one-value series are stable as
/// they are. Errors: [`Error::NotFinite`](crate::Error::NotFinite) for NaN or infinite values and
/// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for an invalid `config`.
///
/// The steps run on the series divided by its power-of-two scale (the change points do not depend
/// on it): the noise variances square deviations, which would overflow beyond 1e154 and
/// underflow below 1e-154, making every change insignificant or every difference a change.
///
/// Time: O(n) for the block medians, O(512² log 512) for EDM, O(n) per confirmation round and per
/// edge step; with subsession analysis about 0.1 s for 10⁶ readings in a release build
/// (`cargo bench -p pilot --bench analysis`). Memory: O(n).
pub fn find_stable_segment(xs: &[f64], config: &ChangepointConfig) -> Result<StableSegment> {
    check_finite(xs)?;
    validate(config)?;
    let (xs, _) = scaled(xs);
    let xs = xs.as_slice();
    let n = xs.len();
    if n < 2 {
        return Ok(StableSegment {
            start: 0,
            end: n,
            changepoints: Vec::new(),
            dominant: true,
        });
    }
    let mut changepoints = confirmed(xs, coarse_changepoints(xs, config));
    let mut splits = 0;
    let (start, end) = loop {
        let mut bounds = Vec::with_capacity(changepoints.len() + 2);
        bounds.push(0);
        bounds.extend_from_slice(&changepoints);
        bounds.push(n);
        let (start, end) = trimmed_longest(xs, &bounds);
        match significant_split(&xs[start..end], config.min_segment, n) {
            Some(t) if splits < MAX_EXTRA_SPLITS => {
                splits += 1;
                let at = changepoints.partition_point(|&c| c < start + t);
                changepoints.insert(at, start + t);
            }
            _ => break (start, end),
        }
    };
    changepoints.extend([start, end].into_iter().filter(|&c| c > 0 && c < n));
    changepoints.sort_unstable();
    changepoints.dedup();
    Ok(StableSegment {
        start,
        end,
        changepoints,
        dominant: 2 * (end - start) > n,
    })
}

/// The longest segment between consecutive `bounds` (the later one on a tie), with the edge
/// phases left at its two ends trimmed by [`edge_trim`].
fn trimmed_longest(xs: &[f64], bounds: &[usize]) -> (usize, usize) {
    let (a, b) = longest_segment(bounds);
    let mean = |lo: usize, hi: usize| crate::stats::summary::mean(&xs[lo..hi]);
    let segment_mean = mean(a, b);
    let neighbour = |lo: usize, hi: usize| {
        Some(Prior {
            sign: (mean(lo, hi) - segment_mean).signum(),
            reach: 2 * (hi - lo),
        })
    };
    let before = bounds
        .iter()
        .rposition(|&c| c < a)
        .and_then(|i| neighbour(bounds[i], a));
    let start = a + edge_trim(xs[a..b].iter().copied(), before);
    let after = bounds
        .iter()
        .position(|&c| c > b)
        .and_then(|i| neighbour(b, bounds[i]));
    let end = b - edge_trim(xs[start..b].iter().rev().copied(), after);
    (start, end)
}

/// The longest segment between consecutive `bounds`, the later one on a tie.
fn longest_segment(bounds: &[usize]) -> (usize, usize) {
    let mut best = (0, 0);
    for w in bounds.windows(2) {
        if w[1] - w[0] >= best.1 - best.0 {
            best = (w[0], w[1]);
        }
    }
    best
}

/// EDM's change points of `xs`, on block medians when `xs` is long, placed at full resolution.
fn coarse_changepoints(xs: &[f64], config: &ChangepointConfig) -> Vec<usize> {
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
fn significant_split(w: &[f64], min_segment: usize, n: usize) -> Option<usize> {
    // Changes near the ends are the edge walk's job, which places them more precisely.
    let t = best_split_within(w, min_segment.max(w.len() / 8))?;
    let bounds = [0, t, w.len()];
    let means = [
        crate::stats::summary::mean(&w[..t]),
        crate::stats::summary::mean(&w[t..]),
    ];
    let noise = Noise::of_residuals(w, &bounds, &means);
    let se2 = noise.mean_variance(t) + noise.mean_variance(w.len() - t);
    (z_score((means[0] - means[1]).abs(), se2) >= SPLIT_Z_FACTOR * confirm_z(n)).then_some(t)
}

/// Drops, weakest first, every change point whose two neighbouring segments' means do not
/// differ by |z| ≥ [`confirm_z`] under AR(1) noise. Time: O(n) per round.
fn confirmed(xs: &[f64], mut changepoints: Vec<usize>) -> Vec<usize> {
    let n = xs.len();
    while !changepoints.is_empty() {
        let mut bounds = Vec::with_capacity(changepoints.len() + 2);
        bounds.push(0);
        bounds.extend_from_slice(&changepoints);
        bounds.push(n);
        let means: Vec<f64> = bounds
            .windows(2)
            .map(|w| crate::stats::summary::mean(&xs[w[0]..w[1]]))
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

/// The bar of a fresh edge detection over `len` values (scans up to `len / 2` prefixes).
fn detect_z(len: usize) -> f64 {
    EDGE_DETECT_Z.max((2.0 * (len as f64).ln()).sqrt())
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

/// Stationary AR(1) noise: marginal variance and lag-1 autocorrelation.
#[derive(Debug, Clone, Copy)]
struct Noise {
    variance: f64,
    phi: f64,
}

impl Noise {
    /// Pooled from the residuals of `xs` about the means of the segments between `bounds`.
    fn of_residuals(xs: &[f64], bounds: &[usize], means: &[f64]) -> Noise {
        let (mut ss, mut cross) = (0.0, 0.0);
        for (w, &m) in bounds.windows(2).zip(means) {
            let seg = &xs[w[0]..w[1]];
            ss += seg.iter().map(|x| (x - m) * (x - m)).sum::<f64>();
            cross += seg.windows(2).map(|p| (p[0] - m) * (p[1] - m)).sum::<f64>();
        }
        let dof = xs.len().saturating_sub(means.len()).max(1);
        Noise::from_sums(ss, cross, dof, xs.len()).capped(xs)
    }

    /// Of the values `xs` about their mean.
    fn of(xs: &[f64]) -> (f64, Noise) {
        let m = crate::stats::summary::mean(xs);
        let ss: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
        let cross: f64 = xs.windows(2).map(|p| (p[0] - m) * (p[1] - m)).sum();
        let dof = xs.len().saturating_sub(1).max(1);
        (m, Noise::from_sums(ss, cross, dof, xs.len()).capped(xs))
    }

    /// The lag-1 estimate `cross / ss` is biased low by about `(1 + 3φ)/n`; that is added back,
    /// and the result kept in `[0, 0.99]` (negative autocorrelation is taken as none, which
    /// overstates the noise: the safe side).
    fn from_sums(ss: f64, cross: f64, dof: usize, n: usize) -> Noise {
        let raw = if ss > 0.0 { cross / ss } else { 0.0 };
        let phi = (raw + (1.0 + 3.0 * raw.max(0.0)) / n as f64).clamp(0.0, MAX_PHI);
        Noise {
            variance: ss / dof as f64,
            phi,
        }
    }

    /// Caps φ at 0.25 above an estimate that a missed step or trend cannot inflate: for AR(1)
    /// noise `Var(x_i − x_{i−2}) / Var(x_i − x_{i−1}) = 1 + φ`, and the two spreads are taken as
    /// median absolute deviations, which a few large differences at a step do not move. (The
    /// residual estimate alone goes to 1 when the segments miss a step, and then no change is
    /// significant.) Time: O(n).
    fn capped(self, xs: &[f64]) -> Noise {
        if xs.len() < 8 {
            return self;
        }
        let mut scratch = Vec::with_capacity(xs.len());
        let mut mad = |lag: usize| {
            let d: Vec<f64> = xs.windows(lag + 1).map(|w| w[lag] - w[0]).collect();
            let centre = median_in(&d, &mut scratch);
            let dev: Vec<f64> = d.iter().map(|x| (x - centre).abs()).collect();
            median_in(&dev, &mut scratch)
        };
        let (s1, s2) = (mad(1), mad(2));
        if s1 > 0.0 {
            let robust = (s2 / s1).powi(2) - 1.0;
            Noise {
                phi: self.phi.min((robust + 0.25).max(0.0)),
                ..self
            }
        } else {
            self
        }
    }

    /// `Var(x_1 + … + x_d) / σ²` for AR(1) noise:
    /// `d(1 + φ)/(1 − φ) − 2φ(1 − φ^d)/(1 − φ)²`.
    fn sum_factor(&self, d: usize) -> f64 {
        let phi = self.phi;
        if phi == 0.0 {
            return d as f64;
        }
        let d_f = d as f64;
        let one = 1.0 - phi;
        (d_f * (1.0 + phi) / one - 2.0 * phi * (1.0 - phi.powf(d_f)) / (one * one)).max(d_f)
    }

    /// Variance of the mean of `d` consecutive values.
    fn mean_variance(&self, d: usize) -> f64 {
        let d_f = d as f64;
        self.variance * self.sum_factor(d) / (d_f * d_f)
    }
}

/// What is known about the phase before an edge: the direction of its level relative to the
/// segment (+1 above, −1 below) and how far into the segment it may still reach.
#[derive(Debug, Clone, Copy)]
struct Prior {
    sign: f64,
    reach: usize,
}

/// How many leading values of `ys` to trim: scans `S_j = Σ_{i<j} (y_i − m)`, `m` the mean of the
/// middle half, standardised by its AR(1) standard error (including the error of `m`), and trims
/// to the maximising `j` while the maximum passes the threshold, then repeats on the rest.
///
/// Without a prior the scan is two-sided over `j` up to half the values with threshold
/// [`detect_z`]. With one (a change point known to lie at this edge, or the previous trim),
/// it is one-sided in the prior's direction, up to the prior's reach, with threshold
/// [`EDGE_CONTINUE_Z`]; each trim of `j` values sets the next reach to `2j`.
/// Time: O(len) per step.
fn edge_trim(ys: impl Iterator<Item = f64>, mut prior: Option<Prior>) -> usize {
    let ys: Vec<f64> = ys.collect();
    let cap = ys.len() / 2;
    let mut trimmed = 0;
    for _ in 0..MAX_EDGE_STEPS {
        let rest = &ys[trimmed..];
        let len = rest.len();
        if len < MIN_EDGE_LEN {
            break;
        }
        let (m, noise) = Noise::of(&rest[len / 4..len - len / 4]);
        let r = len - 2 * (len / 4);
        let ref_variance = noise.sum_factor(r) / (r * r) as f64;
        let reach = prior.map_or(len / 2, |p| p.reach.clamp(1, len / 2));
        let scan = &rest[..reach];
        if noise.variance == 0.0 {
            // A constant middle: trim up to the last leading value that differs from it.
            if let Some(last) = scan.iter().rposition(|&y| y != m) {
                if trimmed + last < cap {
                    trimmed += last + 1;
                }
            }
            break;
        }
        let mut sum = 0.0;
        let mut best = (f64::NEG_INFINITY, 0, 0.0);
        for (j, &y) in scan.iter().enumerate() {
            let j = j + 1;
            sum += y - m;
            let j_f = j as f64;
            let se = (noise.variance * (noise.sum_factor(j) + j_f * j_f * ref_variance)).sqrt();
            let z = match prior {
                Some(p) => p.sign * sum / se,
                None => sum.abs() / se,
            };
            if z > best.0 {
                best = (z, j, sum.signum());
            }
        }
        let threshold = if prior.is_some() {
            EDGE_CONTINUE_Z
        } else {
            detect_z(len)
        };
        let (z, z_at, sign) = best;
        if z < threshold {
            break;
        }
        // Where the edge phase ends: the peak of Page's CUSUM `sign·S_j − k·j`, which keeps
        // rising while readings lie more than `k` beyond the middle's mean on the phase's side
        // and falls by `k` a reading after, so it overshoots an abrupt end by a reading or two
        // and stops a decaying ramp where its excess has fallen to about `k`.
        let allowance = EDGE_ALLOWANCE * noise.variance.sqrt();
        let mut cusum = 0.0;
        let mut peak = (0.0, 0);
        for (j, &y) in scan.iter().enumerate() {
            cusum += sign * (y - m) - allowance;
            if cusum > peak.0 {
                peak = (cusum, j + 1);
            }
        }
        // A fresh detection is usually an abrupt phase, ended best by the maximum of z (the
        // likelihood estimate of a step's end); the CUSUM's peak can overshoot it by a few
        // readings. A ramp stopped early here is followed further by the continuation steps.
        let j = if prior.is_none() {
            peak.1.min(z_at)
        } else {
            peak.1
        };
        if j == 0 || trimmed + j > cap {
            break;
        }
        trimmed += j;
        prior = Some(Prior {
            sign,
            reach: 2 * j.max(MIN_EDGE_LEN),
        });
    }
    trimmed
}
