//! The suite's verdict: each bench's p adjusted for the number of benches the run tested, so
//! that the run as a whole keeps the false-alarm rate `--alpha` states; and a time change the
//! instruction counts do not show named as the environment's.

use super::estimates::verdict_of;
use super::{CompareOptions, Comparison, Verdict};

pub use crate::settings::SuiteRule;

impl SuiteRule {
    /// The adjusted p-values of `ps`, in their order.
    fn adjust(self, ps: &[f64]) -> Vec<f64> {
        match self {
            SuiteRule::Holm => pilot_stats::holm(ps),
            SuiteRule::BenjaminiHochberg => pilot_stats::benjamini_hochberg(ps),
            SuiteRule::PerBench => ps.to_vec(),
        }
    }

    /// The rule in a sentence, for the line under a comparison of `tested` benches at
    /// `alpha`: what a reader may conclude from the verdicts.
    pub(crate) fn describe(self, tested: usize, alpha: f64) -> String {
        let benches = crate::fmt::counted(tested, "bench", "benches");
        match self {
            SuiteRule::Holm => format!(
                "suite: Holm's rule over the {benches} tested (p adj = each p adjusted): a run \
                 of unchanged code flags any bench with probability at most {alpha} \
                 (--correction)"
            ),
            SuiteRule::BenjaminiHochberg => format!(
                "suite: Benjamini–Hochberg's rule over the {benches} tested (p adj = each p \
                 adjusted): of the benches flagged, at most {alpha} are expected to be false \
                 alarms; unchanged code is flagged in at most {alpha} of runs (--correction)"
            ),
            SuiteRule::PerBench => format!(
                "suite: no correction (--correction none): {benches} tested at p < {alpha} \
                 each; if nothing changed, about {:.2} of them would be flagged by chance",
                tested as f64 * alpha
            ),
        }
    }
}

/// Whether a comparison's time was tested: its p-value belongs to the suite's family.
fn tested(c: &Comparison) -> bool {
    c.p.is_some_and(|p| !p.is_nan())
        && matches!(
            c.verdict,
            Verdict::Regressed
                | Verdict::Improved
                | Verdict::Environment
                | Verdict::NoChange
                | Verdict::Undecided
        )
}

/// How many benches of `comparisons` the suite's rule adjusts over: those whose time was
/// tested (compared, with a p-value).
pub(crate) fn tested_count(comparisons: &[Comparison]) -> usize {
    comparisons.iter().filter(|c| tested(c)).count()
}

/// Turns a run's per-bench verdicts into the suite's: every bench whose time was tested gets
/// `p_adjusted` by `options.rule` over all of them, and its verdict is taken again on that p
/// with the same rule ([`verdict_of`]: significant and beyond the noise threshold). Adjusting
/// only raises a p, so a verdict can only weaken: `regressed`/`improved` to `undecided`, a
/// `no change` that rested on significance alone to `undecided`; an `undecided` (of too few
/// pairs, or of a side split into speeds) stays. Then a time that moved (a `regressed` or
/// `improved` verdict, or one a side split into speeds left `undecided`) while the instruction
/// counts say the code's work did not (the counts compared on both sides, within their noise
/// threshold) becomes [`Verdict::Environment`]: the machine, or where the code landed in
/// memory, moved the time, not more work.
///
/// The counts' own verdicts (allocations, instructions) are left per bench: they carry no
/// machine noise, and a change in them is a change of the code.
///
/// Call once, on every comparison of the run. Time: O(m log m).
pub fn judge_suite(comparisons: &mut [Comparison], options: &CompareOptions) {
    let family: Vec<usize> = (0..comparisons.len())
        .filter(|&i| tested(&comparisons[i]))
        .collect();
    let ps: Vec<f64> = family
        .iter()
        .map(|&i| comparisons[i].p.expect("tested"))
        .collect();
    let adjusted = options.rule.adjust(&ps);
    for (&i, adj) in family.iter().zip(adjusted) {
        let c = &mut comparisons[i];
        c.p_adjusted = Some(adj);
        if let (Some(change), Verdict::Regressed | Verdict::Improved | Verdict::NoChange) =
            (c.change, c.verdict)
        {
            c.verdict = verdict_of(change, c.change_ci, adj, options);
        }
    }
    for c in comparisons.iter_mut() {
        let same_code = c
            .instructions
            .as_ref()
            .is_some_and(|i| i.change.verdict == Verdict::NoChange);
        if same_code && time_moved(c, options) {
            c.verdict = Verdict::Environment;
        }
    }
}

/// Whether the time of `c` moved beyond its noise on the suite's p: a `regressed`/`improved`
/// verdict, or an `undecided` that only a side split into speeds made so (no `reason`, and the
/// test itself significant and beyond the threshold). Such a side bounds its code's cost from
/// above only, so the code's cost is not known to have moved; the time measured did, and with
/// the same instructions on both sides it moved with the machine or the layout either way.
fn time_moved(c: &Comparison, options: &CompareOptions) -> bool {
    match (c.verdict, c.change, c.p_adjusted) {
        (Verdict::Regressed | Verdict::Improved, _, _) => true,
        (Verdict::Undecided, Some(change), Some(p)) if c.reason.is_none() => matches!(
            verdict_of(change, c.change_ci, p, options),
            Verdict::Regressed | Verdict::Improved
        ),
        _ => false,
    }
}

#[cfg(test)]
mod tests;
