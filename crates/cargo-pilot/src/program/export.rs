//! `cargo pilot run`'s exports in hyperfine's shapes, so that tools reading hyperfine's files
//! read pilot's: `--export-json` (`{"results": [{"command", "mean", "stddev", "median",
//! "user", "system", "min", "max", "times", "exit_codes", "parameters"}]}`, seconds),
//! `--export-csv` (`command,mean,stddev,median,user,system,min,max`, then one column per
//! parameter) and `--export-markdown` (hyperfine's table, with pilot's interval).
//!
//! Where the shapes differ in meaning: `mean` is pilot's estimate (the stable runs' mean after
//! the warm-up was cut, or the fitted time per unit of work in work mode), and `times`,
//! `stddev`, `median`, `min`, `max` describe the runs it came from (the stable runs; in work
//! mode, whole runs of different work amounts). pilot adds `ci_low`, `ci_high` and
//! `confidence` to each JSON result.
//!
//! A program is named as hyperfine names it ([`Program::label`](super::Program::label)): its
//! `-n` name, else its command, with the parameters beside it, so that `cargo pilot import
//! hyperfine` of the JSON gives pilot's names back. A program without an estimate (`below
//! shell resolution`, failed) is left out of all three, with a warning naming it: hyperfine's
//! shapes have no way to say "no time", and a mean of 0 would be a time it never had.

use serde_json::{Value, json};

use super::{Measured, Plan, write};

/// The stddev, median, min and max of `xs` in seconds (ns in); zeros when empty.
fn stats_s(xs: &[f64]) -> (f64, f64, f64, f64) {
    if xs.is_empty() {
        return (0.0, 0.0, 0.0, 0.0);
    }
    let s = pilot_stats::summary::Summary::of(xs).map_or(0.0, |s| s.std_dev);
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let median = pilot_stats::summary::median(&v);
    (s / 1e9, median / 1e9, v[0] / 1e9, v[v.len() - 1] / 1e9)
}

/// The mean of `xs` in seconds (ns in); 0 when empty.
fn mean_s(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        pilot_stats::summary::mean(xs) / 1e9
    }
}

/// One program's entry of the hyperfine JSON; `None` without an estimate, which hyperfine's
/// shape cannot hold.
fn json_result(m: &Measured) -> Option<Value> {
    let e = m.session.estimate.as_ref()?;
    let (stddev, median, min, max) = stats_s(&m.runs.wall_ns);
    let parameters: serde_json::Map<String, Value> = m
        .program
        .parameters
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    let mut r = json!({
        "command": m.program.label,
        "mean": e.mean / 1e9,
        "stddev": stddev,
        "median": median,
        "user": mean_s(&m.runs.user_ns),
        "system": mean_s(&m.runs.sys_ns),
        "min": min,
        "max": max,
        "times": m.runs.wall_ns.iter().map(|t| t / 1e9).collect::<Vec<f64>>(),
        "exit_codes": m.runs.codes,
        "ci_low": e.ci.low / 1e9,
        "ci_high": e.ci.high / 1e9,
        "confidence": e.ci.confidence,
    });
    if !parameters.is_empty() {
        r["parameters"] = Value::Object(parameters);
    }
    Some(r)
}

/// The programs the exports hold, with their JSON entries: those with an estimate.
fn exported(measured: &[Measured]) -> Vec<(&Measured, Value)> {
    measured
        .iter()
        .filter_map(|m| Some((m, json_result(m)?)))
        .collect()
}

/// The hyperfine-shaped JSON document.
pub(crate) fn hyperfine_json(measured: &[Measured]) -> Value {
    let results: Vec<Value> = exported(measured).into_iter().map(|(_, r)| r).collect();
    json!({ "results": results })
}

