//! The estimate over several process executions of one bench (Kalibera & Jones, "Rigorous
//! benchmarking in reasonable time"): what a process starts with (memory layout, where its pages
//! land, the machine's state at that moment) stays fixed within it and changes between
//! processes, so the processes' estimates are the samples of the level above them.

use super::{Estimate, MeanPi, SessionConfig};
use pilot_stats::summary::t_critical;
use pilot_stats::{ConfidenceInterval, Summary};
use pilot_stats::{DEFAULT_TRIM, PROCESS_FAR_SHARE, Sides, far_out, trimmed_location};

mod shares;
pub(crate) use shares::{
    LEAST_SHARE, ProcessCost, SHORT_SHARE, child_target, dimensioned_share, early_share,
};

/// Processes a bench runs in by default (no `--processes`), at least, when its time cap is at
/// least [`AUTO_MANY_CAP`]: eight, so that the processes whose layout made them slower (or
/// faster) than the rest can be told from the typical ones and left out while they are fewer
/// than half (see [`pilot_stats::independent_location`]): where a minority of processes draws
/// a slow layout, the more processes a bench runs in, the less often the slow ones are half or
/// more. A process's start and first round are short beside its share of such a cap, so eight
/// short ones cost little more than one long one (`lab/quick-benches.sh` measures what quick
/// benches cost a run).
/// The number is `pilot_settings::PROCESSES`, which the settings table states.
pub(crate) const AUTO_PROCESSES: usize = pilot_settings::PROCESSES.many;

/// The least time cap at which a bench runs in [`AUTO_PROCESSES`] processes by default (eight
/// of [`LEAST_SHARE`] each, with room for the parent's own work).
pub(crate) const AUTO_MANY_CAP: std::time::Duration =
    std::time::Duration::from_secs(pilot_settings::PROCESSES.many_from_s);

/// Processes a bench whose cap is below [`AUTO_MANY_CAP`] but at least [`AUTO_LEAST_CAP`] runs
/// in: the fewest whose estimates give the between-process level two degrees of freedom.
pub(crate) const AUTO_FEW_PROCESSES: usize = pilot_settings::PROCESSES.few;

/// The least time cap at which a bench runs in several processes by default: a child's
/// session is given up to 0.3 s to learn its work amount and reach a first estimate (the
/// runner's `child_first_result`), so a shorter cap cannot pay for three (Kalibera & Jones: a
/// process costs its start and warm-up).
pub(crate) const AUTO_LEAST_CAP: std::time::Duration =
    std::time::Duration::from_secs(pilot_settings::PROCESSES.few_from_s);

/// The fewest processes a bench that runs in [`AUTO_PROCESSES`] by default stops at: see
/// [`settled`].
pub(crate) const AUTO_LEAST_PROCESSES: usize = pilot_settings::PROCESSES.least;

/// Whether the processes `done` have settled what more processes could add beyond precision:
/// none lies far from the rest (left out, or spanned: see [`split`]) and no modes are
/// undecided. A process adds two things: a draw of the between-process level, whose worth the
/// interval's target already weighs, and a chance to see a minority mode (a layout, a
/// neighbour's burst). Once the interval meets its target over [`AUTO_LEAST_PROCESSES`]
/// processes that all agree, more buy precision nobody asked for; when one lies far out, the
/// bench runs its [`AUTO_PROCESSES`], so that the modes' shares can show which is typical.
/// The cost of stopping early: a bench whose processes fall into a minority mode with
/// probability `q` has all four in it with probability `q⁴` (under 0.4% for `q` = ¼, the
/// commonest mode seen). Time: O(P log P).
pub(crate) fn settled(done: &[ProcessEstimate], config: &SessionConfig) -> bool {
    let s = split(done, config);
    s.left_out.is_empty() && s.spanned.is_empty() && !modes_undecided(done, config)
}

/// The processes a bench with time cap `cap` runs in by default. Time: O(1).
pub(crate) fn auto_processes(cap: std::time::Duration) -> usize {
    if cap >= AUTO_MANY_CAP {
        AUTO_PROCESSES
    } else if cap >= AUTO_LEAST_CAP {
        AUTO_FEW_PROCESSES
    } else {
        1
    }
}

