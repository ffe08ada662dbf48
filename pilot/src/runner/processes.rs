//! Several process executions of one bench: the parent starts them, each child runs a short
//! session and reports its result document.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::config::session_config;
use super::now;
use super::registry::Bench;
use super::workload::{
    BenchWorkload, Closure, SessionChecks, calibrate, failed_session, form, target_unit_ns,
};
use crate::cli::Args;
use crate::entry::BenchBody;
use crate::record::{ClockInfo, measure_clock};
use crate::report::LiveProgress;
use crate::schema::{MachineDoc, ResultDoc};
use crate::session::processes::{
    LEAST_SHARE, ProcessCost, ProcessEstimate, alone, child_target, combine, dimensioned_share,
    first_share, modes_undecided, processes_needed, typical_processes,
};
use crate::session::reach::{judge_processes, out_of_reach_warning};
use crate::session::{Estimate, RoundRecord, SessionConfig, SessionResult, Status, WarmUpClass};
use crate::stats::outliers::OutlierCount;
use crate::store::result::Rate;
use crate::store::{result, typed};

/// In a process started by `measure_in_processes`: run the one selected bench's session
/// without output and write its result document to `--json`.
pub(super) fn child_mode(args: &Args, selected: &[&Bench]) -> ExitCode {
    let Some(b) = selected.first() else {
        eprintln!("error: a pilot child process needs one bench (--exact NAME) and --json FILE");
        return ExitCode::from(2);
    };
    child_session(args, b, None)
}

