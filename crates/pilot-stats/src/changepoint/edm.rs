//! E-Divisive with Medians in its penalised multi-change form, as Twitter's BreakoutDetection
//! computes it (`EDM_multi`), and the median helpers it needs.

use super::{ChangepointConfig, validate};
use crate::error::{Result, check_finite};

/// Change points of `xs` by E-Divisive with Medians, penalised multi-change form: the exact
/// computation of BreakoutDetection's `EDM_multi` behind its R and Python `breakout(..,
/// method = 'multi')` wrappers (James, Kejariwal and Matteson, "Leveraging cloud data to
/// mitigate user experience from 'breaking bad'", 2014; arXiv:1411.7955).
///
/// Method: the values are rescaled to [0, 1] by their minimum and maximum (a constant series has
/// no change point). A dynamic programme over prefixes then picks, for each prefix length `s`,
/// the last change point `t` maximising
/// `F[t] + (t − p)(s − t)/(s − p)² · (median(x[p..t]) − median(x[t..s]))² − β·G(k)`,
/// where `p` is the best previous change point of the prefix `t`, `k` the number of change points
/// that prefix already has and `G` the penalty's degree (0: `G = 0`, 1: `G = 1`, 2: `G = 2k + 1`).
/// Every segment holds at least `min_segment` values. Ties go to the earliest `t`, as in the
/// reference, and the values computed are bit-for-bit the reference's.
///
/// Index convention: a change point `c` is the 0-based index of the first value of a new segment
/// (`x[..c]` and `x[c..]` lie on different sides). The reference returns the same numbers: its
/// `loc` is the length of the prefix before the change, which R's 1-based plotting code reads as
/// the last index of the old segment; no shift is needed between the two.
///
/// Returns the change points ascending; empty for fewer than `2 · min_segment` values. Errors:
/// [`Error::NotFinite`](crate::Error::NotFinite) for NaN or infinite values,
/// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for `min_segment < 2`, a negative
/// or non-finite `beta` (the reference silently takes `|β|`) or `degree > 2`.
///
/// Time: O(n²) (for each prefix, the medians of all its admissible right segments by deletion
/// from a list in rank order, after an O(n log n) ranking); memory O(n). Use it as the reference form on a few thousand values
/// at most; [`find_stable_segment`](super::find_stable_segment) compresses long series first.
pub fn edm_multi(xs: &[f64], config: &ChangepointConfig) -> Result<Vec<usize>> {
    check_finite(xs)?;
    validate(config)?;
    Ok(edm_multi_unchecked(xs, config))
}

/// [`edm_multi`] on finite values with a valid configuration.
pub(super) fn edm_multi_unchecked(xs: &[f64], config: &ChangepointConfig) -> Vec<usize> {
    let (lo, hi) = min_max(xs);
    edm_multi_rescaled(xs, lo, hi, config)
}

/// The least and the greatest of `xs` (±∞ reversed when empty).
pub(super) fn min_max(xs: &[f64]) -> (f64, f64) {
    xs.iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        })
}

/// [`edm_multi`] on `xs` rescaled by `(x − lo)/(hi − lo)` for given bounds: the series' own
/// extremes for the reference form, the raw readings' extremes when `xs` are block medians of
/// them (so that the penalty weighs a shift exactly as it would on the raw readings).
pub(super) fn edm_multi_rescaled(
    xs: &[f64],
    lo: f64,
    hi: f64,
    config: &ChangepointConfig,
) -> Vec<usize> {
    let m = config.min_segment;
    let range = hi - lo;
    if xs.len() < 2 * m || range.is_nan() || range <= 0.0 {
        return Vec::new();
    }
    let z: Vec<f64> = if range.is_finite() {
        xs.iter().map(|&x| (x - lo) / range).collect()
    } else {
        // Extremes more than f64::MAX apart: halve everything first so nothing overflows.
        let half_range = hi / 2.0 - lo / 2.0;
        xs.iter()
            .map(|&x| (x / 2.0 - lo / 2.0) / half_range)
            .collect()
    };
    penalised_segmentation(&z, m, config.beta, config.degree)
}