/// What one process execution's session estimated.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct ProcessEstimate {
    /// Its mean time per unit (ns); with an unresolved readings-only fit, the fitted slope,
    /// whatever its sign.
    pub(crate) mean: f64,
    /// Half-width of its own interval (ns).
    pub(crate) half_width: f64,
    /// Samples behind it.
    pub(crate) n: usize,
    /// Its subsession size.
    pub(crate) subsession_size: usize,
    /// Lag-1 autocorrelation of its subsession samples.
    pub(crate) autocorrelation: f64,
    /// Its analysed rounds.
    pub(crate) rounds: usize,
    /// What its `mean` is.
    pub(crate) estimator: crate::settings::Estimator,
    /// Its plain mean and that mean's half-width, beside a trimmed mean.
    pub(crate) plain: Option<(f64, f64)>,
    /// The share of its sampled rounds' time the machine was busy beside it (other processes
    /// on its cores, the hypervisor's steal, the cgroup's throttling: the rounds the sampler
    /// marked); `None` when none of its rounds was sampled.
    pub(crate) busy: Option<f64>,
}

/// How many process estimates the target half-width needs, judged from the spread of the
/// processes `done` so far: the interval of their combination ([`combine`]) narrows as
/// `1/√P`, so `P` processes whose half-width is `hw` need `P · (hw / target)²`. `None` with
/// fewer than two processes or a zero location.
///
/// Time: O(P log P).
pub(crate) fn processes_needed(done: &[ProcessEstimate], config: &SessionConfig) -> Option<usize> {
    let (location, half, _) = between_processes(done, config)?;
    let target = config.target * location.abs();
    if target.is_nan() || target <= 0.0 {
        return None;
    }
    let needed = (done.len() as f64 * (half / target).powi(2)).ceil();
    (needed.is_finite() && needed < 1e9).then_some((needed as usize).max(2))
}

/// How far above the others a process's estimate must lie before it can be a minority mode
/// rather than noise: twice the processes' typical own half-width (about four of its standard
/// errors), besides the 5 robust standard deviations of their spread. Time: O(P log P).
fn far_floor(done: &[ProcessEstimate]) -> f64 {
    let mut halves: Vec<f64> = done.iter().map(|d| d.half_width).collect();
    halves.sort_by(f64::total_cmp);
    2.0 * halves.get(halves.len() / 2).copied().unwrap_or(0.0)
}

/// Share of a process's sampled time the machine must have been busy beside it for the process
/// to count as run on a busy machine: the quarter of its rounds' time a state needs to be a
/// check of a session.
const BUSY_SHARE: f64 = 0.25;

/// How the processes of a bench split: the ones its estimate stands on, the ones left out, and
/// among the first, the ones far faster than the rest that the run cannot tell from the code's
/// own speed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Split {
    /// Indices of the processes the estimate stands on.
    pub(crate) kept: Vec<usize>,
    /// Indices of the processes far slower than the rest, left out while they are a minority.
    pub(crate) left_out: Vec<usize>,
    /// Indices (among `kept`) of processes far faster than the rest on a machine the sampler
    /// did not see quiet throughout: the interval spans them.
    pub(crate) spanned: Vec<usize>,
}

/// Which processes of `done` the bench's estimate stands on. With the mean estimator, all.
/// With the trimmed-mean estimator, processes far from the median (beyond 5 robust standard
/// deviations and [`far_floor`]) while they are fewer than half:
///
/// - far *slower*: left out. A process that ran its whole life slower owes it to its start (an
///   unlucky layout) or to a neighbour busy for its whole life; the typical process is what a
///   later run repeats.
/// - far *faster*: left out only when the sampler saw the machine quiet through every process
///   (then the difference is the processes' own, a lucky layout, and the typical process is
///   again what a later run repeats). Otherwise nothing says which speed is the code's: a
///   neighbour can slow most of the processes (the larger group is then the slowed one, and
///   the faster minority ran at the code's own speed), or a layout can speed a few. The run
///   does not choose by count: those processes stay in and the interval spans them
///   ([`combine`]).
///
/// When the far-out processes are half or more, none is left out (modes with no majority; the
/// interval spans them). Assumes interference only adds time. Time: O(P log P).
pub(crate) fn split(done: &[ProcessEstimate], config: &SessionConfig) -> Split {
    let all = Split {
        kept: (0..done.len()).collect(),
        left_out: Vec::new(),
        spanned: Vec::new(),
    };
    if config.estimator != crate::settings::Estimator::Trimmed || done.len() < 2 {
        return all;
    }
    let means: Vec<f64> = done.iter().map(|p| p.mean).collect();
    let far = far_out(&means, Sides::Both, far_floor(done));
    if far.count() as f64 >= PROCESS_FAR_SHARE * means.len() as f64 {
        return all;
    }
    let median = pilot_stats::summary::median(&means);
    let quiet = quiet_throughout(done);
    let mut split = Split {
        kept: Vec::new(),
        ..all
    };
    for (i, (&m, &is_far)) in means.iter().zip(far.flags()).enumerate() {
        // Far slower, or far faster on a machine seen quiet throughout: left out.
        if is_far && (m > median || quiet) {
            split.left_out.push(i);
        } else {
            split.kept.push(i);
            if is_far {
                split.spanned.push(i);
            }
        }
    }
    split
}

