//! From the dumps of counting processes to a performance index: each process's counts per
//! iteration (one sample per round, or per pair of rounds), then the estimate over processes.

use super::dump::Dump;
use super::error::DumpError;
use super::plan::{RoundKind, RoundLabel};
use super::profile::{ProcessProfile, process_profile};
use super::rounds::{CountedRound, per_iteration};
use pilot_stats::Summary;

/// What one counting process found: its samples of instructions (and estimated cycles, with a
/// cache simulation) per iteration.
#[derive(Debug, Clone, PartialEq)]
pub struct ProcessCounts {
    /// Instructions per iteration, one sample per round or pair of rounds.
    pub(crate) instructions: Vec<f64>,
    /// Estimated cycles per iteration, the same way; `None` without a cache simulation.
    pub(crate) cycles: Option<Vec<f64>>,
    /// Instructions an empty unit counted (taken off each unit).
    pub(crate) empty: f64,
    /// Counted rounds.
    pub(crate) rounds: usize,
    /// Units in the first counted round.
    pub(crate) units: u64,
    /// Iterations in each unit of the first counted round.
    pub(crate) iterations: u64,
    /// Its instructions by function and by call.
    pub(crate) profile: ProcessProfile,
}

/// A process's counts from its dumps, in the order callgrind wrote them: each labelled by a
/// [`RoundLabel`], the empty units' first. Dumps without a label (the warm-up's, and the one
/// written as the program ends, after the last round) are skipped; a label that is not
/// pilot's is an error. The allocations by call site are kept only when the warm-up's dump
/// came first: a bench binary of a pilot before 0.2 wrote none, and its first round's numbers
/// of calls hold the warm-up's (see `record::callgrind::dump_stats`).
pub(crate) fn process_counts(dumps: &[Dump]) -> Result<ProcessCounts, DumpError> {
    let mut empty: Option<(RoundLabel, &Dump)> = None;
    let mut rounds: Vec<(RoundLabel, &Dump)> = Vec::new();
    for d in dumps.iter().filter(|d| !d.label.is_empty()) {
        let label: RoundLabel = d.label.parse().map_err(DumpError::Label)?;
        match label.kind {
            RoundKind::Empty => empty = Some((label, d)),
            RoundKind::Counted => rounds.push((label, d)),
        }
    }
    let (empty_label, empty_dump) = empty.ok_or(DumpError::NoEmptyUnits)?;
    let calls_from_zero = dumps.first().is_some_and(|d| d.label.is_empty());
    if rounds.is_empty() {
        return Err(DumpError::NoCountedRound);
    }
    if empty_label.units == 0 {
        return Err(DumpError::NoEmptyUnit);
    }
    let per_empty = |event: &dyn Fn(&Dump) -> f64| event(empty_dump) / empty_label.units as f64;
    let samples = |event: &dyn Fn(&Dump) -> f64| {
        let counted: Vec<CountedRound> = rounds
            .iter()
            .map(|(l, d)| CountedRound {
                units: l.units,
                iterations: l.iterations,
                total: event(d),
            })
            .collect();
        per_iteration(per_empty(event), &counted)
    };
    let instructions = |d: &Dump| d.instructions() as f64;
    let cycles = |d: &Dump| d.estimated_cycles().unwrap_or(0.0);
    let with_cache = empty_dump.estimated_cycles().is_some();
    let mut profile = process_profile(
        (&empty_label, &empty_dump.graph),
        &rounds
            .iter()
            .map(|(l, d)| (*l, &d.graph))
            .collect::<Vec<_>>(),
    )?;
    if !calls_from_zero {
        profile.allocations = None;
    }
    Ok(ProcessCounts {
        instructions: samples(&instructions)?,
        cycles: if with_cache {
            Some(samples(&cycles)?)
        } else {
            None
        },
        empty: per_empty(&instructions),
        rounds: rounds.len(),
        units: rounds[0].0.units,
        iterations: rounds[0].0.iterations,
        profile,
    })
}

/// An estimate of a count per iteration over one or more processes.
#[derive(Debug, Clone, PartialEq)]
pub struct CountEstimate {
    /// The mean over processes of each process's mean sample.
    pub(crate) mean: f64,
    /// Lower bound of its interval.
    pub(crate) low: f64,
    /// Upper bound.
    pub(crate) high: f64,
    /// Each process's mean.
    pub process_means: Vec<f64>,
    /// Samples behind the interval: processes, or one process's rounds.
    pub(crate) n: usize,
    /// `processes` (Student's t over the processes' means), `rounds` (over one process's
    /// samples) or `exact` (one sample: no spread to see).
    pub(crate) interval_from: &'static str,
}

