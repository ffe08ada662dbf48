//! Comparisons with a baseline as a terminal table, a Markdown table (for pull-request
//! comments) and a `pilot.compare/1` JSON document.

use crate::compare::{CompareOptions, Comparison, PiChange, Verdict};
use crate::fmt::format_estimate;
use crate::schema::{COMPARE_SCHEMA, CompareBenchDoc, CompareDoc, ComparePiDoc, RangeDoc};

fn percent(x: f64) -> String {
    format!("{:+.2}%", 100.0 * x)
}

fn cells(c: &Comparison) -> [String; 6] {
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
    [
        c.name.clone(),
        time(&c.base),
        time(&c.new),
        change,
        p,
        c.verdict.as_str().to_string(),
    ]
}

/// The cells of a count's comparison: its own row under its bench's, named `bench · name`.
fn pi_cells(c: &Comparison, pi: &PiChange) -> [String; 6] {
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
        pi.verdict.as_str().to_string(),
    ]
}

/// Every row of a comparison table: each bench's, then one per count it compared.
fn rows(comparisons: &[Comparison]) -> Vec<[String; 6]> {
    let mut out = Vec::new();
    for c in comparisons {
        out.push(cells(c));
        out.extend(c.pis.iter().map(|pi| pi_cells(c, pi)));
    }
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
    format!(
        "regressed/improved: p < {} and |change| > {}% (noise threshold); change CI at {:.0}% ({interval})",
        options.alpha,
        100.0 * options.noise,
        100.0 * confidence
    )
}

/// What the false-alarm rate predicts over a suite: with `n` benches tested at `alpha`, about
/// `n · alpha` of them cross it by chance when nothing changed (each test's false-alarm rate;
/// the noise threshold makes a verdict rarer still). `None` with fewer than two tests.
fn expected_false_alarms(comparisons: &[Comparison], options: &CompareOptions) -> Option<String> {
    let tested = comparisons.iter().filter(|c| c.p.is_some()).count();
    (tested >= 2).then(|| {
        format!(
            "{tested} benches tested at p < {}: if nothing changed, about {:.2} of them would \
             be flagged by chance",
            options.alpha,
            tested as f64 * options.alpha
        )
    })
}

/// How the verdicts were reached: each distinct method once.
/// A paired method is named once, with how many pairs the benches took.
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
        if !out.contains(&method) {
            out.push(method);
        }
        for pi in &c.pis {
            let method = format!("{}: {}", pi.name, pi.method);
            if !out.contains(&method) {
                out.push(method);
            }
        }
    }
    out
}

/// A bench's change against the baseline for the end table's `change` column: the change
/// and its verdict (`+3.2% regressed`, `-0.4% no change`), or the verdict alone (`new`,
/// `failed`).
pub fn change_cell(c: &Comparison) -> String {
    let mut cell = match c.change {
        Some(x) => format!("{:+.1}% {}", 100.0 * x, c.verdict.as_str()),
        None => c.verdict.as_str().to_string(),
    };
    // The counts join the cell only when they moved (or could not be told apart).
    for pi in c.pis.iter().filter(|p| p.verdict != Verdict::NoChange) {
        let change = pi
            .change
            .map_or("from none".to_string(), |x| format!("{:+.1}%", 100.0 * x));
        cell.push_str(&format!("; {} {change} {}", pi.name, pi.verdict.as_str()));
    }
    cell
}

/// The lines under an end table with a `change` column: the baseline, the rule the verdicts
/// follow, and the baseline's benches this run lacks (no row of the table names them).
pub fn change_notes(
    comparisons: &[Comparison],
    options: &CompareOptions,
    baseline: &str,
) -> String {
    let mut out = format!(
        "change: against baseline `{}`; {}\n",
        crate::fmt::terminal(baseline),
        rule(comparisons, options)
    );
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
        "verdict".to_string(),
    ];
    let rows: Vec<Vec<String>> = rows(comparisons).into_iter().map(|r| r.to_vec()).collect();
    let mut out = crate::fmt::columns(&header, &rows, &[0, 5], "");
    out.push_str(&rule(comparisons, options));
    out.push('\n');
    if let Some(line) = expected_false_alarms(comparisons, options) {
        out.push_str(&format!("{line}\n"));
    }
    for m in methods(comparisons) {
        out.push_str(&format!("how: {m}\n"));
    }
    out
}