/// Whether the sampler saw the machine quiet through every process of `done`: each was
/// sampled, and busy beside it for less than [`BUSY_SHARE`] of its rounds' time. Time: O(P).
fn quiet_throughout(done: &[ProcessEstimate]) -> bool {
    done.iter().all(|p| p.busy.is_some_and(|b| b < BUSY_SHARE))
}

/// The estimates of the processes `done` that the typical process's estimate stands on (see
/// [`split`]). Time: O(P log P).
pub(crate) fn typical_processes(done: &[ProcessEstimate], config: &SessionConfig) -> Vec<f64> {
    split(done, config)
        .kept
        .iter()
        .map(|&i| done[i].mean)
        .collect()
}

/// Whether the processes `done` show modes the run has not settled: with the trimmed-mean
/// estimator, processes lie far from the median, and they are half or more (so none is left
/// out and the interval spans the modes), or some are far faster on a busy machine (see
/// [`split`]). More processes can then find the typical one (the modes' shares settle, or a
/// quiet moment shows which speed is the code's), which the narrowing of the interval as
/// `1/√P` does not foresee. Time: O(P log P).
pub(crate) fn modes_undecided(done: &[ProcessEstimate], config: &SessionConfig) -> bool {
    if config.estimator != crate::settings::Estimator::Trimmed || done.len() < 2 {
        return false;
    }
    let means: Vec<f64> = done.iter().map(|p| p.mean).collect();
    let far = far_out(&means, Sides::Both, far_floor(done)).count();
    far > 0 && far as f64 >= PROCESS_FAR_SHARE * means.len() as f64
        || !split(done, config).spanned.is_empty()
}

/// The location of the estimates of the processes `done`, the half-width of its interval over
/// them and that interval's degrees of freedom: with the trimmed-mean estimator, the robust
/// location of independent values (as [`pilot_stats::independent_location`], with the
/// processes [`split`] leaves out left out: a process that ran its whole life far slower,
/// through a bad layout or a neighbour's burst, while such processes are fewer than half; the
/// rest's 20%-trimmed mean is taken); with the mean estimator, their mean with Student's t (a
/// slow process is then part of the cost, as a slow unit is). Time: O(P log P).
fn between_processes(done: &[ProcessEstimate], config: &SessionConfig) -> Option<(f64, f64, f64)> {
    let means: Vec<f64> = done.iter().map(|p| p.mean).collect();
    match config.estimator {
        crate::settings::Estimator::Trimmed => {
            let kept: Vec<f64> = typical_processes(done, config);
            if means.iter().any(|m| !m.is_finite()) {
                return None;
            }
            let loc = trimmed_location(&kept, DEFAULT_TRIM, config.confidence).ok()?;
            Some((loc.value, loc.ci.half_width(), loc.dof))
        }
        crate::settings::Estimator::Mean => {
            let s = Summary::of(&means).ok()?;
            let dof = s.n as f64 - 1.0;
            Some((
                s.mean,
                t_critical(config.confidence, dof) * s.std_error(),
                dof,
            ))
        }
    }
}

