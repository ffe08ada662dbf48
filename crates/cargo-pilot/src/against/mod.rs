//! `cargo pilot bench --against REV`: two builds compared in one job. REV is checked out into
//! a git worktree under `target/pilot/against/` and built into a target directory of its own
//! (both kept, so a second run rebuilds only what changed); the working tree is built as
//! `cargo pilot bench` builds it. Every bench present in both builds is then measured in
//! pairs of processes, one of each build back to back, first one side then the other (ABBA),
//! until the change's verdict is settled or the time cap comes (and the benches the cap stopped
//! then share the time the others left): the machine's state at each moment is in both
//! processes of a pair, and cancels in their ratio
//! ([`pilot_engine::compare::compare_sequential`]).

pub mod builds;
pub mod counts;
pub mod finished;
pub mod git;
mod groups;
pub mod pairs;
pub mod plan;
mod process;
mod report;

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, anyhow};
use pilot_engine::compare::Verdict;
use pilot_format::ResultDoc;

use crate::args::{BenchArgs, Format};
use crate::cargo::{self, BenchExe};
use crate::exit::{self, Failure, comparison_exit};
use crate::interrupt;
use builds::{Builds, prepare};
use finished::{Finished, finish_bench, save_sides};
use plan::Plan;
use report::Saved;

/// A bench of the comparison: where it is in each build.
pub struct Bench<'a> {
    /// The bench target as results name it (`cost`, from `cost-<hash>`).
    pub target: String,
    /// The bench's name.
    pub name: String,
    /// Its executable in the base build, and in the new one.
    pub base: Option<&'a BenchExe>,
    pub head: Option<&'a BenchExe>,
}

/// Where the comparison prints: progress goes to standard error when standard output carries
/// Markdown or JSON, so that the output can be redirected into a comment or a file as is.
pub struct Out {
    /// The format of standard output.
    pub format: Format,
}

impl Out {
    /// Prints a line of progress (or several). It names benches, targets, revisions and
    /// paths: its control characters are shown as escapes, never obeyed by the terminal.
    pub fn say(&self, line: &str) {
        self.say_painted(&pilot_engine::fmt::terminal_lines(line));
    }

    /// Prints `block` as it is: a table or summary that escaped its names itself and may
    /// hold the colours of `--color`.
    pub fn say_painted(&self, block: &str) {
        if self.format == Format::Table {
            pilot_engine::outln!("{block}");
        } else {
            say!("{block}");
        }
    }
}

/// Runs `cargo pilot bench --against REV`: both builds, then the benches in pairs.
pub fn run(args: &BenchArgs, rev: &str) -> Result<ExitCode, Failure> {
    let out = Out {
        format: args.format,
    };
    // From here on Ctrl-C reaches git and cargo too (from the terminal, or passed on): a step
    // it stops is reported as interrupted, not as the step's own failure.
    interrupt::install();
    // Before anything is built: counting instructions cannot start without Valgrind.
    let valgrind = args
        .settings
        .on("instructions")
        .then(pilot_engine::runner::counting::Valgrind::find)
        .transpose()
        .map_err(|e| Failure::Error(anyhow!(e)))?;
    let mut step = String::from("starting");
    let builds = prepare(args, rev, &out, &mut step);
    if interrupt::happened() {
        say!(
            "cargo pilot: interrupted while {step}; nothing was measured or saved (the base's \
             checkout and builds are kept for the next run)"
        );
        return Ok(ExitCode::from(exit::Exit::Interrupted));
    }
    compare_builds(args, rev, &builds?, valgrind.as_ref(), &out)
}

