//! A child process: the one session it runs of its bench, its message written for the
//! parent, and how the parent starts one and reads what it reported.

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use super::message::{ChildMessage, ProcessEnd, ProcessResult};
use crate::cli::Args;
use crate::runner::config::{child_first_result, measure_clock_of, session_config};
use crate::runner::registry::Bench;
use crate::runner::workload::{Closure, SessionChecks, measure_session};
use crate::session::{SessionConfig, Status};

/// In a process started by `measure_in_processes`: run the one selected bench's session
/// without output and write its message to `--json`.
pub(in crate::runner) fn child_mode(args: &Args, selected: &[&Bench]) -> ExitCode {
    let Some(b) = selected.first() else {
        eprintln!("error: a pilot child process needs one bench (--exact NAME) and --json FILE");
        return ExitCode::from(2);
    };
    child_session(args, b, None)
}

/// The child process's one session of `b` (whose micro-form body is `closure` when the bench
/// was announced at run time), its message written to `--json`.
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
    let clock = match measure_clock_of(args) {
        Ok(clock) => clock,
        Err(e) => {
            eprintln!("error: {}", crate::fmt::terminal_lines(&e));
            return ExitCode::FAILURE;
        }
    };
    let _ = crate::allocations::counting_cost();
    let mut config = session_config(args, b.def);
    // The cap that matters is the parent's: its combination says when the bench reached it.
    config.time_cap_warning = false;
    let asked = WarmUp::asked();
    if let Some(w) = &asked {
        // The parent added the warm-up's budget to this process's cap: the session measures
        // for the rest, its share, however little of the budget the warm-up used.
        config.max_time = share_after_warm_up(config.max_time, w.budget);
        config.first_result = child_first_result(config.max_time);
        config.min_time = config.min_time.min(config.max_time);
    }
    let measured = measure_session(
        b,
        closure,
        (&config, SessionChecks::of(args, clock)),
        clock,
        asked.map(|w| (w.iterations, w.budget)),
        &mut |_, _| {},
    );
    if measured.session.status == Status::Interrupted {
        // The parent sees no result and stops too.
        return ExitCode::from(pilot_format::Exit::Interrupted);
    }
    match ChildMessage::of(b, &config, clock, measured).write(Path::new(path)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!(
                "error: failed to write `{}`: {e}",
                crate::fmt::terminal(path)
            );
            ExitCode::FAILURE
        }
    }
}

/// What a child process whose cap is `cap` measures for once the parent added `budget` to it
/// for the warm-up it runs first: the rest, and never under a quarter of the cap (a cap set
/// by hand below the budget). Time: O(1).
fn share_after_warm_up(cap: Duration, budget: Duration) -> Duration {
    cap.saturating_sub(budget).max(cap / 4)
}

/// What the processes of one bench have learnt of its warm-up: the largest a process showed
/// (see [`crate::session::WarmUpWork`]). Every later process runs that much of the routine,
/// and a quarter more, unmeasured before its session, so that a process too short to outlast
/// the warm-up on its own (a loaded machine slows it) does not report the warm-up's level as
/// its estimate. Its cap grows by what that took, with room for a slower machine.
#[derive(Debug, Clone, Copy, Default)]
pub struct WarmUp {
    /// The largest warm-up a process showed, in iterations (those it ran unmeasured first
    /// included).
    learnt: u64,
    /// Iterations to run unmeasured: `learnt` and a quarter more.
    iterations: u64,
    /// The most time they may take.
    budget: Duration,
}

/// The variables that pass a [`WarmUp`] to a child process.
const WARM_UP_ITERATIONS: &str = "PILOT_WARM_UP_ITERATIONS";
const WARM_UP_SECONDS: &str = "PILOT_WARM_UP_SECONDS";

impl WarmUp {
    /// Takes what process `p`, started with this warm-up, showed of it (see
    /// [`shown`](super::message::WarmUpFinding::shown)): a warm-up of its own that outlasted the
    /// iterations it ran unmeasured first adds to them.
    pub(super) fn learn(&mut self, p: &ProcessResult) {
        if let Some(w) = p.warm_up.shown().filter(|w| w.iterations > self.learnt) {
            self.learnt = w.iterations;
            self.iterations = w.iterations.saturating_add(w.iterations / 4);
            // At the pace of the warm-up seen, three times over (a loaded machine runs it
            // slower), within 20 ms to 1 s.
            let pace = w.time.as_secs_f64() / w.iterations.max(1) as f64;
            let seconds = (3.0 * pace * self.iterations as f64).clamp(0.02, 1.0);
            self.budget = Duration::from_secs_f64(seconds);
        }
    }

    /// Takes what the process that gave `report`, started with this warm-up, showed of it
    /// (for callers that start the processes themselves, as `cargo pilot bench --against`).
    pub fn learn_report(&mut self, report: &super::ChildReport) {
        self.learn(&report.result);
    }

