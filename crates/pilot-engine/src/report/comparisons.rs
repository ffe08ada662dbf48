//! Comparisons with a baseline as a terminal table, a Markdown table (for pull-request
//! comments) and a `pilot.compare/1` JSON document.

use crate::compare::{CompareOptions, Comparison, PiChange, Verdict};
use crate::fmt::format_estimate;

mod document;
mod how;

pub use document::comparison_doc;

fn percent(x: f64) -> String {
    format!("{:+.2}%", 100.0 * x)
}

fn cells(c: &Comparison) -> [String; 7] {
    let time = |e: &Option<crate::store::SavedEstimate>| {
        e.as_ref()
            .map_or("-".to_string(), |e| format_estimate(e.mean, e.low, e.high))
    };
    let change = match (c.change, c.change_ci) {
        (Some(x), Some((lo, hi))) => format!("{} [{}, {}]", percent(x), percent(lo), percent(hi)),
        (Some(x), None) => format!("{} [unbounded]", percent(x)),
        _ => "-".to_string(),
    };
    let p = c.p.map_or("-".to_string(), crate::fmt::format_p);
    let adjusted = c.p_adjusted.map_or("-".to_string(), crate::fmt::format_p);
    [
        c.name.clone(),
        time(&c.base),
        time(&c.new),
        change,
        p,
        adjusted,
        c.verdict.as_str().to_string(),
    ]
}

/// The cells of a count's comparison: its own row under its bench's, named `bench · name`.
fn pi_cells(c: &Comparison, pi: &PiChange) -> [String; 7] {
    let count = |(mean, low, high): (f64, f64, f64)| {
        format!(
            "{} {}",
            crate::fmt::format_count_estimate(mean, low, high),
            pi.unit
        )
    };
    let change = match (pi.change, pi.change_ci) {
        (Some(x), Some((lo, hi))) if lo == hi => percent(x),
        (Some(x), Some((lo, hi))) => format!("{} [{}, {}]", percent(x), percent(lo), percent(hi)),
        (Some(x), None) => format!("{} [unbounded]", percent(x)),
        (None, _) => "from none".to_string(),
    };
    [
        format!("{} · {}", c.name, pi.name),
        count(pi.base),
        count(pi.new),
        change,
        pi.p.map_or("-".to_string(), crate::fmt::format_p),
        "-".to_string(),
        pi.verdict.as_str().to_string(),
    ]
}

/// One row of a comparison table: a bench's, or one of the counts per unit it compared.
struct Row {
    /// bench, baseline, new, change, p, p adjusted, verdict.
    cells: [String; 7],
    /// The verdict of the row's own measure.
    verdict: Verdict,
    /// The instruction cells (on a bench's row: `-` each when not counted; empty on a
    /// count's row) and their verdict.
    counts: [String; 3],
    counts_verdict: Option<Verdict>,
}

/// Every row of a comparison table: each bench's, then one per count per unit it compared.
fn rows(comparisons: &[Comparison]) -> Vec<Row> {
    let mut out = Vec::new();
    for c in comparisons {
        out.push(Row {
            cells: cells(c),
            verdict: c.verdict,
            counts: count_cells(c),
            counts_verdict: c.instructions.as_ref().map(|i| i.change.verdict),
        });
        out.extend(c.pis.iter().map(|pi| Row {
            cells: pi_cells(c, pi),
            verdict: pi.verdict,
            counts: [String::new(), String::new(), String::new()],
            counts_verdict: None,
        }));
    }
    out
}

/// A relative change with its interval, the interval left out when it is a point (an exact
/// count's): `+0.50%`, `+0.50% [+0.31%, +0.69%]`.
fn change_with_interval(x: f64, ci: Option<(f64, f64)>) -> String {
    match ci {
        Some((lo, hi)) if percent(lo) == percent(x) && percent(hi) == percent(x) => percent(x),
        Some((lo, hi)) => format!("{} [{}, {}]", percent(x), percent(lo), percent(hi)),
        None => format!("{} [unbounded]", percent(x)),
    }
}

/// The instruction cells of a bench's comparison: both counts, the change, the verdict (`-`
/// each when a side was not counted).
fn count_cells(c: &Comparison) -> [String; 3] {
    match &c.instructions {
        Some(i) => [
            format!(
                "{} → {}",
                crate::fmt::format_count_value(i.base),
                crate::fmt::format_count_value(i.new)
            ),
            change_with_interval(i.change.change, i.change.change_ci),
            i.change.verdict.as_str().to_string(),
        ],
        None => ["-".into(), "-".into(), "-".into()],
    }
}

