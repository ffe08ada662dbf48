//! Alternatives compared in one run (Pilot paper §III-F, DESIGN §6): the members of a group run
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

use std::time::Duration;

use super::{Estimate, Session, SessionConfig, SessionResult, Status, Workload};
use crate::record::Clock;
use crate::stats::summary::Moments;
use crate::stats::welch::welch_test;
use crate::stats::{ConfidenceInterval, Summary};

/// How a group decides.
#[derive(Debug, Clone)]
pub(crate) struct GroupConfig {
    /// Significance level of Welch's test: a pair with p below it is settled as `faster`.
    pub alpha: f64,
    /// Noise threshold: a pair whose ratio interval lies inside `1 ± noise` is `equivalent`.
    pub noise: f64,
    /// Confidence level of the ratio intervals.
    pub confidence: f64,
    /// The group stops here, settled or not.
    pub max_time: Duration,
    /// The group runs at least this long.
    pub min_time: Duration,
    /// Least analysed rounds each member of a pair needs before the pair can be settled.
    pub min_rounds: usize,
    /// Whether the group also waits for each member's interval to meet its target once the
    /// ranking is settled (a `ci` set explicitly), rather than stopping with the ranking.
    pub wait_for_targets: bool,
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

/// The outcome of comparing two adjacent members of the ranking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PairVerdict {
    /// The first (`a`) is faster than the second (`b`).
    Faster,
    /// Their difference lies inside the noise threshold.
    Equivalent,
    /// Not settled yet (or at the cap: never settled).
    Undecided,
}

impl PairVerdict {
    /// The name used in output and in the run document.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            PairVerdict::Faster => "faster",
            PairVerdict::Equivalent => "equivalent",
            PairVerdict::Undecided => "undecided",
        }
    }
}

/// The comparison of an adjacent pair: `a` ranks before (is not slower than) `b`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PairComparison {
    /// Index of the member ranked first.
    pub a: usize,
    /// Index of the member ranked next.
    pub b: usize,
    /// Time of `b` over time of `a`.
    pub ratio: f64,
    /// Confidence interval of the ratio.
    pub ratio_ci: ConfidenceInterval,
    /// Welch's two-sided p-value; `None` when a member has no round means (readings-only).
    pub p: Option<f64>,
    pub verdict: PairVerdict,
    /// Undecided only because a member had fewer analysed rounds than a verdict needs
    /// (`min_rounds`), whatever p says.
    pub few_rounds: bool,
}

/// What a member brings to a pair comparison.
pub(crate) struct MemberView<'a> {
    pub estimate: &'a Estimate,
    /// Mean of each analysed round's stable unit readings.
    pub round_means: &'a [f64],
}

/// Settles one adjacent pair, `a` ranked before `b`.
///
/// Method: Welch's t-test on the logarithms of the members' round means. A round mean is the
/// mean of one round's stable unit readings; rounds of the two members alternate in time, so
/// both sets sample the same machine states, and the round means carry the variation between
/// rounds that an interval over single readings misses (the same reason a session's own
/// interval takes the wider of the readings' and the rounds' intervals). Logarithms turn the
/// ratio of times into a difference: the ratio is `exp(d)` and its interval `exp` of the
/// difference's Welch interval. Assumes the round means of each member are independent (rounds
/// are long against the readings' correlation, and the pairing of rounds by cycle is not
/// used, which makes the test conservative when machine states change slowly) and their
/// logarithms roughly normal. Readings-only members have no round means: their pair uses the
/// members' intervals only (ratio interval by the delta method, no p).
///
/// Verdicts, in order: `faster` when the members' intervals do not overlap or p < `alpha` (and
/// the difference points the way of the ranking); `equivalent` when the ratio's interval lies
/// inside `1 ± noise`; otherwise `undecided`. Before each member has `min_rounds` analysed
/// rounds, a pair is `undecided`, which keeps early noise from settling it. Time: O(n) in the
/// round means.
pub(crate) fn compare_pair(
    a: &MemberView<'_>,
    b: &MemberView<'_>,
    (ia, ib): (usize, usize),
    config: &GroupConfig,
) -> PairComparison {
    let (ea, eb) = (a.estimate, b.estimate);
    let enough = ea.rounds >= config.min_rounds && eb.rounds >= config.min_rounds;
    let disjoint = !ea.ci.overlaps(&eb.ci) && eb.mean > ea.mean;
    let welch = match (log_moments(a.round_means), log_moments(b.round_means)) {
        (Some(x), Some(y)) => welch_test(&x, &y, config.confidence).ok(),
        _ => None,
    };
    let (ratio, ratio_ci, p, significant) = match welch {
        Some(w) => (
            w.difference.exp(),
            ConfidenceInterval {
                low: w.difference_ci.low.exp(),
                high: w.difference_ci.high.exp(),
                confidence: config.confidence,
            },
            Some(w.p),
            w.p < config.alpha && w.difference > 0.0,
        ),
        None => {
            // Delta method on the members' own intervals.
            let ratio = eb.mean / ea.mean;
            let rel = (ea.relative_half_width().powi(2) + eb.relative_half_width().powi(2)).sqrt();
            (
                ratio,
                ConfidenceInterval {
                    low: ratio * (1.0 - rel),
                    high: ratio * (1.0 + rel),
                    confidence: config.confidence,
                },
                None,
                false,
            )
        }
    };
    let verdict = if !enough {
        PairVerdict::Undecided
    } else if disjoint || significant {
        PairVerdict::Faster
    } else if ratio_ci.low >= 1.0 - config.noise && ratio_ci.high <= 1.0 + config.noise {
        PairVerdict::Equivalent
    } else {
        PairVerdict::Undecided
    };
    PairComparison {
        a: ia,
        b: ib,
        ratio,
        ratio_ci,
        p,
        verdict,
        few_rounds: !enough,
    }
}

