//! The bench binary's `main`: which benches to run, in which mode, and what to do with their
//! results.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::__private::{BenchBody, BenchDef};
use crate::cli::{self, Args};
use crate::record::{Bencher, BencherMode, ClockInfo, RealClock, Recorder, measure_clock};
use crate::report::{Progress, Row, format_count, format_ns, format_rate, render_table};
use crate::session::{RoundData, SessionConfig, SessionResult, Status, Workload, run_session};
use crate::store::{self, result};

mod group;
mod registry;
mod threads;

use registry::{Bench, registered};

/// The message of a micro-form bench that never timed anything.
const NEVER_ITERATED: &str = "the bench never called `b.iter(...)` or `b.iter_batched(...)`";

/// The current time as an RFC 3339 timestamp (UTC, seconds), for result documents.
fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

pub(crate) fn main() -> ExitCode {
    // `cargo pilot` asks each bench executable whether it is a pilot binary (criterion's and
    // libtest's are not): say so, run nothing.
    if std::env::var_os("PILOT_PROBE").is_some() {
        println!("pilot-harness {}", env!("CARGO_PKG_VERSION"));
        return ExitCode::SUCCESS;
    }
    let args = match cli::parse(std::env::args_os().skip(1), |k| std::env::var(k).ok()) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    for flag in &args.unknown {
        eprintln!("pilot: ignoring unknown flag `{flag}`");
    }
    let benches = registered();
    if let Some(dup) = benches.windows(2).find(|w| w[0].name == w[1].name) {
        eprintln!(
            "error: two benches are named `{}` ({}:{} and {}:{}); rename one with \
             #[pilot::bench(name = \"...\")]",
            dup[0].name, dup[0].def.file, dup[0].def.line, dup[1].def.file, dup[1].def.line
        );
        return ExitCode::from(2);
    }
    let total = benches.len();
    let selected: Vec<&Bench> = benches
        .iter()
        .filter(|b| args.selects(&b.name, b.def.options.ignore))
        .collect();
    if args.list {
        for b in &selected {
            println!("{}: benchmark", b.name);
        }
        if !args.terse {
            println!("\n{} benchmarks", selected.len());
        }
        return ExitCode::SUCCESS;
    }
    let filtered_out = total - selected.len();
    if args.bench {
        bench_mode(&args, &selected, filtered_out)
    } else {
        test_mode(&args, &benches, &selected, filtered_out)
    }
}

/// Runs `f`, turning a panic into its message.
fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "the bench panicked".to_string())
    })
}

