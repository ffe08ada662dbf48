//! What an interval can reach: the rule that stops a session once more time cannot buy its
//! target.
//!
//! The target is this run's own interval. What the machine does between runs is not in it
//! (it is the reproducibility band's, [`crate::probe::reproducibility`]), so it never stands
//! between a session and its target.

use std::time::Duration;

use super::Estimate;
use crate::fmt::format_ns;

/// What stands between an interval and its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Blocker {
    /// The readings within rounds vary too much for the time left.
    Readings,
    /// The rounds' means vary (the machine's speed changes from round to round).
    Rounds,
    /// The processes' estimates vary too much for the processes the cap leaves time for.
    Processes,
}

/// Whether more processes can buy `target` for the estimate `e` over `done` processes, which
/// took `per_process` each on average, with `remaining` of the cap left. The interval over
/// processes is `t(ν)·se`, with `se` falling as `1/√P` and `ν` growing by one a process: from
/// `se = h / t(ν)` now (`h` its relative half-width, `ν` its degrees of freedom), the fewest
/// processes `P` with `t(ν + P − done)·se·√(done / P) ≤ target` are needed. Out of reach when
/// those would take longer than the cap leaves.
///
/// Before the bench's `full` count of processes, the spread is judged on few degrees of
/// freedom, and a sample standard deviation over four processes is often twice the true one:
/// then the projection takes the spread at its 90% lower confidence bound
/// (`s·√(ν / χ²(0.9, ν))`), so that a bench stops early only when even an optimistic reading of
/// its spread puts the target beyond the cap. From its full count on, the spread seen decides.
/// Time: O(log P).
pub(crate) fn judge_processes(
    e: &Estimate,
    target: f64,
    (done, full): (usize, bool),
    per_process: Duration,
    remaining: Duration,
) -> Option<OutOfReach> {
    let h = e.relative_half_width();
    if h <= target || done == 0 || !resolved_from_zero(e) {
        return None;
    }
    let dof = e.dof.max(1.0);
    let optimism = if full {
        1.0
    } else {
        (dof / pilot_stats::summary::chi_square_quantile(0.9, dof)).sqrt()
    };
    let se = optimism * h / pilot_stats::summary::t_critical(e.ci.confidence, dof);
    let more = processes_to_target(se, dof, done, target, e.ci.confidence) - done;
    let needed = per_process.as_secs_f64() * more as f64;
    (needed > remaining.as_secs_f64()).then(|| OutOfReach {
        blocker: Blocker::Processes,
        needed: Duration::from_secs_f64(needed),
    })
}

/// The fewest processes whose interval meets `target` (see [`judge_processes`]), from a
/// relative standard error `se` over `done` processes with `dof` degrees of freedom at
/// `confidence`. The `1/√P` count at the current quantile, `done·(t(ν)·se/target)²`, bounds it
/// from above (the quantile only falls as `ν` grows), so a
/// bisection below it finds it. Time: O(log P).
fn processes_to_target(se: f64, dof: f64, done: usize, target: f64, confidence: f64) -> usize {
    let t = |nu: f64| pilot_stats::summary::t_critical(confidence, nu);
    let meets =
        |p: usize| t(dof + (p - done) as f64) * se * (done as f64 / p as f64).sqrt() <= target;
    let mut high = ((done as f64) * (t(dof) * se / target).powi(2))
        .ceil()
        .min(1e9) as usize;
    high = high.max(done + 1);
    if !meets(high) {
        return high;
    }
    let mut low = done;
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if meets(mid) { high = mid } else { low = mid }
    }
    high
}

/// Whether `e`'s interval lies above zero. One that reaches zero or below (a readings-only fit
/// whose time per unit is not yet told from none: rounds whose durations a busy machine
/// scatters more than the work amounts move them) has measured no time per unit yet; its
/// width relative to a mean near zero says nothing of what more time buys, so it never makes
/// a session out of reach. More rounds at larger work amounts are what resolve it, and the cap
/// still ends the session.
pub(crate) fn resolved_from_zero(e: &Estimate) -> bool {
    e.ci.low > 0.0
}

/// How much wider than the readings' own the rounds' interval must be before the rounds are
/// blamed: with few rounds, Student's t alone and rounds of unequal length make it wider.
const ROUNDS_TO_BLAME: f64 = 2.0;

/// A session that more time cannot bring to its target.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OutOfReach {
    pub(crate) blocker: Blocker,
    /// About how much more time the target would need at the variation seen.
    pub(crate) needed: Duration,
}

/// Least time of analysed rounds before a session may be judged out of reach: about a second
/// of stable data, less for a short cap.
pub(crate) fn judged_after(max_time: Duration) -> Duration {
    Duration::from_secs(1).min(max_time / 4)
}

/// Whether more time can buy `target` (relative half-width), for an estimate with the least
/// samples an interval needs that is still wider than its target. `analysed` is the time its
/// samples took, `remaining` what the cap leaves.
///
/// Rule: the half-width `h` falls as `1/√time`, so the target needs
/// `analysed · ((h / target)² − 1)` more. Out of reach when that is more than the cap leaves
/// plus two whole caps. The margin is wide because early intervals are pessimistic (Student's
/// t over few rounds, rounds of unequal length): a session that would need somewhat longer
/// than its cap runs on to it, and ends with `time cap`. Time: O(1).
pub(crate) fn judge(
    e: &Estimate,
    target: f64,
    analysed: Duration,
    (remaining, cap): (Duration, Duration),
) -> Option<OutOfReach> {
    let h = e.relative_half_width();
    if h <= target || !resolved_from_zero(e) {
        return None;
    }
    let needed = analysed.as_secs_f64() * ((h / target).powi(2) - 1.0);
    (needed > (remaining + 2 * cap).as_secs_f64()).then(|| OutOfReach {
        blocker: if e.between_rounds && e.round_excess > ROUNDS_TO_BLAME {
            Blocker::Rounds
        } else {
            Blocker::Readings
        },
        needed: Duration::from_secs_f64(needed),
    })
}

/// The warning of a session out of reach: the interval reached, the time the target would
/// need, what stands in the way and what to do.
pub(crate) fn out_of_reach_warning(
    e: &Estimate,
    found: &OutOfReach,
    target: f64,
    elapsed: Duration,
) -> String {
    let reached = 100.0 * e.relative_half_width();
    let target_pct = 100.0 * target;
    let secs = |d: Duration| format_ns(d.as_nanos() as f64);
    let why = match found.blocker {
        Blocker::Readings => {
            "the readings vary too much for the time the cap leaves; raise --max-time, or time \
             more work per unit"
        }
        Blocker::Rounds => {
            "the machine's speed changes from round to round (the rounds' means vary more than \
             the readings within a round); raise --max-time, or use a quieter machine"
        }
        Blocker::Processes => {
            "the estimates of the bench's processes differ by more than the target (where each \
             process's stack, heap and code land, or the machine's state while it ran); raise \
             --max-time"
        }
    };
    format!(
        "out of reach: ±{reached:.2}% after {}; the ±{target_pct:.2}% target would need about {} \
         more: {why}",
        secs(elapsed),
        secs(found.needed)
    )
}

#[cfg(test)]
mod tests;
