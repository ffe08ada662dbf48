//! Benchmark mode: an adaptive session per bench, results saved, a table at the end.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use super::config::session_config;
use super::interrupt;
use super::processes::{measure_in_processes, measure_interleaved};
use super::registry::Bench;
use super::resume::RunLog;
use super::speed::MachineSpeed;
use super::workload::{Closure, SessionChecks, form, measure};
use super::{group, now, threads};
use crate::cli::Args;
use crate::fmt::{format_count, format_estimate, format_ns, format_throughput};
use crate::record::{ClockInfo, measure_clock};
use crate::report::{Row, TimePer, render_table};
use crate::schema::{CheckDoc, CompareDoc, MachineDoc, RUN_SCHEMA, ResultDoc, RunDoc};
use crate::session::processes::auto_processes;
use crate::session::{SessionConfig, SessionResult, Status};
use crate::store::{self, result};

/// The exit code for a regression found against a baseline.
const EXIT_REGRESSION: u8 = 3;

/// The results of baseline `name` (when one is asked for) for bench target `target`, read
/// before anything runs so that a missing or corrupt baseline stops the run at once. A
/// baseline without the target has no results for it.
pub(crate) fn load_baseline(
    root: &Path,
    name: Option<&str>,
    target: &str,
) -> Result<Option<Vec<store::SavedResult>>, String> {
    let Some(name) = name else {
        return Ok(None);
    };
    let dir = store::baseline(&store::baselines_dir(root), name).map_err(|e| e.to_string())?;
    let dir = dir.join(target);
    if !dir.is_dir() {
        return Ok(Some(Vec::new()));
    }
    store::read_dir(&dir).map(Some).map_err(|e| e.to_string())
}

/// Writes `doc` as the latest result of bench `name` of `target`, and into `baseline` when
/// one is being saved. A document that would not pass the reader's checks is refused (it
/// would break every later comparison), and a write that fails is an error: either way it is
/// said on standard error, counted in the number returned, and the file on disk stays as it
/// was.
pub(crate) fn save_result(
    root: &Path,
    target: &str,
    name: &str,
    doc: &ResultDoc,
    baseline: Option<&str>,
) -> usize {
    if let Err(e) = doc.validate() {
        eprintln!(
            "error: `{name}` produced a result pilot cannot read back, so it was not saved (a \
             bug in pilot): {e}"
        );
        return 1;
    }
    let bytes = serde_json::to_vec_pretty(doc).expect("documents serialise");
    let mut paths = vec![store::latest_path(root, target, name)];
    if let Some(baseline) = baseline {
        paths.push(store::baseline_path(root, baseline, target, name));
    }
    let mut failed = 0;
    for path in paths {
        if let Err(e) = crate::files::write_atomic(&path, &bytes) {
            eprintln!(
                "error: failed to write the result of `{name}` to `{}`: {e}",
                path.display()
            );
            failed += 1;
        }
    }
    failed
}

/// Compares the results `docs` of `target` (saved as latest under `root`) with the
/// baseline's and prints the table; `ran` says which baseline entries this run covered (the
/// others are not "missing"). Returns the comparison document and whether anything regressed.
pub(crate) fn compare_with_baseline(
    (root, target): (&Path, &str),
    docs: &[ResultDoc],
    base: &[store::SavedResult],
    ran: &dyn Fn(&str) -> bool,
    options: &crate::compare::CompareOptions,
    baseline: &str,
) -> (CompareDoc, bool) {
    let results: Vec<store::SavedResult> = docs
        .iter()
        .filter_map(|d| {
            let path = store::latest_path(root, target, &d.name);
            store::from_document(d, &path).ok()
        })
        .collect();
    let comparisons = crate::compare::against_baseline(base, &results, |r| ran(&r.name), options);
    for w in crate::compare::machine_mismatch(base, &results) {
        println!("warning: {}", crate::fmt::terminal(&w));
    }
    println!(
        "\ncompared with baseline `{baseline}`:\n{}",
        crate::report::comparison_table(&comparisons, options)
    );
    (
        crate::report::comparison_doc(&comparisons, options),
        crate::compare::any_regressed(&comparisons),
    )
}

