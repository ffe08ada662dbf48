//! A saved result as comparisons and listings use it: its time, counts and instructions per
//! unit with what a comparison needs to weigh them, made from a valid result document.

use std::path::{Path, PathBuf};

use pilot_format::ResultDoc;
use pilot_stats::summary::t_critical;

/// One bench's saved result (a `pilot.result/1` document), as comparisons and listings use it.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedResult {
    /// The file it was read from.
    pub path: PathBuf,
    /// The bench's name, e.g. `sort_10k` or `parse::json`.
    pub name: String,
    /// The bench target (binary) it belongs to; empty when the document does not say.
    pub target: String,
    /// One of [`pilot_format::STATUSES`]: `ok`, `time cap`, `no steady state`, `below clock
    /// resolution`, `below shell resolution`, `failed`, ….
    pub status: String,
    /// Why the bench failed, when it did; which resolution it is below, when it is.
    pub(crate) status_detail: Option<String>,
    /// The time per unit; `None` when the session ended without an estimate.
    pub time: Option<SavedEstimate>,
    /// The counts per unit the result has ([`pilot_format::ALLOCATION_PIS`]), compared like
    /// time.
    pub(crate) counts: Vec<SavedPi>,
    /// When the session finished (RFC 3339), when known.
    pub finished: Option<String>,
    /// Warnings the session raised.
    pub(crate) warnings: Vec<String>,
    /// The machine it was measured on, when the document says.
    pub(crate) machine: Option<pilot_format::MachineDoc>,
    /// What timed its units: `instant` (also for documents that do not say) or `tsc`.
    pub(crate) timer: String,
    /// Instructions per unit counted under callgrind, when they were (`--instructions`).
    pub(crate) instructions: Option<SavedCount>,
}

/// A count per unit of a saved result (instructions), with the processes it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedCount {
    /// The count per unit (per iteration in the micro form).
    pub(crate) mean: f64,
    /// Lower bound of its interval.
    pub(crate) low: f64,
    /// Upper bound.
    pub(crate) high: f64,
    /// Confidence level of the interval.
    pub(crate) confidence: f64,
    /// Each counting process's count (the mean alone when the document does not list them).
    pub(crate) process_means: Vec<f64>,
}

/// The time per unit of a saved result, with what a comparison needs to weigh it.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedEstimate {
    /// Mean time per unit, in nanoseconds.
    pub mean: f64,
    /// Lower bound of this run's confidence interval (in a document written before
    /// reproducibility was a figure of its own, the run's interval before the machine's
    /// variation widened it).
    pub low: f64,
    /// Upper bound of this run's confidence interval.
    pub high: f64,
    /// Confidence level of the interval.
    pub confidence: f64,
    /// Which variation decided the run's own interval: `readings`, `rounds`, `processes` or
    /// `regression`.
    pub interval_from: String,
    /// Degrees of freedom behind the interval: independent samples of the deciding variation
    /// less one (less two for a regression).
    pub dof: f64,
    /// The independent samples behind the estimate: subsession means of one process, or the
    /// estimates of several process executions.
    pub samples: SampleMoments,
    /// Each process execution's estimate, when the bench ran in several (else empty).
    pub process_means: Vec<f64>,
    /// How one run's estimate moves from run to run on its machine, when that was learnt: a
    /// comparison across runs adds it to this run's own variance (see
    /// [`crate::compare::compare_estimates`]); one within a run leaves it out.
    pub run_to_run: Option<RunToRun>,
}

/// How much one run's estimate of a bench moves from run to run on its machine, as its result
/// learnt it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunToRun {
    /// Standard deviation of one run's estimate from run to run, relative, the run's own
    /// noise included.
    pub(crate) sd: f64,
    /// Degrees of freedom of [`sd`](Self::sd).
    pub(crate) dof: f64,
    /// Runs it was learnt from.
    pub(crate) runs: usize,
}

/// A count per unit of a saved result (`allocations`, `allocated_bytes`), as a comparison
/// weighs it.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedPi {
    /// The PI's name.
    pub(crate) name: String,
    /// Its unit (`allocs`, `B`).
    pub(crate) unit: String,
    /// Its mean and interval, with the samples they stand for.
    pub(crate) estimate: SavedEstimate,
}

