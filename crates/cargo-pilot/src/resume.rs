//! The progress of a `cargo pilot bench` run across targets, kept on disk so that `--resume`
//! continues an interrupted run where it stopped.

use std::path::{Path, PathBuf};

use anyhow::Context;
use pilot_format::{
    CARGO_PROGRESS_SCHEMA, CargoProgressDoc, FinishedTargetDoc, ResultDoc, RunningDoc,
};

use crate::cargo;

/// A bench target that a `cargo pilot bench` run finished, as its progress records it.
#[derive(Debug, Clone, PartialEq)]
pub struct FinishedTarget {
    pub package: String,
    /// The target's name in cargo's metadata.
    pub target: String,
    /// The target as its binary names it in the results folder.
    pub results_target: String,
    /// The benches the binary selected.
    pub benches: Vec<String>,
}

impl FinishedTarget {
    fn to_doc(&self) -> FinishedTargetDoc {
        FinishedTargetDoc {
            package: self.package.clone(),
            target: self.target.clone(),
            results_target: self.results_target.clone(),
            benches: self.benches.clone(),
        }
    }

    fn from_doc(d: FinishedTargetDoc) -> Self {
        FinishedTarget {
            package: d.package,
            target: d.target,
            results_target: d.results_target,
            benches: d.benches,
        }
    }

    /// The latest results of its benches (those on disk: a bench that failed has one too).
    pub fn results(&self, target_dir: &Path) -> Vec<ResultDoc> {
        self.benches
            .iter()
            .filter_map(|b| {
                let path = pilot_engine::store::latest_path(target_dir, &self.results_target, b);
                pilot_engine::store::read_result(&path).ok()
            })
            .collect()
    }

    /// (results target, bench) of each bench it selected.
    pub fn selected(&self) -> impl Iterator<Item = (String, String)> + '_ {
        self.benches
            .iter()
            .map(|b| (self.results_target.clone(), b.clone()))
    }

    fn is(&self, exe: &cargo::BenchExe) -> bool {
        self.package == exe.package && self.target == exe.target
    }
}

/// The progress of a `cargo pilot bench` run across targets, in
/// `target/pilot/cargo-pilot-run.json` (`{"schema": "pilot.cargo-progress/1", "finished":
/// bool, "running": {"package", "target"} | null, "done": [finished targets]}`), rewritten as
/// each target starts and ends, so that `--resume` knows where an interrupted run stopped.
/// Each bench binary keeps its own progress too, which `--resume` passes on to the target
/// that was running.
pub struct RunLog {
    path: PathBuf,
    /// Targets the interrupted run finished (with `--resume`).
    earlier: Vec<FinishedTarget>,
    /// The target it was running (with `--resume`).
    was_running: Option<(String, String)>,
    done: Vec<FinishedTarget>,
    running: Option<(String, String)>,
}

impl RunLog {
    /// Starts this run's record; with `resume`, reads what the interrupted run left.
    /// A progress file that cannot be read is an error: resuming from it could measure again
    /// what was done, or skip what was not.
    pub fn start(target_dir: &Path, resume: bool) -> anyhow::Result<Self> {
        let path = target_dir.join("pilot").join("cargo-pilot-run.json");
        let mut log = RunLog {
            path,
            earlier: Vec::new(),
            was_running: None,
            done: Vec::new(),
            running: None,
        };
        if resume {
            match earlier(&log.path) {
                Ok(Some(p)) if !p.finished => {
                    log.earlier = p.done.into_iter().map(FinishedTarget::from_doc).collect();
                    log.was_running = p.running.map(|r| (r.package, r.target));
                    pilot_engine::outln!(
                        "resuming an interrupted run: {} already done",
                        pilot_engine::fmt::counted(log.earlier.len(), "target", "targets")
                    );
                }
                Ok(Some(_)) => {
                    pilot_engine::outln!(
                        "nothing to resume (the last run finished): running every target"
                    )
                }
                Ok(None) => {
                    pilot_engine::outln!("nothing to resume (no earlier run): running every target")
                }
                Err(e) => return Err(e),
            }
        }
        log.write(false);
        Ok(log)
    }

    /// What the interrupted run recorded for `exe`, if it finished it.
    pub fn finished(&self, exe: &cargo::BenchExe) -> Option<FinishedTarget> {
        self.earlier.iter().find(|f| f.is(exe)).cloned()
    }

    /// Whether the interrupted run was measuring `exe` when it stopped.
    pub fn was_running(&self, exe: &cargo::BenchExe) -> bool {
        self.was_running
            .as_ref()
            .is_some_and(|(p, t)| *p == exe.package && *t == exe.target)
    }

    /// Records that `exe` is being measured.
    pub fn running(&mut self, exe: &cargo::BenchExe) {
        self.running = Some((exe.package.clone(), exe.target.clone()));
        self.write(false);
    }

    /// Records that `target` is finished.
    pub fn done(&mut self, target: FinishedTarget) {
        self.running = None;
        self.done.push(target);
        self.write(false);
    }

    /// Records that the whole run finished: nothing is left to resume.
    pub fn finish(&mut self) {
        self.running = None;
        self.write(true);
    }

    fn write(&self, finished: bool) {
        // Until this run finishes, the interrupted run's finished targets stay on record, so an
        // interrupted resume can be resumed again.
        let mut done: Vec<&FinishedTarget> = self.earlier.iter().collect();
        done.extend(self.done.iter().filter(|d| !self.earlier.contains(d)));
        let doc = CargoProgressDoc {
            schema: CARGO_PROGRESS_SCHEMA.to_string(),
            finished,
            running: self.running.as_ref().map(|(p, t)| RunningDoc {
                package: p.clone(),
                target: t.clone(),
            }),
            done: done.iter().map(|d| d.to_doc()).collect(),
        };
        let bytes = serde_json::to_vec_pretty(&doc).expect("documents serialise");
        if let Err(e) = pilot_engine::files::write_atomic(&self.path, &bytes) {
            say!(
                "warning: failed to write `{}`: {e}",
                pilot_engine::fmt::terminal_path(&self.path)
            );
        }
    }
}

/// The earlier run's progress: `None` when there is none.
fn earlier(path: &Path) -> anyhow::Result<Option<CargoProgressDoc>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(e)
                .with_context(|| format!("cannot resume: failed to read `{}`", path.display()));
        }
    };
    let doc: CargoProgressDoc = serde_json::from_str(&text).with_context(|| {
        format!(
            "cannot resume: `{}` is not a valid run progress; run without --resume to measure \
             every target",
            path.display()
        )
    })?;
    if doc.schema != CARGO_PROGRESS_SCHEMA {
        anyhow::bail!(
            "cannot resume: `{}` has schema `{}`, not `{CARGO_PROGRESS_SCHEMA}`",
            path.display(),
            doc.schema
        );
    }
    Ok(Some(doc))
}
