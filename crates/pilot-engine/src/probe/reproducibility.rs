//! Where the next run's estimate of a bench lands on this machine: reproducibility, a figure
//! of its own beside this run's interval.
//!
//! A run's interval says how well the run pinned its own estimate down (its readings, rounds
//! and processes). It cannot see the machine's state, which holds for the whole run and moves
//! between runs (Kalibera & Jones's last level of variation): a bench steady within a run can
//! land several of its own half-widths away on the next one. The band here is that second
//! number, learnt from earlier runs on the machine, and it is never folded into the first:
//! widening the run's interval by it would make a steady bench read as wide as the machine
//! moves once learnt, and as narrow as one run sees (which the next run misses) before
//! (`lab/reproducibility-band.sh` measures how often the band holds the next run).

use super::{MachineVariation, Source};
use pilot_stats::summary::median;
use pilot_stats::{prediction_half_width, run_spread, satterthwaite_dof};

/// Runs of the probe needed before the machine's variation is stated, and spaced runs of a
/// bench across its builds before its own variation is learnt from them.
pub(crate) const RUNS_NEEDED: usize = 5;

/// Spaced runs of a bench's build (this one included) needed before its own run-to-run
/// variation is stated, and earlier runs with a shared shift before the benches' is.
pub(crate) const BENCH_RUNS_NEEDED: usize = 3;

/// This run's estimate of a bench, as the band needs it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunEstimate {
    /// The estimate (ns per unit).
    pub(crate) mean: f64,
    /// Its standard error within the run, relative to the mean.
    pub(crate) se: f64,
    /// Degrees of freedom of [`se`](Self::se).
    pub(crate) dof: f64,
}

/// Where the next run's estimate lands, at the run's confidence (see [`reproducibility`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    /// The level the band is centred on (ns): the bench's own estimates in spaced runs of its
    /// build, this run included, averaged on the log scale (this run's estimate alone when it
    /// has no earlier one).
    pub(crate) center: f64,
    /// Half-width on the log scale (for small values, relative: 0.02 is ±2%).
    pub(crate) half_width: f64,
    /// Standard deviation of one run's estimate from run to run, relative, its own noise
    /// included.
    pub(crate) sd: f64,
    /// Degrees of freedom of [`sd`](Self::sd).
    pub(crate) dof: f64,
    /// Runs the variation was learnt from.
    pub(crate) runs: usize,
    /// Where it was learnt.
    pub(crate) source: Source,
    /// Runs the centre averages (Kish's effective count of its weighted runs; 1 for this
    /// run's estimate alone).
    pub(crate) level_runs: f64,
}

impl Band {
    /// The band's lower end, `center · e^(−half_width)`.
    pub(crate) fn low(&self) -> f64 {
        self.center * (-self.half_width).exp()
    }

    /// The band's upper end, `center · e^(half_width)`.
    pub(crate) fn high(&self) -> f64 {
        self.center * self.half_width.exp()
    }
}

/// What a run knows of where the next run's estimate of a bench lands.
#[derive(Debug, Clone, PartialEq)]
pub enum Reproducibility {
    /// Learnt: the band.
    Learnt(Band),
    /// Not learnt yet.
    Learning {
        /// Runs that count so far (this one included) towards the source nearest to learning
        /// it: the bench's own spaced runs of its build, or of its builds.
        runs: usize,
        /// Runs that source needs, each at least 60 s after the last that counted.
        runs_needed: usize,
    },
}

/// What earlier runs on this machine say of a bench's run-to-run variation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Evidence<'a> {
    /// The bench's estimates in earlier runs of its build, spaced at least
    /// 60 s apart and from this run, oldest first.
    pub(crate) earlier: &'a [f64],
    /// The bench's estimates in earlier runs of any of its builds (this one's among them),
    /// spaced as [`earlier`](Self::earlier) is, oldest first.
    pub(crate) builds: &'a [f64],
    /// The shift the benches of earlier runs shared ([`shared_variation`]), when learnt.
    pub(crate) benches: Option<MachineVariation>,
    /// The speed probe's variation, when learnt.
    pub(crate) probe: Option<MachineVariation>,
}

