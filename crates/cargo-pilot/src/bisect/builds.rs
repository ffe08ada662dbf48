//! The builds a bisection measures: each commit checked out into pilot's worktree and built
//! there, GOOD's executables kept apart, and the benches both builds hold.

use std::time::Instant;

use anyhow::{Context, anyhow};

use super::{Bisect, short};
use crate::against::Bench;
use crate::against::builds::checkout_options;
use crate::cargo::{self, BenchExe};
use crate::exit::Failure;
use crate::interrupt;

impl Bisect<'_> {
    /// Checks `commit` out into pilot's worktree `target/pilot/bisect/worktree` and builds it
    /// into `target/pilot/bisect/target`; `None` when it does not build. One worktree and one
    /// target directory for every commit: each build after the first compiles only what the
    /// checkout changed, and cargo's record of what is built always describes that one
    /// folder (cargo names a package's executables alike from any folder, so builds of two
    /// folders in one target directory could be taken for each other).
    pub(super) fn build(&mut self, commit: &str) -> Result<Option<Vec<BenchExe>>, Failure> {
        let dir = self.target_dir.join("pilot").join("bisect");
        let worktree = dir.join("worktree");
        let build_target = dir.join("target");
        self.repo
            .checkout(&self.target_dir, &worktree, commit)
            .with_context(|| {
                format!(
                    "failed to check {} out into `{}`",
                    short(commit),
                    worktree.display()
                )
            })?;
        let options = checkout_options(
            &self.args.cargo,
            (&self.repo.top, &self.root),
            (&worktree, &build_target, &self.target_dir),
            &format!("commit {}", short(commit)),
        )?;
        let started = Instant::now();
        let built = cargo::build(&options, &self.packages);
        self.building += started.elapsed();
        if interrupt::happened() {
            return Err(Failure::Error(anyhow!("interrupted")));
        }
        match built {
            Ok(exes) => Ok(Some(exes)),
            Err(e) => {
                self.out.say(&format!(
                    "commit {} does not build ({e:#}): skipped, as `git bisect skip` does",
                    short(commit)
                ));
                Ok(None)
            }
        }
    }

    /// Copies `exes` to `target/pilot/bisect/FOLDER/`, where later builds cannot replace
    /// them.
    pub(super) fn keep(&self, exes: &[BenchExe], folder: &str) -> Result<Vec<BenchExe>, Failure> {
        let bin = self.target_dir.join("pilot").join("bisect").join(folder);
        std::fs::create_dir_all(&bin)
            .with_context(|| format!("failed to create `{}`", bin.display()))?;
        exes.iter()
            .map(|e| {
                let name = e
                    .path
                    .file_name()
                    .ok_or_else(|| anyhow!("`{}` has no file name", e.path.display()))?;
                let to = bin.join(name);
                std::fs::copy(&e.path, &to).with_context(|| {
                    format!(
                        "failed to copy `{}` to `{}`",
                        e.path.display(),
                        to.display()
                    )
                })?;
                Ok(BenchExe {
                    path: to,
                    ..e.clone()
                })
            })
            .collect()
    }

    /// The benches selected in both builds, matched by target and name.
    pub(super) fn benches<'e>(
        &self,
        good: &'e [BenchExe],
        other: &'e [BenchExe],
        only: Option<&[(String, String)]>,
    ) -> Result<Vec<Bench<'e>>, Failure> {
        let mut found = Vec::new();
        for exe in other.iter().filter(|e| cargo::is_pilot(&e.path)) {
            let target = pilot_engine::store::bench_target_of(&exe.path);
            let Some(base) = good
                .iter()
                .find(|g| pilot_engine::store::bench_target_of(&g.path) == target)
            else {
                continue;
            };
            let a = &self.args;
            let names = cargo::list_selected(exe, &a.filters, a.exact, &a.skip, &[])?;
            let base_names = cargo::list_selected(base, &a.filters, a.exact, &a.skip, &[])?;
            for name in names.into_iter().filter(|n| base_names.contains(n)) {
                if only.is_some_and(|o| !o.iter().any(|(t, n)| *t == target && *n == name)) {
                    continue;
                }
                found.push(Bench {
                    target: target.clone(),
                    name,
                    base: Some(base),
                    head: Some(exe),
                });
            }
        }
        found.sort_by(|a, b| (&a.target, &a.name).cmp(&(&b.target, &b.name)));
        Ok(found)
    }
}