/// The dynamic programme of `EDM_multi` on already rescaled values `z` (n ≥ 2m).
fn penalised_segmentation(z: &[f64], m: usize, beta: f64, degree: u32) -> Vec<usize> {
    let n = z.len();
    // best[s]: optimal statistic of the prefix z[..s]; prev[s]: its last change point (0 for
    // none); count[s]: how many change points it has. A prefix without change scores −3, the
    // reference's starting value, so only a segmentation gaining more than its penalties wins.
    let mut best = vec![-3.0_f64; n + 1];
    let mut prev = vec![0_usize; n + 1];
    let mut count = vec![0_u32; n + 1];
    // left_median[t] = median(z[prev[t]..t)): fixed once prev[t] is, so computed once per t.
    let mut left_median = vec![0.0_f64; n + 1];
    let mut scratch = Vec::with_capacity(n);
    for t in m..2 * m {
        left_median[t] = median_in(&z[..t], &mut scratch);
    }
    let penalty = |k: u32| -> f64 {
        let g = match degree {
            0 => 0.0,
            1 => 1.0,
            _ => 2.0 * f64::from(k) + 1.0,
        };
        beta * g
    };
    let mut right = SuffixMedians::new(z);
    let mut scores = vec![0.0_f64; n + 1];
    for s in 2 * m..=n {
        // The right segments z[t..s) for t = m up to s − m, and their medians.
        let medians = right.of(m, s, s - m);
        for t in m..=s - m {
            let p = prev[t];
            let normalise = ((t - p) * (s - t)) as f64 / {
                let span = (s - p) as f64;
                span * span
            };
            let diff = left_median[t] - medians[t - m];
            scores[t] = best[t] + normalise * (diff * diff) - penalty(count[t]);
        }
        for t in m..=s - m {
            if scores[t] > best[s] {
                best[s] = scores[t];
                prev[s] = t;
                count[s] = count[t] + 1;
            }
        }
        if s + m <= n {
            left_median[s] = median_in(&z[prev[s]..s], &mut scratch);
        }
    }
    let mut changes = Vec::new();
    let mut at = n;
    while at > 0 {
        if prev[at] > 0 {
            changes.push(prev[at]);
        }
        at = prev[at];
    }
    changes.reverse();
    changes
}

/// The medians of the segments `z[t..s)` that start at `t = lo, …, hi` and end at one `s`,
/// for the dynamic programme's inner loop. The values are ranked once (by
/// [`f64::total_cmp`], ties by position); for each `s`, the values of `z[lo..s)` are linked in
/// rank order and dropped from the front one by one, the median's place moving at most one
/// link per drop (the sliding-window median by deletion from a sorted list). Time: O(n log n)
/// once, then O(n) per `s`: O(n²) for the programme, against O(n² log n) for pushing each
/// segment's values into a two-heap running median, as the programme did before. The medians
/// are the same values: the median of a multiset does not depend on how ties are ordered, and
/// an even count's is `(lower + upper) / 2` as before.
struct SuffixMedians<'a> {
    z: &'a [f64],
    /// Positions of `z` in rank order.
    order: Vec<usize>,
    /// Rank of each position of `z`.
    rank: Vec<usize>,
    /// The links of the ranks present, with a sentinel at `n` before the first and after the
    /// last.
    next: Vec<usize>,
    prev: Vec<usize>,
    medians: Vec<f64>,
}

