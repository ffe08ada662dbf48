//! The two builds of `--against`: REV checked out into a worktree and built into a target
//! directory of its own, and the working tree built as `cargo pilot bench` builds it.

use std::path::Path;

use anyhow::{Context, anyhow};

use super::Out;
use super::git;
use crate::args::{BenchArgs, CargoOptions};
use crate::cargo::{self, BenchExe};
use crate::exit::Failure;
use crate::interrupt;

/// The two builds, ready to be measured.
pub struct Builds {
    /// The working tree's target directory: results and baselines go under it.
    pub target_dir: std::path::PathBuf,
    /// REV's commit, by its first 12 hex digits: the baseline's name.
    pub short: String,
    /// REV's commit, whole.
    pub commit: String,
    /// The working tree's workspace root (the history reads its branch there).
    pub root: std::path::PathBuf,
    /// REV's bench executables.
    pub base_exes: Vec<BenchExe>,
    /// The working tree's.
    pub head_exes: Vec<BenchExe>,
    /// The history both sides go into (`None`: off).
    pub history: Option<crate::history::Location>,
}

/// Checks REV out and builds both sides; `step` says what it is doing, for an interrupt.
pub fn prepare(
    args: &BenchArgs,
    rev: &str,
    out: &Out,
    step: &mut String,
) -> Result<Builds, Failure> {
    *step = "reading the workspace".into();
    let metadata = cargo::metadata(&args.cargo)?;
    let target_dir = cargo::target_dir(&args.cargo, &metadata);
    // A history that cannot be one is a usage error before anything is built.
    let history = crate::history::location(args.history.history.as_deref(), &target_dir)?;
    let root = metadata.workspace_root.clone().into_std_path_buf();
    let repo = git::Repo::find(&root)?;
    let commit = repo.resolve(rev)?;
    let short = commit[..12.min(commit.len())].to_string();
    let packages = cargo::pilot_packages(&metadata, &args.cargo)?;
    if packages.is_empty() {
        return Err(Failure::Error(anyhow!(
            "no bench target uses pilot in this workspace (a package needs `pilot-bench` or \
             `pilot-criterion` or `pilot-divan` among its dependencies and a `[[bench]]` with `harness = false`)"
        )));
    }
    // The base side: REV's checkout, its manifest at the place the working tree's is.
    let against = target_dir.join("pilot").join("against");
    let worktree = against.join("worktree");
    // A Ctrl-C sent to this process alone stops it between steps (git is not told).
    let go_on = || {
        if interrupt::happened() {
            Err(Failure::Error(anyhow!("interrupted")))
        } else {
            Ok(())
        }
    };
    *step = format!("checking `{rev}` out");
    repo.checkout(&target_dir, &worktree, &commit)
        .with_context(|| format!("failed to check `{rev}` out into `{}`", worktree.display()))?;
    let base_options = base_options(
        args,
        (&repo.top, &root),
        (&against, &target_dir),
        &format!("`{rev}` ({short})"),
    )?;
    go_on()?;
    out.say(&format!(
        "\n== building the base: `{rev}` ({short}) in `{}`",
        worktree.display()
    ));
    *step = format!("building the base `{rev}` ({short})");
    let base_metadata = cargo::metadata(&base_options)
        .with_context(|| format!("the base `{rev}` ({short}) has no readable workspace"))?;
    let base_packages: Vec<String> = cargo::pilot_packages(&base_metadata, &base_options)?
        .into_iter()
        .filter(|p| packages.contains(p))
        .collect();
    let base_exes = if base_packages.is_empty() {
        Vec::new()
    } else {
        cargo::build(&base_options, &base_packages)
            .with_context(|| format!("the base `{rev}` ({short}) does not build"))?
    };
    go_on()?;
    out.say("\n== building the working tree");
    *step = "building the working tree".into();
    let head_exes = cargo::build(&args.cargo, &packages)
        .context("the working tree (the new side) does not build")?;
    Ok(Builds {
        target_dir,
        short,
        commit: commit.clone(),
        root: root.clone(),
        base_exes,
        head_exes,
        history,
    })
}

/// The cargo options of the base's build: the manifest at the place the working tree's is,
/// inside REV's checkout under `against`, and a target directory of its own. `base` names REV
/// for messages.
fn base_options(
    args: &BenchArgs,
    (top, root): (&Path, &Path),
    (against, target_dir): (&Path, &Path),
    base: &str,
) -> Result<CargoOptions, Failure> {
    let base_target = args
        .base_target_dir
        .clone()
        .unwrap_or_else(|| against.join("target"));
    checkout_options(
        &args.cargo,
        (top, root),
        (&against.join("worktree"), &base_target, target_dir),
        base,
    )
    .map_err(|e| match e {
        Failure::Usage(e) => {
            Failure::Usage(anyhow!("--base-target-dir `{}` {e}", base_target.display()))
        }
        e => e,
    })
}

/// The cargo options of a build of a checkout at `worktree` (of the repository at `top`, whose
/// workspace is at `root`) into `build_target`: `cargo`'s options with the manifest at the place
/// the working tree's is, and that target directory, which must not be the working tree's own
/// `target_dir`. `what` names the checkout for messages.
///
/// # Errors
///
/// The manifest is outside the repository, the checkout has no such manifest, or the target
/// directories are one (a usage error: the two builds would overwrite each other).
pub fn checkout_options(
    cargo: &CargoOptions,
    (top, root): (&Path, &Path),
    (worktree, build_target, target_dir): (&Path, &Path, &Path),
    what: &str,
) -> Result<CargoOptions, Failure> {
    let manifest = match &cargo.manifest_path {
        Some(path) => std::fs::canonicalize(path)
            .with_context(|| format!("failed to find `{}`", path.display()))?,
        None => root.join("Cargo.toml"),
    };
    let relative = manifest.strip_prefix(top).map_err(|_| {
        anyhow!(
            "`{}` is outside the repository `{}`",
            manifest.display(),
            top.display()
        )
    })?;
    let checkout_manifest = worktree.join(relative);
    if !checkout_manifest.is_file() {
        return Err(Failure::Error(anyhow!(
            "{what} has no `{}`: the workspace did not exist there",
            relative.display()
        )));
    }
    // cargo names a workspace's own artifacts by their path inside the workspace, so the two
    // builds in one target directory would overwrite each other's executables.
    let same = |a: &Path, b: &Path| {
        std::fs::canonicalize(a)
            .ok()
            .is_some_and(|a| std::fs::canonicalize(b).ok() == Some(a))
    };
    if same(build_target, target_dir) {
        return Err(Failure::Usage(anyhow!(
            "is the working tree's own target directory: the two builds would overwrite each \
             other's bench executables; give {what} a directory of its own"
        )));
    }
    Ok(CargoOptions {
        manifest_path: Some(checkout_manifest),
        target_dir: Some(build_target.to_path_buf()),
        // cargo names a workspace's own executables alike in every checkout: a build
        // directory configured for all builds (`build.build-dir`, `CARGO_BUILD_BUILD_DIR`)
        // would hold one executable for both.
        build_dir: Some(build_target.to_path_buf()),
        packages: Vec::new(),
        ..cargo.clone()
    })
}
