//! Changes a bench's executable rules out. `cargo pilot bench` records each run's executable by
//! its digest: two runs of one executable ran the same code, so a level change between them is
//! the machine's (a host state that held one workload, a neighbour), whatever its size. A commit
//! that changes no code the bench is built from (documentation, CI, another crate, a comment
//! after the last item) leaves the executable as it was.
//!
//! Assumes what a bench reads at run time is built into it or unchanged: a bench that reads a
//! data file a commit changed runs the same executable on other input.

use super::{Axis, FoundChange};
use crate::history::Series;

/// The digest of the executable that measured member `m`'s value at `k`: the one digest of the
/// runs that count there and recorded one (a clean tree's commit is its code; a run of
/// `history add` or `bisect` there recorded none), `None` when none did or two differ.
fn executable<'a>(
    all: &'a [Series],
    members: &[usize],
    axis: &Axis,
    (m, k): (usize, usize),
) -> Option<&'a str> {
    let pos = axis.vals[m].get(k)?.0;
    let points = &all[members[m]].points;
    let mut digests = axis.places[m]
        .iter()
        .zip(points)
        .filter(|(place, _)| **place == Some(pos))
        .filter_map(|(_, p)| p.executable.as_deref());
    let first = digests.next()?;
    digests.all(|d| d == first).then_some(first)
}

/// Whether member `m`'s change at its value `at` is ruled out: the values from two before it
/// to one after it (those the series has) were measured by one executable, so neither the
/// commit it is named at nor one on either side of it (where a noisy series may have placed a
/// change of the code) changed the bench's code.
pub(super) fn ruled_out(
    all: &[Series],
    members: &[usize],
    axis: &Axis,
    (m, at): (usize, usize),
) -> bool {
    let end = (at + 2).min(axis.vals[m].len());
    let from = at.saturating_sub(2);
    let Some(first) = executable(all, members, axis, (m, from)) else {
        return false;
    };
    (from + 1..end).all(|k| executable(all, members, axis, (m, k)) == Some(first))
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