    /// Passes this warm-up to the child process `cmd` will start.
    pub fn apply(&self, cmd: &mut std::process::Command) {
        cmd.env(WARM_UP_ITERATIONS, self.iterations.to_string())
            .env(WARM_UP_SECONDS, format!("{}", self.budget.as_secs_f64()));
    }

    /// What a process's cap grows by to pay for the warm-up it runs first.
    pub fn extra_cap(&self) -> Duration {
        if self.iterations == 0 {
            Duration::ZERO
        } else {
            self.budget
        }
    }

    /// The warm-up the parent asked this child process for, if any.
    fn asked() -> Option<WarmUp> {
        let iterations: u64 = std::env::var(WARM_UP_ITERATIONS).ok()?.parse().ok()?;
        let seconds: f64 = std::env::var(WARM_UP_SECONDS).ok()?.parse().ok()?;
        Some(WarmUp {
            learnt: iterations,
            iterations,
            budget: Duration::try_from_secs_f64(seconds).ok()?,
        })
        .filter(|w| w.iterations > 0)
    }
}

/// The settings this process was given, as the `PILOT_*` variables its child processes
/// inherit them by (see [`inherit`]).
static INHERITED: std::sync::OnceLock<Vec<(&'static str, String)>> = std::sync::OnceLock::new();

/// Keeps the settings `args` were given (by flag or variable) for the child processes this
/// process starts: each reaches a child as its variable, so a flag given to the parent
/// (`--timer tsc`, `--estimator mean`, `--no-overhead-check`) holds in its children as it does
/// in a session of its own. Settings that `cargo pilot` keeps for itself (baselines, `--json`)
/// are not passed on; the session's own (time cap, target) are set per child.
pub(in crate::runner) fn inherit(args: &Args) {
    let inherited = args
        .settings
        .iter()
        .filter_map(|(name, raw)| {
            let s = pilot_settings::by_name(pilot_settings::SETTINGS, name)?;
            (s.scope != pilot_settings::Scope::CargoPilot).then(|| (s.env, raw.clone()))
        })
        .collect();
    let _ = INHERITED.set(inherited);
}

/// Runs one session of `name` in a fresh process of this executable (from a copy of its file,
/// removed after), capped at `cap`, after the `warm_up` learnt from its earlier processes: what
/// it found, read from its message.
pub(super) fn run_process(
    name: &str,
    cap: Duration,
    config: &SessionConfig,
    child_target: f64,
    warm_up: WarmUp,
) -> Result<ProcessResult, ProcessEnd> {
    let fail = ProcessEnd::Failed;
    let exe = std::env::current_exe()
        .map_err(|e| fail(format!("cannot find the bench executable: {e}")))?;
    // The child's message goes in a folder of its own, removed with everything in it however
    // this function returns.
    let scratch = tempfile::Builder::new()
        .prefix("pilot-child-")
        .tempdir()
        .map_err(|e| {
            fail(format!(
                "cannot make a temporary folder for the bench's process: {e}"
            ))
        })?;
    let path = scratch.path().join("result.json");
    // Each process runs a copy of its own, so that where the kernel put the code varies from
    // process to process and is in their spread, as it is between runs (see `fresh_copy`).
    let copy = super::fresh_copy(&exe);
    let mut command = std::process::Command::new(copy.as_deref().unwrap_or(&exe));
    for (env, raw) in INHERITED.get().into_iter().flatten() {
        command.env(env, raw);
    }
    warm_up.apply(&mut command);
    let status = command
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
        .map_err(|e| fail(format!("cannot start `{}`: {e}", exe.display())))?;
    let Ok(bytes) = std::fs::read(&path) else {
        return Err(fail(format!(
            "the bench's process exited with {status} before reporting"
        )));
    };
    read_message(&bytes, &path)
}

/// What the child's message `bytes`, read from `path`, says of its process.
pub(super) fn read_message(bytes: &[u8], path: &Path) -> Result<ProcessResult, ProcessEnd> {
    ChildMessage::parse(bytes, path)
        .map_err(ProcessEnd::Failed)
        .and_then(|m| m.outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_measures_for_its_share_whatever_its_warm_up_used() {
        let ms = Duration::from_millis;
        // A 150 ms share and a 300 ms warm-up budget: the parent asked for 450 ms, the session
        // measures for 150 ms.
        assert_eq!(share_after_warm_up(ms(450), ms(300)), ms(150));
        // No warm-up learnt: the whole cap.
        assert_eq!(share_after_warm_up(ms(450), Duration::ZERO), ms(450));
        // A budget above the cap (a cap set by hand): a quarter of it, not nothing.
        assert_eq!(share_after_warm_up(ms(400), ms(1000)), ms(100));
    }
}
