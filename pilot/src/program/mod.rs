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

mod export;
mod spawn;
#[cfg(unix)]
mod wait;
mod workload;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

pub use spawn::Output;
pub use workload::Mode;

use crate::fmt::format_ns;
use crate::record::{ClockInfo, RealClock, measure_clock};
use crate::report::{LiveProgress, TimePer, render_table};
use crate::runner::{EXIT_INTERRUPTED, MachineSpeed, interrupt_install, print_outcome, row};
use crate::runner::{
    MEMBER_MAX_ROUND, group_config, group_doc, group_report, rank_sessions, render_report,
};
use crate::runner::{compare_with_baseline, load_baseline, save_result};
use crate::schema::{CiDoc, MachineDoc, PiDoc, RUN_SCHEMA, ResultDoc, RunDoc};
use crate::session::group::run_group;
use crate::session::{SessionConfig, SessionResult, Status, Workload, run_session, stop};
use crate::stats::analysis::{AnalysisConfig, analyze};
use crate::store::{self, result};
use spawn::Spawn;
use workload::{Killed, ProgramWorkload};

/// The bench target name of programs' results: `<root>/pilot/results/run/<name>.json`.
pub const TARGET: &str = "run";

/// The exit code of a regression found against a baseline.
const EXIT_REGRESSION: u8 = 3;

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
    /// The runs the estimate came from (see [`stable_runs`]).
    pub runs: workload::Extras,
}

