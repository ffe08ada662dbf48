//! Two builds compared over interleaved pairs of processes (`cargo pilot bench --against`):
//! the trimmed mean of the pairs' log ratios.

use super::estimates::{student_t_sf, verdict_of};
use super::{Change, CompareOptions};
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
/// `None` with fewer than two pairs or a mean that is not positive and finite. Time:
/// O(n log n).
pub fn compare_paired(
    pairs: &[(f64, f64)],
    confidence: f64,
    options: &CompareOptions,
) -> Option<Change> {
    let usable = |x: f64| x.is_finite() && x > 0.0;
    if pairs.len() < 2 || !pairs.iter().all(|&(b, n)| usable(b) && usable(n)) {
        return None;
    }
    let logs: Vec<f64> = pairs.iter().map(|&(b, n)| (n / b).ln()).collect();
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
