//! The run's progress on disk (`pilot.progress/1`, [`store::progress_path`]), and `--resume`.

use super::registry::Bench;
use crate::cli::Args;
use crate::session::SessionConfig;
use crate::store::{self, typed};
use pilot_format::{PROGRESS_SCHEMA, ProgressDoc, ResultDoc};

/// The progress of a benchmark run on disk, and with `--resume`, what an interrupted earlier
/// run had finished.
pub(super) struct RunLog {
    path: std::path::PathBuf,
    started: String,
    done: Vec<String>,
    /// Benches the interrupted run finished (with `--resume`).
    resumable: Vec<String>,
}

impl RunLog {
    /// Starts this run's record; with `--resume`, reads what the interrupted run left. A
    /// progress file that cannot be read is an error: resuming from it could measure again
    /// what was done, or skip what was not.
    pub(super) fn start(
        args: &Args,
        root: &std::path::Path,
        target: &str,
        started: &str,
    ) -> Result<Self, String> {
        let path = store::progress_path(root, target);
        let mut resumable = Vec::new();
        if args.resume {
            match earlier(&path)? {
                Some(p) if !p.finished => {
                    crate::outln!(
                        "resuming the run started {}: {} already done",
                        p.started,
                        crate::fmt::counted(p.done.len(), "bench", "benches")
                    );
                    resumable = p.done;
                }
                Some(_) => {
                    crate::outln!("nothing to resume (the last run finished): running every bench")
                }
                None => crate::outln!("nothing to resume (no earlier run): running every bench"),
            }
        }
        let log = RunLog {
            path,
            started: started.to_string(),
            done: Vec::new(),
            resumable,
        };
        log.write(false);
        Ok(log)
    }

    /// The saved result of `b` when the interrupted run finished it under the same settings
    /// as `config` (group members are always measured again: their group runs together). A
    /// result taken under other settings is measured again, and the user is told.
    pub(super) fn resumed(
        &self,
        b: &Bench,
        root: &std::path::Path,
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

    /// Records that bench `name` is finished.
    pub(super) fn done(&mut self, name: &str) {
        self.done.push(name.to_string());
        self.write(false);
    }

    /// Records that the whole run finished: nothing is left to resume.
    pub(super) fn finish(&self) {
        self.write(true);
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

/// The earlier run's progress: `None` when there is none; an error naming the file when it
/// cannot be read.
fn earlier(path: &std::path::Path) -> Result<Option<ProgressDoc>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(format!(
                "cannot resume: failed to read `{}`: {e}",
                path.display()
            ));
        }
    };
    let doc: ProgressDoc = serde_json::from_str(&text)
        .map_err(|e| e.to_string())
        .and_then(|v: serde_json::Value| typed(v))
        .map_err(|e| {
            format!(
                "cannot resume: `{}` is not a valid run progress ({e}); run without --resume \
                 to measure every bench",
                path.display()
            )
        })?;
    if doc.schema != PROGRESS_SCHEMA {
        return Err(format!(
            "cannot resume: `{}` has schema `{}`, not `{PROGRESS_SCHEMA}`",
            path.display(),
            doc.schema
        ));
    }
    Ok(Some(doc))
}
