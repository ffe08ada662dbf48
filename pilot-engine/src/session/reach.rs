//! What an interval can reach: the machine's run-to-run variation as a part of every interval,
//! and the rule that stops a session once more time cannot buy its target.

use std::time::Duration;

use super::Estimate;
use crate::fmt::format_ns;
use crate::probe::MachineVariation;
use crate::stats::ConfidenceInterval;
use crate::stats::summary::t_critical;

/// The machine's part of an estimate's interval.
#[derive(Debug, Clone, PartialEq)]
pub struct MachinePart {
    pub variation: MachineVariation,
    /// The interval of this run alone.
    pub run_ci: ConfidenceInterval,
    /// Whether the machine's variance was larger than the run's own.
    pub dominant: bool,
}

impl Estimate {
    /// The half-width of this run alone, relative to the mean (the whole interval when it has
    /// no machine part).
    pub(crate) fn run_relative_half_width(&self) -> f64 {
        match &self.machine {
            Some(m) if self.mean != 0.0 => m.run_ci.half_width() / self.mean.abs(),
            _ => self.relative_half_width(),
        }
    }

    /// The estimate with the machine's run-to-run variation `v` in its interval. A probe's
    /// variation is the machine's speed alone: its variance and the run's own add, with
    /// Welch–Satterthwaite's degrees of freedom over the two parts. A bench's own variation is
    /// the spread of its earlier runs' estimates, each of which held its run's own noise: the
    /// larger of it and this run's own standard error is taken, with its degrees of freedom.
    ///
    /// Assumes the run's machine state is one draw, independent of the run's own noise, from
    /// the distribution the history describes, and (for the probe) that it moves the
    /// workload's time by as much, relatively, as the probe's. Time: O(1).
    pub(crate) fn with_machine(mut self, v: MachineVariation) -> Estimate {
        let run_dof = self.dof.max(1.0);
        let run_ci = self.ci;
        self.ci = widened(self.mean, self.ci, run_dof, v);
        if let Some(p) = &mut self.plain {
            p.ci = widened(p.mean, p.ci, run_dof, v);
        }
        let run_se = run_ci.half_width() / t_critical(run_ci.confidence, run_dof);
        self.machine = Some(MachinePart {
            variation: v,
            run_ci,
            dominant: v.sd * self.mean.abs() > run_se,
        });
        self
    }
}

/// `ci` (of `center`, from `run_dof` degrees of freedom) with the run-to-run variation `v` in
/// it (see [`Estimate::with_machine`]).
fn widened(
    center: f64,
    ci: ConfidenceInterval,
    run_dof: f64,
    v: MachineVariation,
) -> ConfidenceInterval {
    let confidence = ci.confidence;
    let run_se = ci.half_width() / t_critical(confidence, run_dof);
    let machine_se = v.sd * center.abs();
    let machine_dof = v.dof();
    let (se, dof) = if v.own {
        if machine_se > run_se {
            (machine_se, machine_dof)
        } else {
            (run_se, run_dof)
        }
    } else {
        let variance = run_se * run_se + machine_se * machine_se;
        let denominator = run_se.powi(4) / run_dof + machine_se.powi(4) / machine_dof;
        let dof = if denominator > 0.0 {
            variance * variance / denominator
        } else {
            run_dof
        };
        (variance.sqrt(), dof)
    };
    let half = t_critical(confidence, dof) * se;
    ConfidenceInterval {
        low: center - half,
        high: center + half,
        confidence,
    }
}

/// What stands between an interval and its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Blocker {
    /// The readings within rounds vary too much for the time left.
    Readings,
    /// The rounds' means vary (the machine's speed changes from round to round).
    Rounds,
    /// The machine's run-to-run variation alone is about as wide as the target, or wider.
    Machine,
    /// The processes' estimates vary too much for the processes the cap leaves time for.
    Processes,
}

/// Whether more processes can buy `target` for the estimate `e` over `done` processes, which
/// took `per_process` each on average, with `remaining` of the cap left: the interval over
/// processes narrows as `1/√P`, so it needs `done · ((run / goal)² − 1)` more, where `goal` is
/// what the run's part must reach beside the machine's (see [`judge`]). Out of reach when
/// those would take longer than the cap leaves, or when the machine's part alone is too wide
/// (then `needed` is `None`). Time: O(1).
pub(crate) fn judge_processes(
    e: &Estimate,
    target: f64,
    done: usize,
    per_process: Duration,
    remaining: Duration,
) -> Option<OutOfReach> {
    let (machine, goal) = e.machine.as_ref().map_or((0.0, target), |m| {
        let c = e.ci.confidence;
        (
            m.variation.relative_half_width(c),
            m.variation.run_goal(target, c),
        )
    });
    let run = e.run_relative_half_width();
    if run <= goal {
        return (e.relative_half_width() > target).then_some(OutOfReach {
            blocker: Blocker::Machine,
            needed: None,
        });
    }
    let more = done as f64 * ((run / goal).powi(2) - 1.0);
    let needed = per_process.as_secs_f64() * more;
    (needed > remaining.as_secs_f64()).then(|| OutOfReach {
        blocker: if machine >= 0.9 * target {
            Blocker::Machine
        } else {
            Blocker::Processes
        },
        needed: (machine < target).then(|| Duration::from_secs_f64(needed)),
    })
}

