//! Alternatives compared in one run (Pilot paper §III-F): the members of a group run
//! interleaved, one round each per cycle, each with its own session statistics, until every
//! adjacent pair of the ranking is settled and every member has the least samples an interval
//! needs, or the group's time cap. A group answers "which is faster?": its members' intervals
//! are reported as reached, unless a `ci` was asked for explicitly
//! ([`GroupConfig::wait_for_targets`]), when the group also waits for each member's target.
//!
//! Interleaving is what makes the comparison fair on a machine whose speed changes (shared
//! machines switch between speed states every few seconds): the members' rounds of one cycle
//! are close in time, so every member sees the same mix of machine states. The order within a
//! cycle is shuffled each cycle (a seeded SplitMix64 Fisher–Yates shuffle, deterministic for a
//! given group size), so no member always follows the same one (caches, frequency boosts and
//! allocator state left by the previous member are spread over all of them).
//!
//! [`ranking_rule`] ranks the members and decides each adjacent pair.

use std::time::Duration;

use super::{Session, SessionConfig, SessionResult, Status, Workload};
use crate::record::Clock;

mod ranking_rule;

use ranking_rule::cycles_until_next_look;
pub(crate) use ranking_rule::{MemberView, rank};
pub use ranking_rule::{PairComparison, PairVerdict};

/// How a group decides.
#[derive(Debug, Clone)]
pub struct GroupConfig {
    /// Significance level of Welch's test: a pair with p below it is settled as `faster`.
    pub(crate) alpha: f64,
    /// Noise threshold: a pair whose ratio interval lies inside `1 ± noise` is `equivalent`.
    pub(crate) noise: f64,
    /// Confidence level of the ratio intervals.
    pub confidence: f64,
    /// The group stops here, settled or not.
    pub max_time: Duration,
    /// The group runs at least this long.
    pub(crate) min_time: Duration,
    /// Least analysed rounds each member of a pair needs before the usual rule settles the
    /// pair; with fewer, a stricter rule judges it, with a caveat (see
    /// [`PairComparison::few_rounds`]).
    pub(crate) min_rounds: usize,
    /// Whether the group also waits for each member's interval to meet its target once the
    /// ranking is settled (a `ci` set explicitly), rather than stopping with the ranking.
    pub(crate) wait_for_targets: bool,
}

impl Default for GroupConfig {
    fn default() -> Self {
        GroupConfig {
            alpha: 0.01,
            noise: 0.01,
            confidence: 0.95,
            max_time: Duration::from_secs(20),
            min_time: Duration::ZERO,
            min_rounds: 10,
            wait_for_targets: false,
        }
    }
}

/// The result of a group.
#[derive(Debug, Clone)]
pub struct GroupResult {
    /// Each member's session, in the order the members were given.
    pub members: Vec<SessionResult>,
    /// Member indices, fastest first (members without an estimate left out).
    pub ranking: Vec<usize>,
    /// Adjacent pairs of the ranking.
    pub pairs: Vec<PairComparison>,
    /// Whether every pair was settled (and, with [`GroupConfig::wait_for_targets`], every
    /// member met its target) before the cap.
    pub settled: bool,
    /// Cycles run.
    pub cycles: usize,
    /// The group's wall time.
    pub elapsed: Duration,
    /// When every pair had been settled (and stayed so at every later look), if ever: the time
    /// the ranking alone took. The group may run on after it, for the members' targets.
    pub ranking_settled: Option<Duration>,
    /// Whether the group stopped because every member still ranked had run its most units
    /// (`--max-runs`) or its workload's time, rather than at the group's cap.
    pub at_most_units: bool,
}

/// A small deterministic generator (SplitMix64) for the order of members in each cycle.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Shuffles `order` in place (Fisher–Yates).
    fn shuffle(&mut self, order: &mut [usize]) {
        for i in (1..order.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
    }
}

/// Called after each cycle with the cycle count, the time used and the undecided pairs at the
/// last look.
pub(crate) type GroupProgress<'a> = &'a mut dyn FnMut(usize, Duration, usize);