/// The child process's one session of `b` (whose micro-form body is `closure` when the bench
/// was announced at run time), its document written to `--json`.
pub(super) fn child_session(args: &Args, b: &Bench, closure: Option<Closure<'_>>) -> ExitCode {
    let Some(path) = &args.json else {
        eprintln!("error: a pilot child process needs one bench (--exact NAME) and --json FILE");
        return ExitCode::from(2);
    };
    super::interrupt::install();
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
        return ExitCode::from(super::interrupt::EXIT_INTERRUPTED);
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

/// What one process execution reported.
#[derive(Clone)]
struct ProcessResult {
    estimate: ProcessEstimate,
    rounds: Vec<crate::session::RoundRecord>,
    removed: usize,
    readings: usize,
    warnings: Vec<String>,
    checks: Vec<crate::schema::CheckDoc>,
    machine_state: Option<&'static str>,
    warm_up: Option<WarmUpClass>,
    outliers: Option<OutlierCount>,
    iters: Option<u64>,
    /// The process's readings-only fit had a non-positive slope ([`Status::Unresolved`]):
    /// its mean is that slope, a draw the combination keeps.
    unresolved: bool,
}

/// Runs one session of `name` in a fresh process of this executable, capped at `cap`.
fn run_process(
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

/// Adds the warnings of process `p` to a bench's `warnings`, once each: a check's message only
/// when no `earlier` process made a check of its kind (the same check with other figures would
/// repeat once per process), and no child's own time-cap note (the bench's cap is its parent's).
fn merge_warnings(warnings: &mut Vec<String>, earlier: &[ProcessResult], p: &ProcessResult) {
    if p.unresolved {
        return;
    }
    for w in &p.warnings {
        if warnings.contains(w) || w.starts_with("time cap") {
            continue;
        }
        let kind = p.checks.iter().find(|c| &c.message == w).map(|c| &c.kind);
        if kind.is_some_and(|k| earlier.iter().flat_map(|e| &e.checks).any(|c| &c.kind == k)) {
            continue;
        }
        warnings.push(w.clone());
    }
}

/// The start of the error of a child that ended without an estimate but did not fail (no steady
/// state, below the clock's resolution, a cap too short): the bench's outcome, not a failure.
const NO_ESTIMATE: &str = "the bench's process found no estimate";

/// The status of a bench one of whose processes ended without an estimate, from the child's
/// status in `message`: the same status, never a failure.
fn no_estimate_status(message: &str) -> Status {
    if message.ends_with("(no steady state)") {
        Status::NoSteadyState
    } else if message.ends_with("(below clock resolution)") {
        Status::BelowResolution
    } else {
        Status::TimeCap
    }
}

/// A child's result document. It is read without [`ResultDoc::validate`]: an unresolved
/// readings-only fit reports its non-positive slope, which the combination keeps.
fn child_document(text: &str) -> Result<ResultDoc, String> {
    serde_json::from_str::<serde_json::Value>(text)
        .map_err(|e| e.to_string())
        .and_then(typed)
        .map_err(|e| format!("unreadable child result: {e}"))
}

/// What a child's result document `doc` says of its process.
fn process_result(doc: &ResultDoc) -> Result<ProcessResult, String> {
    if doc.status == "failed" {
        return Err(doc
            .status_detail
            .clone()
            .unwrap_or_else(|| "the bench failed".to_string()));
    }
    let estimate = doc.pis.first().and_then(|pi| {
        let (mean, low, high) = (pi.mean?, pi.ci.low?, pi.ci.high?);
        Some(ProcessEstimate {
            mean,
            half_width: (high - low) / 2.0,
            n: pi.n,
            subsession_size: pi.subsession_size.max(1),
            autocorrelation: pi.autocorrelation,
            rounds: doc.rounds.iter().filter(|r| r.analysed).count(),
            estimator: match pi.estimator.as_deref() {
                Some("trimmed") => crate::settings::Estimator::Trimmed,
                _ => crate::settings::Estimator::Mean,
            },
            plain: doc
                .pis
                .iter()
                .find(|p| p.name == crate::schema::MEAN_TIME_PI)
                .and_then(|p| Some((p.mean?, (p.ci.high? - p.ci.low?) / 2.0))),
        })
    });
    let Some(estimate) = estimate.filter(|e| e.mean.is_finite() && e.half_width.is_finite()) else {
        return Err(format!("{NO_ESTIMATE} ({})", doc.status));
    };
    let rounds = doc
        .rounds
        .iter()
        .map(|r| RoundRecord {
            work: r.work,
            duration: Duration::from_nanos(r.duration_ns),
            units: r.units,
            stable: r.stable.map(|[a, b]| (a, b)),
            analysed: r.analysed,
            mean_ns: None,
            bins: r.readings.clone(),
            rss_bytes: r.rss_bytes,
            end: Duration::ZERO,
            machine: r.machine.map(|m| crate::checks::sampler::Interval {
                others_cores: m.others_cores,
                own_cores: m.own_cores,
                steal: m.steal,
                iowait: m.iowait,
                throttled: m.throttled,
                cpu_pressure: m.cpu_pressure,
                ..Default::default()
            }),
            marks: r
                .marks
                .iter()
                .filter_map(|m| crate::checks::sampler::mark(m))
                .collect(),
        })
        .collect();
    Ok(ProcessResult {
        estimate,
        rounds,
        removed: doc.removed_readings as usize,
        readings: doc.readings as usize,
        iters: doc.iterations_per_unit,
        unresolved: doc.status == Status::Unresolved.as_str(),
        warnings: doc.warnings.clone(),
        checks: doc.checks.clone(),
        machine_state: match doc.machine_state.as_deref() {
            Some("sampled") => Some("sampled"),
            Some("off") => Some("off"),
            Some(_) => Some("not sampled"),
            None => None,
        },
        warm_up: doc.warm_up.as_deref().and_then(WarmUpClass::parse),
        // The document keeps the counts, not the sums: a combined count moves no mean.
        outliers: doc.outliers.map(|o| OutlierCount {
            z: o.z,
            mad: o.mad,
            readings: o.readings,
            ..OutlierCount::default()
        }),
    })
}

/// Measures a bench in several process executions (Kalibera & Jones, "Rigorous benchmarking in
/// reasonable time"): what a process starts with (memory layout, where its pages land, the
/// machine's state at that moment) stays fixed within it and changes between processes, so no
/// interval from one process can see that variation, and repeated runs disagree by more than
/// their intervals say. Each process runs a short adaptive session; the result is the mean of
/// the processes' estimates, and its interval the wider of Student's t over those estimates and
/// the processes' own intervals combined.
///
/// At least `processes` processes run; while the combined interval is wider than the target
/// and the time cap allows, more are started, as many as the between-process variance says
/// are needed (Pilot's required sample size, over process estimates). Each process is given
/// the measuring time Kalibera and Jones's dimensioning finds best once two processes show a
/// between-process variance ([`dimensioned_share`]), else an equal share of the time left
/// among the processes still wanted; at least 0.3 s each. When the cap allowed one process
/// only, its own estimate is the bench's, with a warning.
pub(super) fn measure_in_processes(
    b: &Bench,
    config: &SessionConfig,
    processes: usize,
) -> (SessionResult, Option<u64>) {
    let mut progress = LiveProgress::start(&b.name);
    let start = Instant::now();
    let child_target = child_target(config.target, processes, config.confidence);
    let mut done: Vec<ProcessResult> = Vec::new();
    let mut costs: Vec<ProcessCost> = Vec::new();
    let mut warnings: Vec<String> = Vec::new();
    let mut estimate = None;
    let mut wanted = processes;
    let status = loop {
        let remaining = config.max_time.saturating_sub(start.elapsed());
        let cap = process_cap(&costs, (done.len(), processes, wanted), config, remaining);
        let began = Instant::now();
        match run_process(&b.name, cap, config, child_target) {
            Ok(p) => {
                merge_warnings(&mut warnings, &done, &p);
                costs.push(cost_of(&p, began.elapsed()));
                done.push(p);
            }
            Err(_) if super::interrupt::requested() => break Status::Interrupted,
            Err(msg) if msg.starts_with(NO_ESTIMATE) => {
                warnings.push(format!("process {} of this bench: {msg}", done.len() + 1));
                break no_estimate_status(&msg);
            }
            Err(msg) => break Status::Failed(msg),
        }
        if done.len() >= 2 {
            let estimates: Vec<ProcessEstimate> = done.iter().map(|p| p.estimate.clone()).collect();
            let mut e = combine(&estimates, config);
            if let Some(v) = config.machine {
                e = e.with_machine(v);
            }
            progress.update(e.mean, e.relative_half_width(), config.target, None);
            let met = e.relative_half_width() <= config.target && done.len() >= processes;
            // The machine's variation alone as wide as the target (once the processes' own
            // part is small against it), or more processes than the cap leaves time for:
            // more processes cannot buy the target. Processes in modes with no majority are
            // given up to twice the least count first: a few more can settle which mode is
            // the typical one.
            let undecided = modes_undecided(&estimates, config) && done.len() < 2 * processes;
            if !met && done.len() >= processes && !undecided {
                let per_process = start.elapsed() / done.len() as u32;
                let remaining = config.max_time.saturating_sub(start.elapsed());
                if let Some(found) =
                    judge_processes(&e, config.target, done.len(), per_process, remaining)
                {
                    warnings.push(out_of_reach_warning(
                        &e,
                        &found,
                        config.target,
                        start.elapsed(),
                    ));
                    estimate = Some(e);
                    break Status::OutOfReach;
                }
            }
            // Not narrow enough yet: at least one more process, more if the spread says so.
            let needed = processes_needed(&estimates, config).unwrap_or(0);
            wanted = wanted.max(needed).max(done.len() + 1);
            estimate = Some(e);
            if met && start.elapsed() >= config.min_time {
                break Status::Converged;
            }
        }
        if start.elapsed() >= config.max_time {
            break if estimate
                .as_ref()
                .is_some_and(|e| e.relative_half_width() <= config.target)
            {
                Status::Converged
            } else {
                Status::TimeCap
            };
        }
    };
    progress.finish();
    if let ([only], None, Status::TimeCap | Status::Converged) = (&done[..], &estimate, &status) {
        warnings.push(format!(
            "the time cap ({:.1} s) allowed one process only: the interval cannot see how \
             the bench varies from process to process; raise --max-time",
            config.max_time.as_secs_f64()
        ));
        let e = alone(&only.estimate, config.confidence);
        estimate = Some(match config.machine {
            Some(v) => e.with_machine(v),
            None => e,
        });
    }
    processes_result(done, status, estimate, warnings, config, start.elapsed())
}

/// What process `p`, which took `wall` from its start to its report, cost and found.
fn cost_of(p: &ProcessResult, wall: Duration) -> ProcessCost {
    ProcessCost {
        mean: p.estimate.mean,
        half_width: p.estimate.half_width,
        wall,
        measured: p
            .rounds
            .iter()
            .filter(|r| r.analysed)
            .map(|r| r.duration)
            .sum(),
    }
}

/// The time cap of the next process, `remaining` being left of the bench's cap, with `done`
/// processes run of `least` at least and `wanted` wanted so far. The first processes get a
/// short share each, so that their spread, not their length, decides what comes next; then the
/// measuring time Kalibera and Jones's dimensioning finds best plus what starting a process
/// costs; else an equal share of the time left. At least [`LEAST_SHARE`].
fn process_cap(
    costs: &[ProcessCost],
    (done, least, wanted): (usize, usize, usize),
    config: &SessionConfig,
    remaining: Duration,
) -> Duration {
    let left = wanted.saturating_sub(done).max(1) as u32;
    match dimensioned_share(costs, config.confidence, remaining) {
        _ if done < least => first_share(config.max_time, least).min(remaining.max(LEAST_SHARE)),
        Some(share) => {
            let overhead = costs
                .iter()
                .map(|c| c.wall.saturating_sub(c.measured))
                .sum::<Duration>()
                / costs.len() as u32;
            (share + overhead).min(remaining.max(LEAST_SHARE))
        }
        None => (remaining / left).max(LEAST_SHARE),
    }
}

/// Measures `members` (with their session settings) interleaved by processes: each cycle runs
/// one process of every member still measuring, each member first in turn, so
/// that the machine's slow changes fall on all members alike. At least `processes` cycles run;
/// a member stops once its interval over process estimates is as narrow as its target, and the
/// whole stops at the sum of the members' time caps. Each process gets an equal share of its
/// member's cap over `processes` processes, at least 0.3 s.
///
/// For benches whose bodies live only in their process's own run (announced at run time): the
/// parent needs no closure, each child announces its bench again.
pub(super) fn measure_interleaved(
    members: &[(&Bench, SessionConfig)],
    processes: usize,
) -> Vec<(SessionResult, Option<u64>)> {
    let progress = LiveProgress::start(&format!("{} benches interleaved", members.len()));
    let start = Instant::now();
    let cap: Duration = members.iter().map(|(_, c)| c.max_time).sum();
    let processes = processes.max(2);
    let child_target = |c: &SessionConfig| (c.target * (processes as f64).sqrt()).min(0.5);
    let mut done: Vec<Vec<ProcessResult>> = vec![Vec::new(); members.len()];
    let mut warnings: Vec<Vec<String>> = vec![Vec::new(); members.len()];
    let mut status: Vec<Option<Status>> = vec![None; members.len()];
    let mut estimates: Vec<Option<Estimate>> = vec![None; members.len()];
    let mut cycle = 0usize;
    while status.iter().any(Option::is_none) {
        let mut order: Vec<usize> = (0..members.len())
            .filter(|&i| status[i].is_none())
            .collect();
        // Each member goes first in turn.
        let first = cycle % order.len().max(1);
        order.rotate_left(first);
        for i in order {
            let (b, config) = &members[i];
            let share = (config.max_time / processes as u32).max(LEAST_SHARE);
            match run_process(&b.name, share, config, child_target(config)) {
                Ok(p) => {
                    merge_warnings(&mut warnings[i], &done[i], &p);
                    done[i].push(p);
                }
                Err(_) if super::interrupt::requested() => {
                    progress.finish();
                    let mut interrupted = failed_session("interrupted");
                    interrupted.status = Status::Interrupted;
                    return vec![(interrupted, None); members.len()];
                }
                Err(msg) if msg.starts_with(NO_ESTIMATE) => {
                    warnings[i].push(format!(
                        "process {} of this bench: {msg}",
                        done[i].len() + 1
                    ));
                    status[i] = Some(no_estimate_status(&msg));
                }
                Err(msg) => status[i] = Some(Status::Failed(msg)),
            }
            if status[i].is_some() || done[i].len() < 2 {
                continue;
            }
            let per: Vec<ProcessEstimate> = done[i].iter().map(|p| p.estimate.clone()).collect();
            let mut e = combine(&per, config);
            if let Some(v) = config.machine {
                e = e.with_machine(v);
            }
            if e.relative_half_width() <= config.target && done[i].len() >= processes {
                status[i] = Some(Status::Converged);
            }
            estimates[i] = Some(e);
        }
        cycle += 1;
        if start.elapsed() >= cap && cycle >= processes {
            for (i, s) in status.iter_mut().enumerate() {
                if s.is_none() {
                    let met = estimates[i]
                        .as_ref()
                        .is_some_and(|e| e.relative_half_width() <= members[i].1.target);
                    *s = Some(if met {
                        Status::Converged
                    } else {
                        Status::TimeCap
                    });
                }
            }
        }
    }
    progress.finish();
    let elapsed = start.elapsed();
    members
        .iter()
        .enumerate()
        .map(|(i, (_, config))| {
            processes_result(
                std::mem::take(&mut done[i]),
                status[i].clone().expect("every member finished"),
                estimates[i].take(),
                std::mem::take(&mut warnings[i]),
                config,
                elapsed,
            )
        })
        .collect()
}

/// The session result over the processes `done`, which ended with `status` and the combined
/// `estimate`; with the micro form's iterations per unit of the last process.
fn processes_result(
    done: Vec<ProcessResult>,
    status: Status,
    estimate: Option<Estimate>,
    mut warnings: Vec<String>,
    config: &SessionConfig,
    elapsed: Duration,
) -> (SessionResult, Option<u64>) {
    let unresolved = done.iter().filter(|p| p.unresolved).count();
    if unresolved > 0 {
        warnings.push(format!(
            "{unresolved} of {} processes fitted a non-positive time per unit: their rounds' \
             durations did not grow with the work amount; raise the top of the work range",
            done.len()
        ));
    }
    // Readings-only slopes are averaged whatever their sign (dropping the negative ones would
    // bias the mean up); a mean that is not positive is no estimate.
    let (status, estimate, unresolved_fit) = match estimate {
        Some(e) if e.mean <= 0.0 && !matches!(status, Status::Failed(_)) => {
            warnings.push(crate::session::unresolved_warning(e.mean, e.rounds));
            (Status::Unresolved, None, Some(e))
        }
        e => (status, e, None),
    };
    if status == Status::TimeCap {
        if let Some(e) = &estimate {
            warnings.push(format!(
                "time cap reached with ±{:.2}% of the mean (target ±{:.2}%) over {} processes",
                100.0 * e.relative_half_width(),
                100.0 * config.target,
                done.len()
            ));
        }
    }
    let iters = done.last().and_then(|p| p.iters);
    let mut checks = bench_checks(&done, &mut warnings);
    // Processes left out of the typical process's estimate are named, never hidden.
    let means: Vec<f64> = done.iter().map(|p| p.estimate.mean).collect();
    if let (Some(e), 2..) = (&estimate, means.len()) {
        let estimates: Vec<ProcessEstimate> = done.iter().map(|p| p.estimate.clone()).collect();
        let kept = typical_processes(&estimates, config);
        if let Some(c) = crate::checks::process_modes(&means, &kept, e.mean) {
            warnings.push(c.message.clone());
            checks.push(c);
        }
    }
    let classes: Vec<WarmUpClass> = done.iter().filter_map(|p| p.warm_up).collect();
    let warm_up = classes
        .iter()
        .copied()
        .max_by_key(|c| classes.iter().filter(|k| *k == c).count());
    let outliers = done.iter().filter_map(|p| p.outliers).reduce(|mut a, b| {
        a.add(&b);
        a
    });
    let session = SessionResult {
        status,
        estimate,
        process_means: means,
        rounds: done.iter().flat_map(|p| p.rounds.iter().cloned()).collect(),
        removed: done.iter().map(|p| p.removed).sum(),
        readings: done.iter().map(|p| p.readings).sum(),
        elapsed,
        warnings,
        unresolved_fit,
        drift: None,
        checks,
        warm_up,
        outliers,
        // Each process's pairs stay in its own document; their checks are carried above.
        overhead: None,
        machine_state: done.iter().find_map(|p| p.machine_state),
        warm_up_start: None,
    };
    (session, iters)
}

/// The checks of a bench measured in the processes `done`, with the warnings of the checks
/// left out removed from `warnings`. A check any process made is the bench's (the first of
/// each kind, with its figures), but a trend of the workload's own (a leak, a slowdown, a cold
/// start, outliers) only when at least half the processes found it: each process judges it
/// from its own few rounds at p < 0.001 or so, and a bench in ten processes would otherwise
/// inherit any one's false alarm. Processes whose fit was unresolved are not counted.
fn bench_checks(
    done: &[ProcessResult],
    warnings: &mut Vec<String>,
) -> Vec<crate::schema::CheckDoc> {
    let judged: Vec<&ProcessResult> = done.iter().filter(|p| !p.unresolved).collect();
    let found_by = |kind: &str| {
        judged
            .iter()
            .filter(|p| p.checks.iter().any(|c| c.kind == kind))
            .count()
    };
    let mut checks: Vec<crate::schema::CheckDoc> = Vec::new();
    for c in judged.iter().flat_map(|p| &p.checks) {
        let minority =
            crate::checks::is_workload_trend(&c.kind) && 2 * found_by(&c.kind) < judged.len();
        if !minority && !checks.iter().any(|k| k.kind == c.kind) {
            checks.push(c.clone());
        }
    }
    // The warnings of the checks left out go too.
    let dropped: Vec<String> = judged
        .iter()
        .flat_map(|p| &p.checks)
        .filter(|c| !checks.iter().any(|k| k.kind == c.kind))
        .map(|c| c.message.clone())
        .collect();
    warnings.retain(|w| !dropped.contains(w));
    checks
}

/// One process execution's report, read from the result document a bench binary writes in
/// child mode (`PILOT_CHILD=1 BINARY --bench --exact NAME --json FILE`). `cargo pilot bench
/// --against` starts the processes of two builds itself and combines each side's reports
/// with [`combine_children`], as `measure_in_processes` does for one build.
#[derive(Clone)]
pub struct ChildReport {
    result: ProcessResult,
    form: String,
    /// What the bench's throughput counts, when it says.
    rate: Option<Rate>,
    clock: ClockInfo,
    confidence: f64,
}

/// A process execution that ended without an estimate.
#[derive(Debug, Clone, PartialEq)]
pub struct ChildFailure {
    /// The bench's status: `failed`, or the status of a session that found no estimate (`no
    /// steady state`, `below clock resolution`, `time cap`).
    pub status: String,
    /// What happened, in words.
    pub message: String,
}

impl ChildReport {
    /// Reads a child's result document.
    ///
    /// # Errors
    ///
    /// The bench failed (a panic), the session ended without an estimate, or the text is not a
    /// result document.
    pub fn parse(text: &str) -> Result<ChildReport, ChildFailure> {
        let failed = Status::Failed(String::new()).as_str().to_string();
        let doc = child_document(text).map_err(|message| ChildFailure {
            status: failed.clone(),
            message,
        })?;
        let result = process_result(&doc).map_err(|message| ChildFailure {
            status: if message.starts_with(NO_ESTIMATE) {
                no_estimate_status(&message).as_str().to_string()
            } else {
                failed
            },
            message,
        })?;
        let rate = rate_of(&doc);
        Ok(ChildReport {
            result,
            form: doc.form,
            rate,
            clock: ClockInfo {
                overhead_ns: doc.clock.overhead_ns,
                resolution_ns: doc.clock.resolution_ns,
            },
            confidence: doc.config.confidence,
        })
    }

    /// The process's mean time per unit (ns).
    pub fn mean(&self) -> f64 {
        self.result.estimate.mean
    }
}

/// What a result document's throughput PI counts: its unit, and the amount per work unit, which
/// is the throughput times the time per unit (`B/s × ns / 1e9`). Amounts of bytes and elements
/// are whole numbers (`throughput = bytes(…)` takes a `u64`), so the product is rounded; a
/// bench's own `unit` is one per work unit.
fn rate_of(doc: &ResultDoc) -> Option<Rate> {
    let pi = doc.pis.iter().find(|pi| pi.name == "throughput")?;
    let unit = pi.unit.strip_suffix("/s")?.to_string();
    let per_unit = if unit == crate::fmt::BYTES || unit == crate::fmt::ELEMENTS {
        let time = doc.pis.first()?.mean?;
        (pi.mean? * time / 1e9).round()
    } else {
        1.0
    };
    Some(Rate { unit, per_unit })
}

/// The result document of bench `name` of bench target `target` over the process executions
/// `children` (at least two), as `measure_in_processes` would have written it: the mean of
/// the processes' estimates, its interval from Student's t over them (or their own intervals
/// combined, when wider), every round, the warnings once each. Its status is `converged` when
/// the interval meets `target_ci`, else `settled` (the processes stopped for a reason of the
/// caller's, such as a settled comparison).
///
/// # Panics
///
/// With fewer than two children.
pub fn combine_children(
    name: &str,
    target: &str,
    children: &[ChildReport],
    target_ci: f64,
    machine: Option<&MachineDoc>,
    elapsed: Duration,
    (started, finished): (String, String),
) -> ResultDoc {
    assert!(children.len() >= 2, "combine_children needs two processes");
    let first = &children[0];
    let config = SessionConfig {
        confidence: first.confidence,
        target: target_ci,
        max_time: elapsed,
        ..SessionConfig::default()
    };
    let estimates: Vec<ProcessEstimate> =
        children.iter().map(|c| c.result.estimate.clone()).collect();
    let e = combine(&estimates, &config);
    let status = if e.relative_half_width() <= target_ci {
        Status::Converged
    } else {
        Status::Settled
    };
    let mut warnings: Vec<String> = Vec::new();
    let done: Vec<ProcessResult> = children.iter().map(|c| c.result.clone()).collect();
    for (i, p) in done.iter().enumerate() {
        merge_warnings(&mut warnings, &done[..i], p);
    }
    let (session, iters) = processes_result(done, status, Some(e), warnings, &config, elapsed);
    result::document(&result::BenchRecord {
        name,
        target,
        form: match first.form.as_str() {
            "micro" => "micro",
            "readings-only" => "readings-only",
            _ => "full",
        },
        throughput: first.rate.as_ref(),
        config: &config,
        session: &session,
        iterations_per_unit: iters,
        clock: first.clock,
        machine,
        started,
        finished,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_without_an_estimate_is_the_benchs_status_not_a_failure() {
        let at = |status: &str| no_estimate_status(&format!("{NO_ESTIMATE} ({status})"));
        assert_eq!(at("no steady state"), Status::NoSteadyState);
        assert_eq!(at("below clock resolution"), Status::BelowResolution);
        assert_eq!(at("time cap"), Status::TimeCap);
    }
}
