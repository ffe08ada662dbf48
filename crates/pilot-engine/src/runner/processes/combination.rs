//! The combination of a bench's processes into one session result and one result document:
//! the warnings once each, the checks most processes agree on, the typical process's estimate.

use std::time::Duration;

use super::child_report::ChildReport;
use super::message::{ProcessResult, WarmUpFinding};
use crate::session::process_estimate::{ProcessEstimate, combine, split};
use crate::session::{Estimate, SessionConfig, SessionResult, Status, WarmUpClass, Warning};
use crate::store::result;
use pilot_format::{MachineDoc, ResultDoc};

/// Adds the warnings of process `p` to a bench's `warnings`, once each: a check's only when no
/// `earlier` process made a check of its kind (the same check with other figures would repeat
/// once per process). A child has no time-cap note of its own to add
/// ([`SessionConfig::time_cap_warning`]): the bench's cap is its parent's.
pub(super) fn merge_warnings(
    warnings: &mut Vec<Warning>,
    earlier: &[ProcessResult],
    p: &ProcessResult,
) {
    if p.unresolved {
        return;
    }
    for w in &p.warnings {
        if warnings.contains(w) {
            continue;
        }
        if let Warning::Check(kind) = w
            && earlier
                .iter()
                .flat_map(|e| &e.checks)
                .any(|c| &c.kind == kind)
        {
            continue;
        }
        warnings.push(w.clone());
    }
}

/// The session result over the processes `done`, which ended with `status` and the combined
/// `estimate`; with the micro form's iterations per unit of the last process.
pub(super) fn processes_result(
    done: Vec<ProcessResult>,
    status: Status,
    estimate: Option<Estimate>,
    mut warnings: Vec<Warning>,
    config: &SessionConfig,
    elapsed: Duration,
) -> (SessionResult, Option<u64>) {
    let unresolved = done.iter().filter(|p| p.unresolved).count();
    if unresolved > 0 {
        warnings.push(Warning::Note(format!(
            "{unresolved} of {} processes fitted a non-positive time per unit: their rounds' \
             durations did not grow with the work amount; raise the top of the work range",
            done.len()
        )));
    }
    // Readings-only slopes are averaged whatever their sign (dropping the negative ones would
    // bias the mean up); a mean that is not positive is no estimate.
    let (status, estimate, unresolved_fit) = match estimate {
        Some(e) if e.mean <= 0.0 && !matches!(status, Status::Failed(_)) => {
            warnings.push(crate::session::unresolved_warning(e.mean, e.rounds));
            (Status::Unresolved, None, Some(e))
        }
        e => (status, e, None),
    };
    if status == Status::TimeCap
        && let Some(e) = &estimate
    {
        warnings.push(Warning::Note(format!(
            "time cap reached with ±{:.2}% of the mean (target ±{:.2}%) over {} process{}",
            100.0 * e.relative_half_width(),
            100.0 * config.target,
            done.len(),
            if done.len() == 1 { "" } else { "es" }
        )));
    }
    let iters = done.last().and_then(|p| p.iters);
    let mut checks = bench_checks(&done, &mut warnings);
    machine_checks(&done, &mut checks, &mut warnings);
    // Processes left out of the typical process's estimate are named, never hidden.
    let means: Vec<f64> = done.iter().map(|p| p.estimate.mean).collect();
    if let (Some(e), 2..) = (&estimate, means.len()) {
        let estimates: Vec<ProcessEstimate> = done.iter().map(|p| p.estimate.clone()).collect();
        let split = split(&estimates, config);
        if let Some(c) =
            crate::checks::process_modes(&means, &split.left_out, &split.spanned, e.mean)
        {
            warnings.push(Warning::Check(c.kind.clone()));
            checks.push(c);
        }
    }
    let findings: Vec<WarmUpFinding> = done.iter().map(|p| p.warm_up).collect();
    let (warm_up, warm_up_work) = bench_warm_up(&findings);
    let outliers = done.iter().filter_map(|p| p.outliers).reduce(|mut a, b| {
        a.add(&b);
        a
    });
    let allocations: Vec<_> = done.iter().map(|p| p.allocations).collect();
    // The processes' overhead checks give way to the one of their blocks pooled (below).
    let overhead = crate::checks::Kind::InstrumentationOverhead.as_str();
    warnings.retain(|w| !w.is_check(overhead));
    checks.retain(|c| c.kind != overhead);
    let samples: Vec<f64> = (done.iter())
        .flat_map(|p| p.overhead_samples.iter().copied())
        .collect();
    let clock_ns = done.first().map_or(0.0, |p| p.clock_ns);
    let mut session = SessionResult {
        status,
        estimate,
        process_means: means,
        rounds: done.iter().flat_map(|p| p.rounds.iter().cloned()).collect(),
        removed: done.iter().map(|p| p.removed).sum(),
        readings: done.iter().map(|p| p.readings).sum(),
        elapsed,
        warnings,
        unresolved_fit,
        drift: None,
        checks,
        warm_up,
        outliers,
        overhead: None,
        machine_state: done.iter().find_map(|p| p.machine_state),
        warm_up_start: None,
        warm_up_work,
        allocations: crate::session::allocations::combine_allocations(
            &allocations,
            config.confidence,
        ),
    };
    if !samples.is_empty() {
        let time_s = done.iter().map(|p| p.overhead_time_s).sum();
        session.judge_overhead(&samples, config.confidence, clock_ns, time_s);
    }
    (session, iters)
}

