//! A result's performance indices (`pis`): each one's mean and this run's interval, and for
//! the time where the next run's estimate lands on this machine.

use serde::{Deserialize, Serialize};

/// A performance index: its mean and confidence interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PiDoc {
    /// `time`, `throughput`, `time_with_interruptions`, `instructions` or
    /// `estimated_cycles`.
    pub name: String,
    /// `ns` for time; `<unit>/s` for throughput; `instructions` and `cycles` per unit for
    /// counts.
    pub unit: String,
    /// The mean; `null` for a throughput whose time is not positive.
    pub mean: Option<f64>,
    /// Its interval.
    pub ci: CiDoc,
    /// Samples behind it: stable unit readings, or rounds in readings-only mode; for a count,
    /// its counting processes (or one process's rounds).
    #[serde(default)]
    pub n: usize,
    /// Subsession size.
    #[serde(default)]
    pub subsession_size: usize,
    /// Lag-1 autocorrelation of the subsession samples.
    #[serde(default)]
    pub autocorrelation: f64,
    /// Samples the target needs; `null` when unknown.
    #[serde(default)]
    pub required_n: Option<usize>,
    /// For `time`: which variation decided this run's interval: `readings`, `rounds`,
    /// `processes`, `modes` (the processes split into speeds the run could not tell apart: the
    /// interval spans them, and a comparison takes it as an upper bound on the code's cost) or
    /// `regression` (`machine` in documents written before pilot kept reproducibility apart:
    /// the machine's run-to-run variation was the larger part of a widened `ci`;
    /// `machine.run_interval_from` then names the run's own). For a count: `processes`,
    /// `rounds` (one process's) or `one round`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval_from: Option<String>,
    /// For `time`: where the next run's estimate of the bench lands on this machine, learnt
    /// from earlier runs; or, while it is not learnt yet, how many more runs it needs. `ci`
    /// is this run's interval alone. Absent in documents written before pilot kept it apart
    /// (which have `machine`), and where no run-to-run figure applies (a child process's
    /// document, an imported result).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproducibility: Option<ReproducibilityDoc>,
    /// Written by pilot before reproducibility was a figure of its own, for `time` when `ci`
    /// was widened by the machine's run-to-run variation: that variation and the interval of
    /// the run alone. Read, never written: [`PiDoc::run_ci`] is the run's interval of either
    /// kind of document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<MachinePartDoc>,
    /// For `time`: what `mean` is, `trimmed` (the 20%-trimmed mean of subsession means: the
    /// code's cost, interruptions left out) or `mean` (every stable reading). Absent in
    /// documents written before pilot had the choice, whose `time` is the mean.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimator: Option<String>,
}

impl PiDoc {
    /// This run's interval: `ci`, or in a document written before reproducibility was a
    /// figure of its own, the run's interval before the machine's variation widened `ci`.
    pub fn run_ci(&self) -> CiDoc {
        match &self.machine {
            Some(m) => CiDoc {
                low: m.run_ci.low.or(self.ci.low),
                high: m.run_ci.high.or(self.ci.high),
                confidence: self.ci.confidence,
            },
            None => self.ci,
        }
    }
}

/// The name of the PI that keeps the plain mean of every stable reading beside a trimmed
/// `time`: it includes the units that interruptions made slow.
pub const MEAN_TIME_PI: &str = "time_with_interruptions";

/// Where the next run's estimate of a bench lands on this machine (`pis[0].reproducibility`):
/// `{"state": "learnt", …}` with the band, or `{"state": "learning", …}` until earlier runs
/// teach it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "lowercase")]
pub enum ReproducibilityDoc {
    /// The band, at the run's confidence (`ci.confidence`).
    Learnt(BandDoc),
    /// Not learnt yet.
    Learning(LearningDoc),
}

/// Where the next run's estimate lands (see the book's "Reading results"): a prediction
/// interval of one more run on the log scale, `center · e^(±half_width)`, where
/// `half_width = t(confidence, dof) · sd · √(1 + 1/N)` with `N` the runs `center` averages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BandDoc {
    /// The level the band is centred on, ns: the bench's estimates in spaced runs of its
    /// build, this run included, averaged on the log scale (recent runs weighing more); this
    /// run's estimate when it has no earlier run.
    pub center: f64,
    /// `center · e^(−half_width)`, ns.
    pub low: f64,
    /// `center · e^(half_width)`, ns.
    pub high: f64,
    /// Half-width on the log scale (for small values, relative: 0.024 is ±2.4%).
    pub half_width: f64,
    /// Standard deviation of one run's estimate from run to run, relative, the run's own
    /// noise included.
    pub sd: f64,
    /// Degrees of freedom of `sd`.
    pub dof: f64,
    /// Runs `sd` was learnt from.
    pub runs: usize,
    /// Where `sd` was learnt: `bench` (this bench's estimates in runs of its build at least
    /// 60 s apart), `benches` (the shift all benches of earlier runs shared, plus this run's
    /// own standard error) or `probe` (the speed probe's times, plus this run's own standard
    /// error); of those with enough runs, the one whose band is widest.
    pub learnt_from: String,
}

/// A reproducibility band not learnt yet: what it waits for.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LearningDoc {
    /// Runs that count so far (this one included), towards the source nearest to learning it:
    /// the bench's own runs of its build, or the speed probe's.
    pub runs: usize,
    /// Runs that source needs: 3 of the bench's own, or 5 of the probe's.
    pub runs_needed: usize,
    /// Least seconds between the starts of two runs that both count.
    pub spacing_s: u64,
}

/// The machine's run-to-run variation as a part of an interval, in documents written before
/// reproducibility was a figure of its own (read, never written).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MachinePartDoc {
    /// The interval of this run alone, before the machine's variation was added.
    pub run_ci: CiDoc,
    /// Which variation decided `run_ci`: `readings`, `rounds`, `processes` or `regression`.
    pub run_interval_from: String,
    /// Standard deviation from run to run, relative: of the speed probe's time (`probe`: the
    /// machine alone) or of the bench's estimates in earlier runs (`bench`: each run's own
    /// noise included).
    pub run_to_run: f64,
    /// Runs it was learnt from.
    pub runs: usize,
    /// `bench` (this bench's means in earlier runs of the same build) or `probe` (the machine
    /// speed probe's times).
    #[serde(default)]
    pub learnt_from: String,
}

/// A confidence interval; a bound is `null` when it does not exist (a throughput whose time
/// interval reaches 0).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CiDoc {
    /// Lower bound.
    pub low: Option<f64>,
    /// Upper bound.
    pub high: Option<f64>,
    /// Confidence level.
    pub confidence: f64,
}
