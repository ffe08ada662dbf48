//! What the code each run ran says of a bench's changes. `cargo pilot bench` records each run's
//! executable by a digest of the code and data it loads: two runs of one digest ran the same
//! code, so a level change between them is the machine's (a host state that held one workload,
//! a neighbour), whatever its size ([`ruled_out`], [`returns`]). A commit that changes nothing
//! the bench is built from (documentation, CI, another crate, a comment that moves no line of
//! code) leaves the digest as it was. And where the digest changed, the code may have: there a
//! change is tested rather than searched for ([`at_new_code`]).
//!
//! Assumes what a bench reads at run time is built into it or unchanged: a bench that reads a
//! data file a commit changed runs the same executable on other input.

use std::collections::HashSet;

use pilot_stats::split_test;
use pilot_stats::summary::median;

use super::{Axis, FoundChange};
use crate::history::Series;
use crate::history::changes::{ChangeOptions, MIN_SEGMENT, found, imprecise};

/// The digest of the executable that measured each of member `m`'s values: the one digest of
/// the runs that count there and recorded one (a clean tree's commit is its code; a run of
/// `history add` or `bisect` there recorded none), `None` where none did or two differ. Time:
/// O(p + n) for p points and n values.
pub(super) fn digests<'a>(
    all: &'a [Series],
    members: &[usize],
    axis: &Axis,
    m: usize,
) -> Vec<Option<&'a str>> {
    let vals = &axis.vals[m];
    let value_at: std::collections::HashMap<usize, usize> =
        vals.iter().enumerate().map(|(k, v)| (v.0, k)).collect();
    // Per value: no run yet, one digest, or runs that disagree.
    let mut seen: Vec<Option<Option<&str>>> = vec![None; vals.len()];
    for (place, p) in axis.places[m].iter().zip(&all[members[m]].points) {
        let (Some(pos), Some(d)) = (place, p.executable.as_deref()) else {
            continue;
        };
        let Some(&k) = value_at.get(pos) else {
            continue;
        };
        seen[k] = match seen[k] {
            None => Some(Some(d)),
            Some(Some(first)) if first == d => Some(Some(first)),
            _ => Some(None),
        };
    }
    seen.into_iter().map(Option::flatten).collect()
}

/// Whether a change at value `at` of a series whose values' digests are `digests` is ruled out:
/// the values from two before it to one after it (those the series has) were measured by one
/// executable, so neither the commit it is named at nor one on either side of it (where a noisy
/// series may have placed a change of the code) changed the bench's code.
pub(super) fn ruled_out(digests: &[Option<&str>], at: usize) -> bool {
    let window = &digests[at.saturating_sub(2)..(at + 2).min(digests.len())];
    window[0].is_some() && window.iter().all(|d| *d == window[0])
}

/// Whether `later`, the change after `earlier`, brings the bench back to the level before
/// `earlier`: the reverse of `earlier`'s shift lies in `later`'s interval. When the executable
/// rules out either end, the simplest account of the two is one excursion of the machine,
/// rather than a code change that the machine undid (or mimicked) by chance.
pub(super) fn returns(earlier: &FoundChange, later: &FoundChange) -> bool {
    let Some((lo, hi)) = later.change_ci else {
        return false;
    };
    let back = -earlier.change.ln_1p();
    earlier.change * later.change < 0.0 && lo.ln_1p() <= back && back <= hi.ln_1p()
}

