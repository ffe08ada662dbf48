//! Benchmark mode: an adaptive session per bench, results saved, a table at the end.
//!
//! [`results`] reads the baseline and saves each result, [`outcome`] shows each bench's, and
//! [`finish`] ends the run.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;

use super::config::session_config;
use super::counting::{Valgrind, count_for_run, sizing_ns};
use super::interrupt;
use super::machine_speed::MachineSpeed;
use super::processes::{measure_in_processes, measure_interleaved};
use super::registry::Bench;
use super::resume::RunLog;
use super::workload::{Closure, SessionChecks, form, measure};
use super::{group, now, threads};
use crate::cli::Args;
use crate::record::ClockInfo;
use crate::report::{Row, TimePer};
use crate::session::process_estimate::{AUTO_LEAST_PROCESSES, auto_processes};
use crate::session::{SessionConfig, SessionResult, Status};
use crate::store::result;
use pilot_format::{CheckDoc, MachineDoc, ResultDoc};

mod already_explained;
mod finish;
mod outcome;
mod results;
mod start;

pub use outcome::{LineStyle, line, print_outcome, row};
pub use results::{Saved, compare_with_baseline, load_baseline, save_result};
pub(super) use start::Announce;

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
    /// Process executions asked for (`--processes`, or the baselines' default); `None` lets
    /// each bench's time cap decide (see [`Run::bench`]).
    processes: Option<usize>,
    rows: Vec<Row>,
    documents: Vec<ResultDoc>,
    confidence: f64,
    /// Benches that failed (or whose result could not be saved).
    pub(crate) failed: usize,
    /// The checks of the run's set-up, written into every result.
    start_checks: Vec<CheckDoc>,
    /// How each bench's line is shown.
    style: LineStyle,
    /// Each measured bench's context, for the checks summary's advice.
    contexts: std::collections::HashMap<String, crate::checks::advice::Context>,
    /// Valgrind, found at the start, when the run counts instructions (`--instructions`).
    valgrind: Option<Valgrind>,
}

/// Most columns a bench's name is padded to on its line (a longer name pushes its line right).
const NAME_WIDTH: usize = 40;

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
    // then leaves its single-thread fast path for every allocation): registrations with
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

