//! The run's progress on disk, and `--resume`.

use serde_json::json;

use super::registry::Bench;
use crate::cli::Args;
use crate::store::{self, result};

/// The progress of a benchmark run on disk ([`store::progress_path`]), and with `--resume`, what
/// an interrupted earlier run had finished.
pub(super) struct RunLog {
    path: std::path::PathBuf,
    started: String,
    done: Vec<String>,
    /// Benches the interrupted run finished (with `--resume`).
    resumable: Vec<String>,
}

impl RunLog {
    pub(super) fn start(args: &Args, root: &std::path::Path, target: &str, started: &str) -> Self {
        let path = store::progress_path(root, target);
        let mut resumable = Vec::new();
        if args.resume {
            let earlier: Option<serde_json::Value> = std::fs::read_to_string(&path)
                .ok()
                .and_then(|t| serde_json::from_str(&t).ok());
            match earlier {
                Some(p) if p["finished"] == false => {
                    resumable = p["done"]
                        .as_array()
                        .map(|d| {
                            d.iter()
                                .filter_map(|n| n.as_str().map(String::from))
                                .collect()
                        })
                        .unwrap_or_default();
                    println!(
                        "resuming the run started {}: {} bench(es) already done",
                        p["started"].as_str().unwrap_or("earlier"),
                        resumable.len()
                    );
                }
                _ => println!("nothing to resume (the last run finished): running every bench"),
            }
        }
        let log = RunLog {
            path,
            started: started.to_string(),
            done: Vec::new(),
            resumable,
        };
        log.write(false);
        log
    }

    /// The saved result of `b` when the interrupted run finished it (group members are always
    /// measured again: their group runs together).
    pub(super) fn resumed(
        &self,
        b: &Bench,
        root: &std::path::Path,
        target: &str,
    ) -> Option<serde_json::Value> {
        if b.group.is_some() || !self.resumable.contains(&b.name) {
            return None;
        }
        let text = std::fs::read_to_string(store::latest_path(root, target, &b.name)).ok()?;
        let doc: serde_json::Value = serde_json::from_str(&text).ok()?;
        (doc["schema"] == result::RESULT_SCHEMA).then_some(doc)
    }

    pub(super) fn done(&mut self, name: &str) {
        self.done.push(name.to_string());
        self.write(false);
    }

    pub(super) fn finish(&self) {
        self.write(true);
    }

    pub(super) fn write(&self, finished: bool) {
        // The earlier run's finished benches stay on record until this run finishes, so an
        // interrupted resume can be resumed again.
        let mut done = self.resumable.clone();
        done.extend(
            self.done
                .iter()
                .filter(|n| !self.resumable.contains(n))
                .cloned(),
        );
        let doc = json!({
            "schema": "pilot.progress/1",
            "started": self.started,
            "finished": finished,
            "done": done,
        });
        let bytes = serde_json::to_vec_pretty(&doc).expect("JSON values serialise");
        if let Err(e) = store::write_atomic(&self.path, &bytes) {
            eprintln!("warning: failed to write `{}`: {e}", self.path.display());
        }
    }
}