/// How much wider than the readings' own the rounds' interval must be before the rounds are
/// blamed: with few rounds, Student's t alone and rounds of unequal length make it wider.
const ROUNDS_TO_BLAME: f64 = 2.0;

/// A session that more time cannot bring to its target.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OutOfReach {
    pub blocker: Blocker,
    /// About how much more time the target would need at the variation seen; `None` when no
    /// amount would do (the machine's part alone is too wide).
    pub needed: Option<Duration>,
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
/// Rule: the run's own part must shrink to the goal of [`MachineVariation::run_goal`]
/// (`max(√(target² − m²), m/2)` for the probe's variation, where `m` is the machine's part
/// alone): the first makes the whole interval meet the target, the second (once the machine's
/// part is about as wide as the target or wider) is where more samples stop paying (the whole
/// interval is within 12% of the machine's part). The run's half-width falls
/// as `1/√time`, so it needs `analysed · ((run / goal)² − 1)` more. Out of reach when that is
/// more than the cap leaves plus two whole caps, or the run is at the goal and the target is
/// still missed. The margin is wide because early intervals are pessimistic (Student's t over
/// few rounds, rounds of unequal length): a session that would need somewhat longer than its
/// cap runs on to it, and ends with `time cap`. Time: O(1).
pub(crate) fn judge(
    e: &Estimate,
    target: f64,
    analysed: Duration,
    (remaining, cap): (Duration, Duration),
) -> Option<OutOfReach> {
    let (machine, goal) = e.machine.as_ref().map_or((0.0, target), |m| {
        let c = e.ci.confidence;
        (
            m.variation.relative_half_width(c),
            m.variation.run_goal(target, c),
        )
    });
    let run = e.run_relative_half_width();
    let machine_bound = machine >= 0.9 * target;
    if run <= goal {
        // The whole interval still misses the target: only the machine's part can be why.
        return (e.relative_half_width() > target).then_some(OutOfReach {
            blocker: Blocker::Machine,
            needed: None,
        });
    }
    let needed = analysed.as_secs_f64() * ((run / goal).powi(2) - 1.0);
    (needed > (remaining + 2 * cap).as_secs_f64()).then(|| OutOfReach {
        blocker: if machine_bound {
            Blocker::Machine
        } else if e.between_rounds && e.round_excess > ROUNDS_TO_BLAME {
            Blocker::Rounds
        } else {
            Blocker::Readings
        },
        needed: (!machine_bound || machine < target).then(|| Duration::from_secs_f64(needed)),
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
    let need = match found.needed {
        Some(d) => format!("would need about {} more", secs(d)),
        None => "cannot be reached on this machine".to_string(),
    };
    let why = match found.blocker {
        Blocker::Readings => "the readings vary too much for the time the cap leaves; raise \
                              --max-time, or time more work per unit"
            .to_string(),
        Blocker::Rounds => "the machine's speed changes from round to round (the rounds' means \
                            vary more than the readings within a round); raise --max-time, \
                            or use a quieter machine"
            .to_string(),
        Blocker::Processes => "the estimates of the bench's processes differ by more than \
                               the target (where each process's stack, heap and code land, or \
                               the machine's state while it ran); raise --max-time"
            .to_string(),
        Blocker::Machine => {
            let m = e.machine.as_ref().expect("a machine part");
            format!(
                "the machine's run-to-run variation (±{:.2}% at this confidence, learnt from {} \
                 {}) is about as wide as the target or wider, and this run's own part is \
                 ±{:.2}%; use a quieter machine",
                100.0 * m.variation.relative_half_width(e.ci.confidence),
                m.variation.runs,
                if m.variation.own {
                    "earlier runs of this bench"
                } else {
                    "runs of the speed probe"
                },
                100.0 * e.run_relative_half_width(),
            )
        }
    };
    format!(
        "out of reach: ±{reached:.2}% after {}; the ±{target_pct:.2}% target {need}: {why}",
        secs(elapsed)
    )
}

#[cfg(test)]
mod tests;
