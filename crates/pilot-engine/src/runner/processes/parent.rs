//! The processes of one bench: as many fresh processes as its interval needs and its time cap
//! allows, each given its share of the time.

use std::time::{Duration, Instant};

use super::child::{WarmUp, run_process};
use super::combination::{merge_warnings, processes_result};
use super::message::{ProcessEnd, ProcessResult};
use crate::report::LiveProgress;
use crate::runner::registry::Bench;
use crate::session::process_estimate::{
    LEAST_SHARE, ProcessCost, ProcessEstimate, SHORT_SHARE, alone, child_target, combine,
    dimensioned_share, early_share, modes_undecided, processes_needed, settled,
};
use crate::session::reach::{judge_processes, out_of_reach_warning};
use crate::session::{Estimate, SessionConfig, SessionResult, Status, Warning};

/// The note of process `n`, which ended with no estimate (`status`) and so ended the bench.
fn no_estimate_note(n: usize, status: &Status) -> Warning {
    let end = ProcessEnd::NoEstimate(status.clone());
    Warning::Note(format!("process {n} of this bench: {end}"))
}

/// Measures a bench in several process executions (Kalibera & Jones, "Rigorous benchmarking in
/// reasonable time"): what a process starts with (memory layout, where its pages land, the
/// machine's state at that moment) stays fixed within it and changes between processes, so no
/// interval from one process can see that variation, and repeated runs disagree by more than
/// their intervals say. Each process runs a short adaptive session; the result is the mean of
/// the processes' estimates, and its interval the wider of Student's t over those estimates and
/// the processes' own intervals combined.
///
/// `processes` processes run, or as few as `least` once their interval meets the target and
/// they agree ([`settled`]: no process far from the rest); while the combined interval is wider than the target
/// and the time cap allows, more are started, as many as the between-process variance says
/// are needed (Pilot's required sample size, over process estimates). Each process is given
/// the measuring time Kalibera and Jones's dimensioning finds best once two processes show a
/// between-process variance ([`dimensioned_share`]), else an equal share of the time left
/// among the processes still wanted (see [`process_cap`] for the least of each). When the cap
/// allowed one process only, its own estimate is the bench's, with a warning.
pub(in crate::runner) fn measure_in_processes(
    b: &Bench,
    config: &SessionConfig,
    (processes, least): (usize, usize),
) -> (SessionResult, Option<u64>) {
    let mut progress = LiveProgress::start(&b.name);
    let start = Instant::now();
    let child_target = child_target(config.target, processes, config.confidence);
    let mut done: Vec<ProcessResult> = Vec::new();
    let mut costs: Vec<ProcessCost> = Vec::new();
    let mut warnings: Vec<Warning> = Vec::new();
    let mut estimate = None;
    let mut wanted = processes;
    let mut warm_up = WarmUp::default();
    // Set when the first process's share was too short for any estimate: the rest of the cap
    // goes to one process.
    let mut alone_retry = false;
    // Cleared when a process given the short share of short units found no estimate in it:
    // the later ones get the first's share.
    let mut short_ok = true;
    let status = loop {
        let remaining = config.max_time.saturating_sub(start.elapsed());
        // Units short enough that the first process met its own target in its share.
        let short = short_ok
            && costs
                .first()
                .is_some_and(|c| c.half_width <= child_target * c.mean.abs());
        let cap = if alone_retry && done.is_empty() {
            remaining
        } else {
            process_cap(
                &costs,
                (done.len(), processes, wanted, short),
                config,
                remaining,
            )
        };
        let began = Instant::now();
        match run_process(
            &b.name,
            cap + warm_up.extra_cap(),
            config,
            child_target,
            warm_up,
        ) {
            Ok(p) => {
                warm_up.learn(&p);
                merge_warnings(&mut warnings, &done, &p);
                costs.push(cost_of(&p, began.elapsed()));
                done.push(p);
            }
            Err(_) if crate::runner::interrupt::requested() => break Status::Interrupted,
            Err(ProcessEnd::NoEstimate(status))
                if retry_alone(
                    &status,
                    done.len(),
                    alone_retry,
                    cap,
                    config.max_time.saturating_sub(start.elapsed()),
                ) =>
            {
                warnings.push(Warning::Note(alone_warning(cap)));
                alone_retry = true;
                continue;
            }
            Err(ProcessEnd::NoEstimate(status))
                if retry_longer(&status, short) && start.elapsed() < config.max_time =>
            {
                short_ok = false;
                continue;
            }
            Err(ProcessEnd::NoEstimate(status)) => {
                warnings.push(no_estimate_note(done.len() + 1, &status));
                break status;
            }
            Err(ProcessEnd::Failed(msg)) => break Status::Failed(msg),
        }
        if done.len() >= 2 {
            let (e, stop) = judge_combined(
                &done,
                config,
                (processes, least),
                start,
                &mut progress,
                &mut warnings,
                &mut wanted,
            );
            estimate = Some(e);
            if let Some(status) = stop {
                break status;
            }
        }
        if start.elapsed() >= config.max_time {
            break at_cap(estimate.as_ref(), config);
        }
    };
    progress.finish();
    finish(done, status, estimate, warnings, config, start)
}

