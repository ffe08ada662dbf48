//! Reading saved results back, for comparisons and listings.
//!
//! Every document is validated before use: a corrupt, truncated or foreign file, or one written
//! by a newer pilot, is an [`Error::InvalidResult`] naming the file and the key at fault, never
//! a panic and never a silently wrong number.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::result::RESULT_SCHEMA;
use crate::error::{Error, Result};
use crate::stats::summary::t_critical;

/// The schema of a whole run's document (`--json FILE`), which holds result documents.
pub(crate) const RUN_SCHEMA: &str = "pilot.run/1";

/// One bench's saved result (a `pilot.result/1` document), as comparisons and listings use it.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedResult {
    /// The file it was read from.
    pub path: PathBuf,
    /// The bench's name, e.g. `sort_10k` or `parse::json`.
    pub name: String,
    /// The bench target (binary) it belongs to; empty when the document does not say.
    pub target: String,
    /// `ok`, `time cap`, `no steady state`, `below clock resolution` or `failed`.
    pub status: String,
    /// Why the bench failed, when it did.
    pub status_detail: Option<String>,
    /// The time per unit; `None` when the session ended without an estimate.
    pub time: Option<SavedEstimate>,
    /// When the session finished (RFC 3339), when known.
    pub finished: Option<String>,
    /// Warnings the session raised.
    pub warnings: Vec<String>,
}

/// The time per unit of a saved result, with what a comparison needs to weigh it.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedEstimate {
    /// Mean time per unit, in nanoseconds.
    pub mean: f64,
    /// Lower bound of the confidence interval.
    pub low: f64,
    /// Upper bound of the confidence interval.
    pub high: f64,
    /// Confidence level of the interval.
    pub confidence: f64,
    /// Which variation decided the interval: `readings`, `rounds`, `processes` or
    /// `regression`.
    pub interval_from: String,
    /// Degrees of freedom behind the interval: independent samples of the deciding variation
    /// less one (less two for a regression).
    pub dof: f64,
    /// The independent samples behind the estimate: subsession means of one process, or the
    /// estimates of several process executions.
    pub samples: SampleMoments,
    /// Each process execution's estimate, when the bench ran in several (else empty).
    pub process_means: Vec<f64>,
}

/// Count, mean and variance of a result's independent samples (`subsession` in the document).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SampleMoments {
    /// Number of samples.
    pub count: usize,
    /// Their mean.
    pub mean: f64,
    /// Their sample variance (n − 1 denominator), before any inflation.
    pub variance: f64,
    /// Factor for the correlation left between the samples; multiply the variance by it.
    pub variance_inflation: f64,
}

impl SavedEstimate {
    /// The squared standard error of the mean: the larger of what the independent samples give
    /// (`variance · inflation / count`) and what the saved interval implies
    /// (`(half-width / t)²`), so that an interval widened by the variation between rounds or
    /// processes is honoured.
    pub fn standard_error_squared(&self) -> f64 {
        let s = &self.samples;
        let from_samples = if s.count > 0 {
            s.variance * s.variance_inflation / s.count as f64
        } else {
            0.0
        };
        let half = (self.high - self.low) / 2.0;
        let from_interval = if self.dof >= 1.0 && half.is_finite() {
            (half / t_critical(self.confidence, self.dof)).powi(2)
        } else {
            0.0
        };
        from_samples.max(from_interval)
    }

    /// Whether the estimate came from several process executions.
    pub fn is_multi_process(&self) -> bool {
        self.process_means.len() >= 2
    }
}

/// Reads one result document, or every result in a `pilot.run/1` document.
pub fn read_file(path: &Path) -> Result<Vec<SavedResult>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::ReadFailed {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    let invalid = |problem: String| Error::InvalidResult {
        path: path.to_path_buf(),
        problem,
    };
    if text.trim().is_empty() {
        return Err(invalid("the file is empty".into()));
    }
    let doc: Value = serde_json::from_str(&text).map_err(|e| {
        invalid(if e.is_eof() {
            format!("the JSON ends early, the file is truncated ({e})")
        } else {
            format!("malformed JSON ({e})")
        })
    })?;
    match doc.get("schema").and_then(Value::as_str) {
        Some(RUN_SCHEMA) => {
            let results = doc
                .get("results")
                .and_then(Value::as_array)
                .ok_or_else(|| invalid("`results` is missing or not a list".into()))?;
            results
                .iter()
                .enumerate()
                .map(|(i, r)| parse(r, path).map_err(|p| invalid(format!("results[{i}]: {p}"))))
                .collect()
        }
        _ => Ok(vec![parse(&doc, path).map_err(invalid)?]),
    }
}