/// The warm-up class of a bench over what its processes found (`findings`, in the order they
/// ran), and the work its warm-up took.
///
/// Each process classes what it measured, as Barrett et al. class each process execution, and
/// its class answers two questions. After the start, did the bench settle? A `slowdown` or `no
/// steady state` says no, any other class yes, whatever the process skipped first: if most
/// processes say no, the one of those two classes most of them found is the bench's. Otherwise, how did it start? Only a process
/// that saw the start can say: one that first ran unmeasured the warm-up an earlier process
/// showed, and found it `flat` after, says nothing of the start (it does say the bench
/// settled), so the processes that skipped a warm-up do not outvote the one that found it;
/// one that found more warm-up than it skipped is counted. Each question goes to the answer
/// most processes gave, a tie to the one found first (the first process's finding is kept).
/// When the class is `warm-up`, its work is the median of the warm-ups the processes showed
/// (see [`WarmUpFinding::shown`]; the lower one of two): a process that a neighbour slowed after
/// its skip shows a longer one than the bench has. Time: O(P²) for P processes.
pub(super) fn bench_warm_up(
    findings: &[WarmUpFinding],
) -> (Option<WarmUpClass>, Option<crate::session::WarmUpWork>) {
    let class = bench_class(findings);
    let mut shown: Vec<crate::session::WarmUpWork> =
        findings.iter().filter_map(WarmUpFinding::shown).collect();
    shown.sort_by_key(|w| w.iterations);
    let work = (class == Some(WarmUpClass::WarmUp))
        .then(|| shown.get(shown.len().saturating_sub(1) / 2).copied())
        .flatten();
    (class, work)
}

/// The bench's class of [`bench_warm_up`]: whether it settled, then how it started.
fn bench_class(findings: &[WarmUpFinding]) -> Option<WarmUpClass> {
    use WarmUpClass::*;
    let unsettled = |c: WarmUpClass| matches!(c, Slowdown | NoSteadyState);
    let classes = || findings.iter().filter_map(|f| f.class);
    if !majority(classes().map(|c| !unsettled(c)))? {
        return majority(classes().filter(|c| unsettled(*c)));
    }
    let saw_start = |f: &&WarmUpFinding| f.skipped.is_none() || f.class == Some(WarmUp);
    let start = (findings.iter().filter(saw_start))
        .filter_map(|f| f.class)
        .filter(|c| !unsettled(*c));
    Some(majority(start).unwrap_or(Flat))
}

