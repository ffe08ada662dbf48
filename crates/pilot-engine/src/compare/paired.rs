//! Two builds compared over interleaved pairs of processes (`cargo pilot bench --against`):
//! the trimmed mean of the pairs' log ratios, and the looks at it as the pairs come in.

use super::estimates::{student_t_sf, verdict_of};
use super::{Change, CompareOptions, Verdict};
use pilot_stats::summary::t_critical;

/// Compares two builds measured in interleaved pairs of processes (`cargo pilot bench
/// --against`): `pairs[i]` is (base, new) of pair i, each one process's mean time per unit.
///
/// The change comes from the per-pair log ratios `dᵢ = ln(newᵢ / baseᵢ)`: their 20%-trimmed
/// mean `d̃` with Yuen's standard error `se` (Student's t with `h − 1` degrees of freedom, `h`
/// the pairs left after trimming; with fewer than 5 pairs nothing is trimmed and this is the
/// paired t-test) gives the relative change `exp(d̃) − 1`, its interval `exp(d̃ ± t·se) − 1`
/// and the two-sided p of `d̃ = 0` (the one-sample trimmed-mean test, Tukey–McLaughlin with
/// Yuen's standard error). The verdict follows the rule of
/// [`compare_estimates`](super::compare_estimates).
///
/// Why trimmed: a process that runs its whole life far slower (a bad layout, a neighbour's
/// burst) makes one pair's ratio far out on either side, and a mean over pairs follows it;
/// either side can be the slow one, so trimming both ends alike is unbiased.
///
/// Why pairs: the two processes of a pair run back to back, so the machine's state of that
/// moment (its clock speed, the other load on it) is in both and cancels in their ratio; what
/// stays is the variation of a process (memory layout, where its pages land) and the machine's
/// change within the pair's few seconds. Assumes the log ratios are independent and roughly
/// normal; the caller alternates which side runs first (ABBA), so an effect of position
/// cancels over the pairs too. Logs make a slowdown and the inverse speed-up the same size.
///
/// A process whose mean is not a positive, finite time measured nothing usable (a
/// readings-only bench's fit over one short process on a busy machine can give one): see
/// [`log_ratios`]. `None` with fewer than two pairs, or more such processes on one side than
/// the trimming cuts. Time: O(n log n).
pub fn compare_paired(
    pairs: &[(f64, f64)],
    confidence: f64,
    options: &CompareOptions,
) -> Option<Change> {
    let logs = log_ratios(pairs)?;
    let loc = pilot_stats::trimmed_location(&logs, pilot_stats::DEFAULT_TRIM, confidence).ok()?;
    let (d, dof) = (loc.value, loc.dof);
    let se = loc.trimmed.yuen_std_error();
    let p = if se > 0.0 {
        2.0 * student_t_sf((d / se).abs(), dof)
    } else if d == 0.0 {
        1.0
    } else {
        0.0
    };
    let t = t_critical(confidence, dof);
    let change = d.exp() - 1.0;
    let change_ci = Some(((d - t * se).exp() - 1.0, (d + t * se).exp() - 1.0));
    Some(Change {
        change,
        change_ci,
        p: p.min(1.0),
        verdict: verdict_of(change, change_ci, p, options),
        method: "paired: pairs of processes of the two builds, run alternately (ABBA); the \
                 20%-trimmed mean of the pairs' log ratios with Yuen's standard error"
            .to_string(),
    })
}

/// Whether a process's mean is a time a ratio can be taken of.
fn usable(x: f64) -> bool {
    x.is_finite() && x > 0.0
}

/// The pairs' log ratios `ln(new / base)`, for [`compare_paired`]'s trimmed mean.
///
/// A pair with one process whose mean is not usable (not a positive, finite time) is kept
/// as a ratio beyond every usable one on its side: below all of them when the new side's
/// process failed, above all when the base's did. Such a pair is then what the trimming
/// already treats as a process far out (a bad layout, a neighbour's burst), and under no
/// change either side is as likely to fail, so the two ends stay alike; the trimmed mean and
/// Yuen's winsorized variance depend only on the ranks beyond the cut, so where exactly the
/// stand-in lies does not matter. A pair whose two processes both failed says nothing of
/// the change and is left out. `None` when fewer than two pairs are left, none of them
/// usable on both sides, or more stand-ins lie at one end than the trimming cuts (then they
/// would be in the mean). Time: O(n).
pub(crate) fn log_ratios(pairs: &[(f64, f64)]) -> Option<Vec<f64>> {
    let kept: Vec<(f64, f64)> = pairs
        .iter()
        .copied()
        .filter(|&(b, n)| usable(b) || usable(n))
        .collect();
    let cut = (pilot_stats::DEFAULT_TRIM * kept.len() as f64) as usize;
    let below = kept.iter().filter(|&&(_, n)| !usable(n)).count();
    let above = kept.iter().filter(|&&(b, _)| !usable(b)).count();
    if kept.len() < 2 || below > cut || above > cut {
        return None;
    }
    let finite: Vec<f64> = kept
        .iter()
        .filter(|&&(b, n)| usable(b) && usable(n))
        .map(|&(b, n)| (n / b).ln())
        .collect();
    let lowest = finite.iter().copied().reduce(f64::min)?;
    let highest = finite.iter().copied().reduce(f64::max)?;
    Some(
        kept.iter()
            .map(|&(b, n)| match (usable(b), usable(n)) {
                (true, true) => (n / b).ln(),
                (true, false) => lowest - 1.0,
                _ => highest + 1.0,
            })
            .collect(),
    )
}