impl CountEstimate {
    /// The estimate over `processes` (each a non-empty list of samples) at `confidence`: the
    /// mean of the processes' means, its interval Student's t over them (n − 1 degrees of
    /// freedom) with two processes or more, over the one process's samples otherwise. Samples
    /// that do not vary give the zero-width interval. `None` without a sample, or with a
    /// sample that is not a number. Time: O(samples).
    pub(crate) fn over(processes: &[&[f64]], confidence: f64) -> Option<CountEstimate> {
        let means: Vec<f64> = processes
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| pilot_stats::summary::mean(s))
            .collect();
        if means.is_empty() || means.iter().any(|m| !m.is_finite()) {
            return None;
        }
        let (basis, interval_from): (&[f64], &'static str) = if means.len() >= 2 {
            (&means, "processes")
        } else {
            (processes.iter().find(|s| !s.is_empty())?, "rounds")
        };
        let summary = Summary::of(basis).ok()?;
        let mean = pilot_stats::summary::mean(&means);
        let (low, high, interval_from) = match summary.mean_ci(confidence) {
            Ok(ci) => (
                mean - ci.half_width(),
                mean + ci.half_width(),
                interval_from,
            ),
            Err(_) => (mean, mean, "one round"),
        };
        let n = basis.len();
        Some(CountEstimate {
            mean,
            low,
            high,
            process_means: means,
            n,
            interval_from,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dump(label: &str, ir: u64) -> Dump {
        Dump {
            label: label.to_string(),
            events: vec!["Ir".into()],
            totals: vec![ir],
            graph: Default::default(),
        }
    }

    #[test]
    fn a_process_reads_its_dumps_by_their_labels() {
        let dumps = [
            dump("pilot-count empty 0 1000 1", 10_000),
            dump("pilot-count round 1 1000 1", 1_010_000),
            dump("pilot-count round 2 1000 1", 1_010_500),
            dump("", 0),
        ];
        let p = process_counts(&dumps).unwrap();
        assert_eq!(p.empty, 10.0);
        assert_eq!(p.instructions, [1000.0, 1000.5]);
        assert_eq!(p.cycles, None);
        assert_eq!((p.rounds, p.units, p.iterations), (2, 1000, 1));
        assert_eq!(
            process_counts(&dumps[1..]).unwrap_err().to_string(),
            "no dump of the empty units"
        );
        assert_eq!(
            process_counts(&[dump("pilot-count empty 0 1000 1", 1)])
                .unwrap_err()
                .to_string(),
            "no dump of a counted round"
        );
        assert!(process_counts(&[dump("someone else's", 1)]).is_err());
    }

    #[test]
    fn processes_that_agree_give_an_exact_count() {
        let a = [1000.0, 1000.0];
        let e = CountEstimate::over(&[&a, &a, &a], 0.95).unwrap();
        assert_eq!((e.mean, e.low, e.high), (1000.0, 1000.0, 1000.0));
        assert_eq!(e.interval_from, "processes");
        let one = CountEstimate::over(&[&[7.0]], 0.95).unwrap();
        assert_eq!(
            (one.mean, one.low, one.high, one.interval_from),
            (7.0, 7.0, 7.0, "one round")
        );
    }

    #[test]
    fn processes_that_differ_give_students_interval_over_their_means() {
        // Process means 100, 101, 102: mean 101, s = 1, s/√3 = 0.57735;
        // t(0.975, 2) = 4.302653: half-width 2.484138.
        let e = CountEstimate::over(&[&[99.0, 101.0], &[101.0], &[102.0]], 0.95).unwrap();
        assert_eq!(e.process_means, [100.0, 101.0, 102.0]);
        assert!((e.mean - 101.0).abs() < 1e-12);
        assert!((e.high - e.mean - 2.484138).abs() < 1e-5, "{e:?}");
        assert!((e.mean - e.low - 2.484138).abs() < 1e-5);
        assert_eq!(e.n, 3);
        // One process: its rounds' samples decide. 10, 12: mean 11, s = √2, s/√2 = 1;
        // t(0.975, 1) = 12.7062: half-width 12.7062.
        let e = CountEstimate::over(&[&[10.0, 12.0]], 0.95).unwrap();
        assert_eq!(e.interval_from, "rounds");
        assert!((e.high - 11.0 - 12.7062).abs() < 1e-3, "{e:?}");
        assert!(CountEstimate::over(&[], 0.95).is_none());
        assert!(CountEstimate::over(&[&[f64::NAN]], 0.95).is_none());
    }
}