/// Test mode: one tiny round of each bench, reported the way libtest reports tests.
fn test_mode(args: &Args, all: &[Bench], selected: &[&Bench], filtered_out: usize) -> ExitCode {
    let start = Instant::now();
    // With neither --ignored nor --include-ignored, ignored benches are listed as such.
    let shown_ignored: Vec<&Bench> = if args.ignored || args.include_ignored {
        Vec::new()
    } else {
        all.iter()
            .filter(|b| b.def.options.ignore && args.selects(&b.name, false))
            .collect()
    };
    println!("\nrunning {} benches", selected.len() + shown_ignored.len());
    let (mut passed, mut failed) = (0, Vec::new());
    for b in selected {
        let outcome = smoke(b);
        match &outcome {
            Ok(()) => {
                passed += 1;
                println!("test {} ... ok", b.name);
            }
            Err(msg) => {
                println!("test {} ... FAILED", b.name);
                failed.push((b.name.clone(), msg.clone()));
                if args.fail_fast {
                    break;
                }
            }
        }
    }
    for b in &shown_ignored {
        println!("test {} ... ignored", b.name);
    }
    if !failed.is_empty() {
        println!("\nfailures:");
        for (name, msg) in &failed {
            println!("    {name}: {msg}");
        }
    }
    println!(
        "\ntest result: {}. {passed} passed; {} failed; {} ignored; 0 measured; {} filtered out; \
         finished in {:.2}s\n",
        if failed.is_empty() { "ok" } else { "FAILED" },
        failed.len(),
        shown_ignored.len(),
        filtered_out - shown_ignored.len().min(filtered_out),
        start.elapsed().as_secs_f64()
    );
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// One round with the smallest work amount, no statistics: does the bench run at all? With
/// `threads`, the round runs on that many threads, as in a measurement.
fn smoke(b: &Bench) -> Result<(), String> {
    let def = b.def;
    let low = def.options.work.map_or(1, |(a, _)| a);
    if b.threads > 1 {
        let mut workload = BenchWorkload::new(b, 0);
        workload.round(low)?;
        return Ok(());
    }
    let arg = b.arg;
    match def.body {
        BenchBody::Full(f) => {
            let mut rec = Recorder::with_capacity(low);
            catch(|| f(arg, low, &mut rec))?;
            if rec.units() == 0 {
                return Err("the bench timed no work unit: call `rec.unit(|| ...)`".into());
            }
        }
        BenchBody::Micro(f) => {
            let mut b = Bencher::new(BencherMode::Test);
            catch(|| f(arg, &mut b))?;
            if !b.was_called() {
                return Err(NEVER_ITERATED.into());
            }
        }
        BenchBody::ReadingsOnly(f) => catch(|| f(arg, low))?,
    }
    Ok(())
}

/// A bench as the session sees it: rounds of a work amount.
struct BenchWorkload {
    body: BenchBody,
    /// Index of the argument value (`args`).
    arg: usize,
    /// Threads running each round at once (`threads`).
    threads: usize,
    /// Iterations per unit in the micro form.
    iters: u64,
    /// Least unit duration in the micro form, so the clock's cost stays under 0.5% of a unit.
    target_unit_ns: u64,
}

impl Workload for BenchWorkload {
    fn round(&mut self, work: u64) -> Result<RoundData, String> {
        let arg = self.arg;
        if self.threads > 1 {
            return self.threaded_round(work);
        }
        match self.body {
            BenchBody::Full(f) => {
                let mut rec = Recorder::with_capacity(work);
                catch(|| f(arg, work, &mut rec))?;
                Ok(RoundData::Units {
                    readings: rec.take().into_iter().map(|ns| ns as f64).collect(),
                    iterations: 1,
                })
            }
            BenchBody::Micro(f) => {
                let iters = self.iters;
                let mut b = Bencher::new(BencherMode::Measure { work, iters });
                catch(|| f(arg, &mut b))?;
                if !b.was_called() {
                    return Err(NEVER_ITERATED.into());
                }
                let units = b.take_readings();
                self.recalibrate(&units);
                Ok(RoundData::Units {
                    readings: units
                        .into_iter()
                        .map(|ns| ns as f64 / iters as f64)
                        .collect(),
                    iterations: iters,
                })
            }
            BenchBody::ReadingsOnly(f) => {
                catch(|| f(arg, work))?;
                Ok(RoundData::Whole)
            }
        }
    }
}

impl BenchWorkload {
    /// The workload of bench `b`, its micro-form units at least `target_unit_ns` long.
    fn new(b: &Bench, target_unit_ns: u64) -> Self {
        BenchWorkload {
            body: b.def.body,
            arg: b.arg,
            threads: b.threads,
            iters: 1,
            target_unit_ns,
        }
    }

    /// A round on [`BenchWorkload::threads`] threads at once, unit readings pooled.
    fn threaded_round(&mut self, work: u64) -> Result<RoundData, String> {
        let units = threads::round(self.body, self.arg, work, self.iters, self.threads)?;
        Ok(match self.body {
            BenchBody::ReadingsOnly(_) => RoundData::Whole,
            BenchBody::Full(_) => RoundData::Units {
                readings: units.into_iter().map(|ns| ns as f64).collect(),
                iterations: 1,
            },
            BenchBody::Micro(_) => {
                self.recalibrate(&units);
                let iters = self.iters;
                RoundData::Units {
                    readings: units
                        .into_iter()
                        .map(|ns| ns as f64 / iters as f64)
                        .collect(),
                    iterations: iters,
                }
            }
        })
    }

    /// Calibration can run while the routine is still slow (a warm-up), leaving units too short
    /// once it is fast: raise the iteration count when a round's median unit falls below the
    /// target. Readings are per iteration, so earlier rounds stay comparable.
    fn recalibrate(&mut self, units: &[u64]) {
        if units.is_empty() {
            return;
        }
        let mut sorted = units.to_vec();
        sorted.sort_unstable();
        let median = sorted[sorted.len() / 2].max(1);
        if median < self.target_unit_ns {
            let scale = 1.2 * self.target_unit_ns as f64 / median as f64;
            self.iters = ((self.iters as f64 * scale).ceil() as u64).max(self.iters + 1);
        }
    }
}

fn form(body: &BenchBody) -> &'static str {
    match body {
        BenchBody::Full(_) => "full",
        BenchBody::Micro(_) => "micro",
        BenchBody::ReadingsOnly(_) => "readings-only",
    }
}