/// Measures every bench of both builds in pairs, saves each side's results and reports.
///
/// Two passes: every bench gets its budget, in turn; then the benches whose pairs ran to it
/// (the stop rule did not settle them) share the time the others left unused (each at most
/// one budget more, the suite at most its benches' budgets in all), in turn again. Which
/// benches get more time, and how much, depends on the stop rule, the other benches and how
/// long pairs take, never on the verdict at the budget, so the last look of a bench's
/// sequential test stays where time puts it ([`pairs::Outcome::at_budget`]).
fn compare_builds(
    args: &BenchArgs,
    rev: &str,
    builds: &Builds,
    valgrind: Option<&pilot_engine::runner::counting::Valgrind>,
    out: &Out,
) -> Result<ExitCode, Failure> {
    let (target_dir, short) = (&builds.target_dir, builds.short.as_str());
    let benches = match_benches(args, &builds.base_exes, &builds.head_exes, out)?;
    let plan = plan_for(args, &benches);
    announce(&benches, &plan, target_dir, short, out);
    let mut run = Concluding {
        args,
        plan: &plan,
        options: args.baselines.thresholds.options(),
        machine: pilot_engine::probe::machine(),
        short,
        target_dir,
        valgrind,
        out,
        saved: Saved::default(),
        failed: false,
    };
    let legs = match run.measure_all(&benches) {
        Ok(legs) => legs,
        Err(code) => return Ok(code),
    };
    let finished = match run.conclude_all(legs) {
        Ok(finished) => finished,
        Err(code) => return Ok(code),
    };
    let mut comparisons = Vec::new();
    let mut head_docs: Vec<ResultDoc> = Vec::new();
    let mut base_docs: Vec<ResultDoc> = Vec::new();
    for done in finished {
        head_docs.extend(done.head);
        if let Some(mut base) = done.base {
            // The base's processes ran REV's build: its commit, clean.
            if let Some(m) = base.machine.as_mut() {
                m.git_commit = Some(builds.commit.clone());
                m.git_dirty = Some(false);
            }
            base_docs.push(base);
        }
        comparisons.push(done.comparison);
    }
    let (options, saved, failed) = (run.options, run.saved, run.failed);
    // Each bench's verdict was its own: the suite's rule takes them again over all of them.
    pilot_engine::compare::judge_suite(&mut comparisons, &options);
    report::report(
        args,
        &comparisons,
        (&base_docs, &head_docs),
        (&options, target_dir),
        (rev, short),
        (saved, &plan),
        out,
    )?;
    let ranked = groups::rankings(&builds.head_exes, &head_docs, &options);
    if !ranked.is_empty() {
        out.say_painted(ranked.trim());
    }
    // Both sides into the history: REV's runs at its commit, the working tree's at HEAD
    // (dirty when it is); the results are saved already, whatever the history says.
    let both: Vec<ResultDoc> = base_docs.into_iter().chain(head_docs).collect();
    // No executable's digest: the two sides' executables share their targets' names, and with
    // `--against HEAD` on a clean tree their commit too, so a digest by target would be one
    // side's for both.
    crate::history::append_docs(
        builds.history.as_ref(),
        target_dir,
        (&both, &crate::history::Executables::new()),
        ("bench", None),
        &builds.root,
    )?;
    Ok(comparison_exit(failed, &comparisons))
}

/// A bench of the comparison between the passes.
enum Leg {
    /// Compared, counted and saved.
    Done(Box<finished::Finished>),
    /// Ran to its budget unsettled: waiting for the time the others left.
    Pending(pairs::Outcome),
}

/// What concluding a bench needs, and what the concluded benches came to.
struct Concluding<'a> {
    args: &'a BenchArgs,
    plan: &'a Plan,
    options: pilot_engine::compare::CompareOptions,
    machine: pilot_format::MachineDoc,
    short: &'a str,
    target_dir: &'a Path,
    valgrind: Option<&'a pilot_engine::runner::counting::Valgrind>,
    out: &'a Out,
    saved: Saved,
    failed: bool,
}