/// The changes of member `m` that the search missed where its code changed: at each place its
/// digest changes, between two runs of one digest each (within one of the machine's segments,
/// `segment` of a value's index) of at least [`MIN_SEGMENT`] commits (a run left out as too
/// imprecise counts as its commit), with no change `found_already` within a value of it,
/// Student's t-test of the two runs' values, its spread never taken below the bench's
/// run-to-run spread over its whole history (two or three runs that happen to agree say little
/// of a bench whose runs move between modes). The splits are given by the code, not searched
/// for among every commit: each p is its own times the places tested (Bonferroni's bound), and
/// a change is kept under `options.max_p` and larger than `options.noise`, as the search's. A
/// level of three commits between two new executables (a change soon reverted, or changed
/// again) is one the search over every split can miss, and one the digests place exactly;
/// where new executables come at most commits, the runs between them are too short to test,
/// and the search alone reads the series. Time: O(n·f) for n values and f changes found.
pub(super) fn at_new_code(
    (all, members, axis): (&[Series], &[usize], &Axis),
    m: usize,
    segment: &dyn Fn(usize) -> usize,
    (digests, found_already): (&[Option<&str>], &[FoundChange]),
    options: &ChangeOptions,
) -> Vec<FoundChange> {
    if digests.iter().all(Option::is_none) {
        return Vec::new();
    }
    let points = &all[members[m]].points;
    let vals: Vec<(usize, f64)> = axis.vals[m].iter().map(|v| (v.1, v.2)).collect();
    // Runs of one known digest within one of the machine's segments: (first, end) values.
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for k in 0..vals.len() {
        match runs.last_mut() {
            Some(r)
                if digests[k].is_some()
                    && digests[k] == digests[r.0]
                    && segment(k) == segment(r.0) =>
            {
                r.1 = k + 1;
            }
            _ => runs.push((k, k + 1)),
        }
    }
    let left_out = imprecise(points);
    // Commits in the run [first, end): each value's, and each of the run's digest left out
    // before the next value.
    let commits = |(first, end): (usize, usize)| {
        let until = vals.get(end).map_or(points.len(), |v| v.0);
        let more: HashSet<&Option<String>> = (vals[first].0..until)
            .filter(|&i| left_out[i] && points[i].executable.as_deref() == digests[first])
            .map(|i| &points[i].commit)
            .collect();
        end - first + more.len()
    };
    let near_found = |k: usize| {
        found_already.iter().any(|f| {
            vals.iter()
                .position(|v| v.0 == f.point)
                .is_some_and(|j| j.abs_diff(k) <= 1)
        })
    };
    let spread = run_to_run(&vals, digests);
    let side = |(first, end): (usize, usize)| -> Vec<f64> {
        vals[first..end].iter().map(|v| v.1).collect()
    };
    let tested: Vec<pilot_stats::LevelChange> = runs
        .windows(2)
        .filter(|w| {
            digests[w[0].0].is_some()
                && digests[w[1].0].is_some()
                && segment(w[0].0) == segment(w[1].0)
                && !near_found(w[1].0)
                && commits(w[0]) >= MIN_SEGMENT
                && commits(w[1]) >= MIN_SEGMENT
                && w[1].1 - w[0].0 > 2
        })
        .filter_map(|w| split_test(w[1].0, (&side(w[0]), &side(w[1])), spread, 0.95).ok())
        .collect();
    let places = tested.len() as f64;
    tested
        .into_iter()
        .map(|c| pilot_stats::LevelChange {
            p: (c.p * places).min(1.0),
            ..c
        })
        .filter(|c| c.p < options.max_p && c.shift().abs() > options.noise.ln_1p())
        .map(|c| found(points, &vals, &c, &left_out))
        .collect()
}

/// The run-to-run spread of a series of values `vals` of the executables `digests`: the
/// median absolute difference of successive values of one digest / (0.6745 √2), robust to the
/// few level changes and odd runs a history has; 0 with fewer than [`MIN_SEGMENT`] such pairs.
fn run_to_run(vals: &[(usize, f64)], digests: &[Option<&str>]) -> f64 {
    let steps: Vec<f64> = (1..vals.len())
        .filter(|&k| digests[k].is_some() && digests[k] == digests[k - 1])
        .map(|k| (vals[k].1 - vals[k - 1].1).abs())
        .collect();
    if steps.len() < MIN_SEGMENT {
        return 0.0;
    }
    median(&steps) / (0.6745 * std::f64::consts::SQRT_2)
}