/// A benchmark run of this binary: where its results go, what it has measured so far.
pub(super) struct Run<'a> {
    args: &'a Args,
    /// When the run started (RFC 3339).
    started: String,
    root: PathBuf,
    target: String,
    clock: ClockInfo,
    machine: MachineDoc,
    speed: MachineSpeed,
    log: RunLog,
    groups: group::Groups<'a>,
    /// Least process executions per bench (1: the bench's own process).
    /// Process executions asked for (`--processes`, or the baselines' default); `None` lets
    /// each bench's time cap decide (see [`Run::bench`]).
    processes: Option<usize>,
    rows: Vec<Row>,
    documents: Vec<ResultDoc>,
    confidence: f64,
    /// Benches that failed (or whose result could not be saved).
    pub failed: usize,
    /// The checks of the run's set-up, written into every result.
    start_checks: Vec<CheckDoc>,
}

/// Benchmark mode: an adaptive session per bench, results saved, a table at the end.
pub(super) fn bench_mode(
    args: &Args,
    selected: &[&Bench],
    filtered_out: usize,
    debug_build: bool,
) -> ExitCode {
    let announce = Announce {
        count: Some((selected.len(), filtered_out)),
        threads: selected.iter().map(|b| b.threads).max().unwrap_or(1),
        debug_build,
    };
    let (mut run, base) = match Run::start(args, selected, announce) {
        Ok(started) => started,
        Err(code) => return code,
    };
    // A bench on several threads leaves the process multi-threaded for good (glibc's allocator
    // then leaves its single-thread fast path, ~10 ns per allocation): registrations with
    // `threads` above 1 run last, their sweep kept together, so every single-threaded bench
    // runs in a single-threaded process. The table still lists benches in source order.
    let mut order: Vec<&Bench> = selected.to_vec();
    order.sort_by_key(|b| b.def.options.threads.iter().any(|&n| n > 1));
    for b in order {
        if run.bench(b, None).is_break() {
            return run.interrupted();
        }
        if run.failed > 0 && args.fail_fast {
            break;
        }
    }
    run.finish(selected, base.as_deref())
}

/// What the start of a run says of it and checks.
pub(super) struct Announce {
    /// The benches selected and filtered out, when known before the run (not for benches
    /// announced as they run).
    pub count: Option<(usize, usize)>,
    /// The most threads a bench runs on.
    pub threads: usize,
    /// Whether the bench target was built without optimisations.
    pub debug_build: bool,
}

