//! Groups in the bench binary: which selected benches are alternatives of each other, running
//! them interleaved ([`crate::session::group`]) when the bench loop reaches the first of them,
//! and their ranking in the terminal and in the run document.
//!
//! The group's time cap is one bench's cap (the largest member `max_time`, from flags,
//! environment or attribute, default 10 s) for the whole group: interleaving settles a ranking
//! in a fraction of the time one bench's interval takes. Its least time is the largest member
//! `min_time`. The group stops once its ranking is settled; it waits for the members' own
//! targets only when a `ci` was set explicitly (flag, `PILOT_CI`, or a member's attribute). Members are measured
//! in this process whatever `--processes` says (interleaving needs them side by side).
//! `--sequential` measures the members one after another instead, each to its own target, and
//! compares them afterwards by the same rule (with each round's mean over all its readings):
//! the baseline against which interleaving is judged.

use std::collections::BTreeMap;
use std::time::Duration;

use super::config::session_config;
use super::registry::Bench;
use super::workload::{
    BenchWorkload, SessionChecks, calibrate, failed_session, form, measure, target_unit_ns,
};
use crate::cli::Args;
use crate::fmt::format_estimate;
use crate::record::{ClockInfo, RealClock};
use crate::report::{GroupRow, LiveProgress, TimePer, render_group};
use crate::schema::{GroupDoc, MemberDoc, PairDoc, RangeDoc};
use crate::session::group::{
    GroupConfig, GroupResult, MemberView, PairComparison, PairVerdict, rank, run_group,
};
use crate::session::{SessionConfig, SessionResult, Workload};

/// Longest round of a group member: short rounds make many cycles, so the members' rounds
/// alternate faster than the machine's state changes.
pub(crate) const MEMBER_MAX_ROUND: Duration = Duration::from_millis(25);

/// The groups among the selected benches, and the results of those already measured.
pub(super) struct Groups<'b> {
    /// Group instance name → its selected members, in bench order (only groups of 2 or more).
    members: BTreeMap<String, Vec<&'b Bench>>,
    sequential: bool,
    /// Bench name → its measured session and micro-form iterations, until the loop takes it.
    measured: BTreeMap<String, (SessionResult, Option<u64>)>,
    /// Sessions of `--sequential` members, kept to compare once all are done.
    sequential_sessions: BTreeMap<String, Vec<Option<SessionResult>>>,
    reports: Vec<GroupReport>,
}

/// A finished group, for the table and the run document.
pub(crate) struct GroupReport {
    name: String,
    /// Member names and estimates, in ranking order.
    ranked: Vec<(String, f64, f64, f64)>,
    pairs: Vec<(String, String, PairComparison)>,
    settled: bool,
    cycles: usize,
    elapsed: Duration,
    /// When the ranking was settled, in an interleaved run.
    ranking_settled: Option<Duration>,
    confidence: f64,
    /// What the members' times are per (the title of the time column).
    per: String,
}

impl GroupReport {
    /// The report of a group whose `members` are these benches: their times are per iteration
    /// when all are micro-form, per unit when none is.
    fn of_members(mut self, members: &[&Bench]) -> Self {
        let per = members.iter().map(|b| TimePer::of_form(form(&b.def.body)));
        self.per = TimePer::title(per).unwrap_or_else(|| "time".to_string());
        self
    }
}

