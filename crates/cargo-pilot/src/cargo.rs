//! Working with cargo: the workspace's metadata, building its bench targets, and finding which
//! of the built executables are pilot bench binaries.
//!
//! cargo is always run through `$CARGO` (set when cargo starts a subcommand), so `cargo +nightly
//! pilot` uses that toolchain's cargo.

use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, bail};
use cargo_metadata::{Message, Metadata, MetadataCommand, TargetKind};

use crate::args::{CargoOptions, Workspace};
use crate::interrupt;

/// Environment variable that makes a pilot bench binary identify itself (see [`is_pilot`]).
const PROBE_ENV: &str = "PILOT_PROBE";

// The flags are plain clap types of the `args` leaf; finding the folder they point at is cargo's
// work, so it lives here.
impl Workspace {
    /// The target directory these flags point at (see [`target_dir_only`]); `CARGO_TARGET_DIR`
    /// when set and no `--target-dir` is given, as cargo would choose, without asking cargo, so
    /// that no Cargo.toml is needed to read the results there.
    pub fn target_dir(&self) -> anyhow::Result<PathBuf> {
        if self.target_dir.is_none()
            && let Some(dir) = std::env::var_os("CARGO_TARGET_DIR").filter(|d| !d.is_empty())
        {
            return Ok(PathBuf::from(dir));
        }
        target_dir_only(&CargoOptions {
            manifest_path: self.manifest_path.clone(),
            target_dir: self.target_dir.clone(),
            ..CargoOptions::default()
        })
    }
}

/// A bench executable built by cargo.
#[derive(Debug, Clone)]
pub struct BenchExe {
    /// The package it belongs to.
    pub package: String,
    /// The bench target's name.
    pub target: String,
    /// The executable.
    pub path: PathBuf,
    /// The package's folder: cargo runs benches from there, and so do we.
    pub package_dir: PathBuf,
}

/// The path of cargo itself: `$CARGO`, else `cargo` on the `PATH`.
pub fn cargo() -> PathBuf {
    std::env::var_os("CARGO")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("cargo"))
}

/// `cargo metadata` of the workspace (without dependencies' own metadata).
pub fn metadata(options: &CargoOptions) -> anyhow::Result<Metadata> {
    let mut cmd = MetadataCommand::new();
    cmd.cargo_path(cargo()).no_deps();
    if let Some(path) = &options.manifest_path {
        cmd.manifest_path(path);
    }
    cmd.exec()
        .map_err(|e| match e {
            // cargo's own message already names the problem; its `error: ` would double ours.
            cargo_metadata::Error::CargoMetadata { stderr } => {
                anyhow::anyhow!("{}", tool_message(&stderr))
            }
            e => anyhow::Error::new(e),
        })
        .context("failed to read the workspace with `cargo metadata`")
}

/// A tool's standard error as one cause in pilot's chain: trimmed, without the `error: ` it
/// starts with, since `cargo pilot` prints the whole chain after its own `error: `.
fn tool_message(stderr: &str) -> &str {
    let text = stderr.trim();
    text.strip_prefix("error: ").unwrap_or(text)
}

/// The target directory: `--target-dir`, else the one cargo reports (which honours
/// `CARGO_TARGET_DIR` and `build.target-dir`).
pub fn target_dir(options: &CargoOptions, metadata: &Metadata) -> PathBuf {
    options
        .target_dir
        .clone()
        .unwrap_or_else(|| metadata.target_directory.clone().into_std_path_buf())
}

/// The target directory without building anything, for commands that only read results.
pub fn target_dir_only(options: &CargoOptions) -> anyhow::Result<PathBuf> {
    if let Some(dir) = &options.target_dir {
        return Ok(dir.clone());
    }
    Ok(target_dir(options, &metadata(options)?))
}

/// The workspace members that have bench targets and depend on pilot (the package
/// `pilot-bench`, whatever key names it), pilot-criterion or pilot-divan (or are pilot), limited
/// to `-p` when given. A `-p` naming no member is an error listing the members.
pub fn pilot_packages(metadata: &Metadata, options: &CargoOptions) -> anyhow::Result<Vec<String>> {
    let members = metadata.workspace_packages();
    for p in &options.packages {
        if !members.iter().any(|m| m.name.as_str() == p) {
            let names: Vec<&str> = members.iter().map(|m| m.name.as_str()).collect();
            bail!(
                "package `{p}` is not a member of the workspace (members: {})",
                names.join(", ")
            );
        }
    }
    Ok(members
        .iter()
        .filter(|m| options.packages.is_empty() || options.packages.contains(&m.name))
        .filter(|m| {
            // A dependency's `name` is its package's, whatever the key: `pilot = { package =
            // "pilot-bench", … }` is found as `pilot-bench`.
            m.name.as_str() == "pilot-bench"
                || m.dependencies.iter().any(|d| {
                    ["pilot-bench", "pilot-criterion", "pilot-divan"].contains(&d.name.as_str())
                })
        })
        .filter(|m| m.targets.iter().any(|t| t.is_kind(TargetKind::Bench)))
        .map(|m| m.name.to_string())
        .collect())
}