/// The early looks of a paired comparison: at the least pairs and at each doubling of them
/// (6, 12, 24, … 768 pairs by default), where a clear change may stop the pairing.
pub(crate) const EARLY_LOOKS: u32 = 8;

/// The share of the significance level the early looks spend together; the last look, where
/// the pairing ended, has the rest.
pub(crate) const EARLY_SHARE: f64 = 0.1;

/// Whether `n` pairs is one of the early looks of a comparison that needs `least` pairs.
fn is_early_look(n: usize, least: usize) -> bool {
    (0..EARLY_LOOKS).any(|j| least.checked_mul(1 << j) == Some(n))
}

/// Compares two builds over `pairs` (in the order they ran), as the pair loop of `cargo pilot
/// bench --against` looks at them: [`compare_paired`] over every pair for the change and its
/// interval, with the p-value of a sequential test; and whether the loop may stop there.
///
/// Why sequential: the loop looks at the pairs after each one from the `least`-th on and may
/// stop. A test at `alpha` repeated at every look crosses it by chance far more often than
/// `alpha` (Armitage, McPherson & Rowe 1969, "Repeated significance tests on accumulating
/// data"): with log ratios of sd 2% and up to 60 pairs, an unchanged bench was called
/// regressed or improved about 6 times in 100 at a nominal 1%
/// (`lab/multiple_comparisons_reference.py --sequential`). So the looks split `alpha`
/// (Bonferroni over the looks): the [`EARLY_LOOKS`] early looks at `least·2ʲ` pairs spend
/// [`EARLY_SHARE`] of it, equally, and the last look the rest. The p-value is the smallest of
/// each look's p divided by its share, `min(p_last / 0.9, p_j / 0.0125)`, capped at 1: for
/// any stopping rule that looks only there, `P(p ≤ u) ≤ u` under no change, so it is a
/// valid p-value (as far as each look's is), and a suite's rule
/// ([`judge_suite`](super::judge_suite)) can adjust it. The verdict follows
/// [`compare_estimates`](super::compare_estimates)'s rule on that p.
///
/// The stop (the second value; `None`: keep pairing): no change once the interval lies inside
/// ± noise, at any pair from the `least`-th on (a stop that cannot give a false alarm); at an
/// early look, a change (or one smaller than the noise threshold) once that look's p over its
/// share is below `alpha / family`, where `family` is the number of benches the suite's rule
/// adjusts over: such a p is significant for every bench of the suite under Holm's and
/// Benjamini–Hochberg's rules alike, so more pairs could not change the verdict's kind.
///
/// `None` as for [`compare_paired`]. Time: O(n log n) per look, at most [`EARLY_LOOKS`] + 1
/// of them.
pub fn compare_sequential(
    pairs: &[(f64, f64)],
    (least, family): (usize, usize),
    confidence: f64,
    options: &CompareOptions,
) -> Option<(Change, Option<Verdict>)> {
    let last = compare_paired(pairs, confidence, options)?;
    let early_weight = EARLY_SHARE / f64::from(EARLY_LOOKS);
    let stop = settled(&last, pairs.len(), (least, family), options);
    let mut p = last.p / (1.0 - EARLY_SHARE);
    for j in 0..EARLY_LOOKS {
        let Some(n) = least.checked_mul(1 << j) else {
            break;
        };
        if n > pairs.len() {
            break;
        }
        if let Some(look) = compare_paired(&pairs[..n], confidence, options) {
            p = p.min(look.p / early_weight);
        }
    }
    let p = p.min(1.0);
    let change = Change {
        verdict: verdict_of(last.change, last.change_ci, p, options),
        p,
        method: format!(
            "{}; p sequential: the smallest of the last look's p / {} and each early look's \
             (at {least}·2ʲ pairs) p / {early_weight}",
            last.method,
            1.0 - EARLY_SHARE
        ),
        ..last
    };
    Some((change, stop))
}

/// The stop of [`compare_sequential`] after `n` pairs whose comparison is `last`.
fn settled(
    last: &Change,
    n: usize,
    (least, family): (usize, usize),
    options: &CompareOptions,
) -> Option<Verdict> {
    if n < least {
        return None;
    }
    let inside = last
        .change_ci
        .is_some_and(|(lo, hi)| lo >= -options.noise && hi <= options.noise);
    if inside {
        return Some(Verdict::NoChange);
    }
    let share = EARLY_SHARE / f64::from(EARLY_LOOKS);
    let bar = options.alpha / family.max(1) as f64;
    (is_early_look(n, least) && last.p / share < bar).then(|| {
        // Significant at the bar: regressed or improved beyond the noise, else no change.
        verdict_of(last.change, last.change_ci, 0.0, options)
    })
}

#[cfg(test)]
mod tests;