/// The comparisons as a Markdown table, for a pull-request comment.
pub fn comparison_markdown(comparisons: &[Comparison], options: &CompareOptions) -> String {
    let confidence = comparisons.first().map_or(0.95, |c| c.confidence);
    let regressed = comparisons
        .iter()
        .filter(|c| {
            c.verdict == Verdict::Regressed || c.pis.iter().any(|p| p.verdict == Verdict::Regressed)
        })
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
    out.push_str(&format!(
        "| bench | baseline | new | change ({:.0}% CI) | p | verdict |\n|:--|--:|--:|--:|--:|:--|\n",
        100.0 * confidence
    ));
    let verdicts = comparisons
        .iter()
        .flat_map(|c| std::iter::once(c.verdict).chain(c.pis.iter().map(|p| p.verdict)));
    for ([name, base, new, change, p, verdict], v) in rows(comparisons).into_iter().zip(verdicts) {
        let verdict = match v {
            Verdict::Regressed | Verdict::Failed => format!("**{verdict}**"),
            _ => verdict,
        };
        out.push_str(&format!(
            "| {} | {base} | {new} | {change} | {p} | {verdict} |\n",
            crate::fmt::markdown_code(&name)
        ));
    }
    out.push_str(&format!("\n{}.\n", rule(comparisons, options)));
    if let Some(line) = expected_false_alarms(comparisons, options) {
        out.push_str(&format!("{line}.\n"));
    }
    for m in methods(comparisons) {
        out.push_str(&format!("How: {m}.\n"));
    }
    out
}

/// The comparisons as a `pilot.compare/1` document:
///
/// ```text
/// {"schema": "pilot.compare/1", "alpha", "noise", "confidence",
///  "benches": [{"name", "target", "base", "new", "change", "change_ci": {"low", "high"},
///               "p", "verdict", "method"}]}
/// ```
///
/// `base` and `new` are mean times per unit in nanoseconds (`null` when absent); `change` is
/// relative, `new / base − 1` (+0.05 is 5% slower); `change_ci` is `null` when unbounded.
pub fn comparison_doc(comparisons: &[Comparison], options: &CompareOptions) -> CompareDoc {
    let benches = comparisons
        .iter()
        .map(|c| CompareBenchDoc {
            name: c.name.clone(),
            target: c.target.clone(),
            base: c.base.as_ref().map(|e| e.mean),
            new: c.new.as_ref().map(|e| e.mean),
            change: c.change,
            change_ci: c.change_ci.map(|(low, high)| RangeDoc { low, high }),
            p: c.p,
            verdict: c.verdict.as_str().to_string(),
            method: c.method.clone(),
            pairs: c.pairs,
            reason: c.reason.clone(),
            pis: c
                .pis
                .iter()
                .map(|pi| ComparePiDoc {
                    name: pi.name.clone(),
                    unit: pi.unit.clone(),
                    base: pi.base.0,
                    new: pi.new.0,
                    change: pi.change,
                    change_ci: pi.change_ci.map(|(low, high)| RangeDoc { low, high }),
                    p: pi.p,
                    verdict: pi.verdict.as_str().to_string(),
                    method: pi.method.clone(),
                })
                .collect(),
        })
        .collect();
    CompareDoc {
        schema: COMPARE_SCHEMA.to_string(),
        alpha: options.alpha,
        noise: options.noise,
        confidence: comparisons.first().map_or(0.95, |c| c.confidence),
        method: comparisons
            .iter()
            .any(|c| c.pairs.is_some())
            .then(|| "paired".to_string()),
        benches,
    }
}
