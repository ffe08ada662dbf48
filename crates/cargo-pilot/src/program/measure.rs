//! One run of `cargo pilot run`, phase by phase: the start, the shell's start-up, each
//! program's set-up, the sessions (interleaved or one after another), the clean-ups, and the
//! results saved, printed, compared and written.

use std::process::ExitCode;
use std::time::Duration;

use super::document::{
    compare, document, extras_table, note_below_shell, note_killed, note_runs, stable_runs,
    widen_for_shell,
};
use super::shell::shell_start_up;
use super::spawn;
use super::workload::{Mode, ProgramWorkload};
use super::{
    Measured, Plan, TARGET, deadline, export, killed_message, run_side, session_config, spawn_of,
    write,
};
use pilot_engine::fmt::Paint;
use pilot_engine::record::{ClockInfo, RealClock, measure_clock};
use pilot_engine::report::{LiveProgress, TimePer, render_table};
use pilot_engine::runner::{LineStyle, MachineSpeed, print_outcome, row};
use pilot_engine::runner::{
    few_rounds_note, group_config, group_doc, group_report, rank_sessions, render_report,
};
use pilot_engine::runner::{load_baseline, save_result};
use pilot_engine::session::group_session::{GroupConfig, PairComparison, run_group};
use pilot_engine::session::{
    SessionConfig, SessionResult, Status, Workload, run_session, stop_requested,
};
use pilot_engine::store::{self, result};
use pilot_format::Exit;
use pilot_format::{GroupDoc, MachineDoc, RUN_SCHEMA, ResultDoc, RunDoc};

/// The start of a run of programs: the clock, the machine and its speed, announced.
struct Start {
    clock: ClockInfo,
    started: String,
    machine: MachineDoc,
    speed: MachineSpeed,
}

/// What the programs' group found, when more than one program ran.
struct GroupOutcome {
    ranking: Vec<usize>,
    pairs: Vec<PairComparison>,
    settled: bool,
    cycles: usize,
    elapsed: Duration,
    ranking_settled: Option<Duration>,
    /// Every member ran its most runs (`--max-runs`) before the cap.
    at_most_units: bool,
    confidence: f64,
}