/// The band where the next run's estimate of a bench lands on this machine, at `confidence`,
/// from this run's estimate `run` and the `evidence` of earlier runs; or, until a source has
/// enough runs, how many more it needs.
///
/// Method: a prediction interval of one more run (Hahn & Meeker §4.6) on the log scale,
/// `level ± t(confidence, ν) · s · √(1 + 1/N)`:
///
/// - the level is the recency-weighted mean of the logarithms of the bench's own estimates in
///   spaced runs of its build, this run included ([`pilot_stats::run_spread`]), and `N` the
///   effective number of runs in it (1, and the level this run's estimate, when it has no
///   earlier run). It is the bench's level whatever source `s` comes from: a mean of runs
///   predicts the next run better than one run does, and `√(1 + 1/N)` pays for its own
///   uncertainty;
/// - `s` is the standard deviation of one run's estimate from run to run, from each source
///   that has enough runs: the spread of the bench's own estimates over spaced runs of its
///   build (`bench`, at least 3 of them), or over spaced runs of any of its builds (`bench`
///   too, at least 5, [`successive_variation`]: a rebuild may move the level, not how the
///   machine moves the bench); both already hold each run's own noise, so they are taken
///   whole. Or the machine's part alone, `√(m² + se²)` with this run's own relative standard
///   error `se` added and Welch–Satterthwaite's `ν` over the two (`benches`: the shift the
///   benches of earlier runs shared, [`shared_variation`]; `probe`: the speed probe's, from
///   its 5th run);
/// - of the sources, the one whose band is widest is taken, with its `s` and `ν`; the
///   machine's sources only widen a band the bench's own runs made, never make one alone.
///
/// Why never the machine's alone: they assume the machine moves this bench as much as it
/// moves the probe's kernel or the average bench, and benches differ there. On a shared
/// machine (`lab/executable-copies-coverage.sh`, each run a new build), bands from the probe
/// alone held the next run's estimate far less often than their nominal rate under load: a
/// memory-bound sort moved several times as much as the probe's loop. The bench's own runs
/// are the only evidence of how much the machine moves it.
///
/// Why the widest band, not the largest `s`: each source's band holds the next run at its
/// nominal rate under that source's assumptions, so the widest holds it at least as often as
/// each. A bench noisier than the machine (a small bench whose code layout moves it) has a
/// large `s` of its own from few runs, and Student's t over those few is what keeps its band
/// honest: taking another source's `s` because it came out larger, with that source's many
/// degrees of freedom, would narrow the band whenever the bench's own few runs happened to
/// agree (with 2 degrees of freedom a sample sd falls below 70% of the true one 39% of the
/// time).
///
/// Assumes the runs' machine states are independent draws of one distribution (runs at least
/// a minute apart) and the bench's level did not change between them (one build), or changed
/// at fewer than half of its rebuilds (its builds); for `benches` and `probe`, that the
/// machine moves this bench by as much, relatively, as it moves the average bench, or the
/// probe's kernel. Time: O(runs · log runs).
pub fn reproducibility(
    run: RunEstimate,
    evidence: &Evidence<'_>,
    confidence: f64,
) -> Reproducibility {
    let logs = logs_with(evidence.earlier, run.mean);
    let own = run_spread(&logs).expect("this run's estimate at least");
    // This run's estimate itself when it is the only one (not its logarithm's exponential).
    let center = if logs.len() == 1 {
        run.mean
    } else {
        own.level.exp()
    };
    let level_runs = own.n_eff;
    let run_dof = run.dof.max(1.0);
    // Each source's (variation, sd of one run's estimate, its degrees of freedom).
    let mut candidates: Vec<(MachineVariation, f64, f64)> = Vec::new();
    if logs.len() >= BENCH_RUNS_NEEDED {
        let v = MachineVariation::of_spread(&own, Source::Bench);
        candidates.push((v, v.sd, v.dof));
    }
    let builds = logs_with(evidence.builds, run.mean);
    if let Some(v) = successive_variation(&builds) {
        candidates.push((v, v.sd, v.dof));
    }
    let machine = if candidates.is_empty() {
        [None, None]
    } else {
        [evidence.benches, evidence.probe]
    };
    for v in machine.into_iter().flatten() {
        let (machine, own_noise) = (v.sd * v.sd, run.se * run.se);
        let dof = satterthwaite_dof(&[(machine, v.dof), (own_noise, run_dof)]);
        candidates.push((v, (machine + own_noise).sqrt(), dof));
    }
    let widest = candidates
        .into_iter()
        .map(|(v, sd, dof)| {
            let half = prediction_half_width(sd, dof, level_runs, confidence);
            (half, v, sd, dof)
        })
        .filter(|(half, ..)| half.is_finite())
        .max_by(|a, b| a.0.total_cmp(&b.0));
    match widest {
        Some((half_width, v, sd, dof)) => Reproducibility::Learnt(Band {
            center,
            half_width,
            sd,
            dof,
            runs: v.runs,
            source: v.source,
            level_runs,
        }),
        None => {
            let own_left = BENCH_RUNS_NEEDED.saturating_sub(logs.len());
            let builds_left = RUNS_NEEDED.saturating_sub(builds.len());
            if own_left <= builds_left {
                Reproducibility::Learning {
                    runs: logs.len(),
                    runs_needed: BENCH_RUNS_NEEDED,
                }
            } else {
                Reproducibility::Learning {
                    runs: builds.len(),
                    runs_needed: RUNS_NEEDED,
                }
            }
        }
    }
}

/// The logarithms of `earlier` estimates, then of this run's `now`.
fn logs_with(earlier: &[f64], now: f64) -> Vec<f64> {
    earlier.iter().chain([&now]).map(|m| m.ln()).collect()
}