/// Measures the plan's programs, prints the results and writes what was asked; the exit
/// code: 0, 1 (a program failed, or a write), 3 (a regression against the baseline), 130
/// (interrupted: what finished is kept).
pub fn run(plan: &Plan) -> ExitCode {
    interrupt_install();
    match measure_all(plan) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            if stop::requested() {
                ExitCode::from(EXIT_INTERRUPTED)
            } else {
                ExitCode::FAILURE
            }
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

/// The shell's own start-up time: a session over `SHELL -c ''` capped at a second, its mean
/// and relative half-width. Subtracted from each run, it leaves the program's own time.
fn shell_time(plan: &Plan, shell: &str) -> Result<(f64, f64), String> {
    let argv = vec![shell.to_string(), "-c".to_string(), String::new()];
    let mut w = ProgramWorkload::new(
        "the shell",
        Spawn {
            input: None,
            output: Output::Null,
            show_output: false,
            ..spawn_of(plan, &argv, false)
        },
        None,
        None,
        Mode::Runs,
        false,
    )?;
    let cap = Duration::from_secs(1);
    w.deadline = Some(deadline(cap));
    let checked = w
        .run_once(1)
        .map_err(|e| format!("the shell `{shell}` cannot run: {e}"))?;
    if checked.is_none() {
        return Err(format!(
            "the shell `{shell}` ran `{shell} -c ''` for over a second and was killed"
        ));
    }
    let config = SessionConfig {
        confidence: plan.confidence,
        target: 0.01,
        max_time: cap,
        estimator: crate::settings::Estimator::Mean,
        ..SessionConfig::default()
    };
    w.deadline = Some(deadline(cap));
    let s = run_session(&mut w, &RealClock::start(), &config, &mut |_, _| {});
    match (&s.status, s.estimate) {
        (Status::Failed(msg), _) => Err(format!("the shell `{shell}` failed: {msg}")),
        (_, Some(e)) => Ok((e.mean, e.relative_half_width())),
        (_, None) => Err(format!(
            "the shell `{shell}`'s start-up time could not be measured in a second; -N runs \
             commands without it"
        )),
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
        estimator: crate::settings::Estimator::Mean,
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

/// Builds each program's workload: `--setup`, one checked run (its readings checked too),
/// `--warmup` runs. Nothing is measured when any program fails here.
fn prepare_workloads(plan: &Plan, shell_ns: f64) -> Result<Vec<ProgramWorkload>, String> {
    let capture = matches!(plan.mode, Mode::Readings { .. });
    let side = |argv: &Option<Vec<String>>| argv.as_ref().map(|a| spawn_of(plan, a, false));
    let mut out = Vec::new();
    for p in &plan.programs {
        if let Some(setup) = &plan.setup {
            run_side(plan, setup, "setup", &p.name)?;
        }
        let mut w = ProgramWorkload::new(
            &p.name,
            spawn_of(plan, &p.argv, capture),
            side(&plan.prepare),
            side(&plan.conclude),
            plan.mode.clone(),
            plan.ignore_failure,
        )?;
        w.shell_ns = shell_ns;
        let first_work = plan.work.map_or(1, |w| w.0);
        // Each of these runs may take the time cap (and a tenth), no more.
        let once = |w: &mut ProgramWorkload| -> Result<spawn::Outcome, String> {
            w.deadline = Some(deadline(plan.max_time));
            let o = w.run_once(first_work)?;
            let killed = w.killed.take().map(|k| killed_message(&k, plan.max_time));
            o.ok_or_else(|| killed.unwrap_or_default())
        };
        let o = once(&mut w).map_err(|e| format!("{e}\nnothing was measured"))?;
        if let Mode::Readings { column, unit_ns } = plan.mode {
            ProgramWorkload::parse_readings(&o.stdout, column, unit_ns).map_err(|e| {
                format!(
                    "`{}`: {e}; --readings reads one number a line (or CSV with --column)\n\
                     nothing was measured",
                    p.name
                )
            })?;
        }
        for _ in 0..plan.warmup {
            once(&mut w)?;
        }
        out.push(w);
    }
    Ok(out)
}

fn measure_all(plan: &Plan) -> Result<ExitCode, String> {
    let base = load_baseline(&plan.root, plan.baseline.as_deref(), TARGET)?;
    let clock = measure_clock();
    let started = crate::runner::now();
    let mut machine = crate::probe::machine();
    let (mut speed, speed_warnings) = MachineSpeed::start(&plan.root, &machine, &started);
    machine.speed = Some(speed.doc());
    println!(
        "\nrunning {} program(s){}\n{}",
        plan.programs.len(),
        match plan.mode {
            Mode::Runs => "",
            Mode::Work => ", one run per round over work amounts (WPS fit t = α + w/v)",
            Mode::Readings { .. } => ", unit readings from each run's output",
        },
        speed.describe(plan.confidence)
    );
    for w in speed_warnings {
        println!("warning: {}", crate::fmt::terminal(&w));
    }
    // The shell's start-up is subtracted from every reading of every program alike: its
    // uncertainty (this run's interval, and how much it moves between runs) shifts them all,
    // and is added to each interval below.
    let mut shell_hw = 0.0;
    let shell_ns = match (&plan.shell, &plan.mode) {
        (Some(shell), Mode::Runs) => {
            let (mean, rel) = shell_time(plan, shell)?;
            let name = format!("{shell} -c ''");
            let run_to_run = speed
                .variation_for(&name)
                .map_or(0.0, |v| v.relative_half_width(plan.confidence));
            speed.add_bench(&name, mean);
            shell_hw = mean * rel.hypot(run_to_run);
            println!(
                "shell: `{shell} -c` starts in {} ± {:.1}% ({}), subtracted from each run; the \
                 intervals include that uncertainty (-N runs without a shell)",
                format_ns(mean),
                100.0 * shell_hw / mean,
                if run_to_run > 0.0 {
                    "with its run-to-run variation"
                } else {
                    "this run alone: its run-to-run variation is not known yet"
                }
            );
            mean
        }
        (Some(shell), _) => {
            println!(
                "shell: `{shell} -c`; its start-up time is {} (-N runs without a shell)",
                if plan.mode == Mode::Work {
                    "part of the fitted start-up α"
                } else {
                    "outside the program's own readings"
                }
            );
            0.0
        }
        (None, _) => {
            println!("no shell: commands are started directly (-N)");
            0.0
        }
    };
    let mut workloads = prepare_workloads(plan, shell_ns)?;
    let interleaved = workloads.len() > 1 && !plan.sequential;
    let configs: Vec<SessionConfig> = plan
        .programs
        .iter()
        .map(|p| {
            let mut c = session_config(plan, plan.programs.len());
            if !interleaved {
                c.machine = speed.variation_for(&p.name);
            }
            c
        })
        .collect();
    let mut sessions: Vec<SessionResult> = Vec::new();
    let mut group = None;
    if interleaved {
        let mut gc = group_config(&configs);
        gc.max_time = plan.max_time;
        let end = deadline(plan.max_time);
        for w in &mut workloads {
            w.deadline = Some(end);
        }
        let mut progress = LiveProgress::start("programs");
        let mut running: Vec<&mut dyn Workload> = workloads
            .iter_mut()
            .map(|w| w as &mut dyn Workload)
            .collect();
        let result = run_group(
            &mut running,
            &configs,
            &RealClock::start(),
            &gc,
            &mut |cycles, elapsed, undecided| {
                progress.message(&format!(
                    "cycle {cycles}, {:.1} s, {undecided} pair(s) undecided",
                    elapsed.as_secs_f64()
                ))
            },
        );
        progress.finish();
        sessions = result.members;
        group = Some((
            result.ranking,
            result.pairs,
            result.settled,
            result.cycles,
            result.elapsed,
            result.ranking_settled,
            gc.confidence,
        ));
    } else {
        for (w, config) in workloads.iter_mut().zip(&configs) {
            let mut progress = LiveProgress::start(&w.name);
            w.deadline = Some(deadline(plan.max_time));
            let mut s = run_session(w, &RealClock::start(), config, &mut |e, _| {
                progress.update(e.mean, e.relative_half_width(), config.target, None)
            });
            progress.finish();
            let change = speed.after_bench();
            s.blame_drift(change);
            if let Some(e) = &s.estimate {
                speed.add_bench(&w.name, e.mean);
            }
            let stop = s.status == Status::Interrupted;
            sessions.push(s);
            if stop {
                break;
            }
        }
        if sessions.len() > 1 {
            let gc = group_config(&configs);
            let (ranking, pairs, settled) = rank_sessions(&sessions, &gc);
            let elapsed = sessions.iter().map(|s| s.elapsed).sum();
            group = Some((ranking, pairs, settled, 0, elapsed, None, gc.confidence));
        }
    }
    for p in &plan.programs {
        if let Some(cleanup) = &plan.cleanup {
            if let Err(e) = run_side(plan, cleanup, "cleanup", &p.name) {
                eprintln!("warning: {e}");
            }
        }
    }
    let interrupted = stop::requested();
    let mut measured = Vec::new();
    for ((program, mut session), (w, config)) in plan
        .programs
        .iter()
        .cloned()
        .zip(sessions)
        .zip(workloads.iter().zip(configs))
    {
        if session.status == Status::Interrupted {
            continue;
        }
        widen_for_shell(&mut session, shell_hw);
        note_killed(plan, w, &mut session);
        note_runs(plan, w, &mut session);
        let doc = document(
            plan, &program, &session, &config, w, clock, &machine, &started,
        );
        let runs = stable_runs(&plan.mode, &session, w);
        measured.push(Measured {
            program,
            session,
            doc,
            runs,
        });
    }
    let mut failed = 0;
    for m in &measured {
        print_outcome(&m.program.name, &m.session);
        failed += usize::from(matches!(m.session.status, Status::Failed(_)));
        failed += save_result(
            &plan.root,
            TARGET,
            &m.program.name,
            &m.doc,
            plan.save_baseline.as_deref(),
        );
    }
    let work = result::Rate::units("work");
    let rows: Vec<_> = measured
        .iter()
        .map(|m| {
            row(
                &m.program.name,
                TimePer::Unit,
                (plan.mode == Mode::Work).then_some(&work),
                &m.session,
            )
        })
        .collect();
    println!("\n{}", render_table(&rows, plan.confidence));
    print!("{}", extras_table(&measured));
    let mut groups = Vec::new();
    if let Some((ranking, pairs, settled, cycles, elapsed, ranking_settled, confidence)) = group {
        if measured.len() == plan.programs.len() {
            let names: Vec<String> = plan.programs.iter().map(|p| p.name.clone()).collect();
            let estimates: Vec<Option<(f64, f64, f64)>> = measured
                .iter()
                .map(|m| {
                    m.session
                        .estimate
                        .as_ref()
                        .map(|e| (e.mean, e.ci.low, e.ci.high))
                })
                .collect();
            let report = group_report(
                "programs",
                &names,
                &ranking,
                pairs,
                &estimates,
                confidence,
                settled,
                cycles,
                elapsed,
                ranking_settled,
            );
            print!("{}", render_report(&report, plan.sequential));
            groups.push(group_doc(&report, interleaved));
        }
    }
    println!(
        "results: {}",
        store::results_dir(&plan.root).join(TARGET).display()
    );
    if let Some(w) = speed.finish() {
        println!("warning: {}", crate::fmt::terminal(&w));
    }
    let comparison = base.map(|base| compare(plan, &base, &measured));
    let regressed = comparison.as_ref().is_some_and(|(_, r)| *r);
    failed += export::write_all(plan, &measured);
    if let Some(path) = &plan.json {
        let doc = RunDoc {
            schema: RUN_SCHEMA.to_string(),
            target: Some(TARGET.to_string()),
            started: Some(started),
            machine: Some(machine),
            benches: Some(plan.programs.iter().map(|p| p.name.clone()).collect()),
            results: measured.iter().map(|m| m.doc.clone()).collect(),
            comparison: comparison.map(|(doc, _)| doc),
            groups: Some(groups),
        };
        failed += write(
            path,
            &serde_json::to_vec_pretty(&doc).expect("documents serialise"),
        );
    }
    Ok(if interrupted {
        eprintln!(
            "\ninterrupted: the programs finished before it are saved in `{}`",
            store::results_dir(&plan.root).join(TARGET).display()
        );
        ExitCode::from(EXIT_INTERRUPTED)
    } else if failed > 0 {
        ExitCode::FAILURE
    } else if regressed {
        ExitCode::from(EXIT_REGRESSION)
    } else {
        ExitCode::SUCCESS
    })
}

/// Adds the subtracted shell start-up's uncertainty `shell_hw` (a half-width, ns) to the
/// time's interval: `√(h² + shell_hw²)`, the two being independent. Not when the interval
/// already holds the program's own run-to-run variation, learnt from its earlier means,
/// which were taken net of a shell estimate that moved as much. O(1).
fn widen_for_shell(s: &mut SessionResult, shell_hw: f64) {
    let Some(e) = &mut s.estimate else { return };
    if e.machine.as_ref().is_some_and(|m| m.variation.own) {
        return;
    }
    e.ci = widened(&e.ci, e.mean, shell_hw);
}

/// `ci` around `mean` with `extra` (a half-width) added in quadrature.
fn widened(
    ci: &crate::stats::summary::ConfidenceInterval,
    mean: f64,
    extra: f64,
) -> crate::stats::summary::ConfidenceInterval {
    let h = ci.half_width().hypot(extra.max(0.0));
    crate::stats::summary::ConfidenceInterval {
        low: mean - h,
        high: mean + h,
        ..*ci
    }
}

/// A session whose command was killed at its deadline: failed when no run completed, else
/// the result of the runs that did, with a warning.
fn note_killed(plan: &Plan, w: &ProgramWorkload, s: &mut SessionResult) {
    let Some(k) = &w.killed else { return };
    let message = killed_message(k, plan.max_time);
    if w.extras.is_empty() {
        s.status = Status::Failed(format!("{message}; no run completed"));
        s.estimate = None;
    } else if !matches!(s.status, Status::Failed(_)) {
        s.warnings.push(format!(
            "{message}; the result is from the runs completed before"
        ));
    }
}

/// Warnings about the runs themselves: failures accepted, runs faster than the shell, peak
/// memory below what can be seen, and the run cap.
fn note_runs(plan: &Plan, w: &ProgramWorkload, s: &mut SessionResult) {
    let floor = w.extras.iter().map(|e| e.peak_floor).fold(0.0, f64::max);
    let unknown = w
        .extras
        .iter()
        .flat_map(|e| &e.peak_bytes)
        .filter(|p| p.is_nan())
        .count();
    if unknown > 0 && plan.mode != Mode::Work {
        s.warnings.push(format!(
            "peak memory not measured: {unknown} run(s) peaked at or below pilot's own {:.1} MiB, \
             which on Linux a child inherits as its peak when it starts; `/usr/bin/time -v` \
             (a smaller parent) can tell",
            floor / 1048576.0
        ));
    }
    if w.failed_runs > 0 {
        s.warnings.push(format!(
            "{} run(s) exited non-zero and were measured anyway (--ignore-failure)",
            w.failed_runs
        ));
    }
    if w.below_shell > 0 {
        s.warnings.push(format!(
            "{} run(s) took less than the shell's own start-up time and count as 0: the \
             program is too short to measure through a shell; -N runs it directly",
            w.below_shell
        ));
    }
    if let Some(most) = plan.max_runs {
        let runs: usize = s
            .rounds
            .iter()
            .map(|r| if plan.mode == Mode::Runs { r.units } else { 1 })
            .sum();
        if runs as u64 >= most && s.status == Status::TimeCap {
            s.warnings.push(format!(
                "stopped at --max-runs {most} before the target was met"
            ));
        }
    }
}

/// The result document of one program: a bench's, with the extra performance indices.
#[allow(clippy::too_many_arguments)]
fn document(
    plan: &Plan,
    p: &Program,
    s: &SessionResult,
    config: &SessionConfig,
    w: &ProgramWorkload,
    clock: ClockInfo,
    machine: &MachineDoc,
    started: &str,
) -> ResultDoc {
    let work = result::Rate::units("work");
    let record = result::BenchRecord {
        name: &p.name,
        target: TARGET,
        form: match plan.mode {
            Mode::Work => "readings-only",
            _ => "full",
        },
        // Work mode's speed v is work units per second: the document's throughput.
        throughput: (plan.mode == Mode::Work).then_some(&work),
        config,
        session: s,
        iterations_per_unit: None,
        clock,
        machine: Some(machine),
        started: started.to_string(),
        finished: crate::runner::now(),
    };
    let mut doc = result::document(&record);
    if let (Some(k), None) = (&w.killed, &doc.status_detail) {
        // The status (a time cap) says that the session was cut; this says by what.
        doc.status_detail = Some(killed_message(k, plan.max_time));
    }
    if s.estimate.is_some() {
        doc.pis.extend(startup_pi(plan, s));
        doc.pis.extend(extra_pis(plan, s, w));
    }
    doc
}

/// Work mode's start-up time α, the fit's intercept, with its Student-t interval over the
/// fitted points (n − 2 degrees of freedom): what a run costs before its first unit of work.
fn startup_pi(plan: &Plan, s: &SessionResult) -> Option<PiDoc> {
    let fit = &s.estimate.as_ref()?.wps.as_ref()?.fit;
    let t =
        crate::stats::summary::t_critical(plan.confidence, fit.n.saturating_sub(2).max(1) as f64);
    Some(PiDoc {
        name: "startup".to_string(),
        unit: "ns".to_string(),
        mean: Some(fit.intercept),
        ci: CiDoc {
            low: Some(fit.intercept - t * fit.intercept_se),
            high: Some(fit.intercept + t * fit.intercept_se),
            confidence: plan.confidence,
        },
        n: fit.n,
        subsession_size: s.estimate.as_ref()?.wps.as_ref()?.subsession_size,
        autocorrelation: s.estimate.as_ref()?.wps.as_ref()?.residual_autocorrelation,
        required_n: None,
        interval_from: Some("regression".to_string()),
        machine: None,
        estimator: None,
    })
}

/// The runs the estimate came from: each analysed round's stable runs (every run of an
/// analysed round when a run is a round, or in work mode).
pub(crate) fn stable_runs(mode: &Mode, s: &SessionResult, w: &ProgramWorkload) -> workload::Extras {
    let mut picked = workload::Extras::default();
    for (record, extras) in s.rounds.iter().zip(&w.extras) {
        if !record.analysed {
            continue;
        }
        let n = extras.wall_ns.len();
        let range = match (mode == &Mode::Runs, record.stable) {
            (true, Some((a, b))) => a.min(n)..b.min(n),
            (true, None) => continue,
            (false, _) => 0..n,
        };
        picked.extend(extras, range);
    }
    picked
}

/// The extra performance indices over the same runs as the time (see [`stable_runs`]). None
/// in work mode, where each run does a different amount of work.
fn extra_pis(plan: &Plan, s: &SessionResult, w: &ProgramWorkload) -> Vec<PiDoc> {
    if plan.mode == Mode::Work {
        return Vec::new();
    }
    let picked = stable_runs(&plan.mode, s, w);
    let config = AnalysisConfig {
        confidence: plan.confidence,
        changepoints: None,
        ..AnalysisConfig::default()
    };
    // A peak at pilot's own floor is unknown: no index rather than pilot's size as the
    // program's (see `spawn`'s docs).
    let peaks = if picked.peak_bytes.iter().any(|p| p.is_nan()) {
        &[][..]
    } else {
        &picked.peak_bytes[..]
    };
    [
        ("user_time", "ns", &picked.user_ns[..]),
        ("system_time", "ns", &picked.sys_ns[..]),
        ("peak_memory", "bytes", peaks),
    ]
    .into_iter()
    .filter_map(|(name, unit, xs)| {
        let a = analyze(xs, &config).ok()?;
        Some(PiDoc {
            name: name.to_string(),
            unit: unit.to_string(),
            mean: Some(a.mean),
            ci: CiDoc {
                low: Some(a.ci.low),
                high: Some(a.ci.high),
                confidence: plan.confidence,
            },
            n: xs.len(),
            subsession_size: a.subsession.size,
            autocorrelation: a.subsession.autocorrelation,
            required_n: None,
            interval_from: None,
            machine: None,
            estimator: None,
        })
    })
    .collect()
}

/// The extra indices as a table: CPU time and peak memory of each program.
fn extras_table(measured: &[Measured]) -> String {
    let mut out = String::new();
    for m in measured {
        let pi = |name: &str| m.doc.pis.iter().find(|p| p.name == name);
        if let (Some(a), Some(v)) = (pi("startup"), pi("throughput")) {
            let range = |p: &PiDoc, f: &dyn Fn(f64) -> String| match (p.mean, p.ci.low, p.ci.high) {
                (Some(m), Some(l), Some(h)) => format!("{} [{}, {}]", f(m), f(l), f(h)),
                (Some(m), ..) => f(m),
                _ => "-".to_string(),
            };
            out.push_str(&format!(
                "{}: fit t = α + w/v: start-up α = {}, speed v = {}\n",
                m.program.name,
                range(a, &format_ns),
                range(v, &|x| format!("{}work/s", crate::fmt::format_rate(x)))
            ));
        }
        let (Some(user), Some(sys)) = (pi("user_time"), pi("system_time")) else {
            continue;
        };
        let est = |p: &PiDoc, f: &dyn Fn(f64) -> String| match (p.mean, p.ci.low, p.ci.high) {
            (Some(m), Some(l), Some(h)) if m > 0.0 => {
                format!("{} ± {:.1}%", f(m), 50.0 * (h - l) / m)
            }
            (Some(m), ..) => f(m),
            _ => "-".to_string(),
        };
        let mib = |b: f64| format!("{:.2} MiB", b / 1048576.0);
        let peak = pi("peak_memory").map_or("not measured".to_string(), |p| est(p, &mib));
        out.push_str(&format!(
            "{}: user {}, system {}, peak memory {peak}\n",
            m.program.name,
            est(user, &format_ns),
            est(sys, &format_ns),
        ));
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// Writes `bytes` to the file the user named `path` (see [`crate::files::write_output`]); 1 when it
/// failed (said on standard error), else 0.
pub(crate) fn write(path: &Path, bytes: &[u8]) -> usize {
    match crate::files::write_output(path, bytes, crate::files::Existing::Replace) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: failed to write `{}`: {e}", path.display());
            1
        }
    }
}

/// Compares this run's results with the baseline's and prints the table.
fn compare(
    plan: &Plan,
    base: &[store::SavedResult],
    measured: &[Measured],
) -> (crate::schema::CompareDoc, bool) {
    let docs: Vec<ResultDoc> = measured.iter().map(|m| m.doc.clone()).collect();
    let options = crate::compare::CompareOptions {
        alpha: plan.alpha,
        noise: plan.noise,
        confidence: None,
    };
    compare_with_baseline(
        (&plan.root, TARGET),
        &docs,
        base,
        &|name| measured.iter().any(|m| m.program.name == name),
        &options,
        plan.baseline.as_deref().unwrap_or(""),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_shells_uncertainty_is_added_in_quadrature() {
        let ci = crate::stats::summary::ConfidenceInterval {
            low: 4.8e6,
            high: 5.2e6,
            confidence: 0.95,
        };
        // ±0.2 ms and ±0.15 ms: √(0.04 + 0.0225) = 0.25 ms.
        let w = super::widened(&ci, 5e6, 0.15e6);
        assert!(
            (w.low - 4.75e6).abs() < 1e-6 && (w.high - 5.25e6).abs() < 1e-6,
            "{w:?}"
        );
        assert_eq!(w.confidence, 0.95);
        assert_eq!(super::widened(&ci, 5e6, 0.0), ci);
    }
}
