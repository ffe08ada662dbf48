//! What the user sees: a live line per bench while it runs (`LiveProgress`), a table at the
//! end, and comparisons with a baseline (terminal, Markdown and JSON).

mod compare;
mod group;
mod live;
mod table;

use crate::fmt::{format_count, format_throughput};
use crate::store::schema::ResultDoc;

pub use crate::fmt::{columns, format_estimate};
pub use compare::{comparison_doc, comparison_markdown, comparison_table};
pub(crate) use group::{GroupRow, render_group};
pub(crate) use live::LiveProgress;
pub(crate) use table::{Row, TimePer, render_table};

/// The end-of-run table for result documents, as `cargo pilot bench` prints one table across
/// bench targets.
pub fn results_table(documents: &[ResultDoc]) -> String {
    let confidence = documents
        .iter()
        .find_map(|d| d.pis.first().map(|pi| pi.ci.confidence))
        .unwrap_or(0.95);
    let rows: Vec<Row> = documents.iter().map(|d| row_of_document(d, true)).collect();
    render_table(&rows, confidence)
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
            let pi = d.pis.first()?;
            let (mean, low, high) = (pi.mean?, pi.ci.low?, pi.ci.high?);
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
    let pi = d.pis.get(1).and_then(|t| {
        let unit = t.unit.strip_suffix("/s").unwrap_or(&t.unit);
        Some((unit, t.mean?))
    });
    if let Some(th) = &d.threads {
        if let (Some(per_thread), Some(aggregate)) = (&th.per_thread, &th.aggregate) {
            let (unit, per_unit) = pi.map_or(("units", 1.0), |(u, t)| (u, t * mean_ns / 1e9));
            return format!(
                "{} per thread, {} on {}",
                format_throughput(per_unit * per_thread.mean, unit),
                format_throughput(per_unit * aggregate.mean, unit),
                th.count
            );
        }
    }
    pi.map(|(unit, t)| format_throughput(t, unit))
        .unwrap_or_default()
}

/// A table row from a result document; `with_target` prefixes the bench target.
pub(crate) fn row_of_document(d: &ResultDoc, with_target: bool) -> Row {
    let pi = d.pis.first();
    let (time, throughput) = match pi.map(|pi| (pi.mean, pi.ci.low, pi.ci.high)) {
        Some((Some(mean), Some(low), Some(high))) => {
            (format_estimate(mean, low, high), throughput_cell(d, mean))
        }
        _ => ("-".to_string(), String::new()),
    };
    let status = match d.status.as_str() {
        "failed" => "FAILED".to_string(),
        s => s.to_string(),
    };
    Row {
        name: if d.target.is_empty() || !with_target {
            d.name.clone()
        } else {
            format!("{}/{}", d.target, d.name)
        },
        time,
        per: TimePer::of_form(&d.form),
        throughput,
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
    }
}