/// A text field of CSV: a formula's first character made text ([`pilot_engine::fmt::csv_text`]), and
/// quoted when it needs it.
fn csv_field(s: &str) -> String {
    let s = pilot_engine::fmt::csv_text(s);
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// hyperfine's CSV: a row per program, parameters as extra columns.
pub(crate) fn hyperfine_csv(measured: &[Measured]) -> String {
    let mut params: Vec<String> = Vec::new();
    for m in measured {
        for (k, _) in &m.program.parameters {
            if !params.contains(k) {
                params.push(k.clone());
            }
        }
    }
    let mut out = String::from("command,mean,stddev,median,user,system,min,max");
    for p in &params {
        out.push_str(&format!(",parameter_{}", csv_field(p)));
    }
    out.push('\n');
    for (m, r) in exported(measured) {
        let num = |k: &str| r[k].as_f64().unwrap_or(0.0).to_string();
        out.push_str(&csv_field(&m.program.label));
        for k in ["mean", "stddev", "median", "user", "system", "min", "max"] {
            out.push(',');
            out.push_str(&num(k));
        }
        for p in &params {
            out.push(',');
            let v = m.program.parameters.iter().find(|(k, _)| k == p);
            out.push_str(&v.map_or(String::new(), |(_, v)| csv_field(v)));
        }
        out.push('\n');
    }
    out
}

/// A time unit that keeps the means readable: its name and its seconds.
fn unit_for(seconds: f64) -> (&'static str, f64) {
    if seconds >= 1.0 {
        ("s", 1.0)
    } else if seconds >= 1e-3 {
        ("ms", 1e-3)
    } else {
        ("µs", 1e-6)
    }
}

/// hyperfine's Markdown table, with pilot's interval beside the mean and the ratio to the
/// fastest.
pub(crate) fn hyperfine_markdown(measured: &[Measured], confidence: f64) -> String {
    let rows = exported(measured);
    let means: Vec<f64> = rows
        .iter()
        .map(|(_, r)| r["mean"].as_f64().unwrap_or(0.0))
        .collect();
    let fastest = means
        .iter()
        .copied()
        .filter(|m| *m > 0.0)
        .fold(f64::INFINITY, f64::min);
    let (unit, scale) = unit_for(if fastest.is_finite() { fastest } else { 1.0 });
    let mut out = format!(
        "| Command | Mean [{unit}] | {:.0}% CI [{unit}] | Min [{unit}] | Max [{unit}] | Relative |\n\
         |:---|---:|---:|---:|---:|---:|\n",
        100.0 * confidence
    );
    for (m, r) in &rows {
        let f = |k: &str| r[k].as_f64().unwrap_or(0.0) / scale;
        let relative = if fastest.is_finite() && f("mean") > 0.0 {
            format!("{:.2}", r["mean"].as_f64().unwrap_or(0.0) / fastest)
        } else {
            "-".to_string()
        };
        out.push_str(&format!(
            "| {} | {:.3} | {:.3} … {:.3} | {:.3} | {:.3} | {relative} |\n",
            pilot_engine::fmt::markdown_code(&m.program.label_with_unused),
            f("mean"),
            f("ci_low"),
            f("ci_high"),
            f("min"),
            f("max"),
        ));
    }
    out
}

/// The warning that the exports `flags` leave out the programs without an estimate, naming
/// each with its status; `None` when every program is in them.
fn left_out_warning(flags: &[&str], measured: &[Measured]) -> Option<String> {
    let left: Vec<String> = measured
        .iter()
        .filter(|m| m.session.estimate.is_none())
        .map(|m| format!("`{}` ({})", m.program.name, m.doc.status))
        .collect();
    if flags.is_empty() || left.is_empty() {
        return None;
    }
    Some(format!(
        "{} leave{} out {}: hyperfine's shape cannot say that a program has no time, and a \
         mean of 0 would be a time it never had; pilot's results (and --json) keep the status",
        flags.join(", "),
        if flags.len() == 1 { "s" } else { "" },
        left.join(", ")
    ))
}

/// Writes the exports the plan asks for; the number of failed writes.
pub(super) fn write_all(plan: &Plan, measured: &[Measured]) -> usize {
    let asked = [
        (plan.export_json.is_some(), "--export-json"),
        (plan.export_csv.is_some(), "--export-csv"),
        (plan.export_markdown.is_some(), "--export-markdown"),
    ];
    let flags: Vec<&str> = asked
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, f)| *f)
        .collect();
    if let Some(w) = left_out_warning(&flags, measured) {
        say!("warning: {}", pilot_engine::fmt::terminal_lines(&w));
    }
    let mut failed = 0;
    if let Some(path) = &plan.export_json {
        let bytes = serde_json::to_vec_pretty(&hyperfine_json(measured)).expect("serialises");
        failed += write(path, &bytes);
    }
    if let Some(path) = &plan.export_csv {
        failed += write(path, hyperfine_csv(measured).as_bytes());
    }
    if let Some(path) = &plan.export_markdown {
        failed += write(
            path,
            hyperfine_markdown(measured, plan.confidence).as_bytes(),
        );
    }
    failed
}
