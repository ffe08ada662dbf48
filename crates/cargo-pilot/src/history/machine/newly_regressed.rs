//! The slowdown a history's newest commit made known: what `cargo pilot changes` exits 3 on.

use super::{Analysis, analyse};
use crate::history::changes::{ChangeOptions, FoundChange, values};
use crate::history::read::Series;

/// Per series, its newest named change when it is a slowdown that its newest commit made
/// known: the series without that commit's runs (every series of the selection without
/// theirs, so that the machine is read as before) shows no slowdown, named or the machine's,
/// starting within a commit of it. What `cargo pilot changes` exits 3 on, once, on the commit
/// whose run found it.
pub fn newly_regressed(
    all: &[Series],
    now: &Analysis,
    options: &ChangeOptions,
) -> Vec<Option<FoundChange>> {
    let newest = |s: &Series| -> Option<Option<String>> {
        let (i, _) = *values(&s.points).last()?;
        Some(s.points[i].commit.clone())
    };
    let earlier: Vec<Series> = all
        .iter()
        .map(|s| {
            let last = newest(s);
            Series {
                points: s
                    .points
                    .iter()
                    .filter(|p| last.as_ref().is_none_or(|c| c.is_none() || p.commit != *c))
                    .cloned()
                    .collect(),
                ..s.clone()
            }
        })
        .collect();
    let before = analyse(&earlier, options);
    (0..all.len())
        .map(|i| {
            let change = now.named[i].last()?.clone();
            if !change.is_regression() {
                return None;
            }
            // Compared by commit: the two series number their points differently.
            let order: Vec<Option<String>> = values(&all[i].points)
                .iter()
                .map(|v| all[i].points[v.0].commit.clone())
                .collect();
            let rank = |commit: &Option<String>| order.iter().position(|c| c == commit);
            let at = rank(&change.commit)?;
            let explained = before
                .machine
                .iter()
                .flat_map(|m| m.explains.iter().filter(|(j, _)| *j == i).map(|(_, c)| c));
            let seen = before.named[i]
                .iter()
                .chain(explained)
                .any(|k| k.is_regression() && rank(&k.commit).is_some_and(|r| r.abs_diff(at) <= 1));
            (!seen).then_some(change)
        })
        .collect()
}
