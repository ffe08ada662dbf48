//! A child process: the one session it runs of its bench, its result document written for the
//! parent, and how the parent starts one and reads what it reported.

use std::process::ExitCode;
use std::time::Duration;

use super::report::{ProcessResult, child_document, process_result};
use crate::cli::Args;
use crate::entry::BenchBody;
use crate::record::measure_clock;
use crate::runner::config::session_config;
use crate::runner::now;
use crate::runner::registry::Bench;
use crate::runner::workload::{
    BenchWorkload, Closure, SessionChecks, calibrate, failed_session, form, target_unit_ns,
};
use crate::session::{SessionConfig, Status};
use crate::store::result;

/// In a process started by `measure_in_processes`: run the one selected bench's session
/// without output and write its result document to `--json`.
pub(in crate::runner) fn child_mode(args: &Args, selected: &[&Bench]) -> ExitCode {
    let Some(b) = selected.first() else {
        eprintln!("error: a pilot child process needs one bench (--exact NAME) and --json FILE");
        return ExitCode::from(2);
    };
    child_session(args, b, None)
}

/// The child process's one session of `b` (whose micro-form body is `closure` when the bench
/// was announced at run time), its document written to `--json`.
pub(in crate::runner) fn child_session(
    args: &Args,
    b: &Bench,
    closure: Option<Closure<'_>>,
) -> ExitCode {
    if let Some(plan) = args.count {
        return crate::runner::counting::count_child(args, plan, b, closure);
    }
    let Some(path) = &args.json else {
        eprintln!("error: a pilot child process needs one bench (--exact NAME) and --json FILE");
        return ExitCode::from(2);
    };
    crate::runner::interrupt::install();
    let clock = measure_clock();
    let config = session_config(args, b.def);
    let started = now();
    let mut workload = BenchWorkload::new(b, target_unit_ns(clock)).with_closure(closure);
    let session = match calibrate(&mut workload) {
        Err(msg) => failed_session(&msg),
        Ok(()) => workload.session(&config, SessionChecks::of(args, clock), &mut |_, _| {}),
    };
    if session.status == Status::Interrupted {
        // The parent sees no result and stops too.
        return ExitCode::from(crate::Exit::Interrupted);
    }
    let iters = matches!(b.def.body, BenchBody::Micro(_)).then_some(workload.iters);
    let record = result::BenchRecord {
        name: &b.name,
        target: "",
        form: form(&b.def.body),
        throughput: b.rate.as_ref(),
        config: &config,
        session: &session,
        iterations_per_unit: iters,
        clock,
        machine: None,
        started,
        finished: now(),
    };
    let mut doc = result::document(&record);
    if let Some(e) = &session.unresolved_fit {
        // For the parent only (a child's document is never stored): the non-positive slope,
        // which the combination over processes keeps.
        doc.pis = vec![result::time_pi(e, "regression", "regression")];
    }
    let bytes = serde_json::to_vec(&doc).expect("documents serialise");
    // A scratch file in the parent's temporary folder, read once as this process ends: not
    // synced to disk (a sync sets the kernel writing back while the next process starts, which
    // its first round saw as other processes' load).
    match std::fs::write(path, &bytes) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: failed to write `{path}`: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs one session of `name` in a fresh process of this executable, capped at `cap`.
pub(super) fn run_process(
    name: &str,
    cap: Duration,
    config: &SessionConfig,
    child_target: f64,
) -> Result<ProcessResult, String> {
    let exe =
        std::env::current_exe().map_err(|e| format!("cannot find the bench executable: {e}"))?;
    // The child's result goes in a folder of its own, removed with everything in it however
    // this function returns.
    let scratch = tempfile::Builder::new()
        .prefix("pilot-child-")
        .tempdir()
        .map_err(|e| format!("cannot make a temporary folder for the bench's process: {e}"))?;
    let path = scratch.path().join("result.json");
    let status = std::process::Command::new(&exe)
        .args(["--bench", "--exact", name, "--json"])
        .arg(&path)
        .env("PILOT_CHILD", "1")
        .env("PILOT_MAX_TIME", format!("{}", cap.as_secs_f64().max(0.05)))
        .env("PILOT_MIN_TIME", "0")
        .env("PILOT_CI", format!("{child_target}"))
        .env("PILOT_CONFIDENCE", format!("{}", config.confidence))
        .env_remove("PILOT_JSON")
        .env_remove("PILOT_SAVE_BASELINE")
        .stdout(std::process::Stdio::null())
        .status()
        .map_err(|e| format!("cannot start `{}`: {e}", exe.display()))?;
    let text = std::fs::read_to_string(&path);
    drop(scratch);
    let Ok(text) = text else {
        return Err(format!(
            "the bench's process exited with {status} before reporting"
        ));
    };
    child_document(&text).and_then(|doc| process_result(&doc))
}
