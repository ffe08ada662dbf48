//! A split found by searching, tested as one: the p of the best of a segment's splits.

/// The p of a split that a search chose among every split of a segment: an upper bound on the
/// chance that, with no change in the segment, some split of its `n` values with at least
/// `min_segment` at each side has a t-test's p at most `p`.
///
/// The t-test of the chosen split alone counts one test of many as if it were the only one:
/// with no change at all, the best of a segment's splits has a small p far more often than `p`
/// says. This is Bonferroni's bound over the `n − 2·min_segment + 1` splits the search could
/// choose, `min(1, splits·p)`: valid whatever their dependence, and conservative, since
/// neighbouring splits share all but one value. (The exact null distribution of the largest
/// two-sample t over the splits, for normal values, is Hawkins's, "Testing a sequence of
/// observations for a shift in location", JASA 1977: a recursion over the splits, tabulated
/// for a few fractiles, where a change kept over a whole suite needs the far tail.)
///
/// Assumes `p` is the two-sided p of a split's two-sample t-test. Time: O(1).
pub fn searched_p(p: f64, n: usize, min_segment: usize) -> f64 {
    let splits = (n + 1).saturating_sub(2 * min_segment.max(1)).max(1);
    (p * splits as f64).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_counts_every_split_the_search_could_choose() {
        // 30 values with 3 at each side: splits at 3, 4, …, 27.
        assert!((searched_p(1e-4, 30, 3) - 25e-4).abs() < 1e-15);
        // A segment with one admissible split is that split's own test; the bound is a p.
        assert_eq!(searched_p(0.01, 6, 3), 0.01);
        assert_eq!(searched_p(0.01, 4, 3), 0.01);
        assert_eq!(searched_p(0.2, 60, 3), 1.0);
        assert_eq!(searched_p(0.0, 60, 3), 0.0);
    }
}
