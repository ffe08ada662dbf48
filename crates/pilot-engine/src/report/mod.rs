//! What the user sees: a live line per bench while it runs (`LiveProgress`), a table at the
//! end, and comparisons with a baseline (terminal, Markdown and JSON).

mod bench_table;
mod comparisons;
mod group_table;
mod live;
mod summary;

use crate::fmt::{format_count, format_throughput, thousands};
use pilot_format::ResultDoc;

pub use crate::fmt::{columns, format_estimate, format_ns};
pub(crate) use bench_table::allocations_cell;
pub use bench_table::{Row, TimePer, render_table};
pub(crate) use comparisons::{change_cell, change_notes};
pub use comparisons::{comparison_doc, comparison_markdown, comparison_table};
pub(crate) use group_table::{GroupRow, render_group};
pub use live::LiveProgress;
pub use summary::{context_of, markers, summary};

use pilot_format::{BandDoc, ReproducibilityDoc};

use bench_table::render_markdown;

/// The end-of-run table for result documents, as `cargo pilot bench` prints one table across
/// bench targets: the columns a person compares, or every one (`wide`).
pub fn results_table(documents: &[ResultDoc], wide: bool, paint: crate::fmt::Paint) -> String {
    let rows: Vec<Row> = documents.iter().map(|d| row_of_document(d, true)).collect();
    render_table(&rows, confidence_of(documents), wide, paint)
}

/// The end-of-run table for result documents in Markdown (`cargo pilot export --format md`):
/// the columns of [`results_table`], one row per bench.
pub fn results_markdown(documents: &[ResultDoc]) -> String {
    let rows: Vec<Row> = documents.iter().map(|d| row_of_document(d, true)).collect();
    render_markdown(&rows, confidence_of(documents))
}

/// The libtest lines of `--output-format bencher`, one per bench with an estimate, as
/// criterion prints them: `test NAME ... bench: {:>11} ns/iter (+/- D)`, the time per unit (per
/// iteration in the micro form) rounded to whole nanoseconds, D the interval's half-width
/// rounded, both with `,` between thousands. Tools that parse that line (github-action-benchmark's
/// `tool: cargo`, Bencher's `rust_bench` adapter) read pilot's estimate and interval from it.
pub(crate) fn bencher_lines(documents: &[ResultDoc]) -> String {
    let mut out = String::new();
    for d in documents {
        let Some((mean, low, high)) = d
            .time()
            .and_then(|pi| Some((pi.mean?, pi.run_ci().low?, pi.run_ci().high?)))
        else {
            continue;
        };
        out.push_str(&format!(
            "test {} ... bench: {:>11} ns/iter (+/- {})\n",
            crate::fmt::terminal(&d.name),
            thousands(mean.round() as u64),
            thousands(((high - low) / 2.0).round() as u64)
        ));
    }
    out
}

/// The confidence level the documents' intervals share (the first one's), 95% without any.
fn confidence_of(documents: &[ResultDoc]) -> f64 {
    documents
        .iter()
        .find_map(|d| d.time().map(|pi| pi.ci.confidence))
        .unwrap_or(0.95)
}

/// How much wider than its target a baseline entry's interval may be before saving it says so.
const WEAK_FACTOR: f64 = 3.0;

/// The entries of a baseline being saved whose interval is far wider than their target (more
/// than 3×), and how to measure them again; `None` when there are none. A comparison against
/// such an entry can find little: saving it silently would hide that.
pub fn weak_baseline(documents: &[ResultDoc], baseline: &str) -> Option<String> {
    let weak: Vec<(String, f64, f64)> = documents
        .iter()
        .filter_map(|d| {
            let pi = d.time()?;
            let ci = pi.run_ci();
            let (mean, low, high) = (pi.mean?, ci.low?, ci.high?);
            let half = (high - low) / 2.0 / mean.abs();
            (half > WEAK_FACTOR * d.config.ci).then(|| (d.name.clone(), half, d.config.ci))
        })
        .collect();
    if weak.is_empty() {
        return None;
    }
    let list: Vec<String> = weak
        .iter()
        .map(|(name, half, target)| {
            format!("{name} ±{:.1}% for ±{:.1}%", 100.0 * half, 100.0 * target)
        })
        .collect();
    let names: Vec<&str> = weak.iter().map(|(name, ..)| name.as_str()).collect();
    Some(format!(
        "baseline `{baseline}`: {} of {} entries are far wider than their target ({}); a \
         comparison against them can find only large changes. Measure them again with \
         `cargo bench -- --save-baseline {baseline} --exact {}` (with a longer --max-time, or on a \
         quieter machine)",
        weak.len(),
        documents.len(),
        list.join(", "),
        names.join(" ")
    ))
}

