//! The counting process's side: the bench binary under callgrind runs its one bench's plan
//! (`PILOT_COUNT`) and labels each round's dump; the parent reads the dumps.

use std::path::Path;
use std::process::ExitCode;

use super::message::{CountEnd, CountMessage};
use crate::cli::Args;
use crate::counts::{CountPlan, RoundKind, RoundLabel};
use crate::entry::BenchBody;
use crate::record::callgrind::{dump_stats, dump_stats_at, running_on_valgrind, toggle_collect};
use crate::record::{Bencher, BencherMode, Recorder};
use crate::runner::config::session_config;
use crate::runner::panics::{NEVER_ITERATED, catch};
use crate::runner::registry::Bench;
use crate::runner::workload::Closure;

/// In a process started under callgrind with a plan (`PILOT_CHILD=1 PILOT_COUNT=…`): runs
/// bench `b` (whose micro-form body is `closure` when announced at run time) as the plan says,
/// every round's counts dumped under its [`RoundLabel`]. Exit 0 when every round ran; else the
/// error on standard error and exit 1 (2 when not under Valgrind at all). How it ended is
/// written for the parent to `--json` too, when given ([`CountMessage`]).
pub(in crate::runner) fn count_child(
    args: &Args,
    plan: CountPlan,
    b: &Bench,
    closure: Option<Closure<'_>>,
) -> ExitCode {
    let counted = if running_on_valgrind() {
        count_bench(args, plan, b, closure)
    } else {
        Err(
            "PILOT_COUNT is for a bench binary started under `valgrind --tool=callgrind` \
             (`--instructions` starts it so)"
                .to_string(),
        )
    };
    let (end, code) = match counted {
        Ok(()) => (CountEnd::Counted, ExitCode::SUCCESS),
        Err(msg) => {
            eprintln!("error: {}", crate::fmt::terminal_lines(&msg));
            let code = if running_on_valgrind() { 1 } else { 2 };
            (CountEnd::Failed(msg), ExitCode::from(code))
        }
    };
    if let Some(path) = &args.json
        && let Err(e) = CountMessage::new(end).write(Path::new(path))
    {
        eprintln!(
            "error: failed to write `{}`: {e}",
            crate::fmt::terminal(path)
        );
        return ExitCode::FAILURE;
    }
    code
}

/// Runs `b`'s plan (see [`run_plan`]), or says why it cannot: the bench is broken, or runs on
/// several threads.
fn count_bench(
    args: &Args,
    plan: CountPlan,
    b: &Bench,
    closure: Option<Closure<'_>>,
) -> Result<(), String> {
    match (&b.broken, b.threads) {
        (Some(msg), _) => Err(msg.clone()),
        (None, 1) => {
            let range = session_config(args, b.def).work_range;
            run_plan(b, closure, plan, range)
        }
        (None, n) => Err(format!(
            "instructions are counted on one thread; this bench runs on {n}"
        )),
    }
}

/// The plan's rounds of `b`: a warm-up round ([`warm_up`]), a round of empty units, then the
/// counted rounds, each dumped. The work
/// amounts of the full form and of a readings-only bench stay inside its range `range`.
fn run_plan(
    b: &Bench,
    mut closure: Option<Closure<'_>>,
    plan: CountPlan,
    range: (u64, u64),
) -> Result<(), String> {
    let arg = b.arg;
    let label = |kind, index, units, iterations| {
        let text = RoundLabel {
            kind,
            index,
            units,
            iterations,
        }
        .to_string();
        std::ffi::CString::new(text).expect("a label has no NUL byte")
    };
    match b.def.body {
        BenchBody::Full(f) => {
            let plan = CountPlan {
                work: plan.work.clamp(range.0, range.1),
                ..plan
            };
            let mut warm = Recorder::with_capacity(plan.work);
            warm_up(|| catch(|| f(arg, plan.work, &mut warm)))?;
            let mut empty = Recorder::counting();
            for _ in 0..plan.work {
                empty.unit(|| ());
            }
            dump_stats_at(&label(RoundKind::Empty, 0, empty.counted(), 1));
            for index in 1..=plan.rounds {
                let mut rec = Recorder::counting();
                catch(|| f(arg, plan.work, &mut rec))?;
                if rec.counted() == 0 {
                    return Err("the bench timed no unit (`rec.unit(...)`)".into());
                }
                dump_stats_at(&label(RoundKind::Counted, index, rec.counted(), 1));
            }
        }
        BenchBody::Micro(f) => {
            let mut call = |bencher: &mut Bencher| match &mut closure {
                Some(c) => catch(|| c(bencher)),
                None => catch(|| f(arg, bencher)),
            };
            let mut warm = Bencher::new(BencherMode::Measure {
                work: plan.work,
                iters: plan.iters,
            });
            warm_up(|| call(&mut warm))?;
            if !warm.was_called() {
                return Err(NEVER_ITERATED.into());
            }
            for _ in 0..plan.work {
                toggle_collect();
                toggle_collect();
            }
            dump_stats_at(&label(RoundKind::Empty, 0, plan.work, 1));
            for index in 1..=plan.rounds {
                // Odd rounds k iterations a unit, even ones 2k: a pair's difference is the
                // extra iterations alone.
                let iters = if index % 2 == 1 {
                    plan.iters
                } else {
                    plan.iters.saturating_mul(2)
                };
                let mut bencher = Bencher::new(BencherMode::Count {
                    work: plan.work,
                    iters,
                });
                call(&mut bencher)?;
                let shape = bencher.unit_shape();
                dump_stats_at(&label(RoundKind::Counted, index, plan.work, shape.iters));
            }
        }
        BenchBody::ReadingsOnly(f) => {
            warm_up(|| catch(|| f(arg, plan.work)))?;
            toggle_collect();
            toggle_collect();
            dump_stats_at(&label(RoundKind::Empty, 0, 1, 1));
            for index in 1..=plan.rounds {
                let work = if index % 2 == 1 {
                    plan.work
                } else {
                    plan.work.saturating_mul(2)
                }
                .clamp(range.0, range.1);
                toggle_collect();
                let ran = catch(|| f(arg, work));
                toggle_collect();
                ran?;
                dump_stats_at(&label(RoundKind::Counted, index, 1, work));
            }
        }
    }
    Ok(())
}

/// Runs `round`, the warm-up, with collection on, then writes its counts to a dump of no
/// label, which the reader skips. The warm-up takes the first round's one-time costs (lazy
/// initialisation, first page faults, buffers growing to size) out of the counts. It is
/// collected and dumped, rather than left uncollected, for the numbers of calls between
/// functions (the allocations by call site): callgrind counts calls whether or not it
/// collects, and sets a call's number to zero only when a dump writes it, which it does only
/// for code that collected some cost (see [`dump_stats`]). Collected, every call the warm-up
/// made is written and zeroed here, so the counted rounds' numbers start from zero, and the
/// reader knows by this first, unlabelled dump that they do.
fn warm_up<T>(round: impl FnOnce() -> T) -> T {
    toggle_collect();
    let out = round();
    toggle_collect();
    dump_stats();
    out
}