impl SavedPi {
    /// A count PI called `name` in `unit` with `(mean, low, high, confidence)`, from `n`
    /// units in subsessions of `q`: its interval is taken as Student's t over the `n / q`
    /// subsession means (the standard error its half-width implies), which is how the result
    /// computed it.
    pub(crate) fn of_count(
        name: &str,
        unit: &str,
        (mean, low, high, confidence): (f64, f64, f64, f64),
        n: usize,
        q: usize,
    ) -> SavedPi {
        let count = (n / q.max(1)).max(2);
        let dof = (count - 1) as f64;
        let se = (high - low) / 2.0 / t_critical(confidence, dof);
        SavedPi {
            name: name.to_string(),
            unit: unit.to_string(),
            estimate: SavedEstimate {
                mean,
                low,
                high,
                confidence,
                interval_from: "readings".to_string(),
                dof,
                samples: SampleMoments {
                    count,
                    mean,
                    variance: se * se * count as f64,
                    variance_inflation: 1.0,
                },
                process_means: Vec::new(),
                run_to_run: None,
            },
        }
    }
}

/// Count, mean and variance of a result's independent samples (`subsession` in the document).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SampleMoments {
    /// Number of samples.
    pub count: usize,
    /// Their mean.
    pub mean: f64,
    /// Their sample variance (n − 1 denominator), before any inflation.
    pub variance: f64,
    /// Factor for the correlation left between the samples; multiply the variance by it.
    pub variance_inflation: f64,
}

impl SavedEstimate {
    /// The squared standard error of the mean: the larger of what the independent samples give
    /// (`variance · inflation / count`) and what the saved interval implies
    /// (`(half-width / t)²`), so that an interval widened by the variation between rounds or
    /// processes is honoured.
    pub(crate) fn standard_error_squared(&self) -> f64 {
        let s = &self.samples;
        let from_samples = if s.count > 0 {
            s.variance * s.variance_inflation / s.count as f64
        } else {
            0.0
        };
        let half = (self.high - self.low) / 2.0;
        let from_interval = if self.dof >= 1.0 && half.is_finite() {
            (half / t_critical(self.confidence, self.dof)).powi(2)
        } else {
            0.0
        };
        from_samples.max(from_interval)
    }

    /// Whether the estimate came from several process executions.
    pub(crate) fn is_multi_process(&self) -> bool {
        self.process_means.len() >= 2
    }
}

/// The view comparisons and listings use of a result document, once it is valid.
pub(super) fn saved(doc: &ResultDoc, path: &Path) -> std::result::Result<SavedResult, String> {
    doc.validate()?;
    let time = doc.time().map(|pi| time_estimate(doc, pi));
    let counts = count_pis(doc);
    let instructions = instructions(doc);
    Ok(SavedResult {
        instructions,
        path: path.to_path_buf(),
        name: doc.name.clone(),
        target: doc.target.clone(),
        status: doc.status.clone(),
        status_detail: doc.status_detail.clone(),
        time,
        counts,
        finished: Some(doc.finished.clone()).filter(|f| !f.is_empty()),
        warnings: doc.warnings.clone(),
        machine: doc.machine.clone(),
        timer: doc
            .clock
            .timer
            .clone()
            .unwrap_or_else(|| "instant".to_string()),
    })
}

