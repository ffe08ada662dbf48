//! What the user sees: a live line per bench while it runs (`LiveProgress`), a table at the
//! end, and comparisons with a baseline (terminal, Markdown and JSON).

mod compare;
mod group;
mod live;
mod table;

use crate::fmt::{format_count, format_rate};
use crate::store::schema::ResultDoc;

pub use crate::fmt::{columns, format_estimate};
pub use compare::{comparison_doc, comparison_markdown, comparison_table};
pub(crate) use group::{GroupRow, render_group};
pub(crate) use live::LiveProgress;
pub(crate) use table::{Row, render_table};

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

/// A table row from a result document; `with_target` prefixes the bench target.
pub(crate) fn row_of_document(d: &ResultDoc, with_target: bool) -> Row {
    let pi = d.pis.first();
    let (time, throughput) = match pi.map(|pi| (pi.mean, pi.ci.low, pi.ci.high)) {
        Some((Some(mean), Some(low), Some(high))) => (
            format_estimate(mean, low, high),
            d.pis
                .get(1)
                .and_then(|t| Some(format!("{}{}", format_rate(t.mean?), t.unit)))
                .unwrap_or_default(),
        ),
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
        throughput,
        samples: pi.map_or("-".into(), |pi| format_count(pi.n)),
        subsession: pi.map_or("-".into(), |pi| pi.subsession_size.to_string()),
        warmup: format_count(d.removed_readings as usize),
        rounds: d.rounds.len().to_string(),
        processes: d.processes.count.to_string(),
        wall: format!("{:.1} s", d.elapsed_s),
        status,
    }
}
