//! The run's progress on disk (`pilot.progress/1`, [`store::progress_path`]), and `--resume`.

use std::path::{Path, PathBuf};

use super::registry::Bench;
use crate::cli::Args;
use crate::session::SessionConfig;
use crate::store::{self, typed};
use pilot_format::{PROGRESS_SCHEMA, ProgressDoc, ResultDoc};

/// The progress of a benchmark run on disk, and with `--resume`, what an interrupted earlier
/// run had finished.
pub(super) struct RunLog {
    path: PathBuf,
    started: String,
    done: Vec<String>,
    /// Benches the interrupted run finished (with `--resume`).
    resumable: Vec<String>,
    /// Whether `done` holds a bench not yet on disk (written by [`RunLog::flush`] before
    /// anything more is measured, or by [`RunLog::finish`]).
    unwritten: bool,
    /// Whether a finished bench may wait for the next [`RunLog::flush`]: only where nothing
    /// but the runner's own code runs between benches (not where the user's code announces
    /// them one at a time, and could end the process before the next).
    deferred: bool,
}

impl RunLog {
    /// Starts this run's record; with `--resume`, reads what the interrupted run left. A
    /// progress file that cannot be read is an error: resuming from it could measure again
    /// what was done, or skip what was not.
    /// `deferred` when the runner alone decides what runs between benches (see
    /// [`RunLog::done`]).
    pub(super) fn start(
        args: &Args,
        (root, target): (&Path, &str),
        started: &str,
        deferred: bool,
    ) -> Result<Self, ResumeError> {
        Self::open(
            store::progress_path(root, target),
            args.resume,
            started,
            deferred,
        )
    }

    /// [`RunLog::start`] with the progress file at `path`, resuming what it left when `resume`.
    ///
    /// The run's start is written only over an unfinished earlier record (or one that cannot
    /// be read): its benches must not be taken as done by a later `--resume` once this run
    /// began afresh. Over a finished record or none, `--resume` runs every bench whether this
    /// run's start is on disk or not, so the start is left for the first finished bench to
    /// write: a bench binary run once per bench (divan's and nextest's users run them so) pays
    /// for one synced write of its progress, not three.
    fn open(
        path: PathBuf,
        resume: bool,
        started: &str,
        deferred: bool,
    ) -> Result<Self, ResumeError> {
        let mut resumable = Vec::new();
        let found = if resume {
            let found = earlier(&path)?;
            match &found {
                Some(p) if !p.finished => {
                    crate::outln!(
                        "resuming the run started {}: {} already done",
                        p.started,
                        crate::fmt::counted(p.done.len(), "bench", "benches")
                    );
                    resumable = p.done.clone();
                }
                Some(_) => {
                    crate::outln!("nothing to resume (the last run finished): running every bench")
                }
                None => crate::outln!("nothing to resume (no earlier run): running every bench"),
            }
            Ok(found)
        } else {
            earlier(&path)
        };
        let log = RunLog {
            path,
            started: started.to_string(),
            done: Vec::new(),
            resumable,
            unwritten: false,
            deferred,
        };
        if !matches!(
            found,
            Ok(None) | Ok(Some(ProgressDoc { finished: true, .. }))
        ) {
            log.write(false);
        }
        Ok(log)
    }

    /// The saved result of `b` when the interrupted run finished it under the same settings
    /// as `config` (group members are always measured again: their group runs together). A
    /// result taken under other settings is measured again, and the user is told.
    pub(super) fn resumed(
        &self,
        b: &Bench,
        root: &Path,
        target: &str,
        config: &SessionConfig,
    ) -> Option<ResultDoc> {
        if b.group.is_some() || !self.resumable.contains(&b.name) {
            return None;
        }
        let doc = store::read_result(&store::latest_path(root, target, &b.name)).ok()?;
        let now = store::result::config_doc(config);
        if doc.config != now {
            crate::outln!(
                "{}: finished by the interrupted run under other settings (ci {}, confidence \
                 {}, max-time {} s, min-time {} s); measured again",
                crate::fmt::terminal(&b.name),
                doc.config.ci,
                doc.config.confidence,
                doc.config.max_time,
                doc.config.min_time
            );
            return None;
        }
        Some(doc)
    }

    /// Records that bench `name` is finished. When deferred, it reaches the disk with the next
    /// [`RunLog::flush`] or [`RunLog::finish`], so that the last bench of a run and the run's
    /// end are one write; else at once.
    pub(super) fn done(&mut self, name: &str) {
        self.done.push(name.to_string());
        self.unwritten = true;
        if !self.deferred {
            self.flush();
        }
    }

    /// Writes the benches finished so far, if any is not on disk yet: called before anything
    /// more is measured, and when the run is interrupted, so that a run killed at any moment
    /// has every bench it finished on record.
    pub(super) fn flush(&mut self) {
        if self.unwritten {
            self.write(false);
            self.unwritten = false;
        }
    }

    /// Records that the whole run finished: nothing is left to resume.
    pub(super) fn finish(&mut self) {
        self.write(true);
        self.unwritten = false;
    }

