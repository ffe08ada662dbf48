//! The base revision's checkout: a git worktree of the user's repository under
//! `target/pilot/against/worktree`, kept between runs and moved to the revision asked for.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

use crate::interrupt;

/// A git repository, found from a folder inside it.
pub struct Repo {
    /// Its top-level folder (canonical).
    pub top: PathBuf,
}

/// Runs `git ARGS` in `dir` and returns its standard output, trimmed; a failure is an error
/// with git's own message.
fn git(dir: &Path, args: &[&str]) -> anyhow::Result<String> {
    run("git", dir, args)
}

/// Runs `program` (git, or a stand-in in tests) as [`git`] does. An error that holds an
/// [`std::io::Error`] is one where the program could not be started at all.
fn run(program: &str, dir: &Path, args: &[&str]) -> anyhow::Result<String> {
    let out = Command::new(program)
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .with_context(|| format!("failed to start `{program}` (is it installed?)"))?;
    interrupt::note(&out.status);
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
        Repo::find_with("git", dir)
    }

    /// [`Repo::find`] with `program` as git.
    fn find_with(program: &str, dir: &Path) -> anyhow::Result<Repo> {
        match run(program, dir, &["rev-parse", "--show-toplevel"]) {
            Ok(top) => Ok(Repo {
                top: std::fs::canonicalize(&top)
                    .with_context(|| format!("failed to read the repository folder `{top}`"))?,
            }),
            // Git could not be started: that, not the folder, is what went wrong.
            Err(e) if e.downcast_ref::<std::io::Error>().is_some() => Err(e),
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
    /// Every folder from `owned` (exclusive) down to `path` is pilot's: none may be a symbolic
    /// link, and `path`, when it is there, must be the linked worktree pilot made; anything
    /// else is refused before git runs, since this resets the checkout at `path` and removes
    /// its untracked files. A worktree left dirty by an interrupted run is repaired: whatever
    /// changed in it is discarded.
    ///
    /// # Errors
    ///
    /// A folder on the way is a link or `path` is not pilot's worktree (nothing is touched),
    /// or git fails to make or move the worktree.
    pub fn checkout(&self, owned: &Path, path: &Path, commit: &str) -> anyhow::Result<()> {
        refuse_links(owned, path)?;
        if is_empty_or_absent(path)? {
            // A worktree registered but deleted blocks a new one at the same path.
            git(&self.top, &["worktree", "prune"])?;
            let p = path.to_string_lossy();
            git(
                &self.top,
                &[
                    "worktree", "add", "--quiet", "--force", "--detach", &p, commit,
                ],
            )?;
        } else {
            self.check_own_worktree(path)?;
            git(path, &["reset", "--hard", "--quiet"])?;
            git(path, &["clean", "-fd", "--quiet"])?;
            git(
                path,
                &["checkout", "--quiet", "--detach", "--force", commit],
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

    /// Succeeds only when `path` is a linked worktree of this repository: `path/.git` a file
    /// naming `<common git dir>/worktrees/<name>`, whose `gitdir` file names `path/.git` back,
    /// and `path` not the main checkout. A user's own folder, their checkout, or another
    /// repository's worktree fails with what it is and how to go on.
    fn check_own_worktree(&self, path: &Path) -> anyhow::Result<()> {
        let refuse = |why: &str| {
            anyhow::anyhow!(
                "`{}` is not the base checkout pilot made ({why}): pilot resets that folder to \
                 the base revision and removes its untracked files, so it leaves it alone; \
                 move it away or remove it, and pilot makes its checkout there anew",
                path.display()
            )
        };
        let canonical = |p: &Path| std::fs::canonicalize(p).ok();
        let here = canonical(path).ok_or_else(|| refuse("it cannot be read"))?;
        if here == self.top {
            return Err(refuse("it is the repository's own checkout"));
        }
        let dot_git = path.join(".git");
        let is_file = std::fs::symlink_metadata(&dot_git).is_ok_and(|m| m.file_type().is_file());
        if !is_file {
            return Err(refuse("its `.git` is not the file of a linked worktree"));
        }
        let admin = std::fs::read_to_string(&dot_git)
            .ok()
            .and_then(|t| {
                t.trim()
                    .strip_prefix("gitdir:")
                    .map(|d| path.join(d.trim()))
            })
            .and_then(|d| canonical(&d))
            .ok_or_else(|| refuse("its `.git` names no worktree of a repository"))?;
        let common = git(&self.top, &["rev-parse", "--git-common-dir"])
            .ok()
            .and_then(|d| canonical(&self.top.join(d)))
            .ok_or_else(|| refuse("the repository's git folder cannot be read"))?;
        if admin.parent() != Some(common.join("worktrees").as_path()) {
            return Err(refuse("it is no linked worktree of this repository"));
        }
        let back = std::fs::read_to_string(admin.join("gitdir"))
            .ok()
            .and_then(|t| canonical(Path::new(t.trim())));
        if back != canonical(&dot_git) {
            return Err(refuse(
                "the repository registers that worktree at another folder",
            ));
        }
        Ok(())
    }
}

/// Fails when a folder from below `owned` down to `path` is a symbolic link: pilot makes these
/// folders itself, and a link there (to the repository, say) would send the reset elsewhere.
fn refuse_links(owned: &Path, path: &Path) -> anyhow::Result<()> {
    let below = path.strip_prefix(owned).unwrap_or(path);
    let mut at = owned.to_path_buf();
    for part in below.components() {
        at.push(part);
        if std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
            bail!(
                "`{}` is a symbolic link: pilot keeps the base's checkout at `{}` and resets \
                 it, so every folder on that path must be pilot's own; remove the link (what it \
                 points at is left as it is)",
                at.display(),
                path.display()
            );
        }
    }
    Ok(())
}

/// Whether `path` is missing or an empty folder: a place a new worktree can go.
fn is_empty_or_absent(path: &Path) -> anyhow::Result<bool> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(true),
        Err(e) => {
            Err(anyhow::Error::new(e).context(format!("failed to read `{}`", path.display())))
        }
        Ok(m) if m.is_dir() => Ok(std::fs::read_dir(path)
            .with_context(|| format!("failed to read `{}`", path.display()))?
            .next()
            .is_none()),
        Ok(_) => Ok(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_git_that_cannot_start_is_said_so_not_taken_for_a_folder_outside_a_repository() {
        let dir = std::env::temp_dir();
        let e = format!("{:#}", Repo::find_with("/no/such/git", &dir).err().unwrap());
        assert!(e.starts_with("failed to start `/no/such/git`"), "{e}");
        assert!(!e.contains("is not in a git repository"), "{e}");
        // A git that runs and fails is a folder outside any repository.
        let e = Repo::find_with("false", &dir).err().unwrap().to_string();
        assert!(e.contains("is not in a git repository"), "{e}");
    }
}