impl<'a> Run<'a> {
    /// Starts a run of `selected` (for benches announced as they run, of none yet): reads the
    /// baseline asked for, measures the clock and the machine's speed, prints the run's
    /// header and checks. An error has been printed when it returns the exit code.
    pub(super) fn start(
        args: &'a Args,
        selected: &[&'a Bench],
        announce: Announce,
    ) -> Result<(Self, Option<Vec<store::SavedResult>>), ExitCode> {
        let root = store::target_dir();
        let target = store::bench_target_name();
        interrupt::install();
        let base = load_baseline(&root, args.baseline.as_deref(), &target).map_err(|e| {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        })?;
        let clock = measure_clock();
        let started = now();
        let mut machine = crate::probe::machine();
        let (speed, speed_warnings) = MachineSpeed::start(&root, &machine, &started);
        machine.speed = Some(speed.doc());
        let count = match announce.count {
            Some((n, out)) => format!("{n} benches ({out} filtered out)"),
            None => "benches as they are announced".to_string(),
        };
        println!(
            "\nrunning {count}; clock: {:.1} ns per read, resolution {} ns\n{}",
            clock.overhead_ns,
            clock.resolution_ns,
            speed.describe(args.confidence.unwrap_or(0.95))
        );
        for w in speed_warnings {
            println!("warning: {}", crate::fmt::terminal(&w));
        }
        let setup = crate::checks::system::Setup {
            debug_build: announce.debug_build,
            threads: announce.threads,
            others_busy: crate::checks::system::others_busy_cores(Duration::from_millis(50)),
            read: &crate::probe::read,
        };
        let start_checks = crate::checks::system::start_checks(&machine, &setup);
        print!("{}", crate::checks::system::describe(&start_checks));
        if !args.no_sampling && crate::checks::sampler::Sampler::start().is_none() {
            println!(
                "machine state: not sampled (this system has no /proc/stat to read); \
                 busy-machine, steal, throttling and saturated-device checks are off"
            );
        }
        let log = RunLog::start(args, &root, &target, &started).map_err(|e| {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        })?;
        let baseline_flag = args.baseline.is_some() || args.save_baseline.is_some();
        let run = Run {
            args,
            started,
            clock,
            machine,
            speed,
            log,
            groups: group::Groups::new(args, selected),
            processes: args
                .processes
                .or(baseline_flag.then_some(crate::compare::BASELINE_PROCESSES)),
            rows: Vec::new(),
            documents: Vec::new(),
            confidence: 0.95,
            failed: 0,
            root,
            target,
            start_checks,
        };
        if let Some(name) = &args.save_baseline {
            if announce.count.is_none_or(|(n, _)| n > 0)
                && store::baselines_dir(&run.root).join(name).is_dir()
            {
                println!("baseline `{name}` exists: the results of these benches replace its own");
            }
        }
        Ok((run, base))
    }

    /// Says where the interrupted run's results are; the exit code of an interrupted run.
    pub(super) fn interrupted(&self) -> ExitCode {
        interrupt::report(&store::results_dir(&self.root).join(&self.target));
        ExitCode::from(interrupt::EXIT_INTERRUPTED)
    }
}

impl Run<'_> {
    /// Measures bench `b` (or takes its result from the interrupted run being resumed), saves
    /// its result and shows it. Breaks when the run was interrupted: nothing of `b` is saved,
    /// and the run's progress says it is still to do.
    ///
    /// `closure` is the micro-form body of a bench announced at run time (it replaces the
    /// registered function).
    pub(super) fn bench(&mut self, b: &Bench, closure: Option<Closure<'_>>) -> ControlFlow<()> {
        let config = self.config(b);
        if self.resumed(b, &config) {
            return ControlFlow::Continue(());
        }
        let started = now();
        // Processes are a level of variation by default (Kalibera & Jones): code layout moves a
        // small bench between processes (36% for a 20 ns bench, a second apart, on this
        // project's VM), which no interval from one process can see. So a bench whose cap can
        // pay for them runs in at least eight fresh processes (three for a cap under 2 s), more
        // as their spread asks; `--processes N` asks for at least N, `--processes 1` for this
        // process alone.
        let grouped = self.groups.measure(self.args, b, self.clock);
        let alone = grouped.is_none();
        let processes = self
            .processes
            .unwrap_or_else(|| auto_processes(config.max_time));
        let (session, iters) = grouped.unwrap_or_else(|| match processes {
            1 => measure(
                b,
                closure,
                &config,
                self.clock,
                SessionChecks::of(self.args, self.clock),
            ),
            n => measure_in_processes(b, &config, n),
        });
        self.record(b, &config, (session, iters), alone, started)
    }

    /// Measures `members`, whose bodies live in their own process's run (announced at run
    /// time), interleaved by processes; ranks the members of each group instance (their
    /// [`Bench::group`]) that has two or more; saves and shows each as [`bench`](Self::bench)
    /// does. Breaks when the run was interrupted.
    pub(super) fn interleaved_group(&mut self, members: &[&Bench]) -> ControlFlow<()> {
        let mut todo: Vec<(&Bench, SessionConfig)> = Vec::new();
        for &b in members {
            let config = self.config(b);
            if !self.resumed(b, &config) {
                todo.push((b, config));
            }
        }
        if todo.is_empty() {
            return ControlFlow::Continue(());
        }
        let started = now();
        let processes = self
            .args
            .processes
            .unwrap_or(crate::compare::BASELINE_PROCESSES);
        let results = measure_interleaved(&todo, processes);
        if !interrupt::requested() {
            let mut instances: Vec<&str> = Vec::new();
            for (b, _) in &todo {
                if let Some(g) = b.group.as_deref().filter(|g| !instances.contains(g)) {
                    instances.push(g);
                }
            }
            for instance in instances {
                let (benches, sessions): (Vec<&Bench>, Vec<SessionResult>) = todo
                    .iter()
                    .zip(&results)
                    .filter(|((b, _), _)| b.group.as_deref() == Some(instance))
                    .map(|((b, _), (s, _))| (*b, s.clone()))
                    .unzip();
                if benches.len() >= 2 {
                    let cycles = sessions.iter().map(|s| s.process_means.len()).max();
                    self.groups.rank_processes(
                        self.args,
                        instance,
                        &benches,
                        &sessions,
                        cycles.unwrap_or(0),
                    );
                }
            }
        }
        for ((b, config), result) in todo.iter().zip(results) {
            self.record(b, config, result, false, started.clone())?;
        }
        ControlFlow::Continue(())
    }

