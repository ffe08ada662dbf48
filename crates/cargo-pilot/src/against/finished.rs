//! One bench's end: the comparison row from its processes, each side's result document, and
//! both saved as the bench finishes (so an interrupted run keeps them).

use std::path::Path;

use pilot_engine::compare::{CompareOptions, Comparison, Verdict};
use pilot_engine::runner::ChildReport;
use pilot_format::{MachineDoc, ResultDoc};

use super::Bench;
use super::pairs::Outcome;
use super::plan::Plan;
use super::report::Saved;

/// What comparing one bench gave.
pub struct Finished {
    /// The bench's row of the comparison.
    pub comparison: Comparison,
    /// The working tree's result over its processes, saved as the latest result.
    pub head: Option<ResultDoc>,
    /// The base's, saved into the baseline named after its commit.
    pub base: Option<ResultDoc>,
}

/// The comparison row of bench `b` from its processes, and each side's result document.
pub fn finish_bench(
    b: &Bench,
    outcome: Outcome,
    options: &CompareOptions,
    plan: &Plan,
    machine: &MachineDoc,
    short: &str,
) -> Finished {
    let head_doc = combine_side(b, &outcome, &outcome.head, plan, machine);
    let base_doc = combine_side(b, &outcome, &outcome.base, plan, machine);
    let estimate = |doc: &Option<ResultDoc>, at: &Path| {
        doc.as_ref()
            .and_then(|d| pilot_engine::store::from_document(d, at).ok())
            .and_then(|r| r.time)
    };
    let saved = |doc: &Option<ResultDoc>, at: &Path| {
        doc.as_ref()
            .and_then(|d| pilot_engine::store::from_document(d, at).ok())
    };
    let base_path = format!("{short}/{}", b.name);
    // Counts per unit (allocations) do not move with the machine: the combined sides' are
    // compared as saved results are.
    let pis = match (
        saved(&base_doc, Path::new(&base_path)),
        saved(&head_doc, Path::new(&b.name)),
    ) {
        (Some(base), Some(head)) => {
            pilot_engine::compare::compare_allocations(&base, &head, options)
        }
        _ => Vec::new(),
    };
    let mut c = Comparison {
        name: b.name.clone(),
        target: b.target.clone(),
        base: estimate(&base_doc, Path::new(&base_path)),
        new: estimate(&head_doc, Path::new(&b.name)),
        change: None,
        change_ci: None,
        confidence: plan.confidence,
        p: None,
        p_adjusted: None,
        verdict: Verdict::Failed,
        method: String::new(),
        pairs: None,
        reason: None,
        pis,
        instructions: None,
    };
    if let Some(failure) = &outcome.failure {
        c.method = failure.clone();
    } else if b.base.is_none() {
        c.verdict = Verdict::New;
        c.method = "not in the base revision".into();
    } else if b.head.is_none() {
        c.verdict = Verdict::Missing;
        c.method = "in the base revision, not in the working tree".into();
    } else {
        judge_pairs(&mut c, &outcome, options, plan);
    }
    Finished {
        comparison: c,
        head: head_doc,
        base: base_doc,
    }
}

/// One side's result over its processes `side` (at least two), as a result document of bench
/// `b`.
fn combine_side(
    b: &Bench,
    outcome: &Outcome,
    side: &[ChildReport],
    plan: &Plan,
    machine: &MachineDoc,
) -> Option<ResultDoc> {
    (side.len() >= 2).then(|| {
        pilot_engine::runner::combine_children(
            &b.name,
            &b.target,
            side,
            plan.target_ci,
            Some(machine),
            outcome.elapsed,
            (outcome.started.clone(), outcome.finished.clone()),
        )
    })
}

/// The change, its interval and its verdict from a bench's pairs of processes, into `c`; no
/// verdict from fewer pairs than the plan's least.
fn judge_pairs(c: &mut Comparison, outcome: &Outcome, options: &CompareOptions, plan: &Plan) {
    let pairs: Vec<(f64, f64)> = outcome
        .base
        .iter()
        .zip(&outcome.head)
        .map(|(b, h)| (b.mean(), h.mean()))
        .collect();
    let found = pilot_engine::compare::compare_sequential(
        &pairs,
        (plan.least, plan.family),
        plan.confidence,
        options,
    )
    .map(|(change, _)| change);
    let too_few = pairs.len() < plan.least;
    match found {
        Some(found) => {
            c.change = Some(found.change);
            c.change_ci = found.change_ci;
            c.p = Some(found.p);
            c.verdict = found.verdict;
            c.method = found.method;
            c.pairs = Some(pairs.len());
        }
        None if too_few => {
            c.pairs = Some(pairs.len());
            c.method = "paired: no interval from fewer than two pairs".into();
        }
        None => {
            let failed = pairs
                .iter()
                .filter(|(b, h)| !(b.is_finite() && *b > 0.0 && h.is_finite() && *h > 0.0))
                .count();
            c.method = format!(
                "the processes' means cannot be compared: {failed} of {} pairs have a process \
                 whose mean is no positive time, more at one end than the trimming cuts",
                pairs.len()
            );
        }
    }
    // Too few pairs for the verdict the book promises: the interval reached is shown,
    // the verdict is not taken from it.
    if too_few {
        c.verdict = Verdict::Undecided;
        c.reason = Some(too_few_pairs(pairs.len(), plan.least));
    }
}

/// Why a bench measured in fewer than `least` pairs has no verdict.
fn too_few_pairs(pairs: usize, least: usize) -> String {
    let only = match pairs {
        0 => "no pair of processes finished".to_string(),
        1 => "only 1 pair".to_string(),
        n => format!("only {n} pairs"),
    };
    format!("{only} in the time given; at least {least} are needed: raise --max-time")
}

/// Writes `doc` to `path` (checked first, written atomically); false after an error, which is
/// printed.
fn save(doc: &ResultDoc, path: &Path) -> bool {
    if let Err(e) = doc.validate() {
        say!(
            "error: the result of `{}` would not read back, so it was not saved (a bug in \
             pilot): {}",
            pilot_engine::fmt::terminal(&doc.name),
            pilot_engine::fmt::terminal_lines(&e)
        );
        return false;
    }
    let bytes = serde_json::to_vec_pretty(doc).expect("documents serialise");
    match pilot_engine::files::write_atomic(path, &bytes) {
        Ok(()) => true,
        Err(e) => {
            say!(
                "error: failed to write `{}`: {e}",
                pilot_engine::fmt::terminal_path(path)
            );
            false
        }
    }
}

/// Saves each side's result of bench `b`: the base's into the baseline named `short` under
/// `target_dir`, the working tree's as the latest result; counted in `saved`. False after an
/// error.
pub fn save_sides(
    b: &Bench,
    done: &Finished,
    (target_dir, short): (&Path, &str),
    saved: &mut Saved,
) -> bool {
    let mut ok = true;
    if let Some(doc) = &done.base {
        let written = save_base(doc, target_dir, short);
        ok &= written;
        saved.base += usize::from(written);
    }
    if let Some(doc) = &done.head {
        let path = pilot_engine::store::latest_path(target_dir, &b.target, &b.name);
        let written = save(doc, &path);
        ok &= written;
        saved.head += usize::from(written);
    }
    ok
}

/// Saves a result of the base into baseline `name` (its commit's short hash); false after
/// an error.
fn save_base(doc: &ResultDoc, target_dir: &Path, name: &str) -> bool {
    save(
        doc,
        &pilot_engine::store::baseline_path(target_dir, name, &doc.target, &doc.name),
    )
}