impl<'a> SuffixMedians<'a> {
    fn new(z: &'a [f64]) -> Self {
        let n = z.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| z[a].total_cmp(&z[b]).then(a.cmp(&b)));
        let mut rank = vec![0; n];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r;
        }
        SuffixMedians {
            z,
            order,
            rank,
            next: vec![0; n + 1],
            prev: vec![0; n + 1],
            medians: Vec::with_capacity(n),
        }
    }

    /// The value of rank `r`.
    fn at(&self, r: usize) -> f64 {
        self.z[self.order[r]]
    }

    /// The medians of `z[t..s)` for `t = lo..=hi` (`lo ≤ hi < s`), in that order.
    fn of(&mut self, lo: usize, s: usize, hi: usize) -> &[f64] {
        let sentinel = self.z.len();
        // Link the ranks of the positions in lo..s, in rank order.
        let mut last = sentinel;
        for r in 0..self.order.len() {
            if (lo..s).contains(&self.order[r]) {
                self.next[last] = r;
                self.prev[r] = last;
                last = r;
            }
        }
        self.next[last] = sentinel;
        self.prev[sentinel] = last;
        // `mid`: the lower middle rank, at place `(count − 1) / 2` of the list.
        let mut count = s - lo;
        let mut mid = self.next[sentinel];
        let mut place = 0;
        while place < (count - 1) / 2 {
            mid = self.next[mid];
            place += 1;
        }
        self.medians.clear();
        for t in lo..=hi {
            let median = if count % 2 == 1 {
                self.at(mid)
            } else {
                (self.at(mid) + self.at(self.next[mid])) / 2.0
            };
            self.medians.push(median);
            if t == hi {
                break;
            }
            // Drop z[t]: the middle keeps its place unless a value before it leaves.
            let r = self.rank[t];
            if r == mid {
                mid = self.next[mid];
            } else if r < mid {
                place -= 1;
            }
            let (before, after) = (self.prev[r], self.next[r]);
            self.next[before] = after;
            self.prev[after] = before;
            count -= 1;
            let want = (count - 1) / 2;
            if place > want {
                mid = self.prev[mid];
                place -= 1;
            } else if place < want {
                mid = self.next[mid];
                place += 1;
            }
        }
        &self.medians
    }
}