/// Whether any bench's instructions were compared: the tables then have their columns.
fn counted(comparisons: &[Comparison]) -> bool {
    comparisons.iter().any(|c| c.instructions.is_some())
}

/// The line saying what changed in bench `c`, from its two verdicts (see
/// [`what_changed`](crate::compare::what_changed)); `None` when nothing changed or it cannot
/// be said.
fn changed_line(c: &Comparison, options: &CompareOptions) -> Option<String> {
    use crate::compare::WhatChanged;
    let what = crate::compare::what_changed(c)?;
    let i = c.instructions.as_ref()?;
    let (instr, time) = (
        percent(i.change.change),
        c.change.map_or("-".to_string(), percent),
    );
    let name = crate::fmt::terminal(&c.name);
    Some(match what {
        WhatChanged::Nothing => return None,
        WhatChanged::Code => {
            format!("{name}: the code changed: instructions {instr} and time {time} moved together")
        }
        WhatChanged::CodeNotTime => format!(
            "{name}: the code changed: instructions {instr}; the time ({time}) did not move \
             beyond its noise"
        ),
        WhatChanged::CodeAgainstTime => format!(
            "{name}: the code changed: instructions {instr} but time {time}, the other way: \
             its memory or branch behaviour moved more than its work"
        ),
        WhatChanged::Environment => format!(
            "{name}: the environment changed, not the code's work: time {time}, instructions \
             {instr} (within ±{}%): the machine, or the code's layout in memory",
            100.0 * options.instructions_noise
        ),
    })
}

/// The lines under a comparison with counts: the instructions' rule, then what changed in
/// each bench where something did.
fn count_notes(comparisons: &[Comparison], options: &CompareOptions) -> Vec<String> {
    if !counted(comparisons) {
        return Vec::new();
    }
    let mut out = vec![format!(
        "instructions regressed/improved: p < {} and |change| > {}%; counts that do not vary \
         between processes are judged by the threshold alone",
        options.alpha,
        100.0 * options.instructions_noise
    )];
    out.extend(comparisons.iter().filter_map(|c| changed_line(c, options)));
    out
}

/// The rule the verdicts follow, for the line above a table.
fn rule(comparisons: &[Comparison], options: &CompareOptions) -> String {
    let confidence = comparisons.first().map_or(0.95, |c| c.confidence);
    let interval = if comparisons.iter().any(|c| c.pairs.is_some()) {
        "Student's t over the pairs' log ratios"
    } else {
        "Fieller"
    };
    let p = if adjusted_shown(comparisons, options) {
        "p adj"
    } else {
        "p"
    };
    format!(
        "regressed/improved: {p} < {} and |change| > {}% (noise threshold); change CI at {:.0}% ({interval})",
        options.alpha,
        100.0 * options.noise,
        100.0 * confidence
    )
}

/// The suite's rule ([`SuiteRule::describe`](crate::compare::SuiteRule::describe)) over the
/// benches tested, and what it lets a reader conclude; `None` with fewer than two tests,
/// where there is no suite to adjust over.
fn suite_rule(comparisons: &[Comparison], options: &CompareOptions) -> Option<String> {
    let tested = crate::compare::tested_count(comparisons);
    (tested >= 2).then(|| options.rule.describe(tested, options.alpha))
}

/// Whether the tables show the adjusted p: a suite was adjusted, by a rule that changes p.
fn adjusted_shown(comparisons: &[Comparison], options: &CompareOptions) -> bool {
    options.rule != crate::compare::SuiteRule::PerBench
        && crate::compare::tested_count(comparisons) >= 2
        && comparisons.iter().any(|c| c.p_adjusted.is_some())
}

/// The line under a table that has `environment` verdicts: what they mean.
fn environment_note(comparisons: &[Comparison]) -> Option<String> {
    comparisons
        .iter()
        .any(|c| c.verdict == Verdict::Environment)
        .then(|| {
            "environment: the time moved beyond the noise while the instructions did not: the \
             machine, or the code's layout in memory, not more work (not a regression, exit 0)"
                .to_string()
        })
}