/// The estimate over process executions: the typical process's estimate (see
/// [`between_processes`]: the 20%-trimmed mean of the processes' estimates, far-out ones left
/// out, or their mean with the mean estimator), with the wider of the interval over those
/// estimates and the kept processes' own intervals combined (`sqrt(Σ hw²) / P`, the
/// half-width of a mean of independent estimates). Assumes the processes are independent
/// draws of the same bench.
///
/// # Panics
///
/// With fewer than two processes or a non-finite estimate: the caller combines at least two.
///
/// Time: O(P log P).
pub(crate) fn combine(done: &[ProcessEstimate], config: &SessionConfig) -> Estimate {
    let means: Vec<f64> = done.iter().map(|p| p.mean).collect();
    let (location, between, dof) =
        between_processes(done, config).expect("at least two finite process estimates");
    let p = done.len() as f64;
    // The own intervals of the processes the location stands on: a far-out process's (it
    // is left out) does not widen it, nor does an own interval far wider than the others'
    // (a process whose few rounds caught a warm-up or a neighbour, while its estimate agrees
    // with the rest: one such interval would otherwise widen the bench's many-fold).
    let split = split(done, config);
    let own: Vec<f64> = split.kept.iter().map(|&i| done[i].half_width).collect();
    let typical = {
        let mut sorted = own.clone();
        sorted.sort_by(f64::total_cmp);
        sorted.get(sorted.len() / 2).copied().unwrap_or(0.0)
    };
    // Far out: beyond 5 robust standard deviations of the own half-widths and beyond three
    // times the typical one, for fewer than half of them.
    let own = far_out(&own, Sides::Above, 2.0 * typical).without(PROCESS_FAR_SHARE);
    let within = own.iter().map(|h| h * h).sum::<f64>().sqrt() / own.len().max(1) as f64;
    let half = between.max(within);
    // Processes far faster than the rest that the run cannot tell from the code's own speed
    // (see `split`): the interval reaches them, with their own intervals, whatever the
    // trimmed mean made of them.
    let (low, high) = split.spanned.iter().map(|&i| &done[i]).fold(
        (location - half, location + half),
        |(low, high), d| {
            (
                low.min(d.mean - d.half_width),
                high.max(d.mean + d.half_width),
            )
        },
    );
    let ci = ConfidenceInterval {
        low,
        high,
        confidence: config.confidence,
    };
    let per_process: f64 = done.iter().map(|d| d.n as f64).sum::<f64>() / p;
    let required_n = processes_needed(done, config)
        .map(|processes| (processes as f64 * per_process).ceil() as usize);
    // The typical process's subsession size (the median), not the most correlated one's.
    let mut q: Vec<usize> = done.iter().map(|d| d.subsession_size).collect();
    q.sort_unstable();
    // The plain means beside trimmed ones, combined as a mean (they are the PI that keeps
    // every slow unit, so every slow process too), when every process has one.
    let plain: Option<Vec<(f64, f64)>> = done.iter().map(|d| d.plain).collect();
    let plain = plain.map(|pairs| {
        let (m, h): (Vec<f64>, Vec<f64>) = pairs.into_iter().unzip();
        let (s, ci, ..) = combined(&m, &h, config.confidence);
        MeanPi { mean: s.mean, ci }
    });
    Estimate {
        mean: location,
        estimator: done[0].estimator,
        plain,
        trimmed: None,
        ci,
        n: done.iter().map(|d| d.n).sum(),
        subsession_size: q[q.len() / 2],
        autocorrelation: done.iter().map(|d| d.autocorrelation).sum::<f64>() / p,
        required_n,
        subsession_means: means,
        wps: None,
        variance_inflation: 1.0,
        between_rounds: between > within,
        rounds: done.iter().map(|d| d.rounds).sum(),
        // The processes' own intervals decide only when the processes agree: their samples
        // are many, and Student's t over them is about the normal quantile.
        dof: if between > within { dof } else { 1e6 },
        round_excess: (between / within).max(1.0),
        modes: split.spanned.len(),
    }
}

/// The estimate of a bench whose time allowed one process only: that process's own, with its
/// own interval (which cannot see the variation between processes). Time: O(1).
pub(crate) fn alone(p: &ProcessEstimate, confidence: f64) -> Estimate {
    Estimate {
        mean: p.mean,
        estimator: p.estimator,
        plain: p.plain.map(|(mean, half)| MeanPi {
            mean,
            ci: ConfidenceInterval {
                low: mean - half,
                high: mean + half,
                confidence,
            },
        }),
        trimmed: None,
        ci: ConfidenceInterval {
            low: p.mean - p.half_width,
            high: p.mean + p.half_width,
            confidence,
        },
        n: p.n,
        subsession_size: p.subsession_size,
        autocorrelation: p.autocorrelation,
        required_n: None,
        subsession_means: vec![p.mean],
        wps: None,
        variance_inflation: 1.0,
        between_rounds: false,
        rounds: p.rounds,
        dof: 1e6,
        round_excess: 1.0,
        modes: 0,
    }
}

/// The mean of process estimates `means` (with their own half-widths `halves`) and its
/// interval: the wider of Student's t over the means and the halves combined; with the
/// between- and within-process half-widths.
fn combined(
    means: &[f64],
    halves: &[f64],
    confidence: f64,
) -> (Summary, ConfidenceInterval, f64, f64) {
    let s = Summary::of(means).expect("at least two finite process estimates");
    let p = s.n as f64;
    let between = t_critical(confidence, p - 1.0) * s.std_error();
    let within = halves.iter().map(|h| h * h).sum::<f64>().sqrt() / p;
    let half = between.max(within);
    let ci = ConfidenceInterval {
        low: s.mean - half,
        high: s.mean + half,
        confidence,
    };
    (s, ci, between, within)
}

#[cfg(test)]
mod tests;