/// Measures the plan's programs, prints the results and writes what was asked; the exit code
/// (see [`super::run`]). Phases: the start (clock, machine, speed probe), the shell's
/// start-up, each program's set-up, the sessions (interleaved or one after another), the
/// clean-ups, then the results saved, printed, compared and written.
pub(super) fn measure_all(plan: &Plan) -> Result<(ExitCode, Vec<ResultDoc>), String> {
    let base =
        load_baseline(&plan.root, plan.baseline.as_deref(), TARGET).map_err(|e| e.to_string())?;
    let mut start = begin(plan);
    let (shell_ns, shell_hw) = shell_start_up(plan, &mut start.speed)?;
    let mut workloads = prepare_workloads(plan, shell_ns)?;
    let interleaved = workloads.len() > 1 && !plan.sequential;
    let configs: Vec<SessionConfig> = plan
        .programs
        .iter()
        .map(|_| session_config(plan, plan.programs.len()))
        .collect();
    let (sessions, group) = if interleaved {
        measure_interleaved(plan, &mut workloads, &configs)
    } else {
        measure_one_by_one(plan, &mut workloads, &configs, &mut start.speed)
    };
    for p in &plan.programs {
        if let Some(cleanup) = &plan.cleanup
            && let Err(e) = run_side(plan, cleanup, "cleanup", &p.name)
        {
            say!("warning: {}", pilot_engine::fmt::terminal_lines(&e));
        }
    }
    let interrupted = stop_requested();
    let gc = group_config(&configs);
    let measured = results(plan, sessions, &workloads, configs, shell_hw, &mut start);
    let (mut failed, saved) = save_and_print(plan, &measured);
    let groups = group.map_or_else(Vec::new, |g| {
        group_docs(plan, &measured, rerank(g, &measured, &gc), interleaved)
    });
    let results_dir = store::results_dir(&plan.root).join(TARGET);
    // Only what was written is said to be: a result refused or not written was said so.
    if !saved.is_empty() {
        pilot_engine::outln!(
            "results: {}; {}",
            pilot_engine::fmt::terminal_path(&results_dir),
            pilot_engine::report::reproducibility_note(&saved)
        );
    }
    if let Some(w) = start.speed.finish() {
        pilot_engine::outln!("warning: {}", pilot_engine::fmt::terminal(&w));
    }
    let comparison = base.map(|base| compare(plan, &base, &measured));
    let regressed = comparison.as_ref().is_some_and(|(_, r)| *r);
    failed += export::write_all(plan, &measured);
    if let Some(path) = &plan.json {
        let doc = RunDoc {
            schema: RUN_SCHEMA.to_string(),
            target: Some(TARGET.to_string()),
            started: Some(start.started),
            machine: Some(start.machine),
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
    let code = if interrupted {
        if saved.is_empty() {
            say!("\ninterrupted: no program finished before it, so nothing was saved");
        } else {
            say!(
                "\ninterrupted: the programs finished before it are saved in `{}`",
                pilot_engine::fmt::terminal_path(&results_dir)
            );
        }
        ExitCode::from(Exit::Interrupted)
    } else if failed > 0 {
        ExitCode::FAILURE
    } else if regressed {
        ExitCode::from(Exit::Regression)
    } else {
        ExitCode::SUCCESS
    };
    // The history takes what the results folder holds, no more.
    Ok((code, saved))
}

/// The clock's cost, the machine and its speed probe, and the run announced.
fn begin(plan: &Plan) -> Start {
    let clock = measure_clock();
    let started = pilot_engine::runner::now();
    let mut machine = pilot_engine::probe::machine();
    let (speed, speed_warnings) = MachineSpeed::start(&plan.root, &machine, &started);
    machine.speed = Some(speed.doc());
    pilot_engine::outln!(
        "\nrunning {}{}\n{}",
        pilot_engine::fmt::counted(plan.programs.len(), "program", "programs"),
        match plan.mode {
            Mode::Runs => "",
            Mode::Work => ", one run per round over work amounts (WPS fit t = α + w/v)",
            Mode::Readings { .. } => ", unit readings from each run's output",
        },
        speed.describe()
    );
    for w in speed_warnings {
        pilot_engine::outln!("warning: {}", pilot_engine::fmt::terminal(&w));
    }
    Start {
        clock,
        started,
        machine,
        speed,
    }
}

/// The programs measured interleaved as a group's members, within the plan's time cap.
fn measure_interleaved(
    plan: &Plan,
    workloads: &mut [ProgramWorkload],
    configs: &[SessionConfig],
) -> (Vec<SessionResult>, Option<GroupOutcome>) {
    let mut gc = group_config(configs);
    gc.max_time = plan.max_time;
    let end = deadline(plan.max_time);
    for w in workloads.iter_mut() {
        w.deadline = Some(end);
    }
    let mut progress = LiveProgress::start("programs");
    let mut running: Vec<&mut dyn Workload> = workloads
        .iter_mut()
        .map(|w| w as &mut dyn Workload)
        .collect();
    let result = run_group(
        &mut running,
        configs,
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
    let group = GroupOutcome {
        ranking: result.ranking,
        pairs: result.pairs,
        settled: result.settled,
        cycles: result.cycles,
        elapsed: result.elapsed,
        ranking_settled: result.ranking_settled,
        at_most_units: result.at_most_units,
        confidence: gc.confidence,
    };
    (result.members, Some(group))
}

/// The programs measured one after another (each its own session, the speed probe after each),
/// then ranked by the group's rule when there are several. Stops at an interruption.
fn measure_one_by_one(
    plan: &Plan,
    workloads: &mut [ProgramWorkload],
    configs: &[SessionConfig],
    speed: &mut MachineSpeed,
) -> (Vec<SessionResult>, Option<GroupOutcome>) {
    let mut sessions: Vec<SessionResult> = Vec::new();
    for (w, config) in workloads.iter_mut().zip(configs) {
        let mut progress = LiveProgress::start(&w.name);
        w.deadline = Some(deadline(plan.max_time));
        let mut s = run_session(w, &RealClock::start(), config, &mut |e, _| {
            progress.update(e.mean, e.relative_half_width(), config.target, None)
        });
        progress.finish();
        let change = speed.after_bench();
        s.blame_drift(change);
        let stop = s.status == Status::Interrupted;
        sessions.push(s);
        if stop {
            break;
        }
    }
    let group = (sessions.len() > 1).then(|| {
        let gc = group_config(configs);
        let (ranking, pairs, settled) = rank_sessions(&sessions, &gc);
        GroupOutcome {
            ranking,
            pairs,
            settled,
            cycles: 0,
            elapsed: sessions.iter().map(|s| s.elapsed).sum(),
            ranking_settled: None,
            at_most_units: false,
            confidence: gc.confidence,
        }
    });
    (sessions, group)
}

/// Each program's result that was not interrupted: its session with the shell's uncertainty
/// and its runs' notes, where the next run lands (its estimate noted in the machine's history
/// for later runs), and its document.
fn results(
    plan: &Plan,
    sessions: Vec<SessionResult>,
    workloads: &[ProgramWorkload],
    configs: Vec<SessionConfig>,
    shell_hw: f64,
    start: &mut Start,
) -> Vec<Measured> {
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
        note_below_shell(plan, w, shell_hw, &mut session);
        note_runs(plan, w, &mut session);
        // Interleaved or not: interleaving cancels the machine's drift between the programs
        // of this run, not between runs.
        let reproducibility = session
            .estimate
            .as_ref()
            .and_then(|e| start.speed.reproducibility(&program.name, e));
        let doc = document(
            plan,
            &program,
            (&session, reproducibility.as_ref()),
            &config,
            w,
            (start.clock, &start.machine, &start.started),
        );
        let runs = stable_runs(&plan.mode, &session, w);
        measured.push(Measured {
            program,
            session,
            doc,
            runs,
        });
    }
    measured
}

/// Prints each outcome, saves each result (and the baseline asked for), and prints the table;
/// the count of programs that failed or whose result could not be written, and the results
/// saved as the latest.
fn save_and_print(plan: &Plan, measured: &[Measured]) -> (usize, Vec<ResultDoc>) {
    let mut failed = 0;
    let mut saved = Vec::new();
    let work = result::Rate::units("work");
    let row_of = |m: &Measured| pilot_engine::report::Row {
        run_to_run: pilot_engine::report::run_to_run_cell(&m.doc),
        ..row(
            &m.program.name,
            TimePer::Unit,
            (plan.mode == Mode::Work).then_some(&work),
            &m.session,
        )
    };
    let style = LineStyle {
        width: measured
            .iter()
            .map(|m| m.program.name.chars().count())
            .max()
            .unwrap_or(0),
        // A program's warnings (killed at the cap, peak memory not measured, …) are said in
        // full under its line: `cargo pilot run` has no checks summary.
        verbose: true,
        ..LineStyle::default()
    };
    for m in measured {
        let markers = pilot_engine::report::markers(&m.doc);
        print_outcome(&row_of(m), &markers, &m.session, &m.doc.warnings, style);
        failed += usize::from(matches!(m.session.status, Status::Failed(_)));
        let written = save_result(
            &plan.root,
            TARGET,
            &m.program.name,
            &m.doc,
            plan.save_baseline.as_deref(),
        );
        failed += written.failed;
        if written.latest {
            saved.push(m.doc.clone());
        }
    }
    let rows: Vec<_> = measured.iter().map(row_of).collect();
    pilot_engine::outln!(
        "\n{}",
        render_table(&rows, plan.confidence, false, Paint::plain()).trim_end()
    );
    pilot_engine::out!("{}", extras_table(measured));
    (failed, saved)
}

/// The group's ranking again when a member lost its estimate after the sessions (below the
/// shell's resolution): ranked from the sessions as they ended, without it, so no pair names a
/// member the ranking leaves out. Unchanged otherwise.
fn rerank(g: GroupOutcome, measured: &[Measured], gc: &GroupConfig) -> GroupOutcome {
    let lost = measured
        .iter()
        .any(|m| matches!(m.session.status, Status::BelowShellResolution(_)));
    if !lost || measured.len() < 2 {
        return g;
    }
    let sessions: Vec<SessionResult> = measured.iter().map(|m| m.session.clone()).collect();
    let (ranking, pairs, settled) = rank_sessions(&sessions, gc);
    GroupOutcome {
        ranking,
        pairs,
        settled,
        ..g
    }
}

/// The group's report printed, and its document, when every program was measured.
fn group_docs(
    plan: &Plan,
    measured: &[Measured],
    g: GroupOutcome,
    interleaved: bool,
) -> Vec<GroupDoc> {
    if measured.len() != plan.programs.len() {
        return Vec::new();
    }
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
        &g.ranking,
        g.pairs,
        &estimates,
        g.confidence,
        g.settled,
        g.cycles,
        g.elapsed,
        g.ranking_settled,
    )
    .stopped_at_most_units(g.at_most_units);
    let mut out = render_report(&report, plan.sequential);
    if let Some(note) = few_rounds_note(std::slice::from_ref(&report)) {
        // Under the ranking, in place of its blank line, as a bench binary prints it.
        out.pop();
        out.push_str(note);
        out.push('\n');
    }
    pilot_engine::out!("{out}");
    vec![group_doc(&report, interleaved)]
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
