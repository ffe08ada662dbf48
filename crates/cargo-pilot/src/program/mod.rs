//! Command-line programs, the Pilot paper's third kind of workload (its `bench run_program`),
//! measured by `cargo pilot run`: each program is a session of pilot's (adaptive stop on the
//! interval, change points cutting the first, slower runs, subsession analysis), several
//! programs are alternatives run interleaved and ranked as a group's members are, and the
//! results are documents like a bench's, saved and compared with baselines the same way.
//!
//! The shell's start-up time is measured (pilot's session over `SHELL -c ''`) and subtracted
//! from each run's wall time, as hyperfine does; `-N` runs the program without a shell.
//! Each run's user and system CPU time and peak memory are that child's own (`wait4`), kept as
//! extra performance indices over the same stable runs as the time.
//!
//! Set-up order for each program: `--setup` once, one checked run (a program that cannot start
//! or fails stops everything before anything is measured; it also fills the caches), then
//! `--warmup N` runs discarded; after every program's session, `--cleanup` once.
//!
//! `--max-time` bounds each of those commands too: one still running a tenth past it is
//! killed with its process group (the tenth lets the run in progress at a session's cap end
//! as usual). A session whose run is killed ends with the runs it completed, and says so.

mod document;
mod export;
mod measure;
mod shell;
mod spawn;
#[cfg(unix)]
mod wait;
mod workload;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

pub use spawn::Output;
pub use workload::Mode;

use pilot_engine::fmt::format_ns;
use pilot_engine::runner::{MEMBER_MAX_ROUND, interrupt_install};
use pilot_engine::session::{SessionConfig, SessionResult, stop_requested};
use pilot_format::ResultDoc;
use spawn::Spawn;
use workload::Killed;

/// The bench target name of programs' results: `<root>/pilot/results/run.programs/<name>.json`.
pub const TARGET: &str = pilot_format::PROGRAM_TARGET;

/// One program to measure.
#[derive(Debug, Clone)]
pub struct Program {
    /// Its name in tables and documents: `-n NAME`, else the command, with `/VAR=value` for
    /// each scanned parameter.
    pub name: String,
    /// The command as the user wrote it (with parameters filled in).
    pub command: String,
    /// What is started: `[shell, "-c", command]`, or the command split into words (`-N`).
    pub argv: Vec<String>,
    /// The scanned parameters' values, `(VAR, value)`.
    pub parameters: Vec<(String, String)>,
    /// What hyperfine names it, and so what the exports in hyperfine's shapes write as its
    /// `command`: the `-n` name with `{VAR}` filled in, else the command; the parameters go
    /// beside it (`parameters`, a CSV column each), as hyperfine writes them.
    pub label: String,
    /// `label` and, as ` (VAR = value, …)`, the parameters it does not show (no `{VAR}` in
    /// the `-n` name, or without one in the command): the Markdown table's name of it, as
    /// hyperfine's, so that two rows are told apart.
    pub label_with_unused: String,
}

/// Everything `cargo pilot run` was asked to do.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The programs, in the order given.
    pub programs: Vec<Program>,
    /// The shell the commands run through (its start-up time is subtracted); `None` with
    /// `-N`.
    pub shell: Option<String>,
    /// How runs become readings.
    pub mode: Mode,
    /// `--work A..B`: the work amounts of work mode.
    pub work: Option<(u64, u64)>,
    /// Target half-width of the time's interval, relative to its mean.
    pub ci: f64,
    /// Confidence level of every interval.
    pub confidence: f64,
    /// Time cap per program (for the whole group when interleaved).
    pub max_time: Duration,
    /// Least runs of each program before its session may stop short of the cap.
    pub min_runs: u64,
    /// Most runs of each program (rounds in work and readings mode).
    pub max_runs: Option<u64>,
    /// Runs discarded before each program's session.
    pub warmup: u64,
    /// A command (as started) run before each run, outside the time measured.
    pub prepare: Option<Vec<String>>,
    /// A command run after each run, outside the time measured.
    pub conclude: Option<Vec<String>>,
    /// A command run once before each program's first run.
    pub setup: Option<Vec<String>>,
    /// A command run once for each program after all sessions.
    pub cleanup: Option<Vec<String>>,
    /// Runs that exit non-zero are measured instead of stopping everything.
    pub ignore_failure: bool,
    /// A file each run reads as its standard input.
    pub input: Option<PathBuf>,
    /// Where each run's standard output goes.
    pub output: Output,
    /// Shows the programs' standard error (and output) on the terminal.
    pub show_output: bool,
    /// One program after another instead of interleaved.
    pub sequential: bool,
    /// The directory results and baselines go under (`<root>/pilot/…`).
    pub root: PathBuf,
    /// `--json FILE`: the run document (`pilot.run/1`).
    pub json: Option<PathBuf>,
    /// `--export-json FILE`: hyperfine's JSON shape.
    pub export_json: Option<PathBuf>,
    /// `--export-csv FILE`: hyperfine's CSV shape.
    pub export_csv: Option<PathBuf>,
    /// `--export-markdown FILE`: hyperfine's Markdown table, with the interval.
    pub export_markdown: Option<PathBuf>,
    /// Saves the results as this baseline too.
    pub save_baseline: Option<String>,
    /// Compares the results with this saved baseline.
    pub baseline: Option<String>,
    /// Significance level of the comparison with a baseline.
    pub alpha: f64,
    /// Noise band of the comparison with a baseline, relative.
    pub noise: f64,
}