/// A bench's run-to-run variation from its log estimates `logs` in spaced runs of any of its
/// builds, oldest first: a robust scale of the differences between successive runs,
/// `median |Δ| / (Φ⁻¹(0.75) · √2)` (two independent normal draws of sd `σ` differ by a
/// half-normal of scale `σ√2`, whose median is `Φ⁻¹(0.75) · σ√2`), with the MAD's degrees of
/// freedom ([`MachineVariation::robust`]). `None` with fewer than [`RUNS_NEEDED`] runs.
///
/// Why successive differences, and their median: a rebuild that changed the bench's code
/// moves its level, which would inflate a spread around one mean for as long as those runs
/// stay in the window; it makes one large difference, which the median passes over while
/// fewer than half of the differences hold one. A machine whose state lasts over several runs
/// makes successive runs alike, and the spread is then that of the next run from the last,
/// which is what a band centred on this run predicts.
///
/// Coverage: over independent normal runs, the band this gives a run of a new build (centred
/// on it, `t(ν) · s · √2`) holds the next run 95–99% of the time for 5 to 30 runs
/// (`lab/reproducibility_reference.py --successive`, and `probe/reproducibility/tests.rs`):
/// the MAD's degrees of freedom are fewer than normal runs would allow, as a machine's states
/// are heavier-tailed than normal. Time: O(runs · log runs).
pub(crate) fn successive_variation(logs: &[f64]) -> Option<MachineVariation> {
    if logs.len() < RUNS_NEEDED {
        return None;
    }
    let steps: Vec<f64> = logs.windows(2).map(|w| (w[1] - w[0]).abs()).collect();
    let sd = median(&steps) / (QUARTILE_Z * std::f64::consts::SQRT_2);
    Some(MachineVariation::robust(sd, logs.len(), Source::Bench))
}

/// `Φ⁻¹(0.75)`, the standard normal's upper quartile (`scipy.stats.norm.ppf(0.75)`).
const QUARTILE_Z: f64 = 0.674_489_750_196_081_7;

/// The machine's run-to-run variation that the benches of earlier runs shared, from each
/// run's shift (`effects`, oldest first, from [`run_shifts`]): their recency-weighted spread
/// ([`pilot_stats::run_spread`]) with its degrees of freedom; `None` with fewer than 5 runs,
/// as for the speed probe.
///
/// Why the runs' shifts, not every bench's deviations pooled: a machine shift moves every
/// bench of a run at once, so the deviations of a run's benches from their levels are not
/// independent evidence of it. Pooling them (`Σ(y − ȳ_b)² / Σ(n_b − 1)`) estimates the
/// average bench's run-to-run variance, but claims `Σ(n_b − 1)` degrees of freedom where the
/// machine's part has only `runs − 1`: 8 benches over 6 runs, Student's t at 40 degrees of
/// freedom where the machine's part had 5 held the next run 90% of the time for a nominal 95%
/// (`probe/reproducibility/tests.rs`). And benches of very different noise pooled give every
/// bench the average's: too wide for the quiet ones, too narrow for the noisy ones. What the
/// runs share is the machine's shift; each bench adds its own run's noise to it (`√(m² +
/// se²)` in [`reproducibility`]), and its own earlier runs, once it has enough, what else
/// moves it.
///
/// Each shift is a mean over the run's benches, so it holds `1/B` of their average noise
/// besides the machine's: the variation is that much wider than the machine's alone, which
/// with several benches is small.
///
/// Why 5 runs: this run's own standard error joins the shared part with
/// Welch–Satterthwaite's degrees of freedom, which grow when the shared part comes out small
/// by chance; over 3 runs' shifts that left the band holding the next run 93% of the time
/// for a nominal 95%, over 5 about 95% (`lab/reproducibility_reference.py --coverage`, and
/// `probe/reproducibility/tests.rs` for 5). Time: O(runs).
pub(crate) fn shared_variation(effects: &[f64]) -> Option<MachineVariation> {
    if effects.len() < RUNS_NEEDED {
        return None;
    }
    let spread = run_spread(effects)?;
    Some(MachineVariation::of_spread(&spread, Source::Benches))
}

/// Each run's shift that its benches shared, for `runs` runs: `cells` holds, for each bench
/// (of one build), its `(run, log estimate)` in the runs it was measured in. A cell of two runs
/// or more has a level, the mean of its log estimates; a run's shift is the mean, over the
/// cells it is in, of the log estimate less the cell's level. Runs in no such cell have none:
/// the shifts of the others, in run order, are returned.
///
/// Assumes a bench's level held over its cell's runs (one build), so what moves all of a
/// run's benches together is the machine. Time: O(runs + Σ cell sizes).
pub(crate) fn run_shifts(runs: usize, cells: &[Vec<(usize, f64)>]) -> Vec<f64> {
    let mut sum = vec![0.0; runs];
    let mut count = vec![0usize; runs];
    for cell in cells.iter().filter(|c| c.len() >= 2) {
        let level = cell.iter().map(|(_, y)| y).sum::<f64>() / cell.len() as f64;
        for &(run, y) in cell {
            sum[run] += y - level;
            count[run] += 1;
        }
    }
    sum.iter()
        .zip(&count)
        .filter(|(_, c)| **c > 0)
        .map(|(s, c)| s / *c as f64)
        .collect()
}

#[cfg(test)]
mod tests;
