//! Reading saved results back, for comparisons and listings.
//!
//! Every document is validated before use: a corrupt, truncated or foreign file, or one written
//! by a newer pilot, is an [`Error::InvalidResult`] naming the file and the key at fault, never
//! a panic and never a silently wrong number.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::{Error, Result};
use pilot_format::{RESULT_SCHEMA, RUN_SCHEMA, ResultDoc, RunDoc};

mod baselines;
mod saved;

pub use baselines::baseline;
use saved::saved;
pub use saved::{RunToRun, SampleMoments, SavedCount, SavedEstimate, SavedPi, SavedResult};

/// Reads one result document, or every result in a `pilot.run/1` document.
pub fn read_file(path: &Path) -> Result<Vec<SavedResult>> {
    let invalid = |problem: String| Error::InvalidResult {
        path: path.to_path_buf(),
        problem,
    };
    let doc = read_json(path)?;
    match doc.get("schema").and_then(Value::as_str) {
        Some(RUN_SCHEMA) => {
            let run: RunDoc = typed(doc).map_err(invalid)?;
            run.results
                .iter()
                .enumerate()
                .map(|(i, r)| saved(r, path).map_err(|p| invalid(format!("results[{i}]: {p}"))))
                .collect()
        }
        _ => Ok(vec![
            saved(&result_doc(doc).map_err(invalid)?, path).map_err(invalid)?,
        ]),
    }
}

/// Reads the result documents of one file whole: a `pilot.result/1` document, or every result
/// in a `pilot.run/1` document; each checked by [`ResultDoc::validate`]. Errors name the file
/// and the key at fault, as [`read_file`]'s do.
fn read_documents(path: &Path) -> Result<Vec<ResultDoc>> {
    let invalid = |problem: String| Error::InvalidResult {
        path: path.to_path_buf(),
        problem,
    };
    let doc = read_json(path)?;
    let docs = match doc.get("schema").and_then(Value::as_str) {
        Some(RUN_SCHEMA) => typed::<RunDoc>(doc).map_err(invalid)?.results,
        _ => vec![result_doc(doc).map_err(invalid)?],
    };
    for (i, d) in docs.iter().enumerate() {
        d.validate().map_err(|p| {
            invalid(if docs.len() > 1 {
                format!("results[{i}]: {p}")
            } else {
                p
            })
        })?;
    }
    Ok(docs)
}

/// The result documents under `path`, whole, each checked by [`ResultDoc::validate`]: every
/// `*.json` below a folder as [`read_dir`] reads it (sorted by (target, name), a bench's stale
/// second file skipped), or one file; a `pilot.run/1` document gives each of its results.
pub fn read_documents_in(path: &Path) -> Result<Vec<ResultDoc>> {
    if !path.is_dir() {
        return read_documents(path);
    }
    read_tree(path, read_documents, |d| (&d.target, &d.name))
}

/// Reads one `pilot.result/1` document whole, checked by [`ResultDoc::validate`].
pub fn read_result(path: &Path) -> Result<ResultDoc> {
    let invalid = |problem: String| Error::InvalidResult {
        path: path.to_path_buf(),
        problem,
    };
    let doc = result_doc(read_json(path)?).map_err(invalid)?;
    doc.validate().map_err(invalid)?;
    Ok(doc)
}

/// The JSON of the file at `path`; an empty, truncated or malformed file is an error naming
/// it.
fn read_json(path: &Path) -> Result<Value> {
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
    serde_json::from_str(&text).map_err(|e| {
        invalid(if e.is_eof() {
            format!("the JSON ends early, the file is truncated ({e})")
        } else {
            format!("malformed JSON ({e})")
        })
    })
}

/// A result document from its JSON, its schema checked first so that a foreign or newer file
/// says so rather than which key it lacks.
fn result_doc(doc: Value) -> std::result::Result<ResultDoc, String> {
    let schema = doc.get("schema").and_then(Value::as_str).ok_or(
        "no `schema` key: not a pilot result document (expected `pilot.result/1`)".to_string(),
    )?;
    pilot_format::check_schema(schema, RESULT_SCHEMA)?;
    typed(doc)
}

/// `doc` as a `T`; an error names the key at fault (`pis[0].mean: invalid type: …`).
pub(crate) fn typed<T: DeserializeOwned>(doc: Value) -> std::result::Result<T, String> {
    serde_path_to_error::deserialize(doc).map_err(|e| {
        let at = e.path().to_string();
        let inner = e.into_inner();
        format!("`{at}`: {inner}")
    })
}