/// The value of `votes` given most often, of those given as often the one given first; `None`
/// for no votes. Time: O(V²).
fn majority<T: PartialEq + Copy>(votes: impl Iterator<Item = T>) -> Option<T> {
    let votes: Vec<T> = votes.collect();
    let count = |v: &T| votes.iter().filter(|k| *k == v).count();
    (votes.iter().enumerate())
        .max_by_key(|(i, v)| (count(v), std::cmp::Reverse(*i)))
        .map(|(_, v)| *v)
}

/// Replaces the processes' checks of the machine's CPU (a busy machine, steal, throttling) in
/// `checks`, and their messages in `warnings`, by those of every process's rounds together
/// (see [`judge_marked`](crate::checks::sampler::judge_marked)): each process judged its own
/// rounds, and one of eight that shared its cores for a while would otherwise make the
/// bench's check, whatever the other seven saw.
fn machine_checks(
    done: &[ProcessResult],
    checks: &mut Vec<pilot_format::CheckDoc>,
    warnings: &mut Vec<Warning>,
) {
    use crate::checks::sampler::{MARKED_KINDS, judge_marked};
    let rounds = (done.iter().flat_map(|p| &p.rounds))
        .map(|r| (r.duration, r.marks.as_slice(), r.machine.as_ref()));
    let bench = judge_marked(rounds);
    warnings.retain(|w| !MARKED_KINDS.iter().any(|k| w.is_check(k)));
    checks.retain(|c| !MARKED_KINDS.contains(&c.kind.as_str()));
    for c in bench {
        warnings.push(Warning::Check(c.kind.clone()));
        checks.push(c);
    }
}

/// The checks of a bench measured in the processes `done`, with the warnings of the checks
/// left out removed from `warnings`. A check any process made is the bench's (the first of
/// each kind, with its figures), but a trend of the workload's own (a leak, a slowdown, a cold
/// start, outliers) only when at least half the processes found it: each process judges it
/// from its own few rounds at p < 0.001 or so, and a bench in ten processes would otherwise
/// inherit any one's false alarm. Processes whose fit was unresolved are not counted.
fn bench_checks(
    done: &[ProcessResult],
    warnings: &mut Vec<Warning>,
) -> Vec<pilot_format::CheckDoc> {
    let judged: Vec<&ProcessResult> = done.iter().filter(|p| !p.unresolved).collect();
    let found_by = |kind: &str| {
        judged
            .iter()
            .filter(|p| p.checks.iter().any(|c| c.kind == kind))
            .count()
    };
    let mut checks: Vec<pilot_format::CheckDoc> = Vec::new();
    for c in judged.iter().flat_map(|p| &p.checks) {
        let minority =
            crate::checks::is_workload_trend(&c.kind) && 2 * found_by(&c.kind) < judged.len();
        if !minority && !checks.iter().any(|k| k.kind == c.kind) {
            checks.push(c.clone());
        }
    }
    // The warnings of the checks left out go too.
    warnings.retain(|w| match w {
        Warning::Check(kind) => checks.iter().any(|k| &k.kind == kind),
        _ => true,
    });
    checks
}