impl Concluding<'_> {
    /// Bench `b`'s comparison from its processes, its instructions counted when asked for (and
    /// `count`), both sides saved. `None`: Ctrl-C came while counting.
    fn conclude(&mut self, b: &Bench, outcome: pairs::Outcome, count: bool) -> Option<Finished> {
        let (plan, short) = (self.plan, self.short);
        let mut done = finish_bench(b, outcome, &self.options, plan, &self.machine, short);
        self.failed |= done.comparison.verdict == Verdict::Failed;
        if let (Some(v), true) = (self.valgrind, count) {
            let cache_sim = self.args.settings.on("cache_sim");
            match counts::count_sides(v, b, &mut done, (plan, &self.options, cache_sim), self.out) {
                Ok(true) => {}
                Ok(false) => return None,
                Err(e) => {
                    say!(
                        "error: the instructions of `{}` were not counted: {}",
                        pilot_engine::fmt::terminal(&b.name),
                        pilot_engine::fmt::terminal_lines(&e.to_string())
                    );
                    self.failed = true;
                }
            }
        }
        // Each bench's results are saved as it is concluded: an interrupted run keeps them.
        self.failed |= !save_sides(b, &done, (self.target_dir, short), &mut self.saved);
        Some(done)
    }

    /// Both passes: every bench within its budget, in turn, then
    /// [`second_pass`](Self::second_pass); the benches, concluded or still to conclude.
    /// `Err`: the run ended (Ctrl-C), its exit code.
    fn measure_all<'b>(
        &mut self,
        benches: &'b [Bench<'b>],
    ) -> Result<Vec<(&'b Bench<'b>, Leg)>, ExitCode> {
        let fail_fast = self.args.settings.on("fail_fast");
        let mut legs: Vec<(&Bench, Leg)> = Vec::new();
        let mut spent = std::time::Duration::ZERO;
        for b in benches {
            let outcome = pairs::measure(b, self.plan, self.out);
            spent += outcome.elapsed;
            if interrupt::happened() {
                return Err(self.interrupted(legs, "comparing", b));
            }
            if outcome.at_budget() {
                legs.push((b, Leg::Pending(outcome)));
                continue;
            }
            match self.conclude(b, outcome, true) {
                Some(done) => legs.push((b, Leg::Done(Box::new(done)))),
                None => return Err(self.interrupted(legs, "counting", b)),
            }
            if self.failed && fail_fast {
                return Ok(legs);
            }
        }
        let paired = benches
            .iter()
            .filter(|b| b.base.is_some() && b.head.is_some())
            .count();
        self.second_pass(&mut legs, paired, spent)?;
        Ok(legs)
    }

    /// The benches of `legs` whose pairs ran to their budget get more pairs, in turn, from
    /// what the `paired` benches' budgets left after `spent` ([`plan::Leftover`]).
    fn second_pass(
        &mut self,
        legs: &mut Vec<(&Bench, Leg)>,
        paired: usize,
        spent: std::time::Duration,
    ) -> Result<(), ExitCode> {
        let (plan, out) = (self.plan, self.out);
        let waiting = legs
            .iter()
            .filter(|(_, l)| matches!(l, Leg::Pending(_)))
            .count();
        let mut leftover = plan::Leftover::new(plan.budget, paired, spent, waiting);
        if waiting > 0 && !leftover.left().is_zero() {
            out.say(&format!(
                "\n== {} unsettled at the budget: more pairs in the {:.0} s the others left",
                pilot_engine::fmt::counted(waiting, "bench", "benches"),
                leftover.left().as_secs_f64()
            ));
        }
        for i in 0..legs.len() {
            let (b, Leg::Pending(outcome)) = &mut legs[i] else {
                continue;
            };
            let Some(share) = leftover.next(outcome.pair_time()) else {
                continue;
            };
            let before = outcome.elapsed;
            pairs::extend(b, plan, share, outcome, out);
            leftover.used(outcome.elapsed - before);
            if interrupt::happened() {
                let b = *b;
                return Err(self.interrupted(std::mem::take(legs), "comparing", b));
            }
        }
        Ok(())
    }

    /// Every bench of `legs` concluded, in order. `Err`: Ctrl-C came while counting.
    fn conclude_all(&mut self, legs: Vec<(&Bench, Leg)>) -> Result<Vec<Finished>, ExitCode> {
        let mut finished = Vec::with_capacity(legs.len());
        let mut rest = legs.into_iter();
        while let Some((b, leg)) = rest.next() {
            match leg {
                Leg::Done(done) => finished.push(*done),
                Leg::Pending(outcome) => match self.conclude(b, outcome, true) {
                    Some(done) => finished.push(done),
                    None => return Err(self.interrupted(rest.collect(), "counting", b)),
                },
            }
        }
        Ok(finished)
    }

    /// After Ctrl-C while `doing` bench `b`: the benches still waiting for more pairs are
    /// saved with the pairs they have (not counted), and the run ends interrupted.
    fn interrupted(&mut self, legs: Vec<(&Bench, Leg)>, doing: &str, b: &Bench) -> ExitCode {
        for (waiting, leg) in legs {
            if let Leg::Pending(outcome) = leg {
                self.conclude(waiting, outcome, false);
            }
        }
        say!(
            "cargo pilot: interrupted while {doing} `{}`; every bench compared before it \
             is saved (latest results, and baseline `{}` for the base)",
            pilot_engine::fmt::terminal(&b.name),
            self.short
        );
        ExitCode::from(exit::Exit::Interrupted)
    }
}

