//! Reading hyperfine's `--export-json` files as pilot series.
//!
//! `{"results": [{"command", "mean", "stddev", "median", "user", "system", "min", "max",
//! "times": [seconds], "exit_codes", "parameters": {VAR: value}}]}`: each result is one
//! program, each of its `times` one run's wall time (hyperfine has already subtracted the
//! shell's start-up), a reading of pilot's in nanoseconds, in the order hyperfine ran them.

use std::path::Path;

use anyhow::{Context, anyhow, bail};
use serde::Deserialize;

use super::{Series, check_time};

/// The bench target `cargo pilot run` keeps programs' results under.
pub const TARGET: &str = crate::program::TARGET;

#[derive(Deserialize)]
struct Export {
    results: Vec<Result>,
}

#[derive(Deserialize)]
struct Result {
    command: String,
    /// Each run's wall time in seconds (hyperfine 1.7 and later write them).
    times: Option<Vec<f64>>,
    #[serde(default)]
    parameters: serde_json::Map<String, serde_json::Value>,
}

/// The name `cargo pilot run` gives the same program: the command (or its `-n` name, which
/// hyperfine writes as `command`), then `/VAR=value` for each scanned parameter, in the
/// file's order (hyperfine sorts them by name).
fn pilot_name(r: &Result) -> String {
    let mut name = r.command.clone();
    for (var, value) in &r.parameters {
        let value = value
            .as_str()
            .map_or_else(|| value.to_string(), str::to_string);
        name.push_str(&format!("/{var}={value}"));
    }
    name
}

/// Every program of the hyperfine export at `path`, as series of readings in nanoseconds.
pub fn read(path: &Path) -> anyhow::Result<Vec<Series>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("failed to read `{}`", path.display()))?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| anyhow!("`{}`: malformed JSON ({e})", path.display()))?;
    let export: Export = serde_path_to_error::deserialize(value).map_err(|e| {
        anyhow!(
            "`{}`: not a hyperfine `--export-json` file: `{}`: {}",
            path.display(),
            e.path(),
            e.inner()
        )
    })?;
    if export.results.is_empty() {
        bail!("`{}`: `results` is empty", path.display());
    }
    let mut out = Vec::new();
    for (i, r) in export.results.iter().enumerate() {
        let Some(times) = &r.times else {
            bail!(
                "`{}`: `results[{i}].times` is missing: hyperfine 1.7 and later write each run's \
                 time",
                path.display()
            );
        };
        if times.len() < 2 {
            bail!(
                "`{}`: `results[{i}].times` holds {} run(s); an interval needs at least 2",
                path.display(),
                times.len()
            );
        }
        if r.command.is_empty() {
            bail!(
                "`{}`: `results[{i}].command` is empty: pilot names the bench by it",
                path.display()
            );
        }
        for (j, &t) in times.iter().enumerate() {
            check_time(path, &format!("results[{i}].times[{j}]"), t, "s")?;
        }
        out.push(Series {
            name: pilot_name(r),
            origin: r.command.clone(),
            target: TARGET.to_string(),
            source: path.to_path_buf(),
            readings: times.iter().map(|t| t * 1e9).collect(),
            total_ns: times.iter().sum::<f64>() * 1e9,
            work: times.len() as u64,
            throughput: None,
            form: pilot_format::Form::Full,
            what: format!("{} runs of hyperfine's, each one reading", times.len()),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cargo_pilot_runs() {
        let r: Result = serde_json::from_str(
            r#"{"command": "gzip -1", "times": [1, 2],
                "parameters": {"c": "gzip", "n": "1"}}"#,
        )
        .unwrap();
        assert_eq!(pilot_name(&r), "gzip -1/c=gzip/n=1");
        let r: Result = serde_json::from_str(r#"{"command": "sleep 0.1", "times": [1]}"#).unwrap();
        assert_eq!(pilot_name(&r), "sleep 0.1");
    }
}