impl Run<'_> {
    /// Measures bench `b` (or takes its result from the interrupted run being resumed), saves
    /// its result and shows it. Breaks when the run was interrupted: nothing of `b` is saved,
    /// and the run's progress says it is still to do.
    ///
    /// `closure` is the micro-form body of a bench announced at run time (it replaces the
    /// registered function).
    pub(super) fn bench(&mut self, b: &Bench, closure: Option<Closure<'_>>) -> ControlFlow<()> {
        // The benches finished before this one are on disk before it is measured.
        self.log.flush();
        let config = self.config(b);
        if self.resumed(b, &config) {
            return ControlFlow::Continue(());
        }
        let started = now();
        // Processes are a level of variation by default (Kalibera & Jones): code layout moves a
        // small bench between processes, which no interval from one process can see. So a
        // bench whose cap can pay for them runs in up to eight fresh processes (four once they
        // agree and meet the target; three for a cap under 2 s), more as their spread asks;
        // `--processes N` asks for at least N, `--processes 1` for this process alone.
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
            // An automatic count may stop at its least once the processes agree; one asked
            // for runs in full.
            n => {
                let least = match self.processes {
                    Some(_) => n,
                    None => AUTO_LEAST_PROCESSES.min(n),
                };
                measure_in_processes(b, &config, (n, least))
            }
        });
        self.record(b, &config, (session, iters), alone, started)
    }

    /// Measures `members`, whose bodies live in their own process's run (announced at run
    /// time), interleaved by processes; ranks the members of each group instance (their
    /// [`Bench::group`]) that has two or more; saves and shows each as [`bench`](Self::bench)
    /// does. Breaks when the run was interrupted.
    pub(super) fn interleaved_group(&mut self, members: &[&Bench]) -> ControlFlow<()> {
        self.log.flush();
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
        let benches: Vec<&Bench> = todo.iter().map(|(b, _)| *b).collect();
        let rule = group::settle_rule(self.args, &benches);
        let settled = rule
            .as_ref()
            .map(|r| r as &dyn Fn(&[super::processes::SoFar<'_>]) -> bool);
        let results = measure_interleaved(&todo, processes, settled);
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

    /// Where bench `b` runs, as its checks' advice depends on it.
    fn context(&self, b: &Bench) -> crate::checks::advice::Context {
        crate::checks::advice::Context {
            grouped: b.group.is_some(),
            threads: b.threads,
            // `--against` runs its benches in child processes, which record nothing here.
            against: false,
            ci: self.machine.ci.is_some(),
        }
    }

    /// The session settings of bench `b`.
    pub(super) fn config(&mut self, b: &Bench) -> SessionConfig {
        let config = session_config(self.args, b.def);
        self.confidence = config.confidence;
        config
    }

    /// Whether the interrupted run being resumed finished bench `b`: its result is then taken
    /// as it is.
    pub(super) fn resumed(&mut self, b: &Bench, config: &SessionConfig) -> bool {
        let Some(doc) = self.log.resumed(b, &self.root, &self.target, config) else {
            return false;
        };
        crate::outln!(
            "{}: finished by the interrupted run, not measured again",
            crate::fmt::terminal(&b.name)
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
        }
        // Where the next run lands is each bench's own, in a group or not: interleaving
        // cancels the machine's drift between members of this run, not between runs.
        let reproducibility = session
            .estimate
            .as_ref()
            .and_then(|e| self.speed.reproducibility(&b.name, e));
        // A readings-only round is timed whole: two clock reads a round, not a unit.
        let readings_only = form(&b.def.body) == pilot_format::Form::ReadingsOnly;
        if let Some(c) = (!readings_only)
            .then(|| {
                crate::checks::clock_overhead(
                    session.estimate.as_ref().map(|e| e.mean),
                    self.clock,
                    iters,
                )
            })
            .flatten()
        {
            session.add_check(c);
        }
        // Advised before the document is made, so that its checks and their warnings say the
        // same.
        let ctx = self.context(b);
        crate::checks::advise(&mut session.checks, &ctx);
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
            reproducibility: reproducibility.as_ref(),
            started,
            finished: now(),
        };
        let mut doc = result::document(&record);
        self.count(b, (&session, iters), config, &mut doc)?;
        doc.checks.splice(0..0, self.start_checks.iter().cloned());
        doc.threads = threads::section(b.threads, &session);
        self.save(&b.name, &doc);
        if matches!(session.status, Status::Failed(_)) {
            self.failed += 1;
        }
        let mut row = threads::row(
            row(
                &b.name,
                TimePer::of_form(form(&b.def.body)),
                b.rate.as_ref(),
                &session,
            ),
            b,
            &session,
        );
        (row.instructions, row.cycles, _) = crate::report::count_cells(&doc);
        row.run_to_run = crate::report::run_to_run_cell(&doc);
        let markers = crate::report::markers(&doc);
        print_outcome(&row, &markers, &session, &doc.warnings, self.style);
        self.contexts.insert(b.name.clone(), ctx);
        self.rows.push(row);
        self.documents.push(doc);
        self.log.done(&b.name);
        ControlFlow::Continue(())
    }

    /// With `--instructions`: counts bench `b`'s instructions per unit under callgrind, after
    /// its measured `session`, into `doc`, with or without an estimate of its time. A bench
    /// that failed is not counted, nor one on several threads (with a warning); a count that
    /// fails fails the bench, its time kept.
    /// Breaks when the run was interrupted.
    fn count(
        &mut self,
        b: &Bench,
        (session, iters): (&SessionResult, Option<u64>),
        config: &SessionConfig,
        doc: &mut ResultDoc,
    ) -> ControlFlow<()> {
        let Some(valgrind) = &self.valgrind else {
            return ControlFlow::Continue(());
        };
        if matches!(session.status, Status::Failed(_)) {
            return ControlFlow::Continue(());
        }
        // A count does not need the time's estimate, only a time per unit to size its rounds
        // by: a bench whose time the machine's noise left unresolved is counted all the same.
        let Some(ns) = session
            .estimate
            .as_ref()
            .map(|e| e.mean)
            .or_else(|| sizing_ns(doc))
        else {
            doc.warnings.push(
                "instructions: not counted: the session timed no round to size the counting \
                 rounds by"
                    .into(),
            );
            return ControlFlow::Continue(());
        };
        if b.threads > 1 {
            doc.warnings.push(threads_not_counted(b.threads));
            return ControlFlow::Continue(());
        }
        let mut progress = crate::report::LiveProgress::start(&b.name);
        progress.message("counting instructions under callgrind…");
        let counted = count_for_run(
            valgrind,
            (&b.name, form(&b.def.body)),
            (ns, iters, config.work_range),
            self.args.cache_sim,
            doc,
            config.confidence,
        );
        progress.finish();
        match counted {
            Ok(true) => ControlFlow::Continue(()),
            Ok(false) => ControlFlow::Break(()),
            Err(msg) => {
                doc.warnings
                    .push(format!("instructions: not counted: {msg}"));
                self.failed += 1;
                ControlFlow::Continue(())
            }
        }
    }

    /// Saves `doc` as bench `name`'s result (see [`save_result`]); a failure fails the bench.
    fn save(&mut self, name: &str, doc: &ResultDoc) {
        self.failed += save_result(
            &self.root,
            &self.target,
            name,
            doc,
            self.args.save_baseline.as_deref(),
        )
        .failed;
    }
}

/// The warning of a bench on `threads` threads under `--instructions`: callgrind serialises
/// threads, so its counts would not be the bench's, and it is not counted.
fn threads_not_counted(threads: usize) -> String {
    format!(
        "instructions: not counted: callgrind runs one thread at a time, and this bench runs \
         on {threads}"
    )
}

#[cfg(test)]
mod tests {
    use super::threads_not_counted;

    #[test]
    fn the_threads_warning_is_one_sentence_with_single_spaces() {
        assert_eq!(
            threads_not_counted(2),
            "instructions: not counted: callgrind runs one thread at a time, and this bench \
             runs on 2"
        );
    }
}