/// Validates a result document held in memory (for example one of a `pilot.run/1`
/// document's `results`), as if read from `path`.
pub fn from_document(doc: &Value, path: &Path) -> Result<SavedResult> {
    parse(doc, path).map_err(|problem| Error::InvalidResult {
        path: path.to_path_buf(),
        problem,
    })
}

/// Reads every result under `dir`: `*.json` files in it and in its subfolders (one per bench
/// target, as in `target/pilot/results/<target>/`, and one per `/` of a bench name), sorted by
/// (target, name). Temporary files of writes in progress are skipped. A file that is not a
/// valid result is an error.
///
/// A bench with two files (one where this version stores it, one where an older version named
/// files differently) is read from where this version stores it; the other is stale.
pub fn read_dir(dir: &Path) -> Result<Vec<SavedResult>> {
    let mut files = Vec::new();
    collect_json(dir, MAX_DEPTH, &mut files)?;
    files.sort();
    let mut out: Vec<(SavedResult, bool)> = Vec::new();
    for f in files {
        for r in read_file(&f)? {
            let canonical = f.ends_with(super::file_name(&r.name));
            out.push((r, canonical));
        }
    }
    out.sort_by(|(a, ac), (b, bc)| (&a.target, &a.name, !ac).cmp(&(&b.target, &b.name, !bc)));
    out.dedup_by(|(later, _), (first, _)| later.target == first.target && later.name == first.name);
    Ok(out.into_iter().map(|(r, _)| r).collect())
}

/// Folder levels searched for results: a target's folder and up to 30 `/` in a bench name.
const MAX_DEPTH: usize = 32;

/// Reads a file or a folder of results.
pub fn read_path(path: &Path) -> Result<Vec<SavedResult>> {
    if path.is_dir() {
        read_dir(path)
    } else {
        read_file(path)
    }
}