/// The throughput cell of result document `d` whose time per unit is `mean_ns`: its throughput
/// PI, or for a bench on several threads the per-thread and aggregate throughput (the
/// document's `threads` section counts work units per second; the PI says how many of its
/// unit one work unit holds: throughput × time per unit), as the bench binary's own table
/// shows them.
fn throughput_cell(d: &ResultDoc, mean_ns: f64) -> String {
    let pi = d
        .pis
        .iter()
        .skip(1)
        .find(|t| t.name == "throughput")
        .and_then(|t| {
            let unit = t.unit.strip_suffix("/s").unwrap_or(&t.unit);
            Some((unit, t.mean?))
        });
    if let Some(th) = &d.threads
        && let (Some(per_thread), Some(aggregate)) = (&th.per_thread, &th.aggregate)
    {
        let (unit, per_unit) = pi.map_or(("units", 1.0), |(u, t)| (u, t * mean_ns / 1e9));
        return format!(
            "{} per thread, {} on {}",
            format_throughput(per_unit * per_thread.mean, unit),
            format_throughput(per_unit * aggregate.mean, unit),
            th.count
        );
    }
    pi.map(|(unit, t)| format_throughput(t, unit))
        .unwrap_or_default()
}

/// The allocations cell of result document `d` (see [`allocations_cell`]); empty without its
/// allocation PIs.
fn allocations_of_document(d: &ResultDoc) -> String {
    let bounds = |name: &str| {
        let pi = d.pis.iter().find(|p| p.name == name)?;
        Some((pi.mean?, pi.ci.low?, pi.ci.high?))
    };
    match (bounds("allocations"), bounds("allocated_bytes")) {
        (Some(a), Some(b)) => allocations_cell(a, b),
        _ => String::new(),
    }
}

/// The counts of result document `d` as the bench table shows them: its instructions and
/// estimated cycles (`12,519 ± 0.00%`), each empty when not counted, and its allocations
/// (`3 allocs, 4,220 B`), empty without a `CountingAlloc`.
pub fn count_cells(d: &ResultDoc) -> (String, String, String) {
    let cell = |name: &str| {
        d.pis
            .iter()
            .find(|p| p.name == name)
            .and_then(|p| {
                Some(crate::fmt::format_instructions_estimate(
                    p.mean?, p.ci.low?, p.ci.high?,
                ))
            })
            .unwrap_or_default()
    };
    (
        cell(pilot_format::INSTRUCTIONS_PI),
        cell(pilot_format::CYCLES_PI),
        allocations_of_document(d),
    )
}

/// The band of result document `d` where the next run's estimate lands, when learnt.
pub fn band_of(d: &ResultDoc) -> Option<&BandDoc> {
    match d.time()?.reproducibility.as_ref()? {
        ReproducibilityDoc::Learnt(b) => Some(b),
        ReproducibilityDoc::Learning(_) => None,
    }
}

/// The run-to-run cell of result document `d`: its band's half-width, `±2.41%`; empty while
/// it is not learnt (and for documents written before it was a figure of its own).
pub fn run_to_run_cell(d: &ResultDoc) -> String {
    band_of(d).map_or(String::new(), |b| format!("±{:.2}%", 100.0 * b.half_width))
}