impl<'b> Groups<'b> {
    /// The groups with at least two selected members.
    pub(super) fn new(args: &Args, selected: &[&'b Bench]) -> Self {
        let mut members: BTreeMap<String, Vec<&'b Bench>> = BTreeMap::new();
        for b in selected {
            if let Some(group) = &b.group {
                members.entry(group.clone()).or_default().push(b);
            }
        }
        members.retain(|_, m| m.len() >= 2);
        Groups {
            members,
            sequential: args.sequential,
            measured: BTreeMap::new(),
            sequential_sessions: BTreeMap::new(),
            reports: Vec::new(),
        }
    }

    /// The session of `b` when it is a group member: the whole group runs at its first
    /// member, the others' results wait here. `None` for a bench outside every group.
    pub(super) fn measure(
        &mut self,
        args: &Args,
        b: &Bench,
        clock: ClockInfo,
    ) -> Option<(SessionResult, Option<u64>)> {
        let group = b.group.as_ref()?;
        let members = self.members.get(group)?.clone();
        if self.sequential {
            let (session, iters) = measure(
                b,
                None,
                &session_config(args, b.def),
                clock,
                SessionChecks::of(args, clock),
            );
            let slot = self
                .sequential_sessions
                .entry(group.clone())
                .or_insert_with(|| vec![None; members.len()]);
            if let Some(i) = members.iter().position(|m| m.name == b.name) {
                slot[i] = Some(session.clone());
            }
            if slot.iter().all(Option::is_some) {
                let sessions: Vec<SessionResult> = slot.iter().flatten().cloned().collect();
                self.compare_sequential(args, group, &members, &sessions);
            }
            return Some((session, iters));
        }
        if !self.measured.contains_key(&b.name) {
            self.run(args, group, &members, clock);
        }
        self.measured.remove(&b.name)
    }

    /// Runs one group interleaved and keeps its members' results and its report.
    fn run(&mut self, args: &Args, group: &str, members: &[&Bench], clock: ClockInfo) {
        let (config, configs) = member_configs(args, members);
        let mut workloads: Vec<BenchWorkload> = members
            .iter()
            .map(|b| BenchWorkload::new(b, target_unit_ns(clock)))
            .collect();
        // A member that cannot calibrate fails alone; the others are still compared.
        let failed: Vec<Option<String>> =
            workloads.iter_mut().map(|w| calibrate(w).err()).collect();
        let mut progress = LiveProgress::start(&format!("group {group}"));
        let mut running: Vec<&mut dyn Workload> = Vec::new();
        let mut running_configs = Vec::new();
        let mut index = Vec::new();
        for (i, w) in workloads.iter_mut().enumerate() {
            if failed[i].is_none() {
                running.push(w);
                running_configs.push(configs[i].clone());
                index.push(i);
            }
        }
        // Each member samples the machine's state between its own rounds.
        if !args.no_sampling {
            for w in running.iter_mut() {
                w.start_sampling();
            }
        }
        let origin = std::time::Instant::now();
        let real = RealClock::start();
        let mut result = run_group(
            &mut running,
            &running_configs,
            &real,
            &config,
            &mut |cycles, elapsed, undecided| {
                progress.message(&format!(
                    "cycle {cycles}, {:.1} s, {undecided} pair(s) undecided",
                    elapsed.as_secs_f64()
                ));
            },
        );
        progress.finish();
        let mut sessions: Vec<Option<SessionResult>> = vec![None; members.len()];
        for (k, mut session) in std::mem::take(&mut result.members).into_iter().enumerate() {
            session.machine_state = Some(match workloads[index[k]].sampler.take() {
                _ if args.no_sampling => "off",
                Some(sampler) => {
                    let offset = origin.saturating_duration_since(sampler.origin());
                    let bottleneck = workloads[index[k]].bottleneck;
                    session.judge_machine(&sampler.finish(), offset, bottleneck);
                    "sampled"
                }
                None => "not sampled",
            });
            sessions[index[k]] = Some(session);
        }
        for (i, b) in members.iter().enumerate() {
            let session = match (&failed[i], sessions[i].take()) {
                (Some(msg), _) => failed_session(msg),
                (None, Some(s)) => s,
                (None, None) => failed_session("the group ended before this member ran"),
            };
            let iters = matches!(b.def.body, crate::entry::BenchBody::Micro(_))
                .then_some(workloads[i].iters);
            self.measured.insert(b.name.clone(), (session, iters));
        }
        self.keep_report(group, members, &result, &index, config.confidence);
    }

    /// Keeps the report of group `group` from its `result`, whose members are numbered among
    /// those that ran (`index[k]` is the group's number of the `k`-th).
    fn keep_report(
        &mut self,
        group: &str,
        members: &[&Bench],
        result: &GroupResult,
        index: &[usize],
        confidence: f64,
    ) {
        // Members that ran are numbered among themselves in the result; back to the group's.
        let map = |k: usize| index[k];
        let ranking: Vec<usize> = result.ranking.iter().map(|&k| map(k)).collect();
        let pairs: Vec<PairComparison> = result
            .pairs
            .iter()
            .map(|p| PairComparison {
                a: map(p.a),
                b: map(p.b),
                ..p.clone()
            })
            .collect();
        let estimates: Vec<Option<(f64, f64, f64)>> = members
            .iter()
            .map(|b| {
                self.measured[&b.name]
                    .0
                    .estimate
                    .as_ref()
                    .map(|e| (e.mean, e.ci.low, e.ci.high))
            })
            .collect();
        self.reports.push(
            group_report(
                group,
                &names(members),
                &ranking,
                pairs,
                &estimates,
                confidence,
                result.settled,
                result.cycles,
                result.elapsed,
                result.ranking_settled,
            )
            .of_members(members),
        );
    }

    /// `--sequential`: compares members measured one after another by the group's rule.
    fn compare_sequential(
        &mut self,
        args: &Args,
        group: &str,
        members: &[&Bench],
        sessions: &[SessionResult],
    ) {
        let base: Vec<SessionConfig> = members
            .iter()
            .map(|b| session_config(args, b.def))
            .collect();
        let mut config = group_config(&base);
        config.wait_for_targets =
            args.ci.is_some() || members.iter().any(|b| b.def.options.ci.is_some());
        let ranked = rank_sessions(sessions, &config);
        let elapsed = sessions.iter().map(|s| s.elapsed).sum();
        self.push_report(
            group,
            members,
            sessions,
            ranked,
            config.confidence,
            0,
            elapsed,
        );
    }

    /// Ranks group `group`'s `members`, measured interleaved by processes
    /// ([`measure_interleaved`](super::processes::measure_interleaved)) into `sessions` over
    /// `cycles` cycles: Welch's t over their process estimates decides each adjacent pair.
    pub(super) fn rank_processes(
        &mut self,
        args: &Args,
        group: &str,
        members: &[&Bench],
        sessions: &[SessionResult],
        cycles: usize,
    ) {
        let base: Vec<SessionConfig> = members
            .iter()
            .map(|b| session_config(args, b.def))
            .collect();
        let mut config = group_config(&base);
        config.wait_for_targets = args.ci.is_some();
        let means: Vec<Vec<f64>> = sessions.iter().map(|s| s.process_means.clone()).collect();
        let ranked = rank_samples(sessions, &means, &config);
        let elapsed = sessions.iter().map(|s| s.elapsed).max().unwrap_or_default();
        self.push_report(
            group,
            members,
            sessions,
            ranked,
            config.confidence,
            cycles,
            elapsed,
        );
    }

    /// Keeps the report of group `group`, whose `members` measured `sessions` (one after
    /// another, or interleaved by processes over `cycles` cycles) and were `ranked`.
    #[allow(clippy::too_many_arguments)]
    fn push_report(
        &mut self,
        group: &str,
        members: &[&Bench],
        sessions: &[SessionResult],
        (ranking, pairs, settled): (Vec<usize>, Vec<PairComparison>, bool),
        confidence: f64,
        cycles: usize,
        elapsed: Duration,
    ) {
        let estimates: Vec<Option<(f64, f64, f64)>> = sessions
            .iter()
            .map(|s| s.estimate.as_ref().map(|e| (e.mean, e.ci.low, e.ci.high)))
            .collect();
        self.reports.push(
            group_report(
                group,
                &names(members),
                &ranking,
                pairs,
                &estimates,
                confidence,
                settled,
                cycles,
                elapsed,
                None,
            )
            .of_members(members),
        );
    }

    /// The ranking table of every group measured, for the terminal.
    pub(super) fn render(&self) -> String {
        self.reports
            .iter()
            .map(|g| render_report(g, self.sequential))
            .collect()
    }

    /// The `groups` section of the run document.
    pub(super) fn docs(&self) -> Vec<GroupDoc> {
        self.reports
            .iter()
            .map(|g| group_doc(g, !self.sequential))
            .collect()
    }
}

/// Ranks sessions measured one after another by the group's rule (with each round's mean over
/// its stable readings): the ranking, its adjacent pairs, and whether every pair was settled.
/// Sessions without an estimate are left out of the ranking.
pub(crate) fn rank_sessions(
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
fn rank_samples(
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
    let settled = pairs.iter().all(|p| p.verdict != PairVerdict::Undecided);
    (ranking, pairs, settled)
}

/// A group's entry in the run document's `groups`.
pub(crate) fn group_doc(g: &GroupReport, interleaved: bool) -> GroupDoc {
    GroupDoc {
        name: g.name.clone(),
        ranking: g.ranked.iter().map(|r| r.0.clone()).collect(),
        pairs: g
            .pairs
            .iter()
            .map(|(a, b, p)| PairDoc {
                a: a.clone(),
                b: b.clone(),
                ratio: p.ratio,
                ratio_ci: RangeDoc {
                    low: p.ratio_ci.low,
                    high: p.ratio_ci.high,
                },
                p: p.p,
                verdict: p.verdict.as_str().to_string(),
            })
            .collect(),
        members: g
            .ranked
            .iter()
            .map(|(name, mean, low, high)| MemberDoc {
                name: name.clone(),
                mean: *mean,
                ci: RangeDoc {
                    low: *low,
                    high: *high,
                },
            })
            .collect(),
        status: if g.settled { "settled" } else { "time cap" }.to_string(),
        interleaved,
        cycles: g.cycles,
        elapsed_s: g.elapsed.as_secs_f64(),
        ranking_settled_s: g.ranking_settled.map(|t| t.as_secs_f64()),
    }
}

/// A finished group's report: its members' `names` in the order of `estimates`, and what the
/// interleaved (or sequential) comparison found.
#[allow(clippy::too_many_arguments)]
pub(crate) fn group_report(
    group: &str,
    names: &[String],
    ranking: &[usize],
    pairs: Vec<PairComparison>,
    estimates: &[Option<(f64, f64, f64)>],
    confidence: f64,
    settled: bool,
    cycles: usize,
    elapsed: Duration,
    ranking_settled: Option<Duration>,
) -> GroupReport {
    let ranked = ranking
        .iter()
        .filter_map(|&i| {
            let (mean, low, high) = estimates[i]?;
            Some((names[i].clone(), mean, low, high))
        })
        .collect();
    let pairs = pairs
        .into_iter()
        .map(|p| (names[p.a].clone(), names[p.b].clone(), p))
        .collect();
    GroupReport {
        name: group.to_string(),
        ranked,
        pairs,
        settled,
        cycles,
        elapsed,
        ranking_settled,
        confidence,
        per: "time per unit".to_string(),
    }
}

/// One group's ranking table, with a line saying how it was measured.
pub(crate) fn render_report(g: &GroupReport, sequential: bool) -> String {
    let mut out = String::new();
    let how = match (sequential, g.settled) {
        (true, true) => "one after another, settled".to_string(),
        (true, false) => "one after another, not settled".to_string(),
        (false, true) => format!("settled after {} cycles", g.cycles),
        (false, false) => format!("time cap after {} cycles", g.cycles),
    };
    // A ranking settled long before the end: the rest went to the members' targets.
    let how = match g.ranking_settled {
        Some(t) if !sequential && g.elapsed.as_secs_f64() > 1.5 * t.as_secs_f64() => {
            format!("{how}; the ranking was settled at {:.1} s", t.as_secs_f64())
        }
        _ => how,
    };
    out.push_str(&format!(
        "group {} ({how}, {:.1} s; {:.0}% CI)\n",
        g.name,
        g.elapsed.as_secs_f64(),
        100.0 * g.confidence
    ));
    let Some(&(_, fastest, f_low, f_high)) = g.ranked.first() else {
        out.push_str("  no member has an estimate\n\n");
        return out;
    };
    let f_rel = (f_high - f_low) / 2.0 / fastest;
    let rows: Vec<GroupRow> = g
        .ranked
        .iter()
        .enumerate()
        .map(|(k, (name, mean, low, high))| {
            let rel = (high - low) / 2.0 / mean;
            let ratio = mean / fastest;
            let ratio_hw = ratio * (rel * rel + f_rel * f_rel).sqrt();
            let vs_fastest = if k == 0 {
                "1.00×".to_string()
            } else {
                format!("{ratio:.2}× ± {ratio_hw:.2}×")
            };
            let (vs_next, p, verdict) = match k.checked_sub(1).map(|j| &g.pairs[j]) {
                Some((a, _, pair)) => (
                    format!(
                        "{:.3}× [{:.3}, {:.3}] vs {a}",
                        pair.ratio, pair.ratio_ci.low, pair.ratio_ci.high
                    ),
                    pair.p.map_or("-".to_string(), |p| format!("{p:.1e}")),
                    pair.verdict.as_str().to_string(),
                ),
                None => (String::new(), String::new(), String::new()),
            };
            GroupRow {
                rank: (k + 1).to_string(),
                name: name.clone(),
                time: format_estimate(*mean, *low, *high),
                vs_fastest,
                vs_next,
                p,
                verdict,
            }
        })
        .collect();
    out.push_str(&render_group(&rows, &g.per));
    if g.pairs.iter().any(|(_, _, p)| p.few_rounds) {
        out.push_str(
            "  undecided: a member had too few analysed rounds for a verdict, whatever p says; \
             give the group more time (--max-time)\n",
        );
    }
    out.push('\n');
    out
}

/// The members' names, in member order.
fn names(members: &[&Bench]) -> Vec<String> {
    members.iter().map(|b| b.name.clone()).collect()
}

/// The group's rule and cap, and each member's session settings in the group: the group's cap
/// (a member keeps running after its target while pairs are undecided), short rounds, and a
/// share of the time to a first result.
fn member_configs(args: &Args, members: &[&Bench]) -> (GroupConfig, Vec<SessionConfig>) {
    let base: Vec<SessionConfig> = members
        .iter()
        .map(|b| session_config(args, b.def))
        .collect();
    let mut config = group_config(&base);
    config.wait_for_targets =
        args.ci.is_some() || members.iter().any(|b| b.def.options.ci.is_some());
    let configs = base
        .iter()
        .map(|c| SessionConfig {
            max_time: config.max_time,
            max_round: c.max_round.min(MEMBER_MAX_ROUND),
            first_result: (c.first_result / members.len() as u32).max(Duration::from_millis(100)),
            ..c.clone()
        })
        .collect();
    (config, configs)
}

/// The group's rule and cap from its members' settings (see the module docs).
pub(crate) fn group_config(members: &[SessionConfig]) -> GroupConfig {
    GroupConfig {
        confidence: members.first().map_or(0.95, |c| c.confidence),
        max_time: members.iter().map(|c| c.max_time).max().unwrap_or_default(),
        min_time: members.iter().map(|c| c.min_time).max().unwrap_or_default(),
        min_rounds: members.iter().map(|c| c.min_rounds).max().unwrap_or(10),
        ..GroupConfig::default()
    }
}