/// Mean and variance of the logarithms of the positive values; `None` with fewer than 2.
fn log_moments(xs: &[f64]) -> Option<Moments> {
    let logs: Vec<f64> = xs.iter().filter(|x| **x > 0.0).map(|x| x.ln()).collect();
    if logs.len() < 2 {
        return None;
    }
    Summary::of(&logs).ok().map(|s| s.moments())
}

/// The ranking (member indices, fastest first, by mean time per unit; members without an
/// estimate left out) and the comparison of each adjacent pair.
pub(crate) fn rank(
    members: &[MemberView<'_>],
    config: &GroupConfig,
) -> (Vec<usize>, Vec<PairComparison>) {
    let mut ranking: Vec<usize> = (0..members.len()).collect();
    ranking.sort_by(|&i, &j| {
        members[i]
            .estimate
            .mean
            .total_cmp(&members[j].estimate.mean)
    });
    let pairs = ranking
        .windows(2)
        .map(|w| compare_pair(&members[w[0]], &members[w[1]], (w[0], w[1]), config))
        .collect();
    (ranking, pairs)
}

/// Cycles to run before the next look at the pairs: from the round means each undecided pair
/// still needs (for `faster`: Welch's required sample size at power 0.8,
/// [`required_to_resolve`](crate::stats::samplesize::required_to_resolve); for `equivalent`:
/// the size at which the ratio's interval fits inside the noise band), the smaller of the two,
/// minus what the members have; at least 1, at most as many as have run (so one poor early
/// estimate cannot spend the cap). Fewer looks also mean fewer chances for noise to pass a
/// test by luck.
fn cycles_until_next_look(
    pairs: &[PairComparison],
    members: &[MemberView<'_>],
    config: &GroupConfig,
) -> usize {
    let mut need = 1usize;
    for pair in pairs.iter().filter(|p| p.verdict == PairVerdict::Undecided) {
        let (a, b) = (&members[pair.a], &members[pair.b]);
        let have = a.round_means.len().min(b.round_means.len());
        let var = |xs: &[f64]| log_moments(xs).map_or(0.0, |m| m.variance);
        let (va, vb) = (var(a.round_means), var(b.round_means));
        let d = pair.ratio.ln();
        let faster = crate::stats::samplesize::required_to_resolve(va, vb, d, config.alpha, 0.8);
        let band = config.noise - d.abs();
        let equivalent = (band > 0.0).then(|| {
            let t = crate::stats::summary::t_critical(config.confidence, (have.max(2) - 1) as f64);
            ((va + vb) * (t / band).powi(2)).ceil() as usize
        });
        let needed = match (faster, equivalent) {
            (Some(f), Some(e)) => f.min(e),
            (Some(n), None) | (None, Some(n)) => n,
            (None, None) => have + 1,
        };
        let missing = needed.saturating_sub(have).clamp(1, have.max(1));
        need = need.max(missing);
    }
    need
}

/// The result of a group.
#[derive(Debug, Clone)]
pub(crate) struct GroupResult {
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
    pub elapsed: Duration,
    /// When every pair had been settled (and stayed so at every later look), if ever: the time
    /// the ranking alone took. The group may run on after it, for the members' targets.
    pub ranking_settled: Option<Duration>,
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
/// settled or the cap (see the module docs and [`compare_pair`]). `configs[i]` is member `i`'s
/// session configuration; its own time cap should be the group's (a member keeps running after
/// meeting its target while pairs are undecided). A member whose session fails, or whose units
/// are below the clock's resolution, leaves the rotation.
pub(crate) fn run_group(
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
    let mut next_look = 1;
    let mut undecided = n.saturating_sub(1);
    let mut ranking_settled = None;
    let mut interrupted = false;
    let settled = loop {
        if super::stop::requested() {
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
            break false;
        }
        let at_cap = elapsed >= config.max_time;
        if cycles >= next_look || at_cap {
            let (indices, members) = views(&states, &ended);
            let (_, pairs) = rank(&members, config);
            undecided = pairs
                .iter()
                .filter(|p| p.verdict == PairVerdict::Undecided)
                .count();
            if undecided > 0 {
                ranking_settled = None;
            } else if ranking_settled.is_none() {
                ranking_settled = Some(elapsed);
            }
            let targets = indices.iter().all(|&i| {
                if config.wait_for_targets {
                    states[i].met_target()
                } else {
                    states[i].has_least_samples()
                }
            });
            let complete = indices.len() + ended.iter().filter(|e| e.is_some()).count() == n;
            if undecided == 0 && targets && complete && elapsed >= config.min_time {
                break true;
            }
            next_look = cycles + cycles_until_next_look(&pairs, &members, config);
            if !targets || !complete {
                // A member still short of its target or without an estimate: look again after
                // the next cycle, its own planner sizes its rounds.
                next_look = next_look.min(cycles + 1);
            }
        }
        progress(cycles, elapsed, undecided);
        if at_cap {
            break false;
        }
    };
    let (ranking, pairs) = final_ranking(&states, &ended, config);
    let elapsed = clock.now().saturating_sub(start);
    let members = states
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
        .collect();
    GroupResult {
        members,
        ranking,
        pairs,
        settled,
        cycles,
        elapsed,
        ranking_settled,
    }
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
        let before = clock.now();
        let data = workloads[i].round(work);
        let duration = clock.now().saturating_sub(before);
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