/// Each `--bench NAME` names a bench target of `packages`; else a usage error listing the
/// targets there are, before anything is built (cargo's own error would read as a failed
/// build). Time: O(targets × names).
pub fn check_benches(
    metadata: &Metadata,
    options: &CargoOptions,
    packages: &[String],
) -> anyhow::Result<()> {
    let targets: Vec<&str> = metadata
        .workspace_packages()
        .into_iter()
        .filter(|m| packages.contains(&m.name))
        .flat_map(|m| &m.targets)
        .filter(|t| t.is_kind(TargetKind::Bench))
        .map(|t| t.name.as_str())
        .collect();
    // cargo reads `*`, `?` and `[` as a glob's: a pattern is left to cargo.
    let pattern = |b: &str| b.contains(['*', '?', '[']);
    for b in &options.benches {
        if !pattern(b) && !targets.contains(&b.as_str()) {
            bail!(
                "no bench target named `{}` (the bench targets that use pilot: {})",
                pilot_engine::fmt::terminal(b),
                targets.join(", ")
            );
        }
    }
    Ok(())
}

/// Builds the bench targets of `packages` with `cargo bench --no-run` and returns their
/// executables, in cargo's order. Compiler output goes to the terminal as cargo renders it.
pub fn build(options: &CargoOptions, packages: &[String]) -> anyhow::Result<Vec<BenchExe>> {
    let mut cmd = Command::new(cargo());
    cmd.args([
        "bench",
        "--no-run",
        "--message-format=json-render-diagnostics",
    ]);
    if let Some(path) = &options.manifest_path {
        cmd.arg("--manifest-path").arg(path);
    }
    for p in packages {
        cmd.args(["-p", p]);
    }
    if options.benches.is_empty() {
        cmd.arg("--benches");
    }
    for b in &options.benches {
        cmd.args(["--bench", b]);
    }
    for f in &options.features {
        cmd.args(["--features", f]);
    }
    if options.all_features {
        cmd.arg("--all-features");
    }
    if options.no_default_features {
        cmd.arg("--no-default-features");
    }
    if let Some(profile) = &options.profile {
        cmd.args(["--profile", profile]);
    }
    if let Some(dir) = &options.target_dir {
        cmd.arg("--target-dir").arg(dir);
    }
    if let Some(dir) = &options.build_dir {
        cmd.env("CARGO_BUILD_BUILD_DIR", dir);
    }
    // cargo and what it starts (compilers, build scripts) in a process group of their own, to
    // which an interrupt is passed on whole: sent to cargo alone, it would leave its children
    // compiling after this command ended. The terminal's Ctrl-C now reaches this process
    // only, which passes it on (so the handler is installed here).
    interrupt::install();
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
        // SAFETY: signal() is async-signal-safe, and the closure touches nothing else. A group
        // that is not the terminal's may write to it only while SIGTTOU is ignored, when the
        // terminal stops background writers (`stty tostop`).
        unsafe {
            cmd.pre_exec(|| {
                libc::signal(libc::SIGTTOU, libc::SIG_IGN);
                Ok(())
            });
        }
    }
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .with_context(|| format!("failed to start `{}`", cargo().display()))?;
    let _watched = interrupt::watch_group(&child);
    let stdout = child.stdout.take().expect("stdout is piped");
    let mut exes = Vec::new();
    for message in Message::parse_stream(BufReader::new(stdout)) {
        let message = message.context("failed to read cargo's build messages")?;
        if let Message::CompilerArtifact(a) = message {
            if !a.target.is_kind(TargetKind::Bench) {
                continue;
            }
            let Some(exe) = a.executable else { continue };
            let package_dir = a
                .manifest_path
                .parent()
                .map(|p| p.as_std_path().to_path_buf())
                .unwrap_or_default();
            let package = package_name(&a.package_id.repr);
            if packages.contains(&package) {
                exes.push(BenchExe {
                    package,
                    target: a.target.name.clone(),
                    path: exe.into_std_path_buf(),
                    package_dir,
                });
            }
        }
    }
    let status = child.wait().context("failed to wait for cargo")?;
    interrupt::note(&status);
    if interrupt::happened() {
        // No compiler or build script of the group outlives the command.
        interrupt::end_group(child.id());
        bail!("interrupted while building the bench targets");
    }
    if !status.success() {
        bail!("building the bench targets failed (`cargo bench --no-run` exited with {status})");
    }
    Ok(exes)
}