/// The session settings of a bench: flags (and `PILOT_*` variables) over `--quick` over the
/// attribute over the defaults.
fn session_config(args: &Args, def: &BenchDef) -> SessionConfig {
    let o = &def.options;
    let quick = |fast: f64| args.quick.then_some(fast);
    let mut c = SessionConfig {
        confidence: args.confidence.or(o.confidence).unwrap_or(0.95),
        target: args.ci.or(quick(0.05)).or(o.ci).unwrap_or(0.01),
        max_time: Duration::from_secs_f64(
            args.max_time.or(quick(2.0)).or(o.max_time).unwrap_or(10.0),
        ),
        min_time: Duration::from_secs_f64(args.min_time.or(o.min_time).unwrap_or(0.0)),
        ..SessionConfig::default()
    };
    if let Some((a, b)) = o.work {
        c.work_range = (a.max(1), b.max(a.max(1)));
    }
    if args.child {
        // One of several process executions: a short session. The first estimate comes early,
        // rounds are short, and fewer rounds are needed, since the process-level interval
        // (over the processes' estimates) is what decides.
        c.first_result = Duration::from_millis(300);
        c.max_round = Duration::from_millis(100);
        c.min_rounds = 6;
    }
    c.min_time = c.min_time.min(c.max_time);
    c
}

/// The exit code for a regression found against a baseline.
const EXIT_REGRESSION: u8 = 3;

/// The baseline's results for this target, read before anything runs so that a missing or
/// corrupt baseline stops the run at once.
fn load_baseline(
    args: &Args,
    root: &std::path::Path,
    target: &str,
) -> Result<Option<Vec<store::SavedResult>>, String> {
    let Some(name) = &args.baseline else {
        return Ok(None);
    };
    let dir = store::baseline(&store::baselines_dir(root), name).map_err(|e| e.to_string())?;
    let dir = dir.join(target);
    if !dir.is_dir() {
        return Ok(Some(Vec::new()));
    }
    store::read_dir(&dir).map(Some).map_err(|e| e.to_string())
}