/// Where the next run's estimate of result document `d` lands, as a sentence: `run to run:
/// 83.32 µs to 87.42 µs (±2.41% around the level of 6 runs; sd 0.95% learnt from this
/// bench's 6 runs)`, or `run to run: not learnt yet (needs 2 more runs, …)`; empty without
/// a figure (documents written before it, results of another tool).
pub fn reproducibility_sentence(d: &ResultDoc) -> String {
    let Some(r) = d.time().and_then(|pi| pi.reproducibility.as_ref()) else {
        return String::new();
    };
    match r {
        ReproducibilityDoc::Learnt(b) => {
            let source = match b.learnt_from.as_str() {
                "bench" => format!("this bench's {} runs", b.runs),
                "benches" => format!("the shift of earlier runs' benches over {} runs", b.runs),
                _ => format!("the speed probe's {} runs", b.runs),
            };
            format!(
                "run to run: {} to {} (±{:.2}% around {}; sd {:.2}% of a run learnt from {source})",
                format_ns(b.low),
                format_ns(b.high),
                100.0 * b.half_width,
                format_ns(b.center),
                100.0 * b.sd
            )
        }
        ReproducibilityDoc::Learning(l) => format!(
            "run to run: not learnt yet ({})",
            needs_more_runs(l.runs_needed.saturating_sub(l.runs), l.spacing_s)
        ),
    }
}

/// A short note for the end of a run of `documents`: what their intervals are, and whether
/// their benches learnt where the next run lands: `± is this run's interval; run to run: not
/// learnt yet (needs 2 more runs, each at least 60 s after the last that counted)`, the fewest
/// runs any bench still needs.
pub fn reproducibility_note(documents: &[ResultDoc]) -> String {
    let head = "± is this run's interval";
    let (mut learnt, mut learning) = (0, 0);
    let mut fewest: Option<(usize, u64)> = None;
    for d in documents {
        match d.time().and_then(|pi| pi.reproducibility.as_ref()) {
            Some(ReproducibilityDoc::Learnt(_)) => learnt += 1,
            Some(ReproducibilityDoc::Learning(l)) => {
                learning += 1;
                let left = l.runs_needed.saturating_sub(l.runs);
                if fewest.is_none_or(|(f, _)| left < f) {
                    fewest = Some((left, l.spacing_s));
                }
            }
            None => {}
        }
    }
    match fewest {
        None if learnt > 0 => format!("{head}, run to run where the next run's estimate lands"),
        None => head.to_string(),
        Some((left, spacing_s)) => {
            let which = if learnt > 0 {
                format!(" for {learning} of {} benches", learning + learnt)
            } else {
                String::new()
            };
            format!(
                "{head}; run to run: not learnt yet{which} ({})",
                needs_more_runs(left, spacing_s)
            )
        }
    }
}

/// How many more runs a reproducibility band needs, and how far apart: `needs 2 more runs,
/// each at least 60 s after the last that counted`.
pub(crate) fn needs_more_runs(left: usize, spacing_s: u64) -> String {
    format!(
        "needs {left} more {}, each at least {spacing_s} s after the last that counted",
        if left == 1 { "run" } else { "runs" }
    )
}

