//! Groups in the bench binary: which selected benches are alternatives of each other, running
//! them interleaved ([`crate::session::group_session`]) when the bench loop reaches the first
//! of them, and their ranking in the terminal and in the run document.
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
//!
//! [`ranked_apart`] ranks members measured apart, [`finished`] shows a finished group.

use std::collections::BTreeMap;
use std::time::Duration;

use super::config::session_config;
use super::processes::SoFar;
use super::registry::Bench;
use super::workload::{
    BenchWorkload, SessionChecks, calibrate, failed_session, measure, target_unit_ns,
};
use crate::cli::Args;
use crate::record::{ClockInfo, RealClock};
use crate::report::LiveProgress;
use crate::session::group_session::{
    GroupConfig, GroupResult, MemberView, PairComparison, rank, run_group,
};
use crate::session::{MachineState, SessionConfig, SessionResult, Workload};
use pilot_format::GroupDoc;

mod finished;
mod ranked_apart;

pub(super) use finished::GroupReport;
pub use finished::{few_rounds_note, group_doc, group_report, render_report};
use ranked_apart::rank_samples;
pub use ranked_apart::rank_sessions;

/// Least processes of each member before a ranking by processes may stop them (Welch's test
/// over three process means a member): pairs that differ clearly settle in a few seconds, and
/// close ones run on to more.
pub(crate) const LEAST_RANKED_PROCESSES: usize = 3;

/// Longest round of a group member: short rounds make many cycles, so the members' rounds
/// alternate faster than the machine's state changes.
pub const MEMBER_MAX_ROUND: Duration = Duration::from_millis(25);

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
            .map(|b| BenchWorkload::new(b, target_unit_ns(clock)).timed_by(clock.timer))
            .collect();
        // A member that cannot calibrate fails alone; the others are still compared.
        let failed: Vec<Option<String>> = workloads
            .iter_mut()
            .map(|w| calibrate(w, config.max_time / members.len() as u32).err())
            .collect();
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
            workloads[index[k]].judge_allocations(&mut session, running_configs[k].confidence);
            session.machine_state = Some(match workloads[index[k]].sampler.take() {
                _ if args.no_sampling => MachineState::Off,
                Some(sampler) => {
                    let offset = origin.saturating_duration_since(sampler.origin());
                    let bottleneck = workloads[index[k]].bottleneck;
                    session.judge_machine(&sampler.finish(), offset, bottleneck);
                    MachineState::Sampled
                }
                None => MachineState::NotSampled,
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

    /// The members of every group ranked so far.
    pub(super) fn ranked_members(&self) -> Vec<&str> {
        self.reports.iter().flat_map(|g| g.members()).collect()
    }

    /// The ranking table of every group measured, for the terminal.
    pub(super) fn render(&self) -> String {
        let mut out: String = self
            .reports
            .iter()
            .map(|g| render_report(g, self.sequential))
            .collect();
        if let Some(note) = finished::few_rounds_note(&self.reports) {
            // Under the last ranking, in place of its blank line.
            out.pop();
            out.push_str(note);
            out.push('\n');
        }
        out
    }

    /// The `groups` section of the run document.
    pub(super) fn docs(&self) -> Vec<GroupDoc> {
        self.reports
            .iter()
            .map(|g| group_doc(g, !self.sequential))
            .collect()
    }
}

/// The rule that stops `members`, interleaved by processes, once the ranking of each group
/// instance among them is settled (every adjacent pair `faster` or `equivalent` by the
/// group's rule over the members' process means), each member ranked with at least
/// [`LEAST_RANKED_PROCESSES`] processes (or `--processes N`); `None` when an explicit `ci`
/// asks the members to reach their targets, as it does of a group in one process.
pub(super) fn settle_rule<'m>(
    args: &Args,
    members: &'m [&Bench],
) -> Option<impl Fn(&[SoFar<'_>]) -> bool + 'm> {
    if args.ci.is_some() {
        return None;
    }
    let base: Vec<SessionConfig> = members
        .iter()
        .map(|b| session_config(args, b.def))
        .collect();
    let config = group_config(&base);
    let least = args.processes.unwrap_or(LEAST_RANKED_PROCESSES).max(2);
    let mut instances: Vec<&str> = members.iter().filter_map(|b| b.group.as_deref()).collect();
    instances.sort_unstable();
    instances.dedup();
    Some(move |so_far: &[SoFar<'_>]| {
        let mut ranked = 0;
        for instance in &instances {
            let mut views = Vec::new();
            for (b, m) in members.iter().zip(so_far) {
                if b.group.as_deref() != Some(*instance) {
                    continue;
                }
                match m.estimate {
                    Some(_) if !m.ended && m.means.len() < least => return false,
                    Some(estimate) => views.push(MemberView {
                        estimate,
                        round_means: &m.means,
                    }),
                    None if m.ended => {}
                    None => return false,
                }
            }
            if views.len() < 2 {
                continue;
            }
            let (_, pairs) = rank(&views, &config);
            if !pairs.iter().all(PairComparison::settled) {
                return false;
            }
            ranked += 1;
        }
        ranked > 0
    })
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
pub fn group_config(members: &[SessionConfig]) -> GroupConfig {
    GroupConfig {
        confidence: members.first().map_or(0.95, |c| c.confidence),
        max_time: members.iter().map(|c| c.max_time).max().unwrap_or_default(),
        min_time: members.iter().map(|c| c.min_time).max().unwrap_or_default(),
        min_rounds: members.iter().map(|c| c.min_rounds).max().unwrap_or(10),
        ..GroupConfig::default()
    }
}