/// The result document of bench `name` of bench target `target` over the process executions
/// `children` (at least two), as `measure_in_processes` would have written it: the mean of
/// the processes' estimates, its interval from Student's t over them (or their own intervals
/// combined, when wider), every round, the warnings once each. Its status is `converged` when
/// the interval meets `target_ci`, else `settled` (the processes stopped for a reason of the
/// caller's, such as a settled comparison).
///
/// # Panics
///
/// With fewer than two children.
pub fn combine_children(
    name: &str,
    target: &str,
    children: &[ChildReport],
    target_ci: f64,
    machine: Option<&MachineDoc>,
    elapsed: Duration,
    (started, finished): (String, String),
) -> ResultDoc {
    assert!(children.len() >= 2, "combine_children needs two processes");
    let first = &children[0];
    let config = SessionConfig {
        confidence: first.confidence,
        target: target_ci,
        max_time: elapsed,
        ..SessionConfig::default()
    };
    let estimates: Vec<ProcessEstimate> =
        children.iter().map(|c| c.result.estimate.clone()).collect();
    let e = combine(&estimates, &config);
    let status = if e.relative_half_width() <= target_ci {
        Status::Converged
    } else {
        Status::Settled
    };
    let mut warnings: Vec<Warning> = Vec::new();
    let done: Vec<ProcessResult> = children.iter().map(|c| c.result.clone()).collect();
    for (i, p) in done.iter().enumerate() {
        merge_warnings(&mut warnings, &done[..i], p);
    }
    let (session, iters) = processes_result(done, status, Some(e), warnings, &config, elapsed);
    result::document(&result::BenchRecord {
        name,
        target,
        form: first.form,
        throughput: first.rate.as_ref(),
        config: &config,
        session: &session,
        iterations_per_unit: iters,
        clock: first.clock,
        machine,
        reproducibility: None,
        started,
        finished,
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::session::WarmUpWork;

    fn work(iterations: u64, ms: u64) -> WarmUpWork {
        WarmUpWork {
            iterations,
            time: Duration::from_millis(ms),
        }
    }

    /// A process that ran the bench from its start and classed it `class`, its own warm-up
    /// `own`.
    fn cold(class: WarmUpClass, own: Option<WarmUpWork>) -> WarmUpFinding {
        WarmUpFinding {
            class: Some(class),
            own,
            skipped: None,
        }
    }

    /// A process that first ran `skipped` unmeasured, then classed what it measured `class`.
    fn after(skipped: WarmUpWork, class: WarmUpClass, own: Option<WarmUpWork>) -> WarmUpFinding {
        WarmUpFinding {
            class: Some(class),
            own,
            skipped: Some(skipped),
        }
    }

    #[test]
    fn processes_that_skipped_the_warm_up_do_not_outvote_the_one_that_found_it() {
        // The first process found 2 000 slow calls (20 ms); the four after it ran 2 500
        // unmeasured first (a quarter more, 21 ms) and measured the steady state only.
        use WarmUpClass::*;
        let found = work(2_000, 20);
        let skipped = work(2_500, 21);
        let mut findings = vec![cold(WarmUp, Some(found))];
        findings.extend((0..4).map(|_| after(skipped, Flat, None)));
        // One warm-up against four flats: the bench warmed up, for as long as the first
        // process saw (the skipped quarter more is no part of it).
        assert_eq!(bench_warm_up(&findings), (Some(WarmUp), Some(found)));
    }

    #[test]
    fn a_warm_up_longer_than_the_one_skipped_adds_to_it() {
        use WarmUpClass::*;
        let skipped = work(2_500, 21);
        let findings = [
            // The first process saw 2 000 calls of the warm-up (a busy machine can end its
            // share inside it).
            cold(WarmUp, Some(work(2_000, 20))),
            // Still slow for 1 000 and 1 100 calls after the skip: the bench's warm-up is
            // about 3 500 calls.
            after(skipped, WarmUp, Some(work(1_000, 9))),
            after(skipped, WarmUp, Some(work(1_100, 10))),
            // 100 slower calls, under a tenth of the skip: a neighbour's doing, not added.
            after(skipped, WarmUp, Some(work(100, 1))),
            after(skipped, Flat, None),
        ];
        assert_eq!(
            bench_warm_up(&findings),
            (Some(WarmUp), Some(work(3_500, 30)))
        );
        // One process slowed for 8 000 calls after its skip is not the bench's warm-up.
        let findings = [
            cold(WarmUp, Some(work(2_000, 20))),
            after(skipped, WarmUp, Some(work(8_000, 90))),
            after(skipped, Flat, None),
        ];
        assert_eq!(
            bench_warm_up(&findings),
            (Some(WarmUp), Some(work(2_000, 20)))
        );
    }

    #[test]
    fn what_the_skipping_processes_found_after_the_warm_up_counts() {
        use WarmUpClass::*;
        let skipped = work(2_500, 21);
        // Past the warm-up most processes never settled: the bench has no steady state.
        let mut findings = vec![cold(WarmUp, Some(work(2_000, 20)))];
        findings.extend((0..3).map(|_| after(skipped, NoSteadyState, None)));
        assert_eq!(bench_warm_up(&findings), (Some(NoSteadyState), None));
        // One slowdown against the warm-up: a tie, kept by the class found first.
        let findings = [
            cold(WarmUp, Some(work(2_000, 20))),
            after(skipped, Slowdown, None),
            after(skipped, Flat, None),
        ];
        assert_eq!(bench_warm_up(&findings).0, Some(WarmUp));
        // Two slowdowns after the skip, against the warm-up and a flat after the skip: two
        // processes settled, two did not; a tie, kept by the first process (it settled, and
        // its start was a warm-up). A flat after a skip says the bench settled.
        let findings = [
            cold(WarmUp, Some(work(2_000, 20))),
            after(skipped, Slowdown, None),
            after(skipped, Slowdown, None),
            after(skipped, Flat, None),
        ];
        assert_eq!(bench_warm_up(&findings).0, Some(WarmUp));
        // Three of five never settled: a slowdown.
        let findings = [
            cold(WarmUp, Some(work(2_000, 20))),
            after(skipped, Slowdown, None),
            after(skipped, Slowdown, None),
            after(skipped, NoSteadyState, None),
            after(skipped, Flat, None),
        ];
        assert_eq!(bench_warm_up(&findings), (Some(Slowdown), None));
    }

    /// A process of twelve 50 ms rounds that a neighbour on a core kept busy, or not, with
    /// its own busy_machine check when it was.
    fn process(busy: bool) -> ProcessResult {
        let state = crate::checks::sampler::Interval {
            others_cores: if busy { 1.0 } else { 0.02 },
            ..Default::default()
        };
        let round = crate::session::RoundRecord {
            work: 100,
            duration: Duration::from_millis(50),
            units: 100,
            iterations: 1,
            stable: Some((0, 100)),
            analysed: true,
            mean_ns: None,
            bins: None,
            rss_bytes: None,
            end: Duration::ZERO,
            marks: if busy { vec!["busy_machine"] } else { vec![] },
            machine: Some(state),
        };
        let check = pilot_format::CheckDoc {
            kind: "busy_machine".into(),
            message: "the machine was busy with other processes during 12 of 12 rounds".into(),
            figures: serde_json::Map::new(),
        };
        ProcessResult {
            estimate: ProcessEstimate {
                mean: 100.0,
                half_width: 1.0,
                n: 1000,
                subsession_size: 1,
                autocorrelation: 0.0,
                rounds: 12,
                estimator: crate::settings::Estimator::Mean,
                plain: None,
                busy: Some(if busy { 1.0 } else { 0.0 }),
            },
            rounds: vec![round; 12],
            removed: 0,
            readings: 1200,
            warnings: if busy {
                vec![Warning::Check(check.kind.clone())]
            } else {
                vec![]
            },
            checks: if busy { vec![check] } else { vec![] },
            machine_state: Some(crate::session::MachineState::Sampled),
            warm_up: WarmUpFinding::default(),
            outliers: None,
            iters: None,
            unresolved: false,
            overhead_samples: Vec::new(),
            overhead_time_s: 0.0,
            clock_ns: 20.0,
            allocations: None,
        }
    }

    /// The checks and warnings of a bench over `done`, as [`processes_result`] makes them.
    fn bench_machine(done: &[ProcessResult]) -> (Vec<pilot_format::CheckDoc>, Vec<String>) {
        let mut warnings = Vec::new();
        for (i, p) in done.iter().enumerate() {
            merge_warnings(&mut warnings, &done[..i], p);
        }
        let mut checks = bench_checks(done, &mut warnings);
        machine_checks(done, &mut checks, &mut warnings);
        let texts = (warnings.iter())
            .filter_map(|w| w.text(&checks).map(str::to_string))
            .collect();
        (checks, texts)
    }

    #[test]
    fn one_busy_process_of_eight_does_not_make_the_bench_busy() {
        // A neighbour kept a core busy during one process: its check is no longer the bench's.
        let mut done = vec![process(true)];
        done.extend((0..7).map(|_| process(false)));
        let (checks, warnings) = bench_machine(&done);
        assert!(checks.is_empty(), "{checks:?}");
        assert!(warnings.is_empty(), "{warnings:?}");
        // During three of eight, over a quarter of the bench's rounds' time: the check is over
        // every process's rounds, with its message once.
        let mut done: Vec<ProcessResult> = (0..3).map(|_| process(true)).collect();
        done.extend((0..5).map(|_| process(false)));
        let (checks, warnings) = bench_machine(&done);
        assert_eq!(checks.len(), 1, "{checks:?}");
        assert_eq!(checks[0].figures["rounds"], 36);
        assert_eq!(checks[0].figures["of_rounds"], 96);
        assert_eq!(warnings, [checks[0].message.clone()]);
    }

    #[test]
    fn a_check_left_out_takes_its_warning_by_kind_and_a_note_in_its_words_stays() {
        // One process of four found a leak: a workload trend most did not see, so the bench
        // has no leak check, nor its warning. Another process's note happens to say the same
        // words: it is no check's, and stays.
        let words = "memory grew from round to round";
        let leak = pilot_format::CheckDoc {
            kind: "leak".into(),
            message: words.into(),
            figures: serde_json::Map::new(),
        };
        let mut done: Vec<ProcessResult> = (0..4).map(|_| process(false)).collect();
        done[0].checks.push(leak.clone());
        done[0].warnings.push(Warning::Check(leak.kind.clone()));
        done[1].warnings.push(Warning::Note(words.into()));
        let (checks, warnings) = bench_machine(&done);
        assert!(checks.is_empty(), "{checks:?}");
        assert_eq!(warnings, [words]);
        // Found by two of four: the bench's, its warning once, in its check's words.
        done[2].checks.push(pilot_format::CheckDoc {
            message: "memory grew in this process too".into(),
            ..leak.clone()
        });
        done[2].warnings.push(Warning::Check(leak.kind.clone()));
        let (checks, warnings) = bench_machine(&done);
        assert_eq!(checks, [leak]);
        assert_eq!(warnings, [words, words]);
    }

    #[test]
    fn processes_that_ran_from_the_start_vote_by_majority() {
        use WarmUpClass::*;
        // No process skipped anything: most found the start level.
        let findings = [
            cold(WarmUp, Some(work(40, 1))),
            cold(Flat, None),
            cold(Flat, None),
        ];
        assert_eq!(bench_warm_up(&findings), (Some(Flat), None));
        assert_eq!(bench_warm_up(&[cold(Flat, None)]), (Some(Flat), None));
        assert_eq!(bench_warm_up(&[]), (None, None));
        // The first process saw none, the second a warm-up that the third skipped: one each,
        // and the first process's finding is kept.
        let findings = [
            cold(Flat, None),
            cold(WarmUp, Some(work(2_000, 20))),
            after(work(2_500, 21), Flat, None),
        ];
        assert_eq!(bench_warm_up(&findings), (Some(Flat), None));
    }
}
