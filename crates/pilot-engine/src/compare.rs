//! Comparing results with a baseline: did a bench get slower, faster, or neither?
//!
//! A change is judged by Welch's unequal-variance t-test between the two results' means (Pilot
//! paper §III-F), using the statistics saved in each result document, and reported as a
//! relative change with Fieller's confidence interval. A verdict needs both: significance
//! (`p < alpha`, default 0.01) **and** a change beyond the noise threshold (default 1%).
//!
//! # Which variance
//! Repeated runs of unchanged code differ by more than one process's interval says: what a
//! process starts with (memory layout, where its pages land, the machine's state) stays fixed
//! within it and changes between processes (Kalibera & Jones, "Rigorous benchmarking in
//! reasonable time", 2013). So the comparison uses, for each side, the variance of its mean
//! estimate that the result itself stands for:
//!
//! - **several process executions** (`--processes N`, the default when saving or comparing
//!   baselines): the variance between the processes' estimates, which includes run-to-run
//!   variation. This is the sound case.
//! - **one process on one side, several on the other**: the single process is one draw from
//!   the distribution of process estimates, so it is given the other side's between-process
//!   variance on top of its own.
//! - **one process on both sides**: only the within-process variance (subsession analysis,
//!   widened by the variation between rounds) is known. Within a run (a group's members,
//!   interleaved) that is the variance that matters; across runs it leaves the machine's
//!   run-to-run variation unseen, so the verdict is `undecided` until a side has learnt it
//!   ([`compare_pair`]), and [`Comparison::method`] says so.
//!
//! The degrees of freedom come from the Welch–Satterthwaite formula over every variance
//! component.
//!
//! [`estimates`] compares two saved estimates, [`paired`] two builds over pairs of processes,
//! [`counts`] the counts per unit (allocations) both results have.
//!
//! # A suite
//! A run compares many benches, and each test at `alpha` adds its own chance of a false
//! alarm. [`judge_suite`] adjusts every bench's p for the number tested (Holm's rule by
//! default, `--correction`) and takes the verdicts again on the adjusted p, so that a run of
//! unchanged code fails (exit code 3) with probability at most `alpha`. [`compare`] (and so
//! `against_baseline` and [`against_latest`]) returns the suite's verdicts; a caller that
//! assembles comparisons itself (`--against`) calls [`judge_suite`] on them all.
//!
//! # Counts
//! A result's `allocations` and `allocated_bytes` are compared with the same test, on their
//! means and intervals: exact counts (every unit allocated the same) make any change beyond
//! the noise threshold a verdict, since their intervals have no width. A regression of a count
//! is a regression of the bench ([`any_regressed`], exit code 3), as it is for time.

use crate::store::{SavedEstimate, SavedResult};

mod across_runs;
mod allocations;
mod counts;
mod estimates;
mod paired;
mod suite;

use across_runs::{UNSEEN_ACROSS_RUNS, is_program, run_to_run_unseen};
pub use allocations::compare_allocations;
pub use counts::{CountComparison, compare_counts};
pub(crate) use counts::{INSTRUCTIONS_NOISE, WhatChanged, what_changed};
pub use estimates::compare_estimates;
use estimates::{Readings, compare_sides};
pub use paired::{compare_paired, compare_sequential};
pub(crate) use suite::tested_count;
pub use suite::{SuiteRule, judge_suite};

/// Process executions per bench when a run saves or compares with a baseline and
/// `--processes` is not given, whatever the cap: a comparison must see the run-to-run
/// variation that one process cannot (see the module docs), and eight let the processes of a
/// minority layout be left out of each side (the default count of a bench capped at 2 s or
/// more).
pub(crate) const BASELINE_PROCESSES: usize = pilot_settings::PROCESSES.baseline;

/// The thresholds of a comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CompareOptions {
    /// Significance level: a change needs `p < alpha`. Default 0.01.
    pub alpha: f64,
    /// Noise threshold: a change needs `|change| > noise` (relative). Default 0.01.
    pub noise: f64,
    /// Confidence level of the change's interval; `None` takes the new result's.
    pub confidence: Option<f64>,
    /// Noise threshold of instruction counts (relative). Default [`INSTRUCTIONS_NOISE`].
    pub instructions_noise: f64,
    /// How the suite's p-values are adjusted for the number of benches tested
    /// ([`judge_suite`]). Default Holm's.
    pub rule: SuiteRule,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            alpha: 0.01,
            noise: 0.01,
            confidence: None,
            instructions_noise: INSTRUCTIONS_NOISE,
            rule: SuiteRule::default(),
        }
    }
}

