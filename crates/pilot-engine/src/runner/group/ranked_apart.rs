//! A group's ranking from sessions measured apart (one after another, or interleaved by
//! processes), by the group's rule over each member's independent samples of its mean.

use crate::session::SessionResult;
use crate::session::group_session::{GroupConfig, MemberView, PairComparison, rank};

/// Ranks sessions measured one after another by the group's rule (with each round's mean over
/// its stable readings): the ranking, its adjacent pairs, and whether every pair was settled.
/// Sessions without an estimate are left out of the ranking.
pub fn rank_sessions(
    sessions: &[SessionResult],
    config: &GroupConfig,
) -> (Vec<usize>, Vec<PairComparison>, bool) {
    let round_means: Vec<Vec<f64>> = sessions
        .iter()
        .map(|s| {
            s.rounds
                .iter()
                .filter(|r| r.analysed && r.stable.is_some())
                .filter_map(|r| r.mean_ns)
                .collect()
        })
        .collect();
    rank_samples(sessions, &round_means, config)
}

/// Ranks sessions by the group's rule, each with its own independent samples of the mean
/// (`samples[i]` for `sessions[i]`: its rounds' means, or its processes' estimates).
pub(super) fn rank_samples(
    sessions: &[SessionResult],
    round_means: &[Vec<f64>],
    config: &GroupConfig,
) -> (Vec<usize>, Vec<PairComparison>, bool) {
    let with: Vec<usize> = (0..sessions.len())
        .filter(|&i| sessions[i].estimate.is_some())
        .collect();
    let views: Vec<MemberView<'_>> = with
        .iter()
        .map(|&i| MemberView {
            estimate: sessions[i].estimate.as_ref().expect("filtered"),
            round_means: &round_means[i],
        })
        .collect();
    let (ranking, pairs) = rank(&views, config);
    let ranking: Vec<usize> = ranking.into_iter().map(|k| with[k]).collect();
    let pairs: Vec<PairComparison> = pairs
        .into_iter()
        .map(|p| PairComparison {
            a: with[p.a],
            b: with[p.b],
            ..p
        })
        .collect();
    let settled = pairs.iter().all(PairComparison::settled);
    (ranking, pairs, settled)
}