/// Why the rest of a bench's cap went to one process, after a first that had `cap`.
fn alone_warning(cap: Duration) -> String {
    format!(
        "the first process found no estimate in its share of the time cap ({}): a unit (its \
         inputs' making included) lasts too long for several processes, so the rest of the \
         cap went to one process",
        crate::fmt::format_ns(cap.as_nanos() as f64)
    )
}

/// How a bench whose cap has run out ends: converged when its `estimate` met the target.
fn at_cap(estimate: Option<&Estimate>, config: &SessionConfig) -> Status {
    if estimate.is_some_and(|e| e.relative_half_width() <= config.target) {
        Status::Converged
    } else {
        Status::TimeCap
    }
}

/// The bench's result from the processes `done`, ended with `status`: when the cap allowed one
/// process only, its own estimate is the bench's, with a warning.
fn finish(
    done: Vec<ProcessResult>,
    status: Status,
    mut estimate: Option<Estimate>,
    mut warnings: Vec<Warning>,
    config: &SessionConfig,
    start: Instant,
) -> (SessionResult, Option<u64>) {
    if let ([only], None, Status::TimeCap | Status::Converged) = (&done[..], &estimate, &status) {
        warnings.push(Warning::Note(format!(
            "the time cap ({:.1} s) allowed one process only: the interval cannot see how \
             the bench varies from process to process; raise --max-time",
            config.max_time.as_secs_f64()
        )));
        estimate = Some(alone(&only.estimate, config.confidence));
    }
    processes_result(done, status, estimate, warnings, config, start.elapsed())
}

/// Whether a process that found no estimate (ending at `status`) with `done` processes before it, given
/// `cap`, is followed by one process given all that is `left` of the bench's cap: only the
/// first, only once, only when it ran out of time, and only when what is left is at least
/// twice its share (the bench's units, inputs included, outlast a process's share: a single
/// process can still reach an estimate, several cannot).
fn retry_alone(status: &Status, done: usize, retried: bool, cap: Duration, left: Duration) -> bool {
    done == 0 && !retried && *status == Status::TimeCap && left >= 2 * cap
}

/// Whether a process that found no estimate (ending at `status`) in the share it was given as one of short
/// units (`short`: after a first process that met its own target, [`SHORT_SHARE`] or a
/// dimensioned share that may come down to it) is run again with the longer shares of other
/// units: only when it ran out of time. Units that met the first's target in its share can
/// still be too long for a session's six rounds in a tenth of a second. The caller gives the
/// short share up after one such process, so this happens once a bench. Time: O(1).
fn retry_longer(status: &Status, short: bool) -> bool {
    short && *status == Status::TimeCap
}