/// The plan of `args` for `benches`: a suite's rule adjusts over the benches both builds have.
fn plan_for(args: &BenchArgs, benches: &[Bench]) -> Plan {
    let mut plan = Plan::from_args(args);
    if plan.options.rule != pilot_engine::compare::SuiteRule::PerBench {
        plan.family = benches
            .iter()
            .filter(|b| b.base.is_some() && b.head.is_some())
            .count()
            .max(1);
    }
    plan
}

/// Says what is about to be measured, and that a baseline of REV's name is replaced.
fn announce(benches: &[Bench], plan: &Plan, target_dir: &Path, short: &str, out: &Out) {
    out.say(&format!(
        "\n== {}: {} in both builds, measured in pairs of processes (at least {}, \
         up to {} s a bench, then the time the settled ones left for those still pairing), \
         {short} against the working tree",
        pilot_engine::fmt::counted(benches.len(), "bench", "benches"),
        benches
            .iter()
            .filter(|b| b.base.is_some() && b.head.is_some())
            .count(),
        plan.least,
        // Whole seconds, but a cap under a second is not shown as 0.
        (plan.budget.as_secs_f64() * 10.0).round() / 10.0
    ));
    if pilot_engine::store::baselines_dir(target_dir)
        .join(short)
        .is_dir()
    {
        out.say(&format!(
            "baseline `{short}` exists: the results of these benches replace its own"
        ));
    }
}

/// The benches selected in each build, matched by target and name, sorted.
fn match_benches<'a>(
    args: &BenchArgs,
    base: &'a [BenchExe],
    head: &'a [BenchExe],
    out: &Out,
) -> Result<Vec<Bench<'a>>, Failure> {
    let mut found: Vec<Bench<'a>> = Vec::new();
    for (side, exes) in [("base", base), ("working tree", head)] {
        for exe in exes {
            if !cargo::is_pilot(&exe.path) {
                out.say(&format!(
                    "cargo pilot: bench target `{}` of `{}` in the {side} is not a pilot bench \
                     binary: its benches are left out of that side",
                    exe.target, exe.package
                ));
                continue;
            }
            let target = pilot_engine::store::bench_target_of(&exe.path);
            let names = cargo::list_selected(exe, &args.filters, args.exact, &args.skip, &[])
                .with_context(|| format!("failed to list the benches of the {side}"))?;
            for name in names {
                let at = found
                    .iter()
                    .position(|b| b.target == target && b.name == name);
                let b = match at {
                    Some(i) => &mut found[i],
                    None => {
                        found.push(Bench {
                            target: target.clone(),
                            name,
                            base: None,
                            head: None,
                        });
                        found.last_mut().expect("just pushed")
                    }
                };
                if side == "base" {
                    b.base = Some(exe);
                } else {
                    b.head = Some(exe);
                }
            }
        }
    }
    found.sort_by(|a, b| (&a.target, &a.name).cmp(&(&b.target, &b.name)));
    if found.is_empty() {
        return Err(Failure::Error(anyhow!(
            "no pilot bench matches in either build"
        )));
    }
    Ok(found)
}