/// Validates a result document held in memory (for example one of a `pilot.run/1`
/// document's `results`), as if read from `path`.
pub fn from_document(doc: &ResultDoc, path: &Path) -> Result<SavedResult> {
    saved(doc, path).map_err(|problem| Error::InvalidResult {
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
    read_tree(dir, read_file, |r| (&r.target, &r.name))
}

/// Every `*.json` below `dir` read with `read`, sorted by `key` (target, name); of a bench's
/// two files the one where this version stores it is kept.
fn read_tree<T>(
    dir: &Path,
    read: impl Fn(&Path) -> Result<Vec<T>>,
    key: impl Fn(&T) -> (&str, &str),
) -> Result<Vec<T>> {
    let mut files = Vec::new();
    collect_json(dir, MAX_DEPTH, &mut files)?;
    files.sort();
    let mut out: Vec<(T, bool)> = Vec::new();
    for f in files {
        for r in read(&f)? {
            let canonical = f.ends_with(super::file_name(key(&r).1));
            out.push((r, canonical));
        }
    }
    out.sort_by(|(a, ac), (b, bc)| {
        let ((at, an), (bt, bn)) = (key(a), key(b));
        (at, an, !ac).cmp(&(bt, bn, !bc))
    });
    out.dedup_by(|(later, _), (first, _)| key(later) == key(first));
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

#[cfg(test)]
mod tests {
    use super::*;
    use pilot_stats::summary::t_critical;
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

    /// What is wrong with `doc`, as the reader says it.
    fn problem(doc: &Value) -> String {
        match result_doc(doc.clone()) {
            Err(e) => e,
            Ok(d) => saved(&d, Path::new("r.json")).unwrap_err(),
        }
    }

    fn read(doc: &Value) -> SavedResult {
        saved(&result_doc(doc.clone()).unwrap(), Path::new("r.json")).unwrap()
    }

    #[test]
    fn a_valid_document_is_read_whole() {
        let r = read(&valid());
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
    fn an_older_documents_widened_interval_reads_as_the_runs_own_and_its_run_to_run() {
        // Written before reproducibility was a figure of its own: `ci` widened by the speed
        // probe's 2% over 8 runs, `machine.run_ci` the run's own 100 ± 1 over 39 dof.
        let mut d = valid();
        d["pis"][0]["ci"] = json!({"low": 90.0, "high": 110.0, "confidence": 0.95});
        d["pis"][0]["interval_from"] = json!("machine");
        d["pis"][0]["machine"] = json!({
            "run_ci": {"low": 99.0, "high": 101.0, "confidence": 0.95},
            "run_interval_from": "readings", "run_to_run": 0.02, "runs": 8,
            "learnt_from": "probe"});
        let t = read(&d).time.unwrap();
        assert_eq!(
            (t.low, t.high, t.interval_from.as_str()),
            (99.0, 101.0, "readings")
        );
        assert_eq!(t.dof, 39.0);
        // The probe's part is the machine alone: this run's own relative standard error
        // (1 / t(0.975, 39) / 100, the interval's, larger than the samples') is added to it,
        // with the runs less one as the degrees of freedom, as comparisons took them.
        let se = 1.0 / t_critical(0.95, 39.0) / 100.0;
        let r = t.run_to_run.unwrap();
        assert!((r.sd - 0.02f64.hypot(se)).abs() < 1e-15, "{r:?}");
        assert_eq!((r.dof, r.runs), (7.0, 8));
        // A bench's own spread over earlier runs held their own noise: taken whole.
        d["pis"][0]["machine"]["learnt_from"] = json!("bench");
        let r = read(&d).time.unwrap().run_to_run.unwrap();
        assert_eq!((r.sd, r.dof), (0.02, 7.0));
        // No part at all (a group member's): the machine record's probe variation.
        let mut d = valid();
        d["machine"] = json!({"os": "linux", "arch": "x86_64", "pilot": "0.1.0",
                              "speed": {"probe_ns": 1e6, "run_to_run": 0.01, "runs": 6}});
        let r = read(&d).time.unwrap().run_to_run.unwrap();
        assert!((r.sd - 0.01f64.hypot(se)).abs() < 1e-15, "{r:?}");
        assert_eq!((r.dof, r.runs), (5.0, 6));
    }

    #[test]
    fn a_documents_reproducibility_is_its_run_to_run() {
        let mut d = valid();
        d["pis"][0]["reproducibility"] = json!({"state": "learnt", "center": 100.5,
            "low": 97.0, "high": 104.1, "half_width": 0.035, "sd": 0.012, "dof": 4.2,
            "runs": 6, "learnt_from": "bench"});
        // The machine record's probe variation is not taken: the band is the bench's own.
        d["machine"] = json!({"os": "linux", "arch": "x86_64", "pilot": "0.1.0",
                              "speed": {"probe_ns": 1e6, "run_to_run": 0.05, "runs": 6}});
        let t = read(&d).time.unwrap();
        assert_eq!((t.low, t.high), (99.0, 101.0));
        let r = t.run_to_run.unwrap();
        assert_eq!((r.sd, r.dof, r.runs), (0.012, 4.2, 6));
        // Still learning: nothing to add to a comparison across runs yet.
        d["pis"][0]["reproducibility"] =
            json!({"state": "learning", "runs": 2, "runs_needed": 3, "spacing_s": 60});
        assert_eq!(read(&d).time.unwrap().run_to_run, None);
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
        assert!(
            problem(&d).starts_with("`pis[0].mean`: invalid type"),
            "{}",
            problem(&d)
        );
        let mut d = valid();
        d["pis"][0]["mean"] = json!(-3.0);
        assert_eq!(problem(&d), "`pis[0].mean` is -3, expected a positive time");
        let mut d = valid();
        d["subsession"]["variance"] = json!(-1.0);
        assert!(problem(&d).starts_with("`subsession.variance` is -1"));
        let mut d = valid();
        d["processes"]["means"] = json!([1.0, null]);
        assert!(
            problem(&d).starts_with("`processes.means[1]`: invalid type"),
            "{}",
            problem(&d)
        );
        // One process's readings-only slope may be negative; the mean over them may not.
        let mut d = valid();
        d["processes"]["means"] = json!([1.2, -0.1]);
        assert_eq!(read(&d).time.unwrap().process_means, vec![1.2, -0.1]);
        let mut d = valid();
        d["status"] = json!("unresolved");
        d["pis"] = json!([]);
        assert!(read(&d).time.is_none());
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
}