/// Median of `xs` (mean of the two middle values for an even count) by selection, using
/// `scratch` as the working copy. NaN when empty. Time: O(n).
pub(super) fn median_in(xs: &[f64], scratch: &mut Vec<f64>) -> f64 {
    let n = xs.len();
    if n == 0 {
        return f64::NAN;
    }
    scratch.clear();
    scratch.extend_from_slice(xs);
    let (below, &mut mid, _) = scratch.select_nth_unstable_by(n / 2, f64::total_cmp);
    if n % 2 == 1 {
        mid
    } else {
        let lower = below.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (lower + mid) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::{Ordering, Reverse};
    use std::collections::BinaryHeap;

    /// A finite `f64` ordered by [`f64::total_cmp`], for the heaps.
    #[derive(Debug, Clone, Copy)]
    struct Ordered(f64);

    impl PartialEq for Ordered {
        fn eq(&self, other: &Self) -> bool {
            self.cmp(other) == Ordering::Equal
        }
    }

    impl Eq for Ordered {}

    impl PartialOrd for Ordered {
        fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
            Some(self.cmp(other))
        }
    }

    impl Ord for Ordered {
        fn cmp(&self, other: &Self) -> Ordering {
            self.0.total_cmp(&other.0)
        }
    }

    /// The median of a growing multiset: a max-heap of the lower half and a min-heap of the upper
    /// half, the lower half holding the extra value when the count is odd. Insert O(log n), median
    /// O(1). The median of an even count is the mean of the two middle values.
    #[derive(Debug, Default)]
    struct RunningMedian {
        lower: BinaryHeap<Ordered>,
        upper: BinaryHeap<Reverse<Ordered>>,
    }

    impl RunningMedian {
        fn with_capacity(n: usize) -> Self {
            RunningMedian {
                lower: BinaryHeap::with_capacity(n / 2 + 1),
                upper: BinaryHeap::with_capacity(n / 2 + 1),
            }
        }

        fn extend(&mut self, xs: &[f64]) {
            for &x in xs {
                self.push(x);
            }
        }

        fn push(&mut self, x: f64) {
            match self.lower.peek() {
                Some(&Ordered(top)) if x > top => self.upper.push(Reverse(Ordered(x))),
                _ => self.lower.push(Ordered(x)),
            }
            if self.lower.len() > self.upper.len() + 1 {
                let moved = self.lower.pop().expect("lower half is not empty");
                self.upper.push(Reverse(moved));
            } else if self.upper.len() > self.lower.len() {
                let Reverse(moved) = self.upper.pop().expect("upper half is not empty");
                self.lower.push(moved);
            }
        }

        /// The median; NaN when empty.
        fn median(&self) -> f64 {
            match (self.lower.peek(), self.upper.peek()) {
                (Some(lo), Some(Reverse(hi))) if self.lower.len() == self.upper.len() => {
                    (lo.0 + hi.0) / 2.0
                }
                (Some(lo), _) => lo.0,
                _ => f64::NAN,
            }
        }
    }

    fn cfg(min_segment: usize) -> ChangepointConfig {
        ChangepointConfig {
            min_segment,
            ..ChangepointConfig::default()
        }
    }

    #[test]
    fn running_median_matches_sorting() {
        let xs = [5.0, 1.0, 4.0, 4.0, -2.0, 9.0, 0.5, 3.0];
        let mut rm = RunningMedian::default();
        let mut scratch = Vec::new();
        for k in 1..=xs.len() {
            rm.push(xs[k - 1]);
            let mut sorted = xs[..k].to_vec();
            sorted.sort_by(f64::total_cmp);
            let want = if k % 2 == 1 {
                sorted[k / 2]
            } else {
                (sorted[k / 2 - 1] + sorted[k / 2]) / 2.0
            };
            assert_eq!(rm.median(), want, "k = {k}");
            assert_eq!(median_in(&xs[..k], &mut scratch), want, "k = {k}");
        }
    }

    /// The medians of every right segment, as the dynamic programme took them before
    /// [`SuffixMedians`]: z[t..s) for t = s − m down to m, pushed into a running median.
    fn medians_by_heaps(z: &[f64], m: usize, s: usize) -> Vec<f64> {
        let mut right = RunningMedian::with_capacity(z.len());
        right.extend(&z[s - m + 1..s]);
        let mut out = vec![0.0; s - 2 * m + 1];
        for t in (m..=s - m).rev() {
            right.push(z[t]);
            out[t - m] = right.median();
        }
        out
    }

    /// Series with many ties and a few levels, as block medians of readings at a clock's
    /// resolution are, and series of distinct values.
    fn series(seed: u64, n: usize) -> Vec<f64> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let steps = rng.random_range(1..6);
        (0..n)
            .map(|i| {
                let level = (i * steps / n.max(1)) as f64;
                if seed.is_multiple_of(2) {
                    level + f64::from(rng.random_range(0..4_u8))
                } else {
                    level + rng.random::<f64>()
                }
            })
            .collect()
    }

    #[test]
    fn suffix_medians_are_the_running_medians_bit_for_bit() {
        for seed in 0..40 {
            let n = 20 + (seed as usize * 37) % 200;
            let z = series(seed, n);
            let mut right = SuffixMedians::new(&z);
            for m in [2, 3, 7] {
                for s in 2 * m..=n {
                    let got = right.of(m, s, s - m).to_vec();
                    let want = medians_by_heaps(&z, m, s);
                    let same = got
                        .iter()
                        .zip(&want)
                        .all(|(a, b)| a.to_bits() == b.to_bits());
                    assert!(same && got.len() == want.len(), "seed {seed}, m {m}, s {s}");
                }
            }
        }
    }

    #[test]
    fn the_programme_finds_the_change_points_it_found_with_heaps() {
        /// The dynamic programme as it was, right medians by heaps.
        fn by_heaps(z: &[f64], m: usize, beta: f64, degree: u32) -> Vec<usize> {
            let n = z.len();
            let mut best = vec![-3.0_f64; n + 1];
            let mut prev = vec![0_usize; n + 1];
            let mut count = vec![0_u32; n + 1];
            let mut left_median = vec![0.0_f64; n + 1];
            let mut scratch = Vec::new();
            for t in m..2 * m {
                left_median[t] = median_in(&z[..t], &mut scratch);
            }
            let g = |k: u32| match degree {
                0 => 0.0,
                1 => 1.0,
                _ => 2.0 * f64::from(k) + 1.0,
            };
            let mut scores = vec![0.0_f64; n + 1];
            for s in 2 * m..=n {
                let medians = medians_by_heaps(z, m, s);
                for t in (m..=s - m).rev() {
                    let p = prev[t];
                    let span = (s - p) as f64;
                    let normalise = ((t - p) * (s - t)) as f64 / (span * span);
                    let diff = left_median[t] - medians[t - m];
                    scores[t] = best[t] + normalise * (diff * diff) - beta * g(count[t]);
                }
                for t in m..=s - m {
                    if scores[t] > best[s] {
                        best[s] = scores[t];
                        prev[s] = t;
                        count[s] = count[t] + 1;
                    }
                }
                if s + m <= n {
                    left_median[s] = median_in(&z[prev[s]..s], &mut scratch);
                }
            }
            let mut changes = Vec::new();
            let mut at = n;
            while at > 0 {
                if prev[at] > 0 {
                    changes.push(prev[at]);
                }
                at = prev[at];
            }
            changes.reverse();
            changes
        }
        for seed in 0..30 {
            let z = series(seed, 60 + (seed as usize * 53) % 300);
            let (lo, hi) = min_max(&z);
            let scaled: Vec<f64> = z.iter().map(|&x| (x - lo) / (hi - lo)).collect();
            for (m, beta, degree) in [(5, 0.008, 1), (10, 0.001, 0), (24, 0.008, 2)] {
                if scaled.len() < 2 * m {
                    continue;
                }
                assert_eq!(
                    penalised_segmentation(&scaled, m, beta, degree),
                    by_heaps(&scaled, m, beta, degree),
                    "seed {seed}, m {m}"
                );
            }
        }
    }

    #[test]
    fn clean_step_is_found_where_the_new_level_starts() {
        // x[200] is the first value of the new level: the change point is 200, as the
        // reference returns for the same input.
        let xs: Vec<f64> = (0..400).map(|i| if i < 200 { 0.0 } else { 1.0 }).collect();
        assert_eq!(edm_multi(&xs, &cfg(30)).unwrap(), vec![200]);
    }

    #[test]
    fn two_steps_by_hand() {
        // Levels 0 | 1 | 0 of 40 values each, min segment 10: two changes.
        let xs: Vec<f64> = (0..120)
            .map(|i| if (40..80).contains(&i) { 1.0 } else { 0.0 })
            .collect();
        assert_eq!(edm_multi(&xs, &cfg(10)).unwrap(), vec![40, 80]);
    }

    #[test]
    fn no_change_in_constant_short_or_empty_series() {
        assert!(edm_multi(&[], &cfg(30)).unwrap().is_empty());
        assert!(edm_multi(&[7.0; 100], &cfg(30)).unwrap().is_empty());
        let short: Vec<f64> = (0..59).map(|i| if i < 30 { 0.0 } else { 1.0 }).collect();
        assert!(edm_multi(&short, &cfg(30)).unwrap().is_empty());
    }

    #[test]
    fn a_step_smaller_than_the_penalty_is_ignored() {
        // A jump of 0.1 on [0, 1]-scaled data between halves scores 0.25 · 0.1² = 0.0025 < β,
        // but the single outlier of 1.0 fixes the scale.
        let mut xs: Vec<f64> = (0..200).map(|i| if i < 100 { 0.0 } else { 0.1 }).collect();
        xs[150] = 1.0;
        assert!(edm_multi(&xs, &cfg(30)).unwrap().is_empty());
    }

    #[test]
    fn rejects_bad_input() {
        assert!(edm_multi(&[1.0, f64::NAN], &cfg(30)).is_err());
        assert!(edm_multi(&[1.0, 2.0], &cfg(1)).is_err());
        let bad_beta = ChangepointConfig {
            beta: -1.0,
            ..ChangepointConfig::default()
        };
        assert!(edm_multi(&[1.0, 2.0], &bad_beta).is_err());
        let bad_degree = ChangepointConfig {
            degree: 3,
            ..ChangepointConfig::default()
        };
        assert!(edm_multi(&[1.0, 2.0], &bad_degree).is_err());
    }
}
