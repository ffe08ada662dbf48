//! The interleaved processes of a group: one process of each member per cycle, so that the
//! machine's slow changes fall on all members alike.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use super::child::{WarmUp, run_process};
use super::combination::{merge_warnings, processes_result};
use super::message::{ProcessEnd, ProcessResult};
use crate::report::LiveProgress;
use crate::runner::registry::Bench;
use crate::runner::workload::failed_session;
use crate::session::process_estimate::{LEAST_SHARE, ProcessEstimate, combine};
use crate::session::{Estimate, SessionConfig, SessionResult, Status, Warning};

/// What one member measured so far, for the rule that says whether a ranking is settled.
pub(in crate::runner) struct SoFar<'a> {
    /// Its estimate over its processes so far (from two processes on); `None` before, or when
    /// it ended without one.
    pub(crate) estimate: Option<&'a Estimate>,
    /// Its processes' means, in order.
    pub(crate) means: Vec<f64>,
    /// Whether it measures no more (at its target, failed, or without an estimate).
    pub(crate) ended: bool,
}

/// Whether the ranking of the members is settled, from what each measured so far: every
/// member still measuring then stops (see `Groups::settle_rule`).
pub(in crate::runner) type Settled<'a> = &'a dyn Fn(&[SoFar<'_>]) -> bool;

/// Measures `members` (with their session settings) interleaved by processes: each cycle runs
/// one process of every member still measuring, each member first in turn, so
/// that the machine's slow changes fall on all members alike. At least `processes` cycles run;
/// a member stops once its interval over process estimates is as narrow as its target, and the
/// whole stops at the sum of the members' time caps, or as soon as `settled` says the ranking
/// is (then a member short of its target ends as [`Status::Settled`], as a group's member
/// does). Each process gets an equal share of its member's cap over `processes` processes, at
/// least 0.3 s.
///
/// For benches whose bodies live only in their process's own run (announced at run time): the
/// parent needs no closure, each child announces its bench again.
pub(in crate::runner) fn measure_interleaved(
    members: &[(&Bench, SessionConfig)],
    processes: usize,
    settled: Option<Settled<'_>>,
) -> Vec<(SessionResult, Option<u64>)> {
    let progress = LiveProgress::start(&format!("{} benches interleaved", members.len()));
    let start = Instant::now();
    let cap: Duration = members.iter().map(|(_, c)| c.max_time).sum();
    let processes = processes.max(2);
    let mut state: Vec<MemberProcesses> =
        members.iter().map(|_| MemberProcesses::default()).collect();
    let mut cycle = 0usize;
    while state.iter().any(|m| m.status.is_none()) {
        let mut order: Vec<usize> = (0..members.len())
            .filter(|&i| state[i].status.is_none())
            .collect();
        // Each member goes first in turn.
        let first = cycle % order.len().max(1);
        order.rotate_left(first);
        for i in order {
            let (b, config) = &members[i];
            if state[i].run_one(b, config, processes).is_break() {
                progress.finish();
                let mut interrupted = failed_session("interrupted");
                interrupted.status = Status::Interrupted;
                return vec![(interrupted, None); members.len()];
            }
        }
        cycle += 1;
        if let Some(rule) = settled {
            let so_far: Vec<SoFar<'_>> = state.iter().map(MemberProcesses::so_far).collect();
            if rule(&so_far) {
                for (m, (_, config)) in state.iter_mut().zip(members) {
                    m.end(config.target, Status::Settled);
                }
            }
        }
        if start.elapsed() >= cap && cycle >= processes {
            for (m, (_, config)) in state.iter_mut().zip(members) {
                m.end(config.target, Status::TimeCap);
            }
        }
    }
    progress.finish();
    let elapsed = start.elapsed();
    state
        .into_iter()
        .zip(members)
        .map(|(m, (_, config))| {
            processes_result(
                m.done,
                m.status.expect("every member finished"),
                m.estimate,
                m.warnings,
                config,
                elapsed,
            )
        })
        .collect()
}

/// One member's processes so far, and how they ended.
#[derive(Default)]
struct MemberProcesses {
    done: Vec<ProcessResult>,
    warnings: Vec<Warning>,
    /// `None` while the member is still measuring.
    status: Option<Status>,
    /// The combined estimate over `done`, once two processes reported.
    estimate: Option<Estimate>,
    /// What its processes have learnt of its warm-up.
    warm_up: WarmUp,
}

impl MemberProcesses {
    /// Runs one more process of member `b` (with its `config`), given an equal share of its
    /// cap over `processes` processes; the member converges once its interval over process
    /// estimates is as narrow as its target. Breaks when the run was interrupted.
    fn run_one(&mut self, b: &Bench, config: &SessionConfig, processes: usize) -> ControlFlow<()> {
        let share = (config.max_time / processes as u32).max(LEAST_SHARE);
        let child_target = (config.target * (processes as f64).sqrt()).min(0.5);
        let cap = share + self.warm_up.extra_cap();
        match run_process(&b.name, cap, config, child_target, self.warm_up) {
            Ok(p) => {
                self.warm_up.learn(&p);
                merge_warnings(&mut self.warnings, &self.done, &p);
                self.done.push(p);
            }
            Err(_) if crate::runner::interrupt::requested() => return ControlFlow::Break(()),
            Err(ProcessEnd::NoEstimate(status)) => {
                let end = ProcessEnd::NoEstimate(status.clone());
                self.warnings.push(Warning::Note(format!(
                    "process {} of this bench: {end}",
                    self.done.len() + 1
                )));
                self.status = Some(status);
            }
            Err(ProcessEnd::Failed(msg)) => self.status = Some(Status::Failed(msg)),
        }
        if self.status.is_some() || self.done.len() < 2 {
            return ControlFlow::Continue(());
        }
        let per: Vec<ProcessEstimate> = self.done.iter().map(|p| p.estimate.clone()).collect();
        let e = combine(&per, config);
        if e.relative_half_width() <= config.target && self.done.len() >= processes {
            self.status = Some(Status::Converged);
        }
        self.estimate = Some(e);
        ControlFlow::Continue(())
    }

    /// What this member measured so far.
    fn so_far(&self) -> SoFar<'_> {
        SoFar {
            estimate: self.estimate.as_ref(),
            means: self.done.iter().map(|p| p.estimate.mean).collect(),
            ended: self.status.is_some(),
        }
    }

    /// Ends a member still measuring: converged when its estimate meets its `target`, else
    /// with `otherwise` (settled when the ranking is, the time cap at the whole's cap).
    fn end(&mut self, target: f64, otherwise: Status) {
        if self.status.is_none() {
            let met = self
                .estimate
                .as_ref()
                .is_some_and(|e| e.relative_half_width() <= target);
            self.status = Some(if met { Status::Converged } else { otherwise });
        }
    }
}