/// After a process, with at least two `done`: their combined estimate (shown in `progress`),
/// and the status when the bench stops here, converged or out of reach (with its warning).
/// While it goes on, `wanted` grows to the processes the spread says are needed.
fn judge_combined(
    done: &[ProcessResult],
    config: &SessionConfig,
    (processes, least): (usize, usize),
    start: Instant,
    progress: &mut LiveProgress,
    warnings: &mut Vec<Warning>,
    wanted: &mut usize,
) -> (Estimate, Option<Status>) {
    let estimates: Vec<ProcessEstimate> = done.iter().map(|p| p.estimate.clone()).collect();
    let e = combine(&estimates, config);
    progress.update(e.mean, e.relative_half_width(), config.target, None);
    let met = e.relative_half_width() <= config.target
        && (done.len() >= processes || done.len() >= least && settled(&estimates, config));
    // More processes than the cap leaves time for: more processes cannot buy the target.
    // Judged from the least count on, so that a bench whose processes disagree by far more
    // than its target stops there rather than at its full count. Processes in modes with no
    // majority are given up to twice the count first: a few more can settle which mode is
    // the typical one.
    let undecided = modes_undecided(&estimates, config) && done.len() < 2 * processes;
    // `--min-time` holds for giving up as for stopping converged: the bench measures at least
    // that long, and its later processes may still narrow the interval.
    let long_enough = start.elapsed() >= config.min_time;
    if !met && done.len() >= least && !undecided && long_enough {
        let per_process = start.elapsed() / done.len() as u32;
        let remaining = config.max_time.saturating_sub(start.elapsed());
        let full = done.len() >= processes;
        if let Some(found) = judge_processes(
            &e,
            config.target,
            (done.len(), full),
            per_process,
            remaining,
        ) {
            warnings.push(Warning::Note(out_of_reach_warning(
                &e,
                &found,
                config.target,
                start.elapsed(),
            )));
            return (e, Some(Status::OutOfReach));
        }
    }
    // Not narrow enough yet: at least one more process, more if the spread says so.
    let needed = processes_needed(&estimates, config).unwrap_or(0);
    *wanted = (*wanted).max(needed).max(done.len() + 1);
    let stop = (met && long_enough).then_some(Status::Converged);
    (e, stop)
}

/// What process `p`, which took `wall` from its start to its report, cost and found.
fn cost_of(p: &ProcessResult, wall: Duration) -> ProcessCost {
    ProcessCost {
        mean: p.estimate.mean,
        half_width: p.estimate.half_width,
        wall,
        measured: p
            .rounds
            .iter()
            .filter(|r| r.analysed)
            .map(|r| r.duration)
            .sum(),
    }
}

/// The time cap of the next process, `remaining` being left of the bench's cap, with `done`
/// processes run of `least` at least and `wanted` wanted so far, `short` when the first met
/// its own target in its share. The first processes get a short share each ([`early_share`]), so that their spread, not their length, decides what comes next; then the
/// measuring time Kalibera and Jones's dimensioning finds best plus what starting a process
/// costs, at least [`SHORT_SHARE`] for short units and [`LEAST_SHARE`] for others; else an
/// equal share of the time left, at least [`LEAST_SHARE`].
fn process_cap(
    costs: &[ProcessCost],
    (done, least, wanted, short): (usize, usize, usize, bool),
    config: &SessionConfig,
    remaining: Duration,
) -> Duration {
    let left = wanted.saturating_sub(done).max(1) as u32;
    let floor = if short { SHORT_SHARE } else { LEAST_SHARE };
    match dimensioned_share(costs, config.confidence, (floor, remaining)) {
        _ if done < least => {
            early_share(config.max_time, least, done, short).min(remaining.max(SHORT_SHARE))
        }
        Some(share) => {
            let overhead = costs
                .iter()
                .map(|c| c.wall.saturating_sub(c.measured))
                .sum::<Duration>()
                / costs.len() as u32;
            (share + overhead).min(remaining.max(floor))
        }
        None => (remaining / left).max(LEAST_SHARE),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_out_of_time_in_the_short_share_is_run_again_longer() {
        let at_cap = Status::TimeCap;
        assert!(retry_longer(&at_cap, true));
        // Not given the short share (a first process that missed its target, or the short
        // share already given up), or out for another reason: the bench ends as before.
        assert!(!retry_longer(&at_cap, false));
        let steady = Status::NoSteadyState;
        assert!(!retry_longer(&steady, true));
    }

    #[test]
    fn only_a_first_process_out_of_time_with_room_left_is_retried_alone() {
        let at_cap = Status::TimeCap;
        let (share, s) = (Duration::from_millis(250), Duration::from_secs);
        assert!(retry_alone(&at_cap, 0, false, share, s(2)));
        // Exactly twice the share left still retries; less does not.
        assert!(retry_alone(&at_cap, 0, false, share, 2 * share));
        assert!(!retry_alone(
            &at_cap,
            0,
            false,
            share,
            2 * share - Duration::from_nanos(1)
        ));
        // A later process, a second retry, or another reason: the bench ends as before.
        assert!(!retry_alone(&at_cap, 1, false, share, s(2)));
        assert!(!retry_alone(&at_cap, 0, true, share, s(2)));
        let steady = Status::NoSteadyState;
        assert!(!retry_alone(&steady, 0, false, share, s(2)));
    }
}