/// Benchmark mode: an adaptive session per bench, results saved, a table at the end.
fn bench_mode(args: &Args, selected: &[&Bench], filtered_out: usize) -> ExitCode {
    if args.child {
        return child_mode(args, selected);
    }
    let root = store::target_dir();
    let target = store::bench_target_name();
    on_interrupt(&store::results_dir(&root).join(&target));
    let base = match load_baseline(args, &root, &target) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let clock = measure_clock();
    let machine = crate::probe::machine();
    let run_started = now();
    println!(
        "\nrunning {} benches ({} filtered out); clock: {:.1} ns per read, resolution {} ns",
        selected.len(),
        filtered_out,
        clock.overhead_ns,
        clock.resolution_ns
    );
    let mut rows = Vec::new();
    let mut documents = Vec::new();
    let mut run_log = RunLog::start(args, &root, &target, &run_started);
    let mut groups = group::Groups::new(args, selected);
    let mut failed = 0;
    let mut confidence = 0.95;
    let processes =
        args.processes
            .unwrap_or(if args.baseline.is_some() || args.save_baseline.is_some() {
                crate::compare::BASELINE_PROCESSES
            } else {
                1
            });
    if let Some(name) = &args.save_baseline {
        if !selected.is_empty() && store::baselines_dir(&root).join(name).is_dir() {
            println!("baseline `{name}` exists: the results of these benches replace its own");
        }
    }
    for b in selected {
        let config = session_config(args, b.def);
        confidence = config.confidence;
        if let Some(doc) = run_log.resumed(b, &root, &target) {
            println!(
                "{}: finished by the interrupted run, not measured again",
                b.name
            );
            rows.push(crate::report::row_of_document(&doc, false));
            documents.push(doc);
            run_log.done(&b.name);
            continue;
        }
        let started = now();
        // One in-process session by default: measured side by side on this project's shared
        // machine, it covered run-to-run spread as well as several short processes did (13 of
        // 15 runs against 10 of 15), in less time. `--processes N` asks for at least N processes.
        let (session, iters) = match groups.measure(args, b, clock) {
            Some(measured) => measured,
            None => match processes {
                1 => measure(b, &config, clock),
                n => measure_in_processes(b, &config, n),
            },
        };
        let finished = now();
        let record = result::BenchRecord {
            name: &b.name,
            target: &target,
            form: form(&b.def.body),
            unit: b.def.options.unit,
            config: &config,
            session: &session,
            iterations_per_unit: iters,
            clock,
            machine: &machine,
            started,
            finished,
        };
        let mut doc = result::document(&record);
        threads::annotate(&mut doc, b.threads, &session);
        let bytes = serde_json::to_vec_pretty(&doc).expect("JSON values serialise");
        let path = store::latest_path(&root, &target, &b.name);
        // What is written must read back: a document the reader rejects would break every
        // later comparison, so it is refused here, where the bench that made it is known.
        let readable = match store::from_document(&doc, &path) {
            Ok(_) => true,
            Err(e) => {
                eprintln!(
                    "error: bench `{}` produced a result pilot cannot read back, so it was not \
                     saved (a bug in pilot): {e}",
                    b.name
                );
                failed += 1;
                false
            }
        };
        let written = if readable {
            store::write_atomic(&path, &bytes)
        } else {
            Ok(())
        };
        if let Err(e) = written {
            eprintln!("warning: failed to write `{}`: {e}", path.display());
        }
        if let Some(name) = args.save_baseline.as_ref().filter(|_| readable) {
            let path = store::baseline_path(&root, name, &target, &b.name);
            if let Err(e) = store::write_atomic(&path, &bytes) {
                eprintln!("error: failed to save baseline `{}`: {e}", path.display());
                failed += 1;
            }
        }
        print_outcome(&b.name, &session);
        if matches!(session.status, Status::Failed(_)) {
            failed += 1;
        }
        rows.push(threads::row(
            row(&b.name, b.def.options.unit, &session),
            b,
            &session,
        ));
        documents.push(doc);
        run_log.done(&b.name);
        if failed > 0 && args.fail_fast {
            break;
        }
    }
    run_log.finish();
    if !args.no_table {
        println!("\n{}", render_table(&rows, confidence));
        print!("{}", groups.render());
        println!(
            "results: {}",
            store::results_dir(&root).join(&target).display()
        );
    }
    let mut regressed = false;
    let mut comparison = serde_json::Value::Null;
    if let Some(base) = &base {
        let ran: Vec<store::SavedResult> = documents
            .iter()
            .filter_map(|d| {
                let name = d["name"].as_str().unwrap_or("");
                store::from_document(d, &store::latest_path(&root, &target, name)).ok()
            })
            .collect();
        // Benches left out by the filters are not "missing".
        let base: Vec<store::SavedResult> = base
            .iter()
            .filter(|r| selected.iter().any(|b| b.name == r.name))
            .cloned()
            .collect();
        let options = crate::compare::CompareOptions {
            alpha: args.alpha.unwrap_or(0.01),
            noise: args.noise.unwrap_or(0.01),
            confidence: None,
        };
        let comparisons = crate::compare::compare(&base, &ran, &options);
        regressed = comparisons
            .iter()
            .any(|c| c.verdict == crate::compare::Verdict::Regressed);
        println!(
            "\ncompared with baseline `{}`:\n{}",
            args.baseline.as_deref().unwrap_or(""),
            crate::report::comparison_table(&comparisons, &options)
        );
        comparison = crate::report::comparison_json(&comparisons, &options);
    }
    if let Some(path) = &args.json {
        let run = json!({
            "schema": "pilot.run/1",
            "target": target,
            "started": run_started,
            "machine": machine,
            "benches": selected.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(),
            "results": documents,
            "comparison": comparison,
            "groups": groups.json(),
        });
        let bytes = serde_json::to_vec_pretty(&run).expect("JSON values serialise");
        if let Err(e) = store::write_atomic(std::path::Path::new(path), &bytes) {
            eprintln!("error: failed to write `{path}`: {e}");
            return ExitCode::FAILURE;
        }
    }
    if failed > 0 {
        ExitCode::FAILURE
    } else if regressed {
        ExitCode::from(EXIT_REGRESSION)
    } else {
        ExitCode::SUCCESS
    }
}