    /// The session settings of bench `b`, the machine's run-to-run variation included.
    pub(super) fn config(&mut self, b: &Bench) -> SessionConfig {
        let mut config = session_config(self.args, b.def);
        config.machine = self.speed.variation_for(&b.name);
        self.confidence = config.confidence;
        config
    }

    /// Whether the interrupted run being resumed finished bench `b`: its result is then taken
    /// as it is.
    pub(super) fn resumed(&mut self, b: &Bench, config: &SessionConfig) -> bool {
        let Some(doc) = self.log.resumed(b, &self.root, &self.target, config) else {
            return false;
        };
        println!(
            "{}: finished by the interrupted run, not measured again",
            b.name
        );
        self.rows.push(crate::report::row_of_document(&doc, false));
        self.documents.push(doc);
        self.log.done(&b.name);
        true
    }

    /// Saves and shows bench `b`'s measured session (with the micro form's iterations per
    /// unit), started at `started`; `alone` when no other bench ran interleaved with it. Breaks
    /// when the run was interrupted: nothing of `b` is saved.
    pub(super) fn record(
        &mut self,
        b: &Bench,
        config: &SessionConfig,
        (mut session, iters): (SessionResult, Option<u64>),
        alone: bool,
        started: String,
    ) -> ControlFlow<()> {
        if session.status == Status::Interrupted || interrupt::requested() {
            return ControlFlow::Break(());
        }
        // The probe before this bench was the last one taken; this one is after it. A group's
        // members ran interleaved, so the machine's drift is in all of them alike.
        let machine_change = self.speed.after_bench();
        if alone {
            session.blame_drift(machine_change);
            if let Some(e) = &session.estimate {
                self.speed.add_bench(&b.name, e.mean);
            }
        }
        if let Some(c) = crate::checks::clock_overhead(
            session.estimate.as_ref().map(|e| e.mean),
            self.clock,
            iters,
        ) {
            session.warnings.push(c.message.clone());
            session.checks.push(c);
        }
        let record = result::BenchRecord {
            name: &b.name,
            target: &self.target,
            form: form(&b.def.body),
            throughput: b.rate.as_ref(),
            config,
            session: &session,
            iterations_per_unit: iters,
            clock: self.clock,
            machine: Some(&self.machine),
            started,
            finished: now(),
        };
        let mut doc = result::document(&record);
        doc.checks.splice(0..0, self.start_checks.iter().cloned());
        doc.threads = threads::section(b.threads, &session);
        self.save(&b.name, &doc);
        print_outcome(&b.name, &session);
        if matches!(session.status, Status::Failed(_)) {
            self.failed += 1;
        }
        self.rows.push(threads::row(
            row(
                &b.name,
                TimePer::of_form(form(&b.def.body)),
                b.rate.as_ref(),
                &session,
            ),
            b,
            &session,
        ));
        self.documents.push(doc);
        self.log.done(&b.name);
        ControlFlow::Continue(())
    }

    /// Saves `doc` as bench `name`'s result (see [`save_result`]); a failure fails the bench.
    fn save(&mut self, name: &str, doc: &ResultDoc) {
        self.failed += save_result(
            &self.root,
            &self.target,
            name,
            doc,
            self.args.save_baseline.as_deref(),
        );
    }