/// What a comparison concluded about one bench.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Significantly faster, by more than the noise threshold.
    Improved,
    /// Significantly slower, by more than the noise threshold.
    Regressed,
    /// Significantly slower or faster, by more than the noise threshold, while the
    /// instruction counts of both sides agree (within their own threshold): the machine, or
    /// where the code landed in memory, moved the time, not more work. Not a regression of
    /// the code (exit code 0); the change's sign says which way.
    Environment,
    /// The change is within the noise threshold: its interval lies inside ± noise, or it is
    /// significant but smaller than the threshold.
    NoChange,
    /// Neither: the data cannot tell (the interval reaches past the threshold, p ≥ alpha).
    Undecided,
    /// The bench has no result in the baseline (added, or renamed).
    New,
    /// The baseline has a bench the new results lack (removed, renamed, or not run).
    Missing,
    /// One side has no estimate (the bench failed or never settled).
    Failed,
}

impl Verdict {
    /// The verdict as written in tables and JSON: `improved`, `regressed`, `environment`,
    /// `no change`, `undecided`, `new`, `missing`, `failed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Improved => "improved",
            Verdict::Regressed => "regressed",
            Verdict::Environment => "environment",
            Verdict::NoChange => "no change",
            Verdict::Undecided => "undecided",
            Verdict::New => "new",
            Verdict::Missing => "missing",
            Verdict::Failed => "failed",
        }
    }
}

/// One bench's comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// Bench name.
    pub name: String,
    /// Bench target (binary); empty when the results do not say.
    pub target: String,
    /// The baseline's time per unit (ns), when it has one.
    pub base: Option<SavedEstimate>,
    /// The new time per unit (ns), when there is one.
    pub new: Option<SavedEstimate>,
    /// Relative change of the mean, `new / base − 1`: +0.05 is 5% slower.
    pub change: Option<f64>,
    /// Confidence interval of the relative change (Fieller); `None` when unbounded.
    pub change_ci: Option<(f64, f64)>,
    /// Confidence level of `change_ci`.
    pub confidence: f64,
    /// Two-sided p-value of "equal means", this bench's alone.
    pub p: Option<f64>,
    /// `p` adjusted for the suite's benches by [`CompareOptions::rule`] ([`judge_suite`]): the
    /// p the verdict was taken on. `None` before the suite was judged, or where no test was
    /// made.
    pub p_adjusted: Option<f64>,
    /// The conclusion.
    pub verdict: Verdict,
    /// How the verdict was reached, in words: the test and the samples it compared.
    pub method: String,
    /// The pairs of processes the change came from, when the two sides were measured
    /// interleaved (`cargo pilot bench --against`); `None` for a comparison of saved results.
    pub pairs: Option<usize>,
    /// Why the verdict is `undecided` though `method` gave an answer: too few pairs of
    /// processes finished in the time given for the verdict to be taken (`--against`).
    pub reason: Option<String>,
    /// The counts per unit both sides have (allocations, allocated bytes), each compared with
    /// its own verdict; empty when they have none.
    pub pis: Vec<PiChange>,
    /// The instruction counts compared, when both sides were counted (`--instructions`).
    pub instructions: Option<CountComparison>,
}

/// A performance index other than time compared between two results: a count per unit.
#[derive(Debug, Clone, PartialEq)]
pub struct PiChange {
    /// The PI's name (`allocations`, `allocated_bytes`).
    pub(crate) name: String,
    /// Its unit (`allocs`, `B`).
    pub(crate) unit: String,
    /// The baseline's `(mean, low, high)`.
    pub(crate) base: (f64, f64, f64),
    /// The new `(mean, low, high)`.
    pub(crate) new: (f64, f64, f64),
    /// Relative change of the mean, `new / base − 1`; `None` from a base of 0.
    pub(crate) change: Option<f64>,
    /// Its interval (Fieller); `None` when unbounded or from a base of 0.
    pub(crate) change_ci: Option<(f64, f64)>,
    /// Two-sided p of "equal means"; `None` where no test was made.
    pub(crate) p: Option<f64>,
    /// The conclusion.
    pub(crate) verdict: Verdict,
    /// How it was reached.
    pub(crate) method: String,
}

/// What comparing two estimates of one bench found.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// Relative change of the mean, `new / base − 1`: +0.05 is 5% slower.
    pub change: f64,
    /// Confidence interval of the relative change (Fieller); `None` when unbounded.
    pub change_ci: Option<(f64, f64)>,
    /// Two-sided p-value of "equal means" (Welch's t-test).
    pub p: f64,
    /// The conclusion.
    pub verdict: Verdict,
    /// How it was reached: the test and the samples it compared.
    pub method: String,
}