/// The progress of a benchmark run on disk ([`store::progress_path`]), and with `--resume`, what
/// an interrupted earlier run had finished.
struct RunLog {
    path: std::path::PathBuf,
    started: String,
    done: Vec<String>,
    /// Benches the interrupted run finished (with `--resume`).
    resumable: Vec<String>,
}

impl RunLog {
    fn start(args: &Args, root: &std::path::Path, target: &str, started: &str) -> Self {
        let path = store::progress_path(root, target);
        let mut resumable = Vec::new();
        if args.resume {
            let earlier: Option<serde_json::Value> = std::fs::read_to_string(&path)
                .ok()
                .and_then(|t| serde_json::from_str(&t).ok());
            match earlier {
                Some(p) if p["finished"] == false => {
                    resumable = p["done"]
                        .as_array()
                        .map(|d| {
                            d.iter()
                                .filter_map(|n| n.as_str().map(String::from))
                                .collect()
                        })
                        .unwrap_or_default();
                    println!(
                        "resuming the run started {}: {} bench(es) already done",
                        p["started"].as_str().unwrap_or("earlier"),
                        resumable.len()
                    );
                }
                _ => println!("nothing to resume (the last run finished): running every bench"),
            }
        }
        let log = RunLog {
            path,
            started: started.to_string(),
            done: Vec::new(),
            resumable,
        };
        log.write(false);
        log
    }

    /// The saved result of `b` when the interrupted run finished it (group members are always
    /// measured again: their group runs together).
    fn resumed(
        &self,
        b: &Bench,
        root: &std::path::Path,
        target: &str,
    ) -> Option<serde_json::Value> {
        if b.group.is_some() || !self.resumable.contains(&b.name) {
            return None;
        }
        let text = std::fs::read_to_string(store::latest_path(root, target, &b.name)).ok()?;
        let doc: serde_json::Value = serde_json::from_str(&text).ok()?;
        (doc["schema"] == result::RESULT_SCHEMA).then_some(doc)
    }

    fn done(&mut self, name: &str) {
        self.done.push(name.to_string());
        self.write(false);
    }

    fn finish(&self) {
        self.write(true);
    }

    fn write(&self, finished: bool) {
        // The earlier run's finished benches stay on record until this run finishes, so an
        // interrupted resume can be resumed again.
        let mut done = self.resumable.clone();
        done.extend(
            self.done
                .iter()
                .filter(|n| !self.resumable.contains(n))
                .cloned(),
        );
        let doc = json!({
            "schema": "pilot.progress/1",
            "started": self.started,
            "finished": finished,
            "done": done,
        });
        let bytes = serde_json::to_vec_pretty(&doc).expect("JSON values serialise");
        if let Err(e) = store::write_atomic(&self.path, &bytes) {
            eprintln!("warning: failed to write `{}`: {e}", self.path.display());
        }
    }
}

/// Ctrl-C during a run: every bench finished so far is already on disk (each result is
/// written when its bench ends, and the run's progress with it), so the run stops at once with
/// exit code 130 and says how to continue. The handler waits in a thread of its own, blocked
/// until a signal comes: nothing on the timing path. If the program set a handler of its own,
/// that one stays.
fn on_interrupt(results: &std::path::Path) {
    let results = results.display().to_string();
    let _ = ctrlc::set_handler(move || {
        eprintln!(
            "\ninterrupted: the benches finished so far are saved in `{results}`; run again with \
             --resume to measure only the rest"
        );
        std::process::exit(130);
    });
}

