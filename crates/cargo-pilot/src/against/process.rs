//! One process of a side: the bench binary's child mode measuring one bench for a capped
//! time, and its report read back.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use pilot_engine::runner::{ChildReport, WarmUp};

use super::plan::Plan;
use crate::cargo::BenchExe;
use crate::interrupt;

/// Why a process gave no report.
pub struct NoReport {
    /// What went wrong.
    pub message: String,
    /// The session ran out of time before it had an estimate: a longer process may have one.
    pub too_short: bool,
}

impl From<String> for NoReport {
    fn from(message: String) -> Self {
        NoReport {
            message,
            too_short: false,
        }
    }
}

/// One process of `exe` measuring bench `name` alone (the binary's child mode) for at most
/// `cap`, after running unmeasured the warm-up earlier processes showed (`warm_up`; the caller
/// learns from the report): its report, or what went wrong.
pub fn run_child(
    exe: &BenchExe,
    name: &str,
    cap: Duration,
    plan: &Plan,
    warm_up: WarmUp,
) -> Result<ChildReport, NoReport> {
    // The child's message goes in a folder of its own, removed however this function returns.
    let scratch = tempfile::Builder::new()
        .prefix("cargo-pilot-pair-")
        .tempdir()
        .map_err(|e| format!("cannot make a temporary folder: {e}"))?;
    let path = scratch.path().join("result.json");
    let copy = fresh_copy(&exe.path);
    let program = copy.as_deref().unwrap_or(&exe.path);
    let mut cmd = Command::new(program);
    cmd.args(["--bench", "--exact", name, "--json"])
        .arg(&path)
        .current_dir(&exe.package_dir)
        .env("PILOT_CHILD", "1")
        .env(
            "PILOT_MAX_TIME",
            format!("{}", (cap + warm_up.extra_cap()).as_secs_f64()),
        )
        .env("PILOT_MIN_TIME", "0")
        .env("PILOT_CI", format!("{}", plan.process_ci))
        .env_remove("PILOT_JSON")
        .env_remove("PILOT_SAVE_BASELINE")
        .env_remove("PILOT_BASELINE")
        .stdin(Stdio::null())
        .stdout(Stdio::null());

    if let Some(c) = plan.confidence_flag {
        cmd.env("PILOT_CONFIDENCE", format!("{c}"));
    }
    if let Some(e) = plan.estimator {
        cmd.env("PILOT_ESTIMATOR", e.as_str());
    }
    if plan.no_sampling {
        cmd.env("PILOT_NO_SAMPLING", "1");
    }
    if plan.no_overhead_check {
        cmd.env("PILOT_NO_OVERHEAD_CHECK", "1");
    }
    warm_up.apply(&mut cmd);
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start `{}`: {e}", exe.path.display()))?;
    let status = interrupt::wait(&mut child)
        .map_err(|e| format!("failed to wait for `{}`: {e}", exe.path.display()))?;
    let bytes = std::fs::read(&path).map_err(|_| {
        format!(
            "`{}` exited with {status} without a result",
            short_path(&exe.path)
        )
    })?;
    ChildReport::parse(&bytes, &path).map_err(|f| NoReport {
        too_short: f.status == pilot_engine::session::Status::TimeCap,
        message: f.to_string(),
    })
}

/// A copy of the executable at `path`, made beside it (so that whatever it finds next to
/// itself is there) and removed when dropped; `None` where none can be made (a folder that
/// cannot be written), and the process then runs the file itself.
///
/// Each process runs its build from a file of its own because the kernel keeps a file's code in
/// the memory pages it first read it into, for as long as they stay cached, and where those
/// pages lie (which cache sets the code shares with the data) moves a bench's time by a few
/// percent. Every process run from one file gets the same pages: two builds of the same code,
/// each run from its own file, then differ alike in every pair, and the paired test, which
/// sees only the pairs' spread, reads that as the code's. A fresh copy gets fresh pages, so
/// where the code lies varies between processes, alike for both builds, and is in the pairs'
/// spread instead. Time: one copy of the file, between processes.
fn fresh_copy(path: &Path) -> Option<tempfile::TempPath> {
    let dir = path.parent()?;
    let name = path.file_name()?.to_string_lossy();
    // A name of its own, closed at once (a file open for writing cannot be executed), then
    // filled with the executable's bytes and permissions.
    let copy = tempfile::Builder::new()
        .prefix(&format!(".{name}.pilot-"))
        .tempfile_in(dir)
        .ok()?
        .into_temp_path();
    std::fs::copy(path, &copy).ok()?;
    Some(copy)
}

/// The executable's file name, for messages.
fn short_path(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    use super::*;

    #[test]
    fn a_fresh_copy_is_another_file_beside_the_original_with_its_bytes_and_mode_and_goes_when_dropped()
     {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("bench-0123");
        std::fs::write(&exe, b"#!/bin/sh\necho copied\n").unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        let copy = fresh_copy(&exe).expect("a copy");
        assert_eq!(copy.parent(), exe.parent());
        let (a, b) = (
            std::fs::metadata(&exe).unwrap(),
            std::fs::metadata(&copy).unwrap(),
        );
        assert_ne!(a.ino(), b.ino(), "the same file, not a copy");
        assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&exe).unwrap());
        assert_eq!(b.mode() & 0o777, 0o755);
        // It runs (closed for writing, executable).
        let out = Command::new(&*copy).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "copied\n");
        let path = copy.to_path_buf();
        drop(copy);
        assert!(!path.exists());
        assert!(exe.exists());
    }

    #[test]
    fn no_copy_of_a_missing_file_or_into_a_folder_that_cannot_be_written() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("bench");
        std::fs::write(&exe, b"x").unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o555)).unwrap();
        // Root writes anywhere: the case only holds for other users.
        let writable = tempfile::tempfile_in(dir.path()).is_ok();
        let copy = fresh_copy(&exe);
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        if !writable {
            assert!(copy.is_none());
        }
        assert!(fresh_copy(&dir.path().join("missing")).is_none());
    }
}
