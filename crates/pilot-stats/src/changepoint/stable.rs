//! The stable segment: coarse change points by EDM, checked and refined at full resolution, then
//! the stable segment's two ends walked inward past gradual or short non-stable phases.
//!
//! [`changepoints`] finds and confirms the change points, [`edge`] trims the segment's ends,
//! [`noise`] is the AR(1) noise both standardise by.

use super::{ChangepointConfig, StableSegment, validate};
use crate::error::{Result, check_finite};
use crate::scale::scaled;

mod changepoints;
mod edge;
mod noise;

use changepoints::{coarse_changepoints, confirmed, significant_split};
use edge::{Prior, edge_trim};

/// Most changes added to those EDM found (see [`significant_split`]).
const MAX_EXTRA_SPLITS: usize = 8;

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
/// edge step; what 10⁶ readings cost with subsession analysis in a release build is measured
/// by `cargo bench -p pilot --bench analysis` (`analysis_1e6`). Memory: O(n).
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
    let mean = |lo: usize, hi: usize| crate::summary::mean(&xs[lo..hi]);
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
