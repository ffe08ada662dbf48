//! One process of a side: the bench binary's child mode measuring one bench for a capped
//! time, and its report read back.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use pilot_engine::runner::{ChildReport, WarmUp, fresh_copy};

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

/// The executable's file name, for messages.
fn short_path(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}
