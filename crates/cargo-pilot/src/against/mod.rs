//! `cargo pilot bench --against REV`: two builds compared in one job. REV is checked out into
//! a git worktree under `target/pilot/against/` and built into a target directory of its own
//! (both kept, so a second run rebuilds only what changed); the working tree is built as
//! `cargo pilot bench` builds it. Every bench present in both builds is then measured in
//! pairs of processes, one of each build back to back, first one side then the other (ABBA),
//! until the change's verdict is settled or the time cap comes: the machine's state at each
//! moment is in both processes of a pair, and cancels in their ratio
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
use finished::{finish_bench, save_sides};
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
            eprintln!("{block}");
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
        eprintln!(
            "cargo pilot: interrupted while {step}; nothing was measured or saved (the base's \
             checkout and builds are kept for the next run)"
        );
        return Ok(ExitCode::from(exit::Exit::Interrupted));
    }
    compare_builds(args, rev, &builds?, valgrind.as_ref(), &out)
}

/// Measures every bench of both builds in pairs, saves each side's results and reports.
fn compare_builds(
    args: &BenchArgs,
    rev: &str,
    builds: &Builds,
    valgrind: Option<&pilot_engine::runner::counting::Valgrind>,
    out: &Out,
) -> Result<ExitCode, Failure> {
    let options = args.baselines.thresholds.options();
    let (target_dir, short) = (&builds.target_dir, builds.short.as_str());
    let benches = match_benches(args, &builds.base_exes, &builds.head_exes, out)?;
    let plan = plan_for(args, &benches);
    announce(&benches, &plan, target_dir, short, out);
    let machine = pilot_engine::probe::machine();
    let mut comparisons = Vec::new();
    let mut head_docs: Vec<ResultDoc> = Vec::new();
    let mut base_docs: Vec<ResultDoc> = Vec::new();
    let mut saved = Saved::default();
    let mut failed = false;
    for b in &benches {
        let outcome = pairs::measure(b, &plan, out);
        if interrupt::happened() {
            eprintln!(
                "cargo pilot: interrupted while comparing `{}`; every bench compared before it \
                 is saved (latest results, and baseline `{short}` for the base)",
                pilot_engine::fmt::terminal(&b.name)
            );
            return Ok(ExitCode::from(exit::Exit::Interrupted));
        }
        let mut done = finish_bench(b, outcome, &options, &plan, &machine, short);
        failed |= done.comparison.verdict == Verdict::Failed;
        if let Some(v) = valgrind {
            let cache_sim = args.settings.on("cache_sim");
            match counts::count_sides(v, b, &mut done, (&plan, &options, cache_sim), out) {
                Ok(true) => {}
                Ok(false) => {
                    eprintln!(
                        "cargo pilot: interrupted while counting `{}`; every bench compared \
                         before it is saved",
                        pilot_engine::fmt::terminal(&b.name)
                    );
                    return Ok(ExitCode::from(exit::Exit::Interrupted));
                }
                Err(e) => {
                    eprintln!(
                        "error: the instructions of `{}` were not counted: {}",
                        pilot_engine::fmt::terminal(&b.name),
                        pilot_engine::fmt::terminal_lines(&e.to_string())
                    );
                    failed = true;
                }
            }
        }
        // Each bench's results are saved as it finishes: an interrupted run keeps them.
        failed |= !save_sides(b, &done, (target_dir, short), &mut saved);
        head_docs.extend(done.head.clone());
        if let Some(mut base) = done.base.clone() {
            // The base's processes ran REV's build: its commit, clean.
            if let Some(m) = base.machine.as_mut() {
                m.git_commit = Some(builds.commit.clone());
                m.git_dirty = Some(false);
            }
            base_docs.push(base);
        }
        comparisons.push(done.comparison);
        if failed && args.settings.on("fail_fast") {
            break;
        }
    }
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
    crate::history::append_docs(
        builds.history.as_ref(),
        target_dir,
        &both,
        ("bench", None),
        &builds.root,
    )?;
    Ok(comparison_exit(failed, &comparisons))
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
         up to {} s a bench), {short} against the working tree",
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