/// Runs one bench's session with live progress; returns it with the micro form's iteration
/// count.
fn measure(b: &Bench, config: &SessionConfig, clock: ClockInfo) -> (SessionResult, Option<u64>) {
    let mut progress = Progress::start(&b.name);
    let mut workload = BenchWorkload::new(b, target_unit_ns(clock));
    if let Err(msg) = calibrate(&mut workload, b.def) {
        progress.finish();
        return (failed_session(&msg), None);
    }
    let real = RealClock::start();
    let session = run_session(&mut workload, &real, config, &mut |e, elapsed| {
        // ETA from the rate at which stable readings have come so far.
        let eta = e.required_n.filter(|&r| r > e.n && e.n > 0).map(|r| {
            let rate = e.n as f64 / elapsed.as_secs_f64().max(1e-3);
            Duration::from_secs_f64(((r - e.n) as f64 / rate).min(config.max_time.as_secs_f64()))
        });
        progress.update(e.mean, e.relative_half_width(), config.target, eta);
    });
    progress.finish();
    let iters = matches!(b.def.body, BenchBody::Micro(_)).then_some(workload.iters);
    (session, iters)
}

/// In a process started by [`measure_in_processes`]: run the one selected bench's session
/// without output and write its result document to `--json`.
fn child_mode(args: &Args, selected: &[&Bench]) -> ExitCode {
    let (Some(b), Some(path)) = (selected.first(), &args.json) else {
        eprintln!("error: a pilot child process needs one bench (--exact NAME) and --json FILE");
        return ExitCode::from(2);
    };
    let clock = measure_clock();
    let config = session_config(args, b.def);
    let started = now();
    let mut workload = BenchWorkload::new(b, target_unit_ns(clock));
    let session = match calibrate(&mut workload, b.def) {
        Err(msg) => failed_session(&msg),
        Ok(()) => run_session(&mut workload, &RealClock::start(), &config, &mut |_, _| {}),
    };
    let iters = matches!(b.def.body, BenchBody::Micro(_)).then_some(workload.iters);
    let record = result::BenchRecord {
        name: &b.name,
        target: "",
        form: form(&b.def.body),
        unit: b.def.options.unit,
        config: &config,
        session: &session,
        iterations_per_unit: iters,
        clock,
        machine: &serde_json::Value::Null,
        started,
        finished: now(),
    };
    let mut doc = result::document(&record);
    if let Some(e) = &session.unresolved_fit {
        // For the parent only (a child's document is never stored): the non-positive slope,
        // which the combination over processes keeps.
        doc["pis"] = serde_json::json!([result::time_pi(e, "regression")]);
    }
    let bytes = serde_json::to_vec(&doc).expect("JSON values serialise");
    match store::write_atomic(std::path::Path::new(path), &bytes) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: failed to write `{path}`: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A unit must last 200× what its two clock reads cost: the clock's share stays under 0.5%.
fn target_unit_ns(clock: ClockInfo) -> u64 {
    (400.0 * clock.overhead_ns).max(1000.0) as u64
}

/// Finds the micro form's iterations per unit; nothing to do for the other forms.
fn calibrate(workload: &mut BenchWorkload, def: &BenchDef) -> Result<(), String> {
    if let BenchBody::Micro(f) = def.body {
        let mut bencher = Bencher::new(BencherMode::Calibrate {
            target_ns: workload.target_unit_ns,
        });
        let arg = workload.arg;
        catch(|| f(arg, &mut bencher))?;
        workload.iters = bencher
            .calibrated_iters()
            .ok_or_else(|| NEVER_ITERATED.to_string())?;
    }
    Ok(())
}

/// What one process execution reported.
struct ProcessResult {
    mean: f64,
    half_width: f64,
    n: usize,
    subsession_size: usize,
    autocorrelation: f64,
    rounds: Vec<crate::session::RoundRecord>,
    removed: usize,
    readings: usize,
    warnings: Vec<String>,
    iters: Option<u64>,
    /// The process's readings-only fit had a non-positive slope ([`Status::Unresolved`]):
    /// `mean` is that slope, a draw the combination keeps.
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
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let path = std::env::temp_dir().join(format!("pilot-{}-{nanos}.json", std::process::id()));
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
    let _ = std::fs::remove_file(&path);
    let doc: serde_json::Value = match text {
        Ok(t) => serde_json::from_str(&t).map_err(|e| format!("unreadable child result: {e}"))?,
        Err(_) => {
            return Err(format!(
                "the bench's process exited with {status} before reporting"
            ));
        }
    };
    if doc["status"] == "failed" {
        return Err(doc["status_detail"]
            .as_str()
            .unwrap_or("the bench failed")
            .to_string());
    }
    let pi = &doc["pis"][0];
    let (Some(mean), Some(low), Some(high)) = (
        pi["mean"].as_f64(),
        pi["ci"]["low"].as_f64(),
        pi["ci"]["high"].as_f64(),
    ) else {
        return Err(format!(
            "the bench's process found no estimate ({})",
            doc["status"]
        ));
    };
    let rounds = doc["rounds"]
        .as_array()
        .map(|rs| {
            rs.iter()
                .map(|r| crate::session::RoundRecord {
                    work: r["work"].as_u64().unwrap_or(0),
                    duration: Duration::from_nanos(r["duration_ns"].as_u64().unwrap_or(0)),
                    units: r["units"].as_u64().unwrap_or(0) as usize,
                    stable: r["stable"].as_array().and_then(|a| {
                        Some((a.first()?.as_u64()? as usize, a.get(1)?.as_u64()? as usize))
                    }),
                    analysed: r["analysed"].as_bool().unwrap_or(false),
                    mean_ns: None,
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(ProcessResult {
        mean,
        half_width: (high - low) / 2.0,
        n: pi["n"].as_u64().unwrap_or(0) as usize,
        subsession_size: pi["subsession_size"].as_u64().unwrap_or(1) as usize,
        autocorrelation: pi["autocorrelation"].as_f64().unwrap_or(0.0),
        rounds,
        removed: doc["removed_readings"].as_u64().unwrap_or(0) as usize,
        readings: doc["readings"].as_u64().unwrap_or(0) as usize,
        warnings: doc["warnings"]
            .as_array()
            .map(|w| {
                w.iter()
                    .filter_map(|x| x.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default(),
        iters: doc["iterations_per_unit"].as_u64(),
        unresolved: doc["status"] == Status::Unresolved.as_str(),
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
/// are needed (Pilot's required sample size, over process estimates). The time left is shared
/// equally among the processes still wanted, at least 0.3 s each.
fn measure_in_processes(
    b: &Bench,
    config: &SessionConfig,
    processes: usize,
) -> (SessionResult, Option<u64>) {
    let mut progress = Progress::start(&b.name);
    let start = Instant::now();
    // Each process's own interval may be √n wider: combined, they still meet the target.
    let child_target = (config.target * (processes as f64).sqrt()).min(0.5);
    let mut done: Vec<ProcessResult> = Vec::new();
    let mut warnings: Vec<String> = Vec::new();
    let mut estimate = None;
    let mut wanted = processes;
    let status = loop {
        // An equal share of the cap for every process still wanted (at least 0.3 s).
        let remaining = config.max_time.saturating_sub(start.elapsed());
        let left = wanted.saturating_sub(done.len()).max(1) as u32;
        let cap = (remaining / left).max(Duration::from_millis(300));
        match run_process(&b.name, cap, config, child_target) {
            Ok(p) => {
                for w in p.warnings.iter().filter(|_| !p.unresolved) {
                    if !warnings.contains(w) && !w.starts_with("time cap") {
                        warnings.push(w.clone());
                    }
                }
                done.push(p);
            }
            Err(msg) => break Status::Failed(msg),
        }
        if done.len() >= 2 {
            let e = combine(&done, config);
            progress.update(e.mean, e.relative_half_width(), config.target, None);
            let met = e.relative_half_width() <= config.target && done.len() >= processes;
            // Not narrow enough yet: at least one more process, more if the spread says so.
            let means: Vec<f64> = done.iter().map(|p| p.mean).collect();
            let needed = processes_needed(&means, config).unwrap_or(0);
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
    let session = SessionResult {
        status,
        estimate,
        process_means: done.iter().map(|p| p.mean).collect(),
        rounds: done.iter().flat_map(|p| p.rounds.iter().cloned()).collect(),
        removed: done.iter().map(|p| p.removed).sum(),
        readings: done.iter().map(|p| p.readings).sum(),
        elapsed: start.elapsed(),
        warnings,
        unresolved_fit,
    };
    (session, iters)
}

/// How many process estimates the target half-width needs, judged from their spread so far.
fn processes_needed(means: &[f64], config: &SessionConfig) -> Option<usize> {
    let s = crate::stats::Summary::of(means).ok()?;
    crate::stats::samplesize::required_for_half_width(
        s.variance,
        s.n as f64 - 1.0,
        config.target * s.mean.abs(),
        config.confidence,
    )
}

/// The estimate over process executions: their mean, with the wider of Student's t over their
/// estimates and their own intervals combined (`sqrt(Σ hw²)/P`).
fn combine(done: &[ProcessResult], config: &SessionConfig) -> crate::session::Estimate {
    let means: Vec<f64> = done.iter().map(|p| p.mean).collect();
    let s = crate::stats::Summary::of(&means).expect("finite estimates");
    let p = s.n as f64;
    let between = crate::stats::summary::t_critical(config.confidence, p - 1.0) * s.std_error();
    let within = done
        .iter()
        .map(|d| d.half_width * d.half_width)
        .sum::<f64>()
        .sqrt()
        / p;
    let half = between.max(within);
    let per_process: f64 = done.iter().map(|d| d.n as f64).sum::<f64>() / p;
    let required_n = processes_needed(&means, config)
        .map(|processes| (processes as f64 * per_process).ceil() as usize);
    crate::session::Estimate {
        mean: s.mean,
        ci: crate::stats::ConfidenceInterval {
            low: s.mean - half,
            high: s.mean + half,
            confidence: config.confidence,
        },
        n: done.iter().map(|d| d.n).sum(),
        // The typical process's subsession size (the median), not the most correlated one's.
        subsession_size: {
            let mut q: Vec<usize> = done.iter().map(|d| d.subsession_size).collect();
            q.sort_unstable();
            q[q.len() / 2]
        },
        autocorrelation: done.iter().map(|d| d.autocorrelation).sum::<f64>() / p,
        required_n,
        subsession_means: means,
        wps: None,
        variance_inflation: 1.0,
        between_rounds: between > within,
        rounds: done
            .iter()
            .map(|d| d.rounds.iter().filter(|r| r.analysed).count())
            .sum(),
    }
}

fn failed_session(msg: &str) -> SessionResult {
    SessionResult {
        status: Status::Failed(msg.to_string()),
        estimate: None,
        rounds: Vec::new(),
        removed: 0,
        readings: 0,
        elapsed: Duration::ZERO,
        warnings: Vec::new(),
        process_means: Vec::new(),
        unresolved_fit: None,
    }
}

fn print_outcome(name: &str, s: &SessionResult) {
    match (&s.status, &s.estimate) {
        (Status::Failed(msg), _) => println!("{name}: FAILED: {msg}"),
        (status, Some(e)) => println!(
            "{name}: {} ± {:.2}% [{}]",
            format_ns(e.mean),
            100.0 * e.relative_half_width(),
            status.as_str()
        ),
        (status, None) => println!("{name}: no estimate [{}]", status.as_str()),
    }
    for w in &s.warnings {
        println!("  warning: {w}");
    }
}

fn row(name: &str, unit: Option<&str>, s: &SessionResult) -> Row {
    let (time, throughput, samples, q) = match &s.estimate {
        Some(e) => {
            let time = crate::report::format_estimate(e.mean, e.ci.low, e.ci.high);
            let throughput = match (unit, result::throughput(e.mean, e.ci.low, e.ci.high).0) {
                (Some(u), Some(t)) => format!("{}{u}/s", format_rate(t)),
                _ => String::new(),
            };
            (
                time,
                throughput,
                format_count(e.n),
                e.subsession_size.to_string(),
            )
        }
        None => ("-".into(), String::new(), "-".into(), "-".into()),
    };
    let status = match &s.status {
        Status::Failed(_) => "FAILED".to_string(),
        other => other.as_str().to_string(),
    };
    Row {
        name: name.to_string(),
        time,
        throughput,
        samples,
        subsession: q,
        warmup: format_count(s.removed),
        rounds: s.rounds.len().to_string(),
        processes: s.process_means.len().max(1).to_string(),
        wall: format!("{:.1} s", s.elapsed.as_secs_f64()),
        status,
    }
}
