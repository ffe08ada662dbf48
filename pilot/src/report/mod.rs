//! What the user sees: a live line per bench while it runs, a table at the end, and
//! comparisons with a baseline (terminal, Markdown and JSON).
//!
//! On a terminal the live line is an indicatif spinner showing the current estimate, the
//! interval reached against the target and an ETA. Without a terminal, a plain line every few
//! seconds; under CI (`CI` set) nothing until the bench is done, so logs stay short.

mod compare;
mod group;
mod table;

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

pub use compare::{COMPARE_SCHEMA, comparison_json, comparison_markdown, comparison_table};
pub(crate) use group::{GroupRow, render_group};
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

/// A mean time per unit with its interval's half-width relative to it: `84.90 µs ± 0.97%`.
pub fn format_estimate(mean_ns: f64, low_ns: f64, high_ns: f64) -> String {
    format!(
        "{} ± {:.2}%",
        format_ns(mean_ns),
        100.0 * (high_ns - low_ns) / 2.0 / mean_ns
    )
}

/// Lays `rows` out in columns under `header`, two spaces apart, each as wide as its widest
/// cell: the columns in `left` read left to right (names, verdicts), the others are
/// right-aligned (numbers). Trailing spaces are trimmed; `indent` starts every line.
pub fn columns(header: &[String], rows: &[Vec<String>], left: &[usize], indent: &str) -> String {
    let width = |i: usize| {
        rows.iter()
            .chain([&header.to_vec()])
            .map(|r| r.get(i).map_or(0, |c| c.chars().count()))
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..header.len()).map(width).collect();
    let mut out = String::new();
    for row in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
        let mut line = String::from(indent);
        for (i, cell) in row.iter().enumerate() {
            let pad = " ".repeat(widths[i] - cell.chars().count());
            if left.contains(&i) {
                line.push_str(&format!("{cell}{pad}  "));
            } else {
                line.push_str(&format!("{pad}{cell}  "));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A duration in nanoseconds, with a unit that keeps 3–4 significant digits.
pub(crate) fn format_ns(ns: f64) -> String {
    let a = ns.abs();
    let (v, unit) = if a >= 1e9 {
        (ns / 1e9, "s")
    } else if a >= 1e6 {
        (ns / 1e6, "ms")
    } else if a >= 1e3 {
        (ns / 1e3, "µs")
    } else {
        (ns, "ns")
    };
    let digits = if v.abs() >= 100.0 {
        1
    } else if v.abs() >= 10.0 {
        2
    } else {
        3
    };
    format!("{v:.digits$} {unit}")
}

/// A rate (`per` units per second) with a metric prefix: `1.23 G`, `456 k`.
pub(crate) fn format_rate(per_second: f64) -> String {
    let a = per_second.abs();
    let (v, prefix) = if a >= 1e9 {
        (per_second / 1e9, "G")
    } else if a >= 1e6 {
        (per_second / 1e6, "M")
    } else if a >= 1e3 {
        (per_second / 1e3, "k")
    } else {
        (per_second, "")
    };
    format!("{v:.3} {prefix}")
}

/// A count with a k/M suffix.
pub(crate) fn format_count(n: usize) -> String {
    if n >= 10_000_000 {
        format!("{:.0}M", n as f64 / 1e6)
    } else if n >= 1_000_000 {
        format!("{:.1}M", n as f64 / 1e6)
    } else if n >= 10_000 {
        format!("{:.0}k", n as f64 / 1e3)
    } else {
        n.to_string()
    }
}

/// The live progress of one bench.
pub(crate) struct Progress {
    name: String,
    bar: Option<ProgressBar>,
    plain: bool,
    last_line: Instant,
}

impl Progress {
    /// Starts showing progress for `name`.
    pub(crate) fn start(name: &str) -> Self {
        let terminal = std::io::stderr().is_terminal();
        let ci = std::env::var_os("CI").is_some();
        let bar = terminal.then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {prefix:.bold} {wide_msg}")
                    .expect("a valid template"),
            );
            bar.set_prefix(name.to_string());
            bar.set_message("calibrating…");
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        Progress {
            name: name.to_string(),
            bar,
            plain: !terminal && !ci,
            last_line: Instant::now(),
        }
    }

    /// Shows the current estimate: `mean ± half-width (reached / target) ETA`.
    pub(crate) fn update(
        &mut self,
        mean_ns: f64,
        relative_hw: f64,
        target: f64,
        eta: Option<Duration>,
    ) {
        let eta = eta.map_or(String::new(), |d| {
            format!("  ETA {:.0} s", d.as_secs_f64().ceil())
        });
        let msg = format!(
            "{} ± {:.2}% (target {:.2}%){eta}",
            format_ns(mean_ns),
            100.0 * relative_hw,
            100.0 * target
        );
        if let Some(bar) = &self.bar {
            bar.set_message(msg);
        } else if self.plain && self.last_line.elapsed() >= Duration::from_secs(2) {
            eprintln!("  {}: {msg}", self.name);
            self.last_line = Instant::now();
        }
    }

    /// Shows a free-form status, e.g. a group's cycle count.
    pub(crate) fn message(&mut self, msg: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(msg.to_string());
        } else if self.plain && self.last_line.elapsed() >= Duration::from_secs(2) {
            eprintln!("  {}: {msg}", self.name);
            self.last_line = Instant::now();
        }
    }

    /// Removes the live line.
    pub(crate) fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_rates_read_well() {
        assert_eq!(format_ns(0.4567), "0.457 ns");
        assert_eq!(format_ns(12_345.0), "12.35 µs");
        assert_eq!(format_ns(123_456_789.0), "123.5 ms");
        assert_eq!(format_ns(2.5e9), "2.500 s");
        assert_eq!(format_rate(2.5e9), "2.500 G");
        assert_eq!(format_count(123_456), "123k");
        assert_eq!(format_count(999), "999");
    }
}
