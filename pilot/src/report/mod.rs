//! What the user sees: a live line per bench while it runs (`LiveProgress`), a table at the
//! end, and comparisons with a baseline (terminal, Markdown and JSON).

mod compare;
mod group;
mod live;
mod table;

use crate::fmt::{format_count, format_rate};

pub use crate::fmt::{columns, format_estimate};
pub use compare::{COMPARE_SCHEMA, comparison_json, comparison_markdown, comparison_table};
pub(crate) use group::{GroupRow, render_group};
pub(crate) use live::LiveProgress;
pub(crate) use table::{Row, render_table};

/// The end-of-run table for result documents (`pilot.result/1`), as `cargo pilot bench` prints
/// one table across bench targets. Documents that are not results are skipped.
pub fn results_table(documents: &[serde_json::Value]) -> String {
    let confidence = documents
        .iter()
        .find_map(|d| d["pis"][0]["ci"]["confidence"].as_f64())
        .unwrap_or(0.95);
    let rows: Vec<Row> = documents
        .iter()
        .filter(|d| d["schema"] == crate::store::result::RESULT_SCHEMA)
        .map(|d| row_of_document(d, true))
        .collect();
    render_table(&rows, confidence)
}

/// A table row from a `pilot.result/1` document; `with_target` prefixes the bench target.
pub(crate) fn row_of_document(d: &serde_json::Value, with_target: bool) -> Row {
    let pi = &d["pis"][0];
    let count = |v: &serde_json::Value| {
        v.as_u64()
            .map_or("-".to_string(), |n| format_count(n as usize))
    };
    let (time, throughput) = match (
        pi["mean"].as_f64(),
        pi["ci"]["low"].as_f64(),
        pi["ci"]["high"].as_f64(),
    ) {
        (Some(mean), Some(low), Some(high)) => (
            format_estimate(mean, low, high),
            d["pis"][1]["mean"]
                .as_f64()
                .map(|t| {
                    format!(
                        "{}{}",
                        format_rate(t),
                        d["pis"][1]["unit"].as_str().unwrap_or("")
                    )
                })
                .unwrap_or_default(),
        ),
        _ => ("-".to_string(), String::new()),
    };
    let status = match d["status"].as_str() {
        Some("failed") => "FAILED".to_string(),
        Some(s) => s.to_string(),
        None => "-".to_string(),
    };
    let target = d["target"].as_str().unwrap_or("");
    let name = d["name"].as_str().unwrap_or("?");
    Row {
        name: if target.is_empty() || !with_target {
            name.to_string()
        } else {
            format!("{target}/{name}")
        },
        time,
        throughput,
        samples: count(&pi["n"]),
        subsession: pi["subsession_size"]
            .as_u64()
            .map_or("-".into(), |q| q.to_string()),
        warmup: count(&d["removed_readings"]),
        rounds: d["rounds"]
            .as_array()
            .map_or("-".into(), |r| r.len().to_string()),
        processes: d["processes"]["count"].as_u64().unwrap_or(1).to_string(),
        wall: d["elapsed_s"]
            .as_f64()
            .map_or("-".into(), |s| format!("{s:.1} s")),
        status,
    }
}
