//! A group's ranking in the working tree. Under `--against` every member runs in processes of
//! its own (each member is compared with itself across the two builds), so the members are
//! ranked from those processes: Welch's t over their process estimates, pair by pair.

use std::collections::BTreeMap;
use std::path::Path;

use pilot_engine::compare::{CompareOptions, Verdict, compare_estimates};
use pilot_engine::report::{columns, format_estimate};
use pilot_engine::store::SavedEstimate;
use pilot_format::ResultDoc;

use crate::cargo::{self, BenchExe};

/// The ranking of every group of the working tree with two or more measured members, as
/// text; empty without groups.
pub fn rankings(exes: &[BenchExe], docs: &[ResultDoc], options: &CompareOptions) -> String {
    let mut groups: BTreeMap<(String, String), Vec<(String, SavedEstimate)>> = BTreeMap::new();
    for exe in exes {
        let target = pilot_engine::store::bench_target_of(&exe.path);
        for (group, name) in cargo::groups(&exe.path) {
            // Members of one run compared with each other: the machine's run-to-run
            // variation is not between them (their documents learn none; said here too).
            let time = docs
                .iter()
                .find(|d| d.target == target && d.name == name)
                .and_then(|d| pilot_engine::store::from_document(d, Path::new(&name)).ok())
                .and_then(|r| r.time)
                .map(|t| SavedEstimate {
                    run_to_run: None,
                    ..t
                });
            if let Some(time) = time {
                groups
                    .entry((target.clone(), group))
                    .or_default()
                    .push((name, time));
            }
        }
    }
    let mut out = String::new();
    for ((target, group), mut members) in groups {
        if members.len() < 2 {
            continue;
        }
        members.sort_by(|a, b| a.1.mean.total_cmp(&b.1.mean));
        let mut rows = Vec::new();
        for (i, (name, e)) in members.iter().enumerate() {
            let (vs, p, verdict) = match i.checked_sub(1).map(|j| &members[j]) {
                None => (String::new(), String::new(), String::new()),
                Some((prev, pe)) => {
                    let c = compare_estimates(pe, e, options);
                    let ratio = |x: f64| format!("{:.3}", 1.0 + x);
                    let vs = match c.change_ci {
                        Some((lo, hi)) => format!(
                            "{}× [{}, {}] vs {prev}",
                            ratio(c.change),
                            ratio(lo),
                            ratio(hi)
                        ),
                        None => format!("{}× vs {prev}", ratio(c.change)),
                    };
                    // Read in this member's row, against the one before it, as a group's
                    // ranking reads (`schema::row_verdict`).
                    let verdict = match c.verdict {
                        Verdict::Regressed | Verdict::Improved => "slower",
                        Verdict::NoChange => "equivalent",
                        _ => "undecided",
                    };
                    (vs, format!("{:.4}", c.p), verdict.to_string())
                }
            };
            rows.push(vec![
                (i + 1).to_string(),
                name.clone(),
                format_estimate(e.mean, e.low, e.high),
                vs,
                p,
                verdict,
            ]);
        }
        let header: Vec<String> = ["#", "bench", "time per unit", "vs previous", "p", "verdict"]
            .map(String::from)
            .to_vec();
        out.push_str(&format!(
            "\ngroup `{group}` ({target}) in the working tree, ranked from its members' own \
             processes (Welch's t over their process estimates; `faster`: the member above is \
             faster):\n{}",
            columns(&header, &rows, &[1, 3, 5], "")
        ));
    }
    out
}