/// The time per unit of a valid `doc`, whose first PI is `pi`, with the degrees of freedom and
/// the run-to-run variation of its run's own interval.
fn time_estimate(doc: &ResultDoc, pi: &pilot_format::PiDoc) -> SavedEstimate {
    let sub = doc
        .subsession
        .as_ref()
        .expect("validated: an estimate has its samples");
    let process_means = doc.processes.means.clone();
    let count = sub.count;
    // The degrees of freedom are those of the run's own interval.
    let interval_from = match &pi.machine {
        Some(m) => m.run_interval_from.clone(),
        None => pi
            .interval_from
            .clone()
            .unwrap_or_else(|| "readings".to_string()),
    };
    let run_ci = pi.run_ci();
    let (low, high) = (
        run_ci.low.expect("validated"),
        run_ci.high.expect("validated"),
    );
    let dof = match interval_from.as_str() {
        "processes" | "modes" => process_means.len() as f64 - 1.0,
        "rounds" => doc.stable_rounds() as f64 - 1.0,
        "regression" => count as f64 - 2.0,
        _ => count as f64 - 1.0,
    };
    let mean = pi.mean.expect("validated");
    let mut e = SavedEstimate {
        mean,
        low,
        high,
        run_to_run: None,
        confidence: pi.ci.confidence,
        interval_from,
        dof,
        samples: SampleMoments {
            count,
            mean: sub.mean,
            variance: sub.variance,
            variance_inflation: sub.variance_inflation,
        },
        process_means,
    };
    // This run's relative standard error, which a variation of the machine alone (the
    // probe's, in older documents) adds to.
    e.run_to_run = run_to_run(doc, pi, e.standard_error_squared().sqrt() / mean);
    e
}

/// The counts per unit of a valid `doc` ([`pilot_format::ALLOCATION_PIS`]) that have an
/// interval.
fn count_pis(doc: &ResultDoc) -> Vec<SavedPi> {
    doc.pis
        .iter()
        .filter(|pi| pilot_format::ALLOCATION_PIS.contains(&pi.name.as_str()))
        .filter_map(|pi| {
            let bounds = (pi.mean?, pi.ci.low?, pi.ci.high?, pi.ci.confidence);
            Some(SavedPi::of_count(
                &pi.name,
                &pi.unit,
                bounds,
                pi.n,
                pi.subsession_size,
            ))
        })
        .collect()
}

/// The instructions per unit of a valid `doc`, when they were counted.
fn instructions(doc: &ResultDoc) -> Option<SavedCount> {
    doc.pis
        .iter()
        .find(|pi| pi.name == pilot_format::INSTRUCTIONS_PI)
        .map(|pi| {
            let mean = pi.mean.expect("validated");
            SavedCount {
                mean,
                low: pi.ci.low.expect("validated"),
                high: pi.ci.high.expect("validated"),
                confidence: pi.ci.confidence,
                process_means: doc
                    .counts
                    .as_ref()
                    .map(|c| c.process_means.clone())
                    .filter(|m| !m.is_empty())
                    .unwrap_or_else(|| vec![mean]),
            }
        })
}

/// How one run's estimate of `pi` (the `time` PI of `doc`) moves from run to run, where its
/// document says: its reproducibility band's spread; in a document written before that was a
/// figure of its own, the variation that widened its interval (a bench's own spread over
/// earlier runs whole, the speed probe's with this run's relative standard error `se` added);
/// in one without either (a group member's, then), the machine record's probe variation, `se`
/// added. Older documents' degrees of freedom are their runs less one, as their comparisons
/// took them.
fn run_to_run(doc: &ResultDoc, pi: &pilot_format::PiDoc, se: f64) -> Option<RunToRun> {
    use pilot_format::ReproducibilityDoc;
    let with_run = |machine: f64| machine.hypot(se);
    match (&pi.reproducibility, &pi.machine) {
        (Some(ReproducibilityDoc::Learnt(b)), _) => Some(RunToRun {
            sd: b.sd,
            dof: b.dof,
            runs: b.runs,
        }),
        (Some(ReproducibilityDoc::Learning(_)), _) => None,
        (None, Some(m)) => Some(RunToRun {
            sd: if m.learnt_from == "bench" {
                m.run_to_run
            } else {
                with_run(m.run_to_run)
            },
            dof: (m.runs.max(2) - 1) as f64,
            runs: m.runs,
        }),
        (None, None) => {
            let speed = doc.machine.as_ref()?.speed.as_ref()?;
            Some(RunToRun {
                sd: with_run(speed.run_to_run?),
                dof: (speed.runs.max(2) - 1) as f64,
                runs: speed.runs,
            })
        }
    }
}