    /// The end of the run: the table, the comparison with the baseline, the run document, and
    /// the exit code.
    pub(super) fn finish(
        mut self,
        selected: &[&Bench],
        base: Option<&[store::SavedResult]>,
    ) -> ExitCode {
        self.log.finish();
        // Benches on several threads ran last: the table and the run document list every
        // bench in source order, as `selected` is.
        let position = |name: &str| selected.iter().position(|b| b.name == name);
        self.rows.sort_by_key(|r| position(&r.name));
        self.documents.sort_by_key(|d| position(&d.name));
        if let Some(w) = self.speed.finish() {
            println!("warning: {}", crate::fmt::terminal(&w));
        }
        // A run that measured nothing (every bench filtered out or ignored) has no table.
        if !self.args.no_table && !self.rows.is_empty() {
            // The machine's line was printed as the run started: not again here.
            println!("\n{}", render_table(&self.rows, self.confidence));
            print!("{}", self.groups.render());
            println!(
                "results: {}",
                store::results_dir(&self.root).join(&self.target).display()
            );
        } else if !self.rows.is_empty() {
            // `cargo pilot bench` prints one table across targets, but a group's ranking is
            // this target's own: it is printed here, under the target's name.
            print!("{}", self.groups.render());
        }
        if self.args.output_format == crate::cli::OutputFormat::Bencher {
            // After the table, so that the lines stand together for tools that read them.
            print!("\n{}", crate::report::bencher_lines(&self.documents));
        }
        if let Some(name) = &self.args.save_baseline {
            if let Some(w) = crate::report::weak_baseline(&self.documents, name) {
                println!("warning: {}", crate::fmt::terminal(&w));
            }
        }
        let comparison = base.map(|base| self.compare(base, selected));
        let regressed = comparison.as_ref().is_some_and(|(_, r)| *r);
        if let Some(path) = &self.args.json {
            let run = RunDoc {
                schema: RUN_SCHEMA.to_string(),
                target: Some(self.target.clone()),
                started: Some(self.started.clone()),
                machine: Some(self.machine.clone()),
                benches: Some(selected.iter().map(|b| b.name.clone()).collect()),
                results: std::mem::take(&mut self.documents),
                comparison: comparison.map(|(doc, _)| doc),
                groups: Some(self.groups.docs()),
            };
            let bytes = serde_json::to_vec_pretty(&run).expect("documents serialise");
            if let Err(e) =
                crate::files::write_output(Path::new(path), &bytes, crate::files::Existing::Replace)
            {
                eprintln!("error: failed to write `{path}`: {e}");
                return ExitCode::FAILURE;
            }
        }
        if self.failed > 0 {
            ExitCode::FAILURE
        } else if regressed {
            ExitCode::from(EXIT_REGRESSION)
        } else {
            ExitCode::SUCCESS
        }
    }

    /// Compares this run's results with the baseline's and prints the table; returns the
    /// comparison document and whether anything regressed.
    fn compare(&self, base: &[store::SavedResult], selected: &[&Bench]) -> (CompareDoc, bool) {
        let options = crate::compare::CompareOptions {
            alpha: self.args.alpha.unwrap_or(0.01),
            noise: self.args.noise.unwrap_or(0.01),
            confidence: None,
        };
        // Benches left out by the filters are not "missing".
        compare_with_baseline(
            (&self.root, &self.target),
            &self.documents,
            base,
            &|name| selected.iter().any(|b| b.name == name),
            &options,
            self.args.baseline.as_deref().unwrap_or(""),
        )
    }
}

pub(crate) fn print_outcome(name: &str, s: &SessionResult) {
    let name = crate::fmt::terminal(name);
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
    if let Some(o) = &s.overhead {
        let share = s
            .estimate
            .as_ref()
            .filter(|e| e.mean > 0.0)
            .map(|e| format!(", {:.2}% of a unit", 100.0 * o.per_unit_ns / e.mean))
            .unwrap_or_default();
        println!(
            "  recording overhead: {} per unit ({} to {}, {} pairs of rounds on/off){share}",
            format_ns(o.per_unit_ns),
            format_ns(o.low),
            format_ns(o.high),
            o.pairs
        );
    }
    for w in &s.warnings {
        println!("  warning: {}", crate::fmt::terminal(w));
    }
}

/// The table row of a session: bench `name`, its time `per` unit or iteration, its throughput
/// in what `rate` counts.
pub(crate) fn row(name: &str, per: TimePer, rate: Option<&result::Rate>, s: &SessionResult) -> Row {
    let (time, throughput, samples, q) = match &s.estimate {
        Some(e) => {
            let time = format_estimate(e.mean, e.ci.low, e.ci.high);
            let throughput = match rate.map(|r| (r, r.bounds(e.mean, e.ci.low, e.ci.high).0)) {
                Some((r, Some(t))) => format_throughput(t, &r.unit),
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
        per,
        throughput,
        samples,
        subsession: q,
        warm_up: s.warm_up.map_or("-", |w| w.as_str()).to_string(),
        cut: format_count(s.removed),
        outliers: s.outliers.map_or("-".into(), |o| {
            format!("{}/{}", format_count(o.z), format_count(o.mad))
        }),
        rounds: s.rounds.len().to_string(),
        processes: s.process_means.len().max(1).to_string(),
        wall: format!("{:.1} s", s.elapsed.as_secs_f64()),
        status,
    }
}
