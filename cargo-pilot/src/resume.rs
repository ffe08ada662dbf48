//! The progress of a `cargo pilot bench` run across targets, kept on disk so that `--resume`
//! continues an interrupted run where it stopped.

use std::path::{Path, PathBuf};

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
    fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "package": self.package,
            "target": self.target,
            "results_target": self.results_target,
            "benches": self.benches,
        })
    }

    fn from_json(v: &serde_json::Value) -> Option<Self> {
        let text = |k: &str| v[k].as_str().map(String::from);
        Some(FinishedTarget {
            package: text("package")?,
            target: text("target")?,
            results_target: text("results_target")?,
            benches: v["benches"]
                .as_array()?
                .iter()
                .filter_map(|n| n.as_str().map(String::from))
                .collect(),
        })
    }

    /// The latest results of its benches (those on disk: a bench that failed has one too).
    pub fn results(&self, target_dir: &Path) -> Vec<serde_json::Value> {
        self.benches
            .iter()
            .filter_map(|b| {
                let path = pilot::store::latest_path(target_dir, &self.results_target, b);
                serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
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

const PROGRESS_SCHEMA: &str = "pilot.cargo-progress/1";

impl RunLog {
    /// Starts this run's record; with `resume`, reads what the interrupted run left.
    pub fn start(target_dir: &Path, resume: bool) -> Self {
        let path = target_dir.join("pilot").join("cargo-pilot-run.json");
        let mut log = RunLog {
            path,
            earlier: Vec::new(),
            was_running: None,
            done: Vec::new(),
            running: None,
        };
        if resume {
            let earlier: Option<serde_json::Value> = std::fs::read_to_string(&log.path)
                .ok()
                .and_then(|t| serde_json::from_str(&t).ok())
                .filter(|p: &serde_json::Value| p["schema"] == PROGRESS_SCHEMA);
            match earlier {
                Some(p) if p["finished"] == false => {
                    log.earlier = p["done"]
                        .as_array()
                        .map(|d| d.iter().filter_map(FinishedTarget::from_json).collect())
                        .unwrap_or_default();
                    log.was_running = p["running"]["package"]
                        .as_str()
                        .zip(p["running"]["target"].as_str())
                        .map(|(p, t)| (p.to_string(), t.to_string()));
                    println!(
                        "resuming an interrupted run: {} target(s) already done",
                        log.earlier.len()
                    );
                }
                _ => println!("nothing to resume (the last run finished): running every target"),
            }
        }
        log.write(false);
        log
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
        let doc = serde_json::json!({
            "schema": PROGRESS_SCHEMA,
            "finished": finished,
            "running": self.running.as_ref().map(|(p, t)| serde_json::json!({"package": p, "target": t})),
            "done": done.iter().map(|d| d.to_json()).collect::<Vec<_>>(),
        });
        let bytes = serde_json::to_vec_pretty(&doc).expect("JSON values serialise");
        if let Err(e) = pilot::store::write_atomic(&self.path, &bytes) {
            eprintln!("warning: failed to write `{}`: {e}", self.path.display());
        }
    }
}