/// The package name in a package id: `path+file:///w/examples#pilot-examples@0.1.0`,
/// `registry+…#serde@1.0.0`, or the old form `pilot-examples 0.1.0 (path+file:///…)`.
fn package_name(id: &str) -> String {
    if let Some((_, frag)) = id.rsplit_once('#') {
        let name = frag.split('@').next().unwrap_or(frag);
        // `…/examples#0.1.0`: the fragment is only a version, the name is the folder's.
        if name.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            let path = id[..id.len() - frag.len() - 1].trim_end_matches('/');
            return path.rsplit('/').next().unwrap_or(path).to_string();
        }
        return name.to_string();
    }
    id.split(' ').next().unwrap_or(id).to_string()
}

/// Whether `exe` is a pilot bench binary: started with `PILOT_PROBE=1` and `--list`, a pilot
/// binary prints `pilot-harness VERSION` first and runs nothing. Other harnesses (criterion,
/// libtest) ignore the variable and list their benchmarks.
pub fn is_pilot(exe: &Path) -> bool {
    Command::new(exe)
        .args(["--list", "--format", "terse"])
        .env(PROBE_ENV, "1")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).starts_with("pilot-harness "))
}

/// The group members of pilot bench binary `exe`: (group instance, bench name) pairs, from
/// `PILOT_PROBE=groups` (none from a binary of a pilot that does not list them).
pub fn groups(exe: &Path) -> Vec<(String, String)> {
    let Ok(out) = Command::new(exe)
        .args(["--list", "--format", "terse"])
        .env(PROBE_ENV, "groups")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
    else {
        return Vec::new();
    };
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut parts = l.strip_prefix("group\t")?.splitn(2, '\t');
            Some((parts.next()?.to_string(), parts.next()?.to_string()))
        })
        .collect()
}

/// The names of the benches in a pilot bench binary (`--list --format terse`).
pub fn list_benches(exe: &Path) -> anyhow::Result<Vec<String>> {
    let out = Command::new(exe)
        .args(["--list", "--format", "terse", "--include-ignored"])
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("failed to start `{}`", exe.display()))?;
    if !out.status.success() {
        bail!("`{} --list` exited with {}", exe.display(), out.status);
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_suffix(": benchmark"))
        .map(String::from)
        .collect())
}

/// A bench binary refused the arguments it was given (exit code 2): a usage error, such as a
/// filter its front end cannot read (an invalid regular expression for pilot-criterion).
#[derive(Debug)]
pub struct Refused {
    /// The bench target.
    pub target: String,
    /// What the binary said, its `error: ` left out.
    pub message: String,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "bench target `{}`: {}", self.target, self.message)
    }
}

impl std::error::Error for Refused {}

/// The benches of pilot bench binary `exe` that the filters select, as its own `--list`
/// selects them (`--exact`, `--skip`, ignored benches left out), the filters read in its front
/// end's syntax; `extra` are more flags it is to check (`--compare-across REGEX`). A binary
/// that refuses them (exit code 2) is a [`Refused`] error.
pub fn list_selected(
    exe: &BenchExe,
    filters: &[String],
    exact: bool,
    skip: &[String],
    extra: &[std::ffi::OsString],
) -> anyhow::Result<Vec<String>> {
    let mut cmd = Command::new(&exe.path);
    // pilot's names (a thread count each), not a front end's own listing.
    cmd.env(pilot_engine::runner::listed::LIST_NAMES, "1")
        .args(["--list", "--format", "terse"])
        .args(filters);
    if exact {
        cmd.arg("--exact");
    }
    for s in skip {
        cmd.args(["--skip", s]);
    }
    let out = cmd
        .args(extra)
        .current_dir(&exe.package_dir)
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("failed to start `{}`", exe.path.display()))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(2) {
        return Err(Refused {
            target: exe.target.clone(),
            message: tool_message(&stderr).to_string(),
        }
        .into());
    }
    if !out.status.success() {
        bail!(
            "`{} --list` exited with {}: {}",
            exe.path.display(),
            out.status,
            tool_message(&stderr)
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_suffix(": benchmark"))
        .map(String::from)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_names_from_ids() {
        assert_eq!(
            package_name("path+file:///w/examples#pilot-examples@0.1.0"),
            "pilot-examples"
        );
        assert_eq!(package_name("path+file:///w/pilot#0.1.0"), "pilot");
        assert_eq!(
            package_name("pilot-examples 0.1.0 (path+file:///w/examples)"),
            "pilot-examples"
        );
    }

    #[test]
    fn a_tools_error_prefix_is_dropped_once() {
        assert_eq!(
            tool_message("error: manifest path `x/Cargo.toml` does not exist\n"),
            "manifest path `x/Cargo.toml` does not exist"
        );
        assert_eq!(tool_message("  warning: w\n"), "warning: w");
    }
}