/// How the verdicts were reached: each bench's methods (its time's, its counts', its
/// instructions'), in table order; a paired method is named with how many pairs the benches
/// took.
fn methods(comparisons: &[Comparison]) -> Vec<String> {
    let pairs: Vec<usize> = comparisons.iter().filter_map(|c| c.pairs).collect();
    let (least, most) = (pairs.iter().min(), pairs.iter().max());
    let mut out: Vec<String> = Vec::new();
    for c in comparisons {
        if matches!(c.verdict, Verdict::New | Verdict::Missing | Verdict::Failed) {
            continue;
        }
        let method = match (c.pairs, least, most) {
            (Some(_), Some(1), Some(1)) => format!("{} (1 pair per bench)", c.method),
            (Some(_), Some(lo), Some(hi)) if lo == hi => {
                format!("{} ({lo} pairs per bench)", c.method)
            }
            (Some(_), Some(lo), Some(hi)) => {
                format!("{} ({lo} to {hi} pairs per bench)", c.method)
            }
            _ => c.method.clone(),
        };
        out.push(method);
        out.extend(c.pis.iter().map(|pi| format!("{}: {}", pi.name, pi.method)));
        if let Some(i) = &c.instructions {
            out.push(i.change.method.clone());
        }
    }
    out
}

/// The "how:" note's lines: each method once, with its figures' ranges, and for a method not
/// every compared bench used, how many did (`3 benches: …`). The first line carries `label`; the others
/// are indented under it.
fn how_lines(comparisons: &[Comparison], label: &str) -> Vec<String> {
    let found = how::summarise(&methods(comparisons));
    let compared = comparisons
        .iter()
        .filter(|c| !matches!(c.verdict, Verdict::New | Verdict::Missing | Verdict::Failed))
        .count();
    found
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let head = if i == 0 {
                label.to_string()
            } else {
                " ".repeat(label.chars().count())
            };
            let uses = if m.uses < compared {
                format!("{}: ", crate::fmt::counted(m.uses, "bench", "benches"))
            } else {
                String::new()
            };
            format!("{head}{uses}{}", m.text)
        })
        .collect()
}

/// A bench's change against the baseline for the end table's `change` column: the change
/// and its verdict (`+3.2% regressed`, `-0.4% no change`), or the verdict alone (`new`,
/// `failed`); then the instructions' when both sides were counted (`; instr +0.50%
/// regressed`). With the cell, the verdict it ends with, which colours it.
pub(crate) fn change_cell(c: &Comparison) -> (String, Verdict) {
    let mut cell = match c.change {
        Some(x) => format!("{:+.1}% {}", 100.0 * x, c.verdict.as_str()),
        None => c.verdict.as_str().to_string(),
    };
    let mut shown = c.verdict;
    // The counts join the cell only when they moved (or could not be told apart).
    for pi in c.pis.iter().filter(|p| p.verdict != Verdict::NoChange) {
        let change = pi
            .change
            .map_or("from none".to_string(), |x| format!("{:+.1}%", 100.0 * x));
        cell.push_str(&format!("; {} {change} {}", pi.name, pi.verdict.as_str()));
        shown = pi.verdict;
    }
    if let Some(i) = &c.instructions {
        // The instructions' verdict last: the cell is coloured by it.
        cell.push_str(&format!(
            "; instr {} {}",
            percent(i.change.change),
            i.change.verdict.as_str()
        ));
        shown = i.change.verdict;
    }
    (cell, shown)
}

/// The lines under an end table with a `change` column: the baseline, the rule the verdicts
/// follow, and the baseline's benches this run lacks (no row of the table names them).
pub(crate) fn change_notes(
    comparisons: &[Comparison],
    options: &CompareOptions,
    baseline: &str,
) -> String {
    let mut out = format!(
        "change: against baseline `{}`; {}\n",
        crate::fmt::terminal(baseline),
        rule(comparisons, options)
    );
    if let Some(line) = suite_rule(comparisons, options) {
        out.push_str(&format!("{line}\n"));
    }
    for line in count_notes(comparisons, options) {
        out.push_str(&format!("{line}\n"));
    }
    if let Some(line) = environment_note(comparisons) {
        out.push_str(&format!("{line}\n"));
    }
    let missing: Vec<&str> = comparisons
        .iter()
        .filter(|c| c.verdict == Verdict::Missing)
        .map(|c| c.name.as_str())
        .collect();
    if !missing.is_empty() {
        out.push_str(&crate::fmt::terminal(&format!(
            "missing: in the baseline, not in this run: {}\n",
            missing.join(", ")
        )));
    }
    out
}