/// Compares every bench of `new` with the same bench in `base`, matched by (target, name), or
/// by name alone when one side does not record its target. Benches on one side only are
/// [`Verdict::New`] or [`Verdict::Missing`]; a side without an estimate is
/// [`Verdict::Failed`]. Sorted by (target, name); the verdicts are the suite's
/// ([`judge_suite`]).
pub fn compare(
    base: &[SavedResult],
    new: &[SavedResult],
    options: &CompareOptions,
) -> Vec<Comparison> {
    let same = |a: &SavedResult, b: &SavedResult| {
        a.name == b.name && (a.target == b.target || a.target.is_empty() || b.target.is_empty())
    };
    let mut out: Vec<Comparison> = Vec::new();
    for n in new {
        let b = base.iter().find(|b| same(b, n));
        out.push(compare_pair(b, Some(n), options));
    }
    for b in base {
        if !new.iter().any(|n| same(b, n)) {
            out.push(compare_pair(Some(b), None, options));
        }
    }
    out.sort_by(|a, b| (&a.target, &a.name).cmp(&(&b.target, &b.name)));
    judge_suite(&mut out, options);
    out
}

/// Compares a run's results with a baseline's, as a bench binary and `cargo pilot bench` both
/// do at the end of a run: only the baseline's benches the run `selected` (by its filters,
/// `--skip`, ignored benches) take part, so a bench left out is not [`Verdict::Missing`].
pub(crate) fn against_baseline(
    base: &[SavedResult],
    new: &[SavedResult],
    selected: impl Fn(&SavedResult) -> bool,
    options: &CompareOptions,
) -> Vec<Comparison> {
    let base: Vec<SavedResult> = base.iter().filter(|r| selected(r)).cloned().collect();
    compare(&base, new, options)
}

/// What [`against_latest`] left out of a comparison, so that it can be said once under it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LeftOut {
    /// Benches whose latest result is the one the baseline holds, as `target/name`: not
    /// measured since the baseline was saved, so there is nothing to compare.
    pub not_rerun: Vec<String>,
    /// Targets with latest results that the baseline has no result of: their benches were
    /// never in the baseline, and are not "new" to it.
    pub other_targets: Vec<String>,
}

/// Compares the latest results (`target/pilot/results`, every bench's last measurement, from
/// whichever run made it) with a baseline, as `cargo pilot compare BASE` does. The latest
/// results hold every target ever run, and the baseline only what the run that saved it ran,
/// so only the targets the baseline holds take part: a bench of another target is left out,
/// not [`Verdict::New`] (within a target the baseline holds, a bench it lacks is new). A latest
/// result that is the baseline's own (the same document: not measured since the baseline was
/// saved) is left out too, as comparing a measurement with itself says nothing. A baseline
/// whose results do not record their targets is compared with every latest result.
pub fn against_latest(
    base: &[SavedResult],
    latest: &[SavedResult],
    options: &CompareOptions,
) -> (Vec<Comparison>, LeftOut) {
    let mut left_out = LeftOut::default();
    let targets: Option<Vec<&str>> = base
        .iter()
        .map(|b| (!b.target.is_empty()).then_some(b.target.as_str()))
        .collect();
    let same_document = |b: &SavedResult, n: &SavedResult| {
        SavedResult {
            path: n.path.clone(),
            ..b.clone()
        } == *n
    };
    let mut unchanged: Vec<&SavedResult> = Vec::new();
    let mut new: Vec<SavedResult> = Vec::new();
    for n in latest {
        let in_baseline = targets
            .as_ref()
            .is_none_or(|t| n.target.is_empty() || t.contains(&n.target.as_str()));
        if !in_baseline {
            if !left_out.other_targets.contains(&n.target) {
                left_out.other_targets.push(n.target.clone());
            }
        } else if let Some(b) = base.iter().find(|b| same_document(b, n)) {
            unchanged.push(b);
            left_out.not_rerun.push(if n.target.is_empty() {
                n.name.clone()
            } else {
                format!("{}/{}", n.target, n.name)
            });
        } else {
            new.push(n.clone());
        }
    }
    let base: Vec<SavedResult> = base
        .iter()
        .filter(|b| !unchanged.iter().any(|u| std::ptr::eq(*u, *b)))
        .cloned()
        .collect();
    left_out.other_targets.sort();
    left_out.not_rerun.sort();
    (compare(&base, &new, options), left_out)
}