fn collect_json(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) -> Result<()> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::ReadFailed {
        path: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    for entry in entries.flatten() {
        let path = entry.path();
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        if hidden {
            continue;
        }
        if path.is_dir() {
            if depth > 1 {
                collect_json(&path, depth - 1, out)?;
            }
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
    Ok(())
}

/// Validates one `pilot.result/1` document; the error names the key at fault.
fn parse(doc: &Value, path: &Path) -> std::result::Result<SavedResult, String> {
    let schema = doc.get("schema").and_then(Value::as_str).ok_or(
        "no `schema` key: not a pilot result document (expected `pilot.result/1`)".to_string(),
    )?;
    if schema != RESULT_SCHEMA {
        let newer = schema
            .strip_prefix("pilot.result/")
            .and_then(|v| v.parse::<u32>().ok())
            .is_some_and(|v| v > 1);
        return Err(if newer {
            format!(
                "schema `{schema}` was written by a newer pilot; this one reads \
                 `{RESULT_SCHEMA}`: update cargo-pilot and pilot"
            )
        } else {
            format!("schema `{schema}` is not `{RESULT_SCHEMA}`")
        });
    }
    let text = |key: &str| -> std::result::Result<String, String> {
        doc.get(key)
            .and_then(Value::as_str)
            .map(String::from)
            .ok_or(format!("`{key}` is missing or not a string"))
    };
    let name = text("name")?;
    if name.is_empty() {
        return Err("`name` is empty".into());
    }
    let status = text("status")?;
    let time = match doc.get("pis").and_then(Value::as_array) {
        None => return Err("`pis` is missing or not a list".into()),
        Some(pis) if pis.is_empty() => {
            if status == "ok" {
                return Err("`pis` is empty but `status` is `ok`".into());
            }
            None
        }
        Some(pis) => Some(estimate(&pis[0], doc)?),
    };
    Ok(SavedResult {
        path: path.to_path_buf(),
        name,
        target: doc
            .get("target")
            .and_then(Value::as_str)
            .unwrap_or("")
            .into(),
        status,
        status_detail: doc
            .get("status_detail")
            .and_then(Value::as_str)
            .map(String::from),
        time,
        finished: doc
            .get("finished")
            .and_then(Value::as_str)
            .map(String::from),
        warnings: doc
            .get("warnings")
            .and_then(Value::as_array)
            .map(|ws| {
                ws.iter()
                    .filter_map(|w| w.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default(),
    })
}

/// A number at `key` of `v` (reported as `at.key`), finite and passing `ok`.
fn number(
    v: &Value,
    at: &str,
    key: &str,
    expected: &str,
    ok: impl Fn(f64) -> bool,
) -> std::result::Result<f64, String> {
    match v.get(key).and_then(Value::as_f64) {
        Some(x) if x.is_finite() && ok(x) => Ok(x),
        Some(x) => Err(format!("`{at}.{key}` is {x}, expected {expected}")),
        None => Err(format!("`{at}.{key}` is missing or not a number")),
    }
}

fn estimate(pi: &Value, doc: &Value) -> std::result::Result<SavedEstimate, String> {
    if pi.get("name").and_then(Value::as_str) != Some("time") {
        return Err("`pis[0]` is not the `time` performance index".into());
    }
    let mean = number(pi, "pis[0]", "mean", "a positive time", |x| x > 0.0)?;
    let ci = pi.get("ci").ok_or("`pis[0].ci` is missing")?;
    let low = number(ci, "pis[0].ci", "low", "a number", |_| true)?;
    let high = number(ci, "pis[0].ci", "high", "a number at least the mean", |x| {
        x >= mean
    })?;
    if low > mean {
        return Err(format!(
            "`pis[0].ci.low` ({low}) is above the mean ({mean})"
        ));
    }
    let confidence = number(ci, "pis[0].ci", "confidence", "between 0 and 1", |x| {
        x > 0.0 && x < 1.0
    })?;
    let sub = doc
        .get("subsession")
        .filter(|s| !s.is_null())
        .ok_or("`subsession` is missing: the comparison needs its samples' statistics")?;
    let count = number(sub, "subsession", "count", "at least 1", |x| {
        x >= 1.0 && x.fract() == 0.0
    })? as usize;
    let samples = SampleMoments {
        count,
        mean: number(sub, "subsession", "mean", "a number", |_| true)?,
        variance: number(sub, "subsession", "variance", "0 or more", |x| x >= 0.0)?,
        variance_inflation: number(sub, "subsession", "variance_inflation", "1 or more", |x| {
            x >= 1.0 - 1e-9
        })?,
    };
    let process_means: Vec<f64> = match doc.get("processes").and_then(|p| p.get("means")) {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(ms)) => ms
            .iter()
            .enumerate()
            .map(|(i, m)| {
                // A process's readings-only slope may be 0 or less when noise swamped its
                // rounds; the mean over processes is what has to be positive.
                m.as_f64()
                    .filter(|x| x.is_finite())
                    .ok_or(format!("`processes.means[{i}]` is not a number"))
            })
            .collect::<std::result::Result<_, _>>()?,
        Some(_) => return Err("`processes.means` is not a list".into()),
    };
    let interval_from = pi
        .get("interval_from")
        .and_then(Value::as_str)
        .unwrap_or("readings")
        .to_string();
    let analysed_rounds = doc.get("rounds").and_then(Value::as_array).map_or(0, |rs| {
        rs.iter()
            .filter(|r| r["analysed"].as_bool() == Some(true) && !r["stable"].is_null())
            .count()
    });
    let dof = match interval_from.as_str() {
        "processes" => process_means.len() as f64 - 1.0,
        "rounds" => analysed_rounds as f64 - 1.0,
        "regression" => count as f64 - 2.0,
        _ => count as f64 - 1.0,
    };
    Ok(SavedEstimate {
        mean,
        low,
        high,
        confidence,
        interval_from,
        dof,
        samples,
        process_means,
    })
}

/// The names of the saved baselines under `baselines_dir`, sorted.
pub fn baseline_names(baselines_dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(baselines_dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.path().is_dir())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// The folder of baseline `name` under `baselines_dir`, or an error naming the baselines that
/// exist.
pub fn baseline(baselines_dir: &Path, name: &str) -> Result<PathBuf> {
    let dir = baselines_dir.join(name);
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(Error::MissingBaseline {
            name: name.to_string(),
            dir: baselines_dir.to_path_buf(),
            saved: baseline_names(baselines_dir),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn valid() -> Value {
        json!({
            "schema": "pilot.result/1", "name": "sort", "target": "sorting", "status": "ok",
            "pis": [{"name": "time", "unit": "ns", "mean": 100.0,
                     "ci": {"low": 99.0, "high": 101.0, "confidence": 0.95},
                     "interval_from": "readings"}],
            "subsession": {"count": 40, "mean": 100.0, "variance": 4.0, "variance_inflation": 1.5},
            "processes": {"count": 1, "means": []},
            "rounds": [], "warnings": ["drift"], "finished": "2026-11-22T10:00:00Z",
        })
    }

    fn problem(doc: &Value) -> String {
        parse(doc, Path::new("r.json")).unwrap_err()
    }

    #[test]
    fn a_valid_document_is_read_whole() {
        let r = parse(&valid(), Path::new("r.json")).unwrap();
        let t = r.time.unwrap();
        assert_eq!((r.name.as_str(), r.target.as_str()), ("sort", "sorting"));
        assert_eq!((t.mean, t.dof, t.samples.count), (100.0, 39.0, 40));
        // From the samples: 4 · 1.5 / 40 = 0.15; from the interval: (1 / t(0.95, 39))².
        let from_interval = (1.0 / t_critical(0.95, 39.0)).powi(2);
        assert!(from_interval > 0.15);
        assert_eq!(t.standard_error_squared(), from_interval);
        assert_eq!(r.warnings, vec!["drift"]);
    }

    #[test]
    fn every_defect_names_its_key() {
        let mut d = valid();
        d["schema"] = json!("pilot.result/2");
        assert!(problem(&d).contains("newer pilot"), "{}", problem(&d));
        let mut d = valid();
        d.as_object_mut().unwrap().remove("schema");
        assert!(problem(&d).starts_with("no `schema` key"));
        let mut d = valid();
        d["pis"][0]["mean"] = json!("fast");
        assert_eq!(problem(&d), "`pis[0].mean` is missing or not a number");
        let mut d = valid();
        d["pis"][0]["mean"] = json!(-3.0);
        assert_eq!(problem(&d), "`pis[0].mean` is -3, expected a positive time");
        let mut d = valid();
        d["subsession"]["variance"] = json!(-1.0);
        assert!(problem(&d).starts_with("`subsession.variance` is -1"));
        let mut d = valid();
        d["processes"]["means"] = json!([1.0, null]);
        assert_eq!(problem(&d), "`processes.means[1]` is not a number");
        // One process's readings-only slope may be negative; the mean over them may not.
        let mut d = valid();
        d["processes"]["means"] = json!([1.2, -0.1]);
        let saved = from_document(&d, Path::new("x.json")).unwrap();
        assert_eq!(saved.time.unwrap().process_means, vec![1.2, -0.1]);
        let mut d = valid();
        d["status"] = json!("unresolved");
        d["pis"] = json!([]);
        assert!(
            from_document(&d, Path::new("x.json"))
                .unwrap()
                .time
                .is_none()
        );
        let mut d = valid();
        d["pis"] = json!([]);
        assert_eq!(problem(&d), "`pis` is empty but `status` is `ok`");
    }

    #[test]
    fn files_that_are_truncated_empty_or_missing_are_errors_naming_the_file() {
        let dir = std::env::temp_dir().join(format!("pilot-read-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("t")).unwrap();
        let good = serde_json::to_string_pretty(&valid()).unwrap();
        std::fs::write(dir.join("t/good.json"), &good).unwrap();
        std::fs::write(dir.join("t/.good.json.1.tmp"), "{").unwrap();
        assert_eq!(
            read_dir(&dir).unwrap().len(),
            1,
            "temporary files are skipped"
        );
        std::fs::write(dir.join("t/cut.json"), &good[..good.len() / 2]).unwrap();
        let e = read_dir(&dir).unwrap_err().to_string();
        assert!(e.contains("cut.json") && e.contains("truncated"), "{e}");
        std::fs::write(dir.join("t/cut.json"), "").unwrap();
        assert!(read_dir(&dir).unwrap_err().to_string().contains("empty"));
        let e = read_file(&dir.join("none.json")).unwrap_err().to_string();
        assert!(
            e.starts_with("failed to read") && e.contains("none.json"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_baseline_names_the_ones_that_exist() {
        let dir = std::env::temp_dir().join(format!("pilot-baselines-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("main")).unwrap();
        std::fs::create_dir_all(dir.join("v1.2")).unwrap();
        assert_eq!(baseline(&dir, "main").unwrap(), dir.join("main"));
        let e = baseline(&dir, "mian").unwrap_err().to_string();
        assert!(e.starts_with("no baseline `mian`"), "{e}");
        assert!(e.ends_with("saved baselines: main, v1.2)"), "{e}");
        let e = baseline(&dir.join("nowhere"), "x").unwrap_err().to_string();
        assert!(e.contains("no baselines are saved"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