/// One program's measured result.
pub(crate) struct Measured {
    pub program: Program,
    pub session: SessionResult,
    pub doc: ResultDoc,
    /// The runs the estimate came from (see [`stable_runs`](document::stable_runs)).
    pub runs: workload::Extras,
}

/// Measures the plan's programs, prints the results and writes what was asked; the exit
/// code: 0, 1 (a program failed, or a write), 3 (a regression against the baseline), 130
/// (interrupted: what finished is kept); and the programs' result documents.
pub fn run(plan: &Plan) -> (ExitCode, Vec<ResultDoc>) {
    interrupt_install();
    match measure::measure_all(plan) {
        Ok(done) => done,
        Err(e) => {
            say!("error: {}", pilot_engine::fmt::terminal_lines(&e));
            let code = if stop_requested() {
                ExitCode::from(pilot_format::Exit::Interrupted)
            } else {
                ExitCode::FAILURE
            };
            (code, Vec::new())
        }
    }
}

fn spawn_of(plan: &Plan, argv: &[String], capture: bool) -> Spawn {
    Spawn {
        argv: argv.to_vec(),
        input: plan.input.clone(),
        output: plan.output.clone(),
        show_output: plan.show_output,
        capture,
    }
}

/// When a command started now, under the time cap `cap`, is killed: a tenth past the cap.
fn deadline(cap: Duration) -> Instant {
    Instant::now() + cap + cap / 10
}

/// What was killed at its deadline, and why, in words.
fn killed_message(k: &Killed, cap: Duration) -> String {
    format!(
        "{} was killed after {}: still running a tenth past --max-time {} s",
        k.what,
        format_ns(k.ran.as_nanos() as f64),
        cap.as_secs_f64()
    )
}

/// A side command (`--setup`, `--cleanup`) run once; it must succeed within the time cap.
fn run_side(plan: &Plan, argv: &[String], what: &str, name: &str) -> Result<(), String> {
    let mut r = spawn::Runner::new(spawn_of(plan, argv, false))?;
    let o = r
        .run(Some(deadline(plan.max_time)))
        .map_err(|e| format!("the {what} command of `{name}`: {e}"))?;
    if o.killed {
        let what = format!("the {what} command of `{name}`");
        let ran = Duration::from_nanos(o.wall_ns as u64);
        Err(killed_message(&Killed { what, ran }, plan.max_time))
    } else if o.success() {
        Ok(())
    } else {
        Err(format!(
            "the {what} command of `{name}` failed with {}: {}",
            o.ending(),
            r.stderr_tail(5)
        ))
    }
}

/// The session settings of one program.
fn session_config(plan: &Plan, members: usize) -> SessionConfig {
    let mut c = SessionConfig {
        confidence: plan.confidence,
        target: plan.ci,
        max_time: plan.max_time,
        min_units: plan.min_runs,
        max_units: plan.max_runs,
        // A command's time is the mean of its runs, as hyperfine reports it: a run is
        // milliseconds long, and what interrupts it is part of what a user of the command
        // waits for.
        estimator: pilot_engine::settings::Estimator::Mean,
        ..SessionConfig::default()
    };
    match plan.mode {
        Mode::Runs => {}
        Mode::Work => c.work_range = plan.work.unwrap_or((1, 1)),
        // One run a round: the program decides how many readings it prints.
        Mode::Readings { .. } => c.work_range = (1, 1),
    }
    if members > 1 && !plan.sequential {
        c.max_round = c.max_round.min(MEMBER_MAX_ROUND);
        c.first_result = (c.first_result / members as u32).max(Duration::from_millis(100));
    }
    c
}

/// Writes `bytes` to the file the user named `path` (see [`pilot_engine::files::write_output`]); 1 when it
/// failed (said on standard error), else 0.
pub(crate) fn write(path: &Path, bytes: &[u8]) -> usize {
    match pilot_engine::files::write_output(path, bytes, pilot_engine::files::Existing::Replace) {
        Ok(()) => 0,
        Err(e) => {
            say!(
                "error: failed to write `{}`: {e}",
                pilot_engine::fmt::terminal_path(path)
            );
            1
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_shells_uncertainty_is_added_in_quadrature() {
        let ci = pilot_stats::summary::ConfidenceInterval {
            low: 4.8e6,
            high: 5.2e6,
            confidence: 0.95,
        };
        // ±0.2 ms and ±0.15 ms: √(0.04 + 0.0225) = 0.25 ms.
        let w = super::document::widened(&ci, 5e6, 0.15e6);
        assert!(
            (w.low - 4.75e6).abs() < 1e-6 && (w.high - 5.25e6).abs() < 1e-6,
            "{w:?}"
        );
        assert_eq!(w.confidence, 0.95);
        assert_eq!(super::document::widened(&ci, 5e6, 0.0), ci);
    }
}
