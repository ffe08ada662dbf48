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
use pilot_stats::summary::t_critical;

/// One bench's saved result (a `pilot.result/1` document), as comparisons and listings use it.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedResult {
    /// The file it was read from.
    pub path: PathBuf,
    /// The bench's name, e.g. `sort_10k` or `parse::json`.
    pub name: String,
    /// The bench target (binary) it belongs to; empty when the document does not say.
    pub target: String,
    /// One of [`pilot_format::STATUSES`]: `ok`, `time cap`, `no steady state`, `below clock
    /// resolution`, `below shell resolution`, `failed`, ….
    pub status: String,
    /// Why the bench failed, when it did; which resolution it is below, when it is.
    pub(crate) status_detail: Option<String>,
    /// The time per unit; `None` when the session ended without an estimate.
    pub time: Option<SavedEstimate>,
    /// The counts per unit the result has ([`pilot_format::ALLOCATION_PIS`]), compared like
    /// time.
    pub(crate) counts: Vec<SavedPi>,
    /// When the session finished (RFC 3339), when known.
    pub finished: Option<String>,
    /// Warnings the session raised.
    pub(crate) warnings: Vec<String>,
    /// The machine it was measured on, when the document says.
    pub(crate) machine: Option<pilot_format::MachineDoc>,
    /// What timed its units: `instant` (also for documents that do not say) or `tsc`.
    pub(crate) timer: String,
    /// Instructions per unit counted under callgrind, when they were (`--instructions`).
    pub(crate) instructions: Option<SavedCount>,
}

/// A count per unit of a saved result (instructions), with the processes it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedCount {
    /// The count per unit (per iteration in the micro form).
    pub(crate) mean: f64,
    /// Lower bound of its interval.
    pub(crate) low: f64,
    /// Upper bound.
    pub(crate) high: f64,
    /// Confidence level of the interval.
    pub(crate) confidence: f64,
    /// Each counting process's count (the mean alone when the document does not list them).
    pub(crate) process_means: Vec<f64>,
}

/// The time per unit of a saved result, with what a comparison needs to weigh it.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedEstimate {
    /// Mean time per unit, in nanoseconds.
    pub mean: f64,
    /// Lower bound of this run's confidence interval (in a document written before
    /// reproducibility was a figure of its own, the run's interval before the machine's
    /// variation widened it).
    pub low: f64,
    /// Upper bound of this run's confidence interval.
    pub high: f64,
    /// Confidence level of the interval.
    pub confidence: f64,
    /// Which variation decided the run's own interval: `readings`, `rounds`, `processes` or
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
    /// How one run's estimate moves from run to run on its machine, when that was learnt: a
    /// comparison across runs adds it to this run's own variance (see
    /// [`crate::compare::compare_estimates`]); one within a run leaves it out.
    pub run_to_run: Option<RunToRun>,
}

/// How much one run's estimate of a bench moves from run to run on its machine, as its result
/// learnt it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunToRun {
    /// Standard deviation of one run's estimate from run to run, relative, the run's own
    /// noise included.
    pub(crate) sd: f64,
    /// Degrees of freedom of [`sd`](Self::sd).
    pub(crate) dof: f64,
    /// Runs it was learnt from.
    pub(crate) runs: usize,
}

/// A count per unit of a saved result (`allocations`, `allocated_bytes`), as a comparison
/// weighs it.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedPi {
    /// The PI's name.
    pub(crate) name: String,
    /// Its unit (`allocs`, `B`).
    pub(crate) unit: String,
    /// Its mean and interval, with the samples they stand for.
    pub(crate) estimate: SavedEstimate,
}

