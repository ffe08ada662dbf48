//! The base revision's checkout: a git worktree of the user's repository under
//! `target/pilot/against/worktree`, kept between runs and moved to the revision asked for.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

/// A git repository, found from a folder inside it.
pub struct Repo {
    /// Its top-level folder (canonical).
    pub top: PathBuf,
}

/// Runs `git ARGS` in `dir` and returns its standard output, trimmed; a failure is an error
/// with git's own message.
fn git(dir: &Path, args: &[&str]) -> anyhow::Result<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .context("failed to start `git` (is it installed?)")?;
    if !out.status.success() {
        bail!(
            "`git {}` in `{}` failed: {}",
            args.join(" "),
            dir.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

impl Repo {
    /// The repository that holds `dir`.
    ///
    /// # Errors
    ///
    /// `dir` is not inside a git repository, or git is missing.
    pub fn find(dir: &Path) -> anyhow::Result<Repo> {
        match git(dir, &["rev-parse", "--show-toplevel"]) {
            Ok(top) => Ok(Repo {
                top: std::fs::canonicalize(&top)
                    .with_context(|| format!("failed to read the repository folder `{top}`"))?,
            }),
            Err(e) if e.to_string().contains("failed to start") => Err(e),
            Err(_) => bail!(
                "`{}` is not in a git repository: --against checks its REV out with git",
                dir.display()
            ),
        }
    }

    /// The commit `rev` names (a branch, tag, commit, `origin/main`, `HEAD~1`, …), as a full
    /// hash.
    ///
    /// # Errors
    ///
    /// The repository does not know `rev`.
    pub fn resolve(&self, rev: &str) -> anyhow::Result<String> {
        let spec = format!("{rev}^{{commit}}");
        git(&self.top, &["rev-parse", "--verify", "--quiet", &spec]).map_err(|_| {
            anyhow::anyhow!(
                "unknown revision `{rev}`: not a branch, tag or commit of `{}` (in a shallow CI \
                 clone, fetch it first, e.g. `git fetch origin main`)",
                self.top.display()
            )
        })
    }

    /// A checkout of `commit` at `path` (a git worktree of this repository), made or reused.
    /// A worktree left dirty by an interrupted run, or a folder there that is no worktree, is
    /// repaired: whatever changed in it is discarded (it is pilot's own folder).
    ///
    /// # Errors
    ///
    /// git fails to make or move the worktree.
    pub fn checkout(&self, path: &Path, commit: &str) -> anyhow::Result<()> {
        if self.is_worktree(path) {
            git(path, &["reset", "--hard", "--quiet"])?;
            git(path, &["clean", "-fd", "--quiet"])?;
            git(
                path,
                &["checkout", "--quiet", "--detach", "--force", commit],
            )?;
        } else {
            if path.exists() {
                std::fs::remove_dir_all(path).with_context(|| {
                    format!(
                        "failed to remove `{}`, which is no worktree",
                        path.display()
                    )
                })?;
            }
            // A worktree registered but deleted blocks a new one at the same path.
            git(&self.top, &["worktree", "prune"])?;
            let p = path.to_string_lossy();
            git(
                &self.top,
                &[
                    "worktree", "add", "--quiet", "--force", "--detach", &p, commit,
                ],
            )?;
        }
        if path.join(".gitmodules").exists() {
            git(
                path,
                &["submodule", "update", "--init", "--recursive", "--quiet"],
            )?;
        }
        Ok(())
    }

    /// Whether `path` is the top of a worktree of this repository.
    fn is_worktree(&self, path: &Path) -> bool {
        if !path.join(".git").exists() {
            return false;
        }
        let top = git(path, &["rev-parse", "--show-toplevel"]).ok();
        let common = |dir: &Path| {
            git(dir, &["rev-parse", "--git-common-dir"])
                .ok()
                .map(|d| dir.join(d))
                .and_then(|d| std::fs::canonicalize(d).ok())
        };
        top.and_then(|t| std::fs::canonicalize(t).ok()) == std::fs::canonicalize(path).ok()
            && common(path).is_some()
            && common(path) == common(&self.top)
    }
}
