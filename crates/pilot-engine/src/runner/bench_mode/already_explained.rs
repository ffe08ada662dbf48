//! What this job has explained already: the kinds of check (and the machine's note) that an
//! earlier bench target of the same `cargo bench` printed in full, so that later targets list
//! them in one recap line instead of explaining them again.
//!
//! A job is the cargo process that runs the bench targets one after another: all of them have
//! it as their parent. It is named by the parent's process id and start time (so a reused id is
//! another job), and its kinds are kept in `pilot/jobs/` under the target directory. A bench
//! binary run by hand, or anywhere the parent cannot be named (not Linux), explains everything.
//! Files older than a day are removed as new ones are written.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a job's file is kept.
const KEEP: Duration = Duration::from_secs(24 * 60 * 60);

/// The kinds explained so far in this job.
pub(super) struct Explained {
    path: Option<PathBuf>,
    /// The kinds (and `machine`, `results`), as the summary keys them.
    pub(crate) kinds: BTreeSet<String>,
}

impl Explained {
    /// The kinds this job explained before, read from its file under `root` (the target
    /// directory); none when this is not a job's target, or its file cannot be read.
    pub(super) fn load(root: &Path) -> Explained {
        let path = job_key().map(|k| root.join("pilot").join("jobs").join(k));
        let kinds = path
            .as_ref()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .map(|text| text.lines().map(str::to_string).collect())
            .unwrap_or_default();
        Explained { path, kinds }
    }

    /// Writes the kinds back for the job's next target. Best effort: a failure only means the
    /// next target explains them again.
    pub(super) fn save(&self) {
        let Some(path) = &self.path else {
            return;
        };
        let Some(dir) = path.parent() else {
            return;
        };
        if std::fs::create_dir_all(dir).is_err() {
            return;
        }
        prune(dir);
        let text: String = self.kinds.iter().map(|k| format!("{k}\n")).collect();
        let _ = crate::files::write_output(path, text.as_bytes(), crate::files::Existing::Replace);
    }
}

/// The job's name when cargo runs this binary (`CARGO` set, and the parent process is
/// `cargo`): the parent's process id and start time (in clock ticks since boot, /proc's 22nd
/// field). A test harness or a script that starts the binary is no job: every run of it
/// explains everything.
fn job_key() -> Option<String> {
    std::env::var_os("CARGO")?;
    // SAFETY: getppid has no preconditions.
    let parent = unsafe { libc::getppid() };
    let stat = std::fs::read_to_string(format!("/proc/{parent}/stat")).ok()?;
    if command(&stat)? != "cargo" {
        return None;
    }
    start_time(&stat).map(|start| format!("{parent}-{start}"))
}

/// The command in a /proc/PID/stat line: between the first `(` and the last `)`.
fn command(stat: &str) -> Option<&str> {
    stat.get(stat.find('(')? + 1..stat.rfind(')')?)
}

/// The start time in a /proc/PID/stat line: the 22nd field, counting the command (which may
/// hold spaces and parentheses) as the second.
fn start_time(stat: &str) -> Option<u64> {
    let after_command = &stat[stat.rfind(')')? + 1..];
    // Fields 3 onwards follow the command; the start time is the 22nd field.
    after_command.split_whitespace().nth(19)?.parse().ok()
}

/// Removes the job files in `dir` older than [`KEEP`].
fn prune(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > KEEP);
        if old && e.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_time_is_read_past_a_command_with_spaces_and_parentheses() {
        // proc(5): pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt
        // majflt cmajflt utime stime cutime cstime priority nice num_threads itrealvalue
        // starttime …
        let stat = "4242 (cargo (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 1 0 \
                    987654 12345 678";
        assert_eq!(start_time(stat), Some(987654));
        assert_eq!(command(stat), Some("cargo (x) y"));
        assert_eq!(command("4242 (cargo) S 1"), Some("cargo"));
        assert_eq!(start_time("4242 (cargo) S 1"), None);
        assert_eq!(start_time("garbage"), None);
    }

    #[test]
    fn kinds_written_by_one_target_are_read_by_the_next() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pilot/jobs/1-2");
        let mut e = Explained {
            path: Some(path.clone()),
            kinds: BTreeSet::new(),
        };
        e.kinds.insert("busy_machine".into());
        e.kinds.insert("time cap".into());
        e.save();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, "busy_machine\ntime cap\n");
        let back: BTreeSet<String> = text.lines().map(str::to_string).collect();
        assert_eq!(back, e.kinds);
    }
}