impl SavedPi {
    /// A count PI called `name` in `unit` with `(mean, low, high, confidence)`, from `n`
    /// units in subsessions of `q`: its interval is taken as Student's t over the `n / q`
    /// subsession means (the standard error its half-width implies), which is how the result
    /// computed it.
    pub(crate) fn of_count(
        name: &str,
        unit: &str,
        (mean, low, high, confidence): (f64, f64, f64, f64),
        n: usize,
        q: usize,
    ) -> SavedPi {
        let count = (n / q.max(1)).max(2);
        let dof = (count - 1) as f64;
        let se = (high - low) / 2.0 / t_critical(confidence, dof);
        SavedPi {
            name: name.to_string(),
            unit: unit.to_string(),
            estimate: SavedEstimate {
                mean,
                low,
                high,
                confidence,
                interval_from: "readings".to_string(),
                dof,
                samples: SampleMoments {
                    count,
                    mean,
                    variance: se * se * count as f64,
                    variance_inflation: 1.0,
                },
                process_means: Vec::new(),
                run_to_run: None,
            },
        }
    }
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
    pub(crate) fn standard_error_squared(&self) -> f64 {
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
    pub(crate) fn is_multi_process(&self) -> bool {
        self.process_means.len() >= 2
    }
}

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

/// The view comparisons and listings use of a result document, once it is valid.
fn saved(doc: &ResultDoc, path: &Path) -> std::result::Result<SavedResult, String> {
    doc.validate()?;
    let time = doc.pis.first().map(|pi| {
        let sub = doc
            .subsession
            .as_ref()
            .expect("validated: an estimate has its samples");
        let process_means = doc.processes.means.clone();
        let count = sub.count;
        // The degrees of freedom are those of the run's own interval.
        let interval_from = match &pi.machine {
            Some(m) => m.run_interval_from.clone(),
            None => pi
                .interval_from
                .clone()
                .unwrap_or_else(|| "readings".to_string()),
        };
        let run_ci = pi.run_ci();
        let (low, high) = (
            run_ci.low.expect("validated"),
            run_ci.high.expect("validated"),
        );
        let dof = match interval_from.as_str() {
            "processes" | "modes" => process_means.len() as f64 - 1.0,
            "rounds" => doc.stable_rounds() as f64 - 1.0,
            "regression" => count as f64 - 2.0,
            _ => count as f64 - 1.0,
        };
        let mean = pi.mean.expect("validated");
        let mut e = SavedEstimate {
            mean,
            low,
            high,
            run_to_run: None,
            confidence: pi.ci.confidence,
            interval_from,
            dof,
            samples: SampleMoments {
                count,
                mean: sub.mean,
                variance: sub.variance,
                variance_inflation: sub.variance_inflation,
            },
            process_means,
        };
        // This run's relative standard error, which a variation of the machine alone (the
        // probe's, in older documents) adds to.
        e.run_to_run = run_to_run(doc, pi, e.standard_error_squared().sqrt() / mean);
        e
    });
    let counts = doc
        .pis
        .iter()
        .filter(|pi| pilot_format::ALLOCATION_PIS.contains(&pi.name.as_str()))
        .filter_map(|pi| {
            let bounds = (pi.mean?, pi.ci.low?, pi.ci.high?, pi.ci.confidence);
            Some(SavedPi::of_count(
                &pi.name,
                &pi.unit,
                bounds,
                pi.n,
                pi.subsession_size,
            ))
        })
        .collect();
    let instructions = doc
        .pis
        .iter()
        .find(|pi| pi.name == pilot_format::INSTRUCTIONS_PI)
        .map(|pi| {
            let mean = pi.mean.expect("validated");
            SavedCount {
                mean,
                low: pi.ci.low.expect("validated"),
                high: pi.ci.high.expect("validated"),
                confidence: pi.ci.confidence,
                process_means: doc
                    .counts
                    .as_ref()
                    .map(|c| c.process_means.clone())
                    .filter(|m| !m.is_empty())
                    .unwrap_or_else(|| vec![mean]),
            }
        });
    Ok(SavedResult {
        instructions,
        path: path.to_path_buf(),
        name: doc.name.clone(),
        target: doc.target.clone(),
        status: doc.status.clone(),
        status_detail: doc.status_detail.clone(),
        time,
        counts,
        finished: Some(doc.finished.clone()).filter(|f| !f.is_empty()),
        warnings: doc.warnings.clone(),
        machine: doc.machine.clone(),
        timer: doc
            .clock
            .timer
            .clone()
            .unwrap_or_else(|| "instant".to_string()),
    })
}

/// How one run's estimate of `pi` (the `time` PI of `doc`) moves from run to run, where its
/// document says: its reproducibility band's spread; in a document written before that was a
/// figure of its own, the variation that widened its interval (a bench's own spread over
/// earlier runs whole, the speed probe's with this run's relative standard error `se` added);
/// in one without either (a group member's, then), the machine record's probe variation, `se`
/// added. Older documents' degrees of freedom are their runs less one, as their comparisons
/// took them.
fn run_to_run(doc: &ResultDoc, pi: &pilot_format::PiDoc, se: f64) -> Option<RunToRun> {
    use pilot_format::ReproducibilityDoc;
    let with_run = |machine: f64| machine.hypot(se);
    match (&pi.reproducibility, &pi.machine) {
        (Some(ReproducibilityDoc::Learnt(b)), _) => Some(RunToRun {
            sd: b.sd,
            dof: b.dof,
            runs: b.runs,
        }),
        (Some(ReproducibilityDoc::Learning(_)), _) => None,
        (None, Some(m)) => Some(RunToRun {
            sd: if m.learnt_from == "bench" {
                m.run_to_run
            } else {
                with_run(m.run_to_run)
            },
            dof: (m.runs.max(2) - 1) as f64,
            runs: m.runs,
        }),
        (None, None) => {
            let speed = doc.machine.as_ref()?.speed.as_ref()?;
            Some(RunToRun {
                sd: with_run(speed.run_to_run?),
                dof: (speed.runs.max(2) - 1) as f64,
                runs: speed.runs,
            })
        }
    }
}

/// The names of the saved baselines under `baselines_dir`, sorted.
pub(crate) fn baseline_names(baselines_dir: &Path) -> Vec<String> {
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