    fn write(&self, finished: bool) {
        // The earlier run's finished benches stay on record until this run finishes, so an
        // interrupted resume can be resumed again.
        let mut done = self.resumable.clone();
        done.extend(
            self.done
                .iter()
                .filter(|n| !self.resumable.contains(n))
                .cloned(),
        );
        let doc = ProgressDoc {
            schema: PROGRESS_SCHEMA.to_string(),
            started: self.started.clone(),
            finished,
            done,
        };
        let bytes = serde_json::to_vec_pretty(&doc).expect("documents serialise");
        if let Err(e) = crate::files::write_atomic(&self.path, &bytes) {
            eprintln!(
                "warning: failed to write `{}`: {e}",
                crate::fmt::terminal_path(&self.path)
            );
        }
    }
}

/// Why `--resume` cannot read the earlier run's progress file (an error: resuming from it
/// could measure again what was done, or skip what was not).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ResumeError {
    /// The file could not be read.
    #[error("cannot resume: failed to read `{}`: {message}", path.display())]
    ReadFailed { path: PathBuf, message: String },
    /// The file holds no run progress.
    #[error(
        "cannot resume: `{}` is not a valid run progress ({problem}); run without --resume to \
         measure every bench",
        path.display()
    )]
    Invalid { path: PathBuf, problem: String },
    /// The file is a run progress of another layout.
    #[error(
        "cannot resume: `{}` has schema `{schema}`, not `{PROGRESS_SCHEMA}`",
        path.display()
    )]
    OtherSchema { path: PathBuf, schema: String },
}

/// The earlier run's progress: `None` when there is none; an error naming the file when it
/// cannot be read.
fn earlier(path: &Path) -> Result<Option<ProgressDoc>, ResumeError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(ResumeError::ReadFailed {
                path: path.to_path_buf(),
                message: e.to_string(),
            });
        }
    };
    let doc: ProgressDoc = serde_json::from_str(&text)
        .map_err(|e| e.to_string())
        .and_then(|v: serde_json::Value| typed(v))
        .map_err(|problem| ResumeError::Invalid {
            path: path.to_path_buf(),
            problem,
        })?;
    if doc.schema != PROGRESS_SCHEMA {
        return Err(ResumeError::OtherSchema {
            path: path.to_path_buf(),
            schema: doc.schema,
        });
    }
    Ok(Some(doc))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The progress file at `path`, as written.
    fn read(path: &Path) -> ProgressDoc {
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
    }

    fn write(path: &Path, started: &str, finished: bool, done: &[&str]) {
        let doc = ProgressDoc {
            schema: PROGRESS_SCHEMA.to_string(),
            started: started.to_string(),
            finished,
            done: done.iter().map(|d| d.to_string()).collect(),
        };
        std::fs::write(path, serde_json::to_vec(&doc).unwrap()).unwrap();
    }

    #[test]
    fn a_run_after_a_finished_one_writes_its_progress_at_its_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("math.json");
        write(&path, "earlier", true, &["math::mul"]);
        let mut log = RunLog::open(path.clone(), false, "now", true).unwrap();
        // Killed here, a later `--resume` would run every bench, as after this run's start.
        assert_eq!(read(&path).started, "earlier");
        log.done("math::add");
        assert_eq!(read(&path).started, "earlier");
        log.finish();
        let end = read(&path);
        assert_eq!(
            (end.started.as_str(), end.finished, end.done),
            ("now", true, vec!["math::add".to_string()])
        );
        // No earlier record at all: nothing on disk until a bench is done.
        let fresh = dir.path().join("fresh.json");
        let mut log = RunLog::open(fresh.clone(), false, "now", true).unwrap();
        assert!(!fresh.exists());
        log.done("a");
        log.flush();
        assert_eq!(
            (read(&fresh).finished, read(&fresh).done),
            (false, vec!["a".to_string()])
        );
    }

    #[test]
    fn a_run_after_an_unfinished_one_forgets_its_benches_as_it_starts() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("math.json");
        write(&path, "earlier", false, &["math::mul"]);
        let _log = RunLog::open(path.clone(), false, "now", true).unwrap();
        let start = read(&path);
        assert_eq!((start.started.as_str(), start.finished), ("now", false));
        assert!(start.done.is_empty(), "{:?}", start.done);
        // So does one over a file that cannot be read.
        std::fs::write(&path, "{ not json").unwrap();
        let _log = RunLog::open(path.clone(), false, "now", true).unwrap();
        assert!(read(&path).done.is_empty());
    }

    #[test]
    fn a_finished_bench_is_on_disk_before_anything_more_is_measured() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("math.json");
        let mut log = RunLog::open(path.clone(), false, "now", true).unwrap();
        log.done("a");
        log.flush();
        assert_eq!(read(&path).done, vec!["a".to_string()]);
        // Benches announced by the user's code one at a time: each on disk as it is done.
        let mut log = RunLog::open(path.clone(), false, "later", false).unwrap();
        log.done("b");
        let doc = read(&path);
        assert_eq!(
            (doc.started.as_str(), doc.done),
            ("later", vec!["b".to_string()])
        );
    }
}
