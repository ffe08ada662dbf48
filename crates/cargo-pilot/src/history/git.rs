//! What the history needs to know of git: a commit's time, depth and subject, the branch a run
//! was on, and which commits a branch holds (for rewritten histories). Every call is allowed
//! to fail: outside a repository, or in a shallow clone that lacks a commit, the history keeps
//! what it can.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A commit as the history stores it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitFacts {
    /// Its full hash.
    pub hash: String,
    /// Committer time, Unix seconds.
    pub committed_at: Option<i64>,
    /// Commits on its first-parent line, itself included: orders commits of one second.
    pub position: Option<i64>,
    /// Its subject line.
    pub subject: Option<String>,
}

/// A git repository (or a folder that may not be one).
#[derive(Debug, Clone)]
pub struct Git {
    dir: PathBuf,
}

impl Git {
    /// Git run in `dir`.
    pub fn at(dir: &Path) -> Git {
        Git {
            dir: dir.to_path_buf(),
        }
    }

    /// `git ARGS`'s standard output, trimmed; `None` when git fails or is missing.
    fn run(&self, args: &[&str]) -> Option<String> {
        let out = Command::new("git")
            .arg("-C")
            .arg(&self.dir)
            .args(args)
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    }

    /// The commit `rev` names, as a full hash.
    pub fn resolve(&self, rev: &str) -> Option<String> {
        self.run(&[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{rev}^{{commit}}"),
        ])
    }

    /// The facts of `hash` this repository knows (only the hash when it does not know it).
    pub fn commit(&self, hash: &str) -> CommitFacts {
        let shown = self.run(&["show", "-s", "--format=%ct%n%s", hash, "--"]);
        let (time, subject) = match shown.as_deref().and_then(|s| s.split_once('\n')) {
            Some((t, s)) => (t.trim().parse().ok(), Some(s.to_string())),
            None => (shown.as_deref().and_then(|t| t.trim().parse().ok()), None),
        };
        let position = self
            .run(&["rev-list", "--count", "--first-parent", hash, "--"])
            .and_then(|n| n.parse().ok());
        CommitFacts {
            hash: hash.to_string(),
            committed_at: time,
            position,
            subject,
        }
    }

    /// The branch HEAD is on, `None` when detached or outside a repository.
    pub fn current_branch(&self) -> Option<String> {
        self.run(&["symbolic-ref", "--short", "-q", "HEAD"])
            .filter(|b| !b.is_empty())
    }

    /// The tip of local branch `branch`, `None` when there is no such branch.
    pub fn branch_tip(&self, branch: &str) -> Option<String> {
        self.resolve(&format!("refs/heads/{branch}"))
    }

    /// The commits on `tip`'s first-parent line, `tip` included: the states a branch's own
    /// code went through, whichever branch (or none, at a detached HEAD) a run of one of them
    /// was recorded on. `None` when git fails (no repository, or no such revision).
    pub fn first_parent_line(&self, tip: &str) -> Option<HashSet<String>> {
        let out = self.run(&["rev-list", "--first-parent", tip, "--"])?;
        Some(out.lines().map(str::to_string).collect())
    }

    /// Every commit reachable from `tip`.
    pub fn ancestors(&self, tip: &str) -> Option<HashSet<String>> {
        let out = self.run(&["rev-list", tip, "--"])?;
        Some(out.lines().map(str::to_string).collect())
    }

    /// Which of `hashes` this repository has as commits.
    pub fn known(&self, hashes: &[String]) -> HashSet<String> {
        let mut child = match Command::new("git")
            .arg("-C")
            .arg(&self.dir)
            .args(["cat-file", "--batch-check=%(objectname) %(objecttype)"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
        {
            Ok(c) => c,
            Err(_) => return HashSet::new(),
        };
        if let Some(mut stdin) = child.stdin.take() {
            for h in hashes {
                let _ = writeln!(stdin, "{h}");
            }
        }
        let Ok(out) = child.wait_with_output() else {
            return HashSet::new();
        };
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.strip_suffix(" commit"))
            .map(str::to_string)
            .collect()
    }

    /// The commits after `good` up to `bad` on `bad`'s first-parent line, oldest first.
    pub fn first_parent_range(&self, good: &str, bad: &str) -> Option<Vec<String>> {
        let out = self.run(&[
            "rev-list",
            "--first-parent",
            "--reverse",
            &format!("{good}..{bad}"),
            "--",
        ])?;
        Some(out.lines().map(str::to_string).collect())
    }
}

/// The branch a run is recorded on: `PILOT_BRANCH`, else the branch checked out, else the
/// branch a CI service names (a pull request's head, or the pushed branch).
pub fn branch_of_run(git: &Git) -> Option<String> {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
    var("PILOT_BRANCH")
        .or_else(|| git.current_branch())
        .or_else(|| var("GITHUB_HEAD_REF"))
        .or_else(|| var("GITHUB_REF_NAME"))
        .or_else(|| var("CI_COMMIT_REF_NAME"))
}