/// Warnings for two sides measured on different machines or toolchains: a different CPU
/// model, core count or compiler (`rustc -V`), each named with its two values; or with
/// different timers (`--timer`). A change between such sides may be the machine's, the
/// compiler's or the clock's, not the code's. Results whose documents do not record a field
/// are not compared on it.
pub fn machine_mismatch(base: &[SavedResult], new: &[SavedResult]) -> Vec<String> {
    let mut out = Vec::new();
    let timer = |side: &[SavedResult]| side.first().map(|r| r.timer.clone());
    if let (Some(x), Some(y)) = (timer(base), timer(new))
        && x != y
    {
        out.push(format!(
            "the two sides were timed with different timers (`{x}` and `{y}`): a reading \
                 holds part of its clock's own cost, so a full-form bench with short units \
                 differs by the difference of the two clocks' costs"
        ));
    }
    let first = |side: &[SavedResult]| side.iter().find_map(|r| r.machine.clone());
    let (Some(a), Some(b)) = (first(base), first(new)) else {
        return out;
    };
    let mut differ = |what: &str, x: Option<String>, y: Option<String>, meaning: &str| {
        if let (Some(x), Some(y)) = (x, y)
            && x != y
        {
            out.push(format!(
                "the two sides were measured with different {what} (`{x}` and `{y}`): {meaning}"
            ));
        }
    };
    differ(
        "CPUs",
        a.cpu.clone(),
        b.cpu.clone(),
        "a change may be the machine's, not the code's",
    );
    differ(
        "core counts",
        a.cores.map(|c| c.to_string()),
        b.cores.map(|c| c.to_string()),
        "a change may be the machine's, not the code's",
    );
    differ(
        "compilers",
        a.rustc.clone(),
        b.rustc.clone(),
        "a change may be the compiler's, not the code's",
    );
    out
}

/// Whether any bench regressed, in time or in a count (the CI verdict: exit code 3).
pub fn any_regressed(comparisons: &[Comparison]) -> bool {
    comparisons.iter().any(|c| {
        c.verdict == Verdict::Regressed
            || c.pis.iter().any(|p| p.verdict == Verdict::Regressed)
            || c.instructions
                .as_ref()
                .is_some_and(|i| i.change.verdict == Verdict::Regressed)
    })
}

/// Compares one bench's two results, either of which may be absent: its own verdict, before
/// any suite's rule ([`judge_suite`]). Across runs, a verdict needs evidence of the machine's
/// run-to-run variation on one side at least (several processes, or the variation learnt):
/// without it, it is `undecided` ([`run_to_run_unseen`]); the instruction counts can still
/// say the code's work did not change ([`judge_suite`]'s `environment`).
pub fn compare_pair(
    base: Option<&SavedResult>,
    new: Option<&SavedResult>,
    options: &CompareOptions,
) -> Comparison {
    let named = new.or(base).expect("one side is present");
    let confidence = options
        .confidence
        .or_else(|| new.and_then(|n| n.time.as_ref()).map(|t| t.confidence))
        .unwrap_or(0.95);
    let mut c = Comparison {
        name: named.name.clone(),
        target: named.target.clone(),
        base: base.and_then(|b| b.time.clone()),
        new: new.and_then(|n| n.time.clone()),
        change: None,
        change_ci: None,
        confidence,
        p: None,
        p_adjusted: None,
        verdict: Verdict::Failed,
        method: String::new(),
        pairs: None,
        reason: None,
        pis: Vec::new(),
        instructions: None,
    };
    if let (Some(b), Some(n)) = (base, new) {
        c.pis = allocations::compare_allocations(b, n, options);
    }
    if let (Some(b), Some(n)) = (
        base.and_then(|b| b.instructions.as_ref()),
        new.and_then(|n| n.instructions.as_ref()),
    ) {
        c.instructions = compare_counts(&b.process_means, &n.process_means, confidence, options);
    }
    match (base, new) {
        (None, _) => {
            c.verdict = Verdict::New;
            c.method = "no result in the baseline".into();
        }
        (_, None) => {
            c.verdict = Verdict::Missing;
            c.method = "in the baseline, not in the new results".into();
        }
        (Some(b), Some(n)) => match (&b.time, &n.time) {
            (Some(bt), Some(nt)) => {
                let readings = if is_program(b) && is_program(n) {
                    Readings::EachAProcess
                } else {
                    Readings::OfOneProcess
                };
                let found = compare_sides(
                    bt,
                    nt,
                    &CompareOptions {
                        confidence: Some(confidence),
                        ..*options
                    },
                    readings,
                );
                c.change = Some(found.change);
                c.change_ci = found.change_ci;
                c.p = Some(found.p);
                c.verdict = found.verdict;
                c.method = found.method;
                if run_to_run_unseen((b, bt), (n, nt)) && c.verdict != Verdict::Undecided {
                    c.verdict = Verdict::Undecided;
                    c.method.push_str(UNSEEN_ACROSS_RUNS);
                }
            }
            (bt, _) => {
                let side = if bt.is_none() { b } else { n };
                c.method = format!(
                    "no estimate in `{}` (status {})",
                    side.path.display(),
                    side.status
                );
            }
        },
    }
    c
}

#[cfg(test)]
mod tests;