/// A table of the comparisons, one row per bench, with the rule and the methods used.
pub fn comparison_table(comparisons: &[Comparison], options: &CompareOptions) -> String {
    let confidence = comparisons.first().map_or(0.95, |c| c.confidence);
    let header = [
        "bench".to_string(),
        "baseline".to_string(),
        "new".to_string(),
        format!("change ({:.0}% CI)", 100.0 * confidence),
        "p".to_string(),
        "p adj".to_string(),
        "verdict".to_string(),
    ];
    let with_counts = counted(comparisons);
    let with_adjusted = adjusted_shown(comparisons, options);
    let mut header = header.to_vec();
    if !with_adjusted {
        header.remove(5);
    }
    if with_counts {
        header.extend([
            "instructions".into(),
            "instr change".into(),
            "instr verdict".into(),
        ]);
    }
    let rows: Vec<Vec<String>> = rows(comparisons)
        .into_iter()
        .map(|r| {
            let mut row = r.cells.to_vec();
            if !with_adjusted {
                row.remove(5);
            }
            if with_counts {
                row.extend(r.counts);
            }
            row
        })
        .collect();
    let verdict = if with_adjusted { 6 } else { 5 };
    let left: &[usize] = if with_counts {
        &[0, verdict, verdict + 3]
    } else {
        &[0, verdict]
    };
    let mut out = crate::fmt::columns(&header, &rows, left, "");
    out.push_str(&rule(comparisons, options));
    out.push('\n');
    if let Some(line) = suite_rule(comparisons, options) {
        out.push_str(&format!("{line}\n"));
    }
    for line in count_notes(comparisons, options) {
        out.push_str(&format!("{line}\n"));
    }
    if let Some(line) = environment_note(comparisons) {
        out.push_str(&format!("{line}\n"));
    }
    for line in how_lines(comparisons, "how: ") {
        out.push_str(&format!("{line}\n"));
    }
    out
}

/// The comparisons as a Markdown table, for a pull-request comment.
pub fn comparison_markdown(comparisons: &[Comparison], options: &CompareOptions) -> String {
    let confidence = comparisons.first().map_or(0.95, |c| c.confidence);
    let regressed = comparisons
        .iter()
        .filter(|c| crate::compare::any_regressed(std::slice::from_ref(c)))
        .count();
    let improved = comparisons
        .iter()
        .filter(|c| c.verdict == Verdict::Improved)
        .count();
    let failed = comparisons
        .iter()
        .filter(|c| c.verdict == Verdict::Failed)
        .count();
    let failed = if failed > 0 {
        format!(", {failed} failed")
    } else {
        String::new()
    };
    let mut out = format!(
        "### pilot: {}, {regressed} regressed, {improved} improved{failed}\n\n",
        crate::fmt::counted(comparisons.len(), "bench", "benches")
    );
    let with_counts = counted(comparisons);
    let (count_head, count_rule) = if with_counts {
        (
            " instructions | instr change | instr verdict |",
            "--:|--:|:--|",
        )
    } else {
        ("", "")
    };
    let with_adjusted = adjusted_shown(comparisons, options);
    let (adjusted_head, adjusted_rule) = if with_adjusted {
        (" p adj |", "--:|")
    } else {
        ("", "")
    };
    out.push_str(&format!(
        "| bench | baseline | new | change ({:.0}% CI) | p |{adjusted_head} verdict |{count_head}\n\
         |:--|--:|--:|--:|--:|{adjusted_rule}:--|{count_rule}\n",
        100.0 * confidence
    ));
    let strong = |verdict: String, v: Verdict| match v {
        Verdict::Regressed | Verdict::Failed => format!("**{verdict}**"),
        _ => verdict,
    };
    for row in rows(comparisons) {
        let [name, base, new, change, p, adjusted, verdict] = row.cells;
        let adjusted = if with_adjusted {
            format!(" {adjusted} |")
        } else {
            String::new()
        };
        let verdict = strong(verdict, row.verdict);
        let counts = if with_counts {
            let [counts, change, v] = row.counts;
            let v = match row.counts_verdict {
                Some(cv) => strong(v, cv),
                None => v,
            };
            format!(" {counts} | {change} | {v} |")
        } else {
            String::new()
        };
        out.push_str(&format!(
            "| {} | {base} | {new} | {change} | {p} |{adjusted} {verdict} |{counts}\n",
            crate::fmt::markdown_code(&name)
        ));
    }
    out.push_str(&format!("\n{}.\n", rule(comparisons, options)));
    if let Some(line) = suite_rule(comparisons, options) {
        out.push_str(&format!("{line}.\n"));
    }
    for line in count_notes(comparisons, options) {
        out.push_str(&format!("{line}.\n"));
    }
    if let Some(line) = environment_note(comparisons) {
        out.push_str(&format!("{line}.\n"));
    }
    for line in how_lines(comparisons, "How: ") {
        out.push_str(&format!("{}.\n", line.trim_start()));
    }
    out
}
