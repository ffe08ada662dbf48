//! `--against --instructions`: after a bench's pairs, its instructions counted under callgrind
//! in both builds, processes of the two sides alternating, and compared.

use std::time::Instant;

use pilot_engine::compare::{CompareOptions, compare_counts};
use pilot_engine::counts::{CountPlan, ProcessCounts};
use pilot_engine::runner::counting::{
    COUNT_PROCESSES, CountRequest, Counted, Valgrind, count_process, plan_of,
};
use pilot_format::ResultDoc;

use super::finished::Finished;
use super::plan::Plan;
use super::{Bench, Out};
use crate::interrupt;

/// The plan both builds count bench `b` with, from the time one side measured (the base's
/// when it has one; without an estimate, its longest round: [`plan_of`]): one plan for both,
/// so that their rounds hold the same work.
fn plan_of_sides(done: &Finished) -> Option<CountPlan> {
    plan_of(counted(&done.base).or(counted(&done.head))?, (1, u64::MAX))
}

/// A side's result when it is one to count: measured, and not failed.
fn counted(side: &Option<ResultDoc>) -> Option<&ResultDoc> {
    side.as_ref().filter(|d| d.status != "failed")
}

/// Counts bench `b` in each build it has (its pairs' outcome `done` says which measured), the
/// sides' processes alternating (with callgrind's cache simulation when `cache_sim`), and adds the counts to each side's document and their
/// comparison to the bench's row, with or without an estimate of its time. Errors say which
/// side failed; a side whose bench failed is not counted. `Ok(false)` when Ctrl-C came.
pub fn count_sides(
    valgrind: &Valgrind,
    b: &Bench,
    done: &mut Finished,
    (plan, options, cache_sim): (&Plan, &CompareOptions, bool),
    out: &Out,
) -> Result<bool, String> {
    let Some(count_plan) = plan_of_sides(done) else {
        return Ok(true);
    };
    let sides: Vec<(bool, &crate::cargo::BenchExe)> = [(true, b.base), (false, b.head)]
        .into_iter()
        .filter_map(|(is_base, exe)| {
            let measured = if is_base { &done.base } else { &done.head };
            Some((is_base, exe?)).filter(|_| counted(measured).is_some())
        })
        .collect();
    let start = Instant::now();
    let (mut base, mut head): (Vec<ProcessCounts>, Vec<ProcessCounts>) = (Vec::new(), Vec::new());
    for i in 0..COUNT_PROCESSES {
        // Each side first in turn.
        let mut order = sides.clone();
        if i % 2 == 1 {
            order.reverse();
        }
        for (is_base, exe) in order {
            if interrupt::happened() {
                return Ok(false);
            }
            let req = CountRequest {
                exe: &exe.path,
                name: &b.name,
                plan: count_plan,
                cache_sim,
                dir: Some(&exe.package_dir),
            };
            let counted = count_process(valgrind, &req).map_err(|e| {
                let side = if is_base { "base" } else { "working tree" };
                format!("{side}: {e}")
            })?;
            if is_base {
                base.push(counted);
            } else {
                head.push(counted);
            }
        }
    }
    let elapsed = start.elapsed();
    let confidence = plan.confidence;
    let add = |side: Vec<ProcessCounts>, doc: &mut Option<ResultDoc>| {
        let counted = Counted::of(side, &valgrind.version, elapsed, confidence)?;
        if let Some(doc) = doc {
            counted.add_to(doc, confidence);
        }
        Some(counted)
    };
    let base = add(base, &mut done.base);
    let head = add(head, &mut done.head);
    if let (Some(bc), Some(hc)) = (&base, &head) {
        done.comparison.instructions = compare_counts(
            &bc.instructions.process_means,
            &hc.instructions.process_means,
            confidence,
            options,
        );
    }
    out.say(&format!(
        "{}/{}: instructions counted, {} processes a side ({:.1} s)",
        b.target,
        b.name,
        COUNT_PROCESSES,
        elapsed.as_secs_f64()
    ));
    Ok(true)
}
