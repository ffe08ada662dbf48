//! The ranking of a group's members and the rule that decides each adjacent pair of it, with
//! how many cycles to run before the next look.

use super::GroupConfig;
use crate::session::Estimate;
use pilot_stats::summary::Moments;
use pilot_stats::{ConfidenceInterval, Summary};
use pilot_stats::{WelchTest, welch_test};

/// The outcome of comparing two adjacent members of the ranking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairVerdict {
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
pub struct PairComparison {
    /// Index of the member ranked first.
    pub(crate) a: usize,
    /// Index of the member ranked next.
    pub(crate) b: usize,
    /// Time of `b` over time of `a`.
    pub(crate) ratio: f64,
    /// Confidence interval of the ratio.
    pub(crate) ratio_ci: ConfidenceInterval,
    /// Welch's two-sided p-value; `None` when a member has no round means (readings-only).
    pub(crate) p: Option<f64>,
    /// Whether the order of the pair is settled.
    pub(crate) verdict: PairVerdict,
    /// A member had fewer analysed rounds than the usual rule needs (`min_rounds`): the
    /// verdict is the stricter early one (see `compare_pair`), and says so beside it.
    pub(crate) few_rounds: bool,
}

impl PairComparison {
    /// Whether the pair is settled by the usual rule: decided, each member with `min_rounds`
    /// analysed rounds. A verdict on fewer rounds is what a group reports when its cap comes
    /// first; it does not stop a group, nor settle its ranking.
    pub(crate) fn settled(&self) -> bool {
        self.verdict != PairVerdict::Undecided && !self.few_rounds
    }
}

/// What a member brings to a pair comparison.
pub(crate) struct MemberView<'a> {
    pub(crate) estimate: &'a Estimate,
    /// Mean of each analysed round's stable unit readings.
    pub(crate) round_means: &'a [f64],
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
/// Verdicts, once each member has `min_rounds` analysed rounds: `faster` when the members'
/// intervals do not overlap or p < `alpha` (and the difference points the way of the ranking);
/// `equivalent` when the ratio's interval lies inside `1 ± noise`; otherwise `undecided`.
///
/// Before then the test is fragile: its variance comes from a handful of round means, their
/// logarithms must be roughly normal for the t interval to hold, and the group looks at the
/// pair after each cycle, each look a chance for noise to pass the test. Yet a difference far
/// past all of that (a linked list many times slower than a deque, at a tiny p, at the cap of a
/// short run) is no less certain for it. So with fewer rounds, what decides is the ratio's
/// interval widened for the caveat, and its distance from the noise band: `faster` when p <
/// `alpha / min_rounds` and the ratio's interval at confidence `1 − (1 − confidence) /
/// min_rounds` lies wholly above `1 + noise`; `equivalent` when that interval lies inside
/// `1 ± noise`; otherwise `undecided`. Dividing by `min_rounds` is Bonferroni's correction for
/// the looks a pair gets before its members reach `min_rounds` rounds (a member gains about one
/// analysed round a cycle and the group looks at most once a cycle), so noise settles a pair
/// over those early looks no more often than `alpha`; asking the widened interval to clear the
/// noise band, not only 1, leaves a difference near the threshold for the usual rule after
/// more rounds. The members' own intervals (the disjoint rule, readings-only members) are not
/// trusted so early. Such a pair, decided or not, says so ([`PairComparison::few_rounds`]);
/// its reported interval stays at the group's confidence. Only the usual rule stops a group
/// ([`PairComparison::settled`]): the early verdict is what a group reports when its cap
/// comes before the rounds. Time: O(n) in the round means.
pub(crate) fn compare_pair(
    a: &MemberView<'_>,
    b: &MemberView<'_>,
    (ia, ib): (usize, usize),
    config: &GroupConfig,
) -> PairComparison {
    let (ea, eb) = (a.estimate, b.estimate);
    let enough = ea.rounds >= config.min_rounds && eb.rounds >= config.min_rounds;
    let disjoint = !ea.ci.overlaps(&eb.ci) && eb.mean > ea.mean;
    let moments = log_moments(a.round_means).zip(log_moments(b.round_means));
    let welch = moments.and_then(|(x, y)| welch_test(&x, &y, config.confidence).ok());
    let (ratio, ratio_ci, p, significant) = match welch {
        Some(w) => (
            w.difference.exp(),
            ratio_interval(&w, config.confidence),
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
        verdict_on_few_rounds(moments, config)
    } else if disjoint || significant {
        PairVerdict::Faster
    } else if inside_noise(&ratio_ci, config.noise) {
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

/// The verdict of a pair one of whose members has fewer than `min_rounds` analysed rounds,
/// from the moments of the members' log round means (`None` when a member has fewer than 2,
/// or is readings-only): Welch's test at `alpha / min_rounds` with the ratio's interval at
/// `1 − (1 − confidence) / min_rounds`, judged against the noise band (see `compare_pair`).
fn verdict_on_few_rounds(moments: Option<(Moments, Moments)>, config: &GroupConfig) -> PairVerdict {
    let looks = config.min_rounds.max(1) as f64;
    let confidence = 1.0 - (1.0 - config.confidence) / looks;
    let Some(w) = moments.and_then(|(x, y)| welch_test(&x, &y, confidence).ok()) else {
        return PairVerdict::Undecided;
    };
    let widened = ratio_interval(&w, confidence);
    if w.p < config.alpha / looks && widened.low > 1.0 + config.noise {
        PairVerdict::Faster
    } else if inside_noise(&widened, config.noise) {
        PairVerdict::Equivalent
    } else {
        PairVerdict::Undecided
    }
}

/// The interval of the ratio `exp(d)` from Welch's interval of the difference `d` of logarithms.
fn ratio_interval(w: &WelchTest, confidence: f64) -> ConfidenceInterval {
    ConfidenceInterval {
        low: w.difference_ci.low.exp(),
        high: w.difference_ci.high.exp(),
        confidence,
    }
}

/// Whether a ratio's interval lies inside `1 ± noise`.
fn inside_noise(ci: &ConfidenceInterval, noise: f64) -> bool {
    ci.low >= 1.0 - noise && ci.high <= 1.0 + noise
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

/// Cycles to run before the next look at the pairs: from the round means each unsettled pair
/// still needs (for `faster`: Welch's required sample size at power 0.8,
/// [`required_to_resolve`](pilot_stats::required_to_resolve); for `equivalent`:
/// the size at which the ratio's interval fits inside the noise band), the smaller of the two,
/// minus what the members have; at least 1, at most as many as have run (so one poor early
/// estimate cannot spend the cap). Fewer looks also mean fewer chances for noise to pass a
/// test by luck.
pub(super) fn cycles_until_next_look(
    pairs: &[PairComparison],
    members: &[MemberView<'_>],
    config: &GroupConfig,
) -> usize {
    let mut need = 1usize;
    for pair in pairs.iter().filter(|p| !p.settled()) {
        let (a, b) = (&members[pair.a], &members[pair.b]);
        let have = a.round_means.len().min(b.round_means.len());
        let var = |xs: &[f64]| log_moments(xs).map_or(0.0, |m| m.variance);
        let (va, vb) = (var(a.round_means), var(b.round_means));
        let d = pair.ratio.ln();
        let faster = pilot_stats::required_to_resolve(va, vb, d, config.alpha, 0.8);
        let band = config.noise - d.abs();
        let equivalent = (band > 0.0).then(|| {
            let t = pilot_stats::summary::t_critical(config.confidence, (have.max(2) - 1) as f64);
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