/// Runs the members' sessions interleaved, one round each per cycle in a shuffled order, until
/// settled or the cap (see the module docs and `ranking_rule::compare_pair`). `configs[i]` is
/// member `i`'s session configuration; its own time cap should be the group's (a member keeps
/// running after meeting its target while pairs are undecided). A member whose session fails, or
/// whose units are below the clock's resolution, leaves the rotation.
pub fn run_group(
    workloads: &mut [&mut dyn Workload],
    configs: &[SessionConfig],
    clock: &dyn Clock,
    config: &GroupConfig,
    progress: GroupProgress<'_>,
) -> GroupResult {
    let start = clock.now();
    let n = workloads.len();
    let mut states: Vec<Session<'_>> = configs.iter().map(|c| Session::new(c, clock)).collect();
    let mut ended: Vec<Option<Status>> = vec![None; n];
    let mut rng = SplitMix64(0x005E_ED0F_9A0C_u64 ^ n as u64);
    let mut order: Vec<usize> = (0..n).collect();
    let mut cycles = 0;
    let mut looks = Looks {
        next: 1,
        undecided: n.saturating_sub(1),
        ranking_settled: None,
    };
    let mut interrupted = false;
    let mut at_most_units = false;
    let settled = loop {
        if super::stop_request::requested() {
            interrupted = true;
            break false;
        }
        rng.shuffle(&mut order);
        run_cycle(&order, workloads, &mut states, &mut ended, clock);
        cycles += 1;
        let elapsed = clock.now().saturating_sub(start);
        if ended.iter().all(Option::is_some) {
            break false;
        }
        if (0..n).all(|i| ended[i].is_some() || done(&states[i], &*workloads[i])) {
            // Every member still ranked has run its most units or its time: the ranking is
            // what they measured.
            at_most_units = true;
            break false;
        }
        let at_cap = elapsed >= config.max_time;
        if (cycles >= looks.next || at_cap) && looks.look(&states, &ended, config, cycles, elapsed)
        {
            break true;
        }
        progress(cycles, elapsed, looks.undecided);
        if at_cap {
            break false;
        }
    };
    let (ranking, pairs) = final_ranking(&states, &ended, config);
    let elapsed = clock.now().saturating_sub(start);
    GroupResult {
        members: finish_members(states, ended, interrupted, settled),
        ranking,
        pairs,
        settled,
        cycles,
        elapsed,
        ranking_settled: looks.ranking_settled,
        at_most_units,
    }
}

/// What the looks at the ranking keep from one to the next.
struct Looks {
    /// The cycle after which to look again.
    next: usize,
    /// Undecided pairs at the last look.
    undecided: usize,
    /// When every pair had been settled (and stayed so at every later look), if ever.
    ranking_settled: Option<Duration>,
}

