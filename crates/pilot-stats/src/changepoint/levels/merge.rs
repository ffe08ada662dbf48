//! Hunter's merge step: each change tested against its neighbours, the weakest dropped until
//! every one left passes; and, where asked, the splits it dropped tested again against the
//! changes it kept.

use super::{LevelChange, LevelChangeConfig, Tested, test_sides};
use crate::changepoint::search::searched_p;

/// The change at `cps[i]` tested against its neighbours `cps[i − 1]` and `cps[i + 1]`.
pub(super) fn retest(
    xs: &[f64],
    cps: &[(usize, f64)],
    i: usize,
    config: &LevelChangeConfig,
    tested: Tested,
) -> LevelChange {
    let lo = if i == 0 { 0 } else { cps[i - 1].0 };
    let hi = cps.get(i + 1).map_or(xs.len(), |c| c.0);
    let (at, qhat) = cps[i];
    let mut c = test_sides(at, qhat, &xs[lo..at], &xs[at..hi], Some(config.confidence));
    if tested == Tested::Searched {
        c.p = searched_p(c.p, hi - lo, config.min_segment);
    }
    c
}

/// The merge step over the whole series.
pub(super) fn merge(
    xs: &[f64],
    weak: Vec<(usize, f64)>,
    config: &LevelChangeConfig,
    how: Tested,
) -> Vec<LevelChange> {
    let mut cps = weak;
    let mut tested: Vec<LevelChange> = (0..cps.len())
        .map(|i| retest(xs, &cps, i, config, how))
        .collect();
    while !tested.is_empty() {
        let short = |c: &LevelChange| too_short(c, config);
        // The weakest: a change with a side too short (the greatest p among them), else the
        // one with the greatest p when it is not significant, else the least shift when it is
        // not above the least. Ties go to the first, as Python's max and min do.
        let pick = |cands: &mut dyn Iterator<Item = usize>, key: &dyn Fn(usize) -> f64| {
            cands.fold(None, |acc: Option<usize>, i| match acc {
                Some(a) if key(a) >= key(i) => Some(a),
                _ => Some(i),
            })
        };
        let by_p = |i: usize| tested[i].p;
        let weakest =
            if let Some(i) = pick(&mut (0..tested.len()).filter(|&i| short(&tested[i])), &by_p) {
                i
            } else {
                let i = pick(&mut (0..tested.len()), &by_p).expect("not empty");
                if tested[i].p < config.max_p {
                    let j = pick(&mut (0..tested.len()), &|i| -tested[i].shift().abs())
                        .expect("not empty");
                    if tested[j].shift().abs() > config.min_shift {
                        return tested;
                    }
                    j
                } else {
                    i
                }
            };
        cps.remove(weakest);
        tested.remove(weakest);
        for i in [weakest.wrapping_sub(1), weakest] {
            if i < cps.len() {
                tested[i] = retest(xs, &cps, i, config, how);
            }
        }
    }
    tested
}

/// Whether a side of change `c` is shorter than `min_segment`: in values, or (above 1) in
/// values nearer that side's mean than the other's. Time: O(1).
fn too_short(c: &LevelChange, config: &LevelChangeConfig) -> bool {
    c.n_before.min(c.n_after) < config.min_segment
        || (config.min_segment > 1 && c.support.0.min(c.support.1) < config.min_segment)
}

/// The merge step's `kept` changes with the splits of `weak` it dropped tested again: the
/// dropped split whose test against the kept changes beside it passes the merge step's rules
/// (both sides long enough, p below `max_p`, a shift above `min_shift`) with the least p comes
/// back, the merge step runs again over the changes so kept, and so on, each split at most
/// once. Time: O(s·(n + s·w)) for s splits over n values (each round retests the dropped
/// splits, O(n) each, and merges again).
pub(super) fn add_back(
    xs: &[f64],
    weak: &[(usize, f64)],
    mut kept: Vec<LevelChange>,
    config: &LevelChangeConfig,
    how: Tested,
) -> Vec<LevelChange> {
    let mut tried: Vec<usize> = Vec::new();
    loop {
        let cps: Vec<(usize, f64)> = kept.iter().map(|c| (c.index, c.qhat)).collect();
        let passes = |c: &LevelChange| {
            !too_short(c, config) && c.p < config.max_p && c.shift().abs() > config.min_shift
        };
        let best = weak
            .iter()
            .filter(|w| !tried.contains(&w.0) && !cps.iter().any(|c| c.0 == w.0))
            .filter_map(|&w| {
                let mut with = cps.clone();
                let i = with.partition_point(|c| c.0 < w.0);
                with.insert(i, w);
                let c = retest(xs, &with, i, config, how);
                passes(&c).then_some((w, c.p))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1));
        let Some((w, _)) = best else {
            return kept;
        };
        tried.push(w.0);
        let mut with = cps;
        let i = with.partition_point(|c| c.0 < w.0);
        with.insert(i, w);
        kept = merge(xs, with, config, how);
    }
}