/// A table row from a result document; `with_target` prefixes the bench target.
pub(crate) fn row_of_document(d: &ResultDoc, with_target: bool) -> Row {
    let pi = d.time();
    let (time, throughput) = match pi.map(|pi| (pi.mean, pi.run_ci().low, pi.run_ci().high)) {
        Some((Some(mean), Some(low), Some(high))) => {
            (format_estimate(mean, low, high), throughput_cell(d, mean))
        }
        _ => ("-".to_string(), String::new()),
    };
    let status = match d.status.as_str() {
        "failed" => "FAILED".to_string(),
        s => s.to_string(),
    };
    let (instructions, cycles, allocations) = count_cells(d);
    Row {
        instructions,
        cycles,
        name: if d.target.is_empty() || !with_target {
            d.name.clone()
        } else {
            format!("{}/{}", d.target, d.name)
        },
        time,
        run_to_run: run_to_run_cell(d),
        per: TimePer::of_form(d.form),
        throughput,
        allocations,
        samples: pi.map_or("-".into(), |pi| format_count(pi.n)),
        subsession: pi.map_or("-".into(), |pi| pi.subsession_size.to_string()),
        warm_up: d.warm_up.clone().unwrap_or_else(|| "-".into()),
        cut: format_count(d.removed_readings as usize),
        outliers: d.outliers.map_or("-".into(), |o| {
            format!("{}/{}", format_count(o.z), format_count(o.mad))
        }),
        rounds: d.rounds.len().to_string(),
        processes: d.processes.count.to_string(),
        wall: format!("{:.1} s", d.elapsed_s),
        status,
        change: String::new(),
        verdict: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(name: &str, mean: f64, low: f64, high: f64) -> ResultDoc {
        serde_json::from_value(serde_json::json!({
            "schema": "pilot.result/1", "name": name, "target": "t", "status": "ok",
            "pis": [{"name": "time", "unit": "ns", "mean": mean,
                     "ci": {"low": low, "high": high, "confidence": 0.95}}],
        }))
        .unwrap()
    }

    /// `doc` with reproducibility `r` in its time PI.
    fn with(mut d: ResultDoc, r: serde_json::Value) -> ResultDoc {
        d.time_mut().unwrap().reproducibility = Some(serde_json::from_value(r).unwrap());
        d
    }

    #[test]
    fn the_end_note_says_what_the_runs_benches_learnt() {
        let learning = |runs: usize| {
            serde_json::json!({"state": "learning", "runs": runs, "runs_needed": 3,
                               "spacing_s": 60})
        };
        let learnt = serde_json::json!({"state": "learnt", "center": 100.0, "low": 97.6,
            "high": 102.4, "half_width": 0.0241, "sd": 0.009, "dof": 4.0, "runs": 6,
            "learnt_from": "bench"});
        let plain = doc("a", 100.0, 99.0, 101.0);
        assert_eq!(
            reproducibility_note(std::slice::from_ref(&plain)),
            "± is this run's interval"
        );
        let (one, two) = (
            with(plain.clone(), learning(1)),
            with(plain.clone(), learning(2)),
        );
        assert_eq!(
            reproducibility_note(&[one.clone(), two.clone()]),
            "± is this run's interval; run to run: not learnt yet (needs 1 more run, each at \
             least 60 s after the last that counted)"
        );
        let done = with(plain.clone(), learnt);
        assert_eq!(
            reproducibility_note(&[one.clone(), done.clone(), done.clone()]),
            "± is this run's interval; run to run: not learnt yet for 1 of 3 benches (needs 2 \
             more runs, each at least 60 s after the last that counted)"
        );
        assert_eq!(
            reproducibility_note(&[done.clone(), plain]),
            "± is this run's interval, run to run where the next run's estimate lands"
        );
        // The cell and the sentence of a learnt band, and of one still learning.
        assert_eq!(run_to_run_cell(&done), "±2.41%");
        assert_eq!(run_to_run_cell(&one), "");
        assert_eq!(
            reproducibility_sentence(&done),
            "run to run: 97.60 ns to 102.4 ns (±2.41% around 100.0 ns; sd 0.90% of a run \
             learnt from this bench's 6 runs)"
        );
        assert_eq!(
            reproducibility_sentence(&one),
            "run to run: not learnt yet (needs 2 more runs, each at least 60 s after the last \
             that counted)"
        );
    }

    #[test]
    fn bencher_lines_are_libtests_with_thousands_and_rounding() {
        let mut failed = doc("failed", 1.0, 1.0, 1.0);
        failed.pis.clear();
        let docs = [
            doc("sort_10k", 84_903.6, 84_080.0, 85_727.2),
            doc("add", 0.4, 0.3, 0.5),
            failed,
            doc("parse::json/4096", 1_234_567.5, 1_000_000.0, 1_469_135.0),
        ];
        // Half-widths: 823.6 → 824; 0.1 → 0; 234,567.5 → 234,568 (ties away from zero).
        assert_eq!(
            bencher_lines(&docs),
            "test sort_10k ... bench:      84,904 ns/iter (+/- 824)\n\
             test add ... bench:           0 ns/iter (+/- 0)\n\
             test parse::json/4096 ... bench:   1,234,568 ns/iter (+/- 234,568)\n"
        );
    }
}