impl Looks {
    /// Looks at the ranking of the members' `states` (those `ended` left out) after `cycles`
    /// cycles, `elapsed` into the group: whether the group is settled (every pair decided,
    /// every member ranked and at its target or its least samples, the least time over).
    /// When not, sets the cycle of the next look.
    fn look(
        &mut self,
        states: &[Session<'_>],
        ended: &[Option<Status>],
        config: &GroupConfig,
        cycles: usize,
        elapsed: Duration,
    ) -> bool {
        let (indices, members) = views(states, ended);
        let (_, pairs) = rank(&members, config);
        self.undecided = pairs.iter().filter(|p| !p.settled()).count();
        let complete = indices.len() + ended.iter().filter(|e| e.is_some()).count() == ended.len();
        // Settled only once every member is ranked: before then, no pair is undecided because
        // there are too few members with an estimate to pair.
        if self.undecided > 0 || !complete {
            self.ranking_settled = None;
        } else if self.ranking_settled.is_none() {
            self.ranking_settled = Some(elapsed);
        }
        let targets = indices.iter().all(|&i| {
            if config.wait_for_targets {
                states[i].met_target()
            } else {
                states[i].has_least_samples()
            }
        });
        if self.undecided == 0 && targets && complete && elapsed >= config.min_time {
            return true;
        }
        self.next = cycles + cycles_until_next_look(&pairs, &members, config);
        if !targets || !complete {
            // A member still short of its target or without an estimate: look again after
            // the next cycle, its own planner sizes its rounds.
            self.next = self.next.min(cycles + 1);
        }
        false
    }
}

/// Each member's session result from its `state`: the status it `ended` with, else
/// interrupted, converged (its target met), settled (the group was) or at the time cap.
fn finish_members(
    states: Vec<Session<'_>>,
    ended: Vec<Option<Status>>,
    interrupted: bool,
    settled: bool,
) -> Vec<SessionResult> {
    states
        .into_iter()
        .zip(ended)
        .map(|(state, ended)| {
            let status = ended.unwrap_or(if interrupted {
                Status::Interrupted
            } else if state.met_target() {
                Status::Converged
            } else if settled {
                Status::Settled
            } else {
                Status::TimeCap
            });
            state.finish(status)
        })
        .collect()
}

/// Whether a member runs no more rounds but stays ranked: it has run its most units
/// (`--max-runs`), or its workload's time ran out.
fn done(state: &Session<'_>, workload: &dyn Workload) -> bool {
    state.at_most_units() || workload.out_of_time()
}

/// One cycle: a round of each member still running, in `order`. A member whose session fails,
/// or whose units are below the clock's resolution, ends; one that is [`done`] is skipped.
fn run_cycle(
    order: &[usize],
    workloads: &mut [&mut dyn Workload],
    states: &mut [Session<'_>],
    ended: &mut [Option<Status>],
    clock: &dyn Clock,
) {
    for &i in order {
        if ended[i].is_some() || done(&states[i], &*workloads[i]) {
            continue;
        }
        let work = states[i].next_work();
        let held = states[i].read_memory();
        let before = clock.now();
        let data = workloads[i].round(work);
        let duration = clock.now().saturating_sub(before);
        if let (Some(held), Some(now)) = (held, states[i].read_memory()) {
            states[i].saw_memory(held, now, &data);
        }
        workloads[i].between_rounds();
        states[i].set_unit_growth(workloads[i].unit_growth());
        let status = if workloads[i].out_of_time() {
            Some(states[i].record_last(data, duration, &mut |_, _| {}))
        } else {
            states[i].record(data, duration, &mut |_, _| {})
        };
        if let Some(status @ (Status::Failed(_) | Status::BelowResolution)) = status {
            ended[i] = Some(status);
        }
    }
}

/// The final ranking and pairs, with member indices of the group.
fn final_ranking(
    states: &[Session<'_>],
    ended: &[Option<Status>],
    config: &GroupConfig,
) -> (Vec<usize>, Vec<PairComparison>) {
    let (indices, members) = views(states, ended);
    let (ranking, mut pairs) = rank(&members, config);
    let index = |k: usize| indices[k];
    let ranking: Vec<usize> = ranking.into_iter().map(index).collect();
    for pair in &mut pairs {
        pair.a = index(pair.a);
        pair.b = index(pair.b);
    }
    (ranking, pairs)
}

/// The members still running that have an estimate: their indices, and their views. A
/// readings-only member whose fitted slope is not positive has no time to rank yet.
fn views<'s>(
    states: &'s [Session<'_>],
    ended: &[Option<Status>],
) -> (Vec<usize>, Vec<MemberView<'s>>) {
    states
        .iter()
        .enumerate()
        .filter(|(i, _)| ended[*i].is_none())
        .filter_map(|(i, s)| {
            let estimate = s.estimate().filter(|e| e.mean > 0.0)?;
            let round_means = if s.readings_only() {
                &[][..]
            } else {
                s.round_means()
            };
            Some((
                i,
                MemberView {
                    estimate,
                    round_means,
                },
            ))
        })
        .unzip()
}

#[cfg(test)]
mod tests;
