//! The estimate over several process executions of one bench (Kalibera & Jones, "Rigorous
//! benchmarking in reasonable time"): what a process starts with (memory layout, where its pages
//! land, the machine's state at that moment) stays fixed within it and changes between
//! processes, so the processes' estimates are the samples of the level above them.

use super::{Estimate, MeanPi, SessionConfig};
use crate::stats::summary::t_critical;
use crate::stats::{ConfidenceInterval, Summary, samplesize};

/// Processes a bench runs in by default (no `--processes`), at least: the fewest whose
/// estimates give the between-process level two degrees of freedom.
pub(crate) const AUTO_PROCESSES: usize = 3;

/// The least time cap at which a bench runs in several processes by default: a child's
/// session needs about 0.3 s to learn its work amount and reach a first estimate, so a
/// shorter cap cannot pay for three (Kalibera & Jones: a process costs its start and warm-up).
pub(crate) const AUTO_LEAST_CAP: std::time::Duration = std::time::Duration::from_secs(1);

/// The least measuring time a process is given.
const LEAST_SHARE: std::time::Duration = std::time::Duration::from_millis(300);

/// The half-width each of `planned` processes should reach so that their combination can meet
/// `target` when they agree: Student's t over `P` estimates with `P − 1` degrees of freedom is
/// `t(P − 1)·s/√P`, and a process's own half-width is about `z·s` (many samples), so a child
/// needs `target · √P · z / t(P − 1)` (0.79 × the target for 3 processes, 1.6 × for 5).
/// At most 0.5. Time: O(1).
pub(crate) fn child_target(target: f64, planned: usize, confidence: f64) -> f64 {
    let p = planned.max(2) as f64;
    let z = t_critical(confidence, 1e6);
    (target * p.sqrt() * z / t_critical(confidence, p - 1.0)).min(0.5)
}

/// The measuring time the next process should get, by Kalibera and Jones's dimensioning
/// ("Rigorous benchmarking in reasonable time", 2013): with a between-process variance `τ²`,
/// a within-process variance of the estimate of `σ²/t` after measuring `t`, and a cost `c` of
/// starting and warming up a process, the variance of the mean over a fixed budget is least at
/// `t* = √(c·σ²/τ²)`. Each of `done` gives its estimate, its half-width, the wall time it
/// took and the time it measured: `σ²` is the mean of `se²·t`, `c` the mean of `wall − t`,
/// `τ² = s²(means) − mean(se²)`. `None` when there are fewer than two processes or no
/// between-process variance shows (then the time left is shared equally). The result is at
/// least 0.3 s and at most `remaining`. Time: O(P).
pub(crate) fn dimensioned_share(
    done: &[ProcessCost],
    confidence: f64,
    remaining: std::time::Duration,
) -> Option<std::time::Duration> {
    if done.len() < 2 {
        return None;
    }
    let z = t_critical(confidence, 1e6);
    let p = done.len() as f64;
    let means: Vec<f64> = done.iter().map(|d| d.mean).collect();
    let s = Summary::of(&means).ok()?;
    let se2: Vec<f64> = done.iter().map(|d| (d.half_width / z).powi(2)).collect();
    let within = se2.iter().sum::<f64>() / p;
    let tau2 = s.variance - within;
    let shows = tau2 > 0.0;
    if !shows {
        return None;
    }
    let sigma2 = done
        .iter()
        .zip(&se2)
        .map(|(d, se2)| se2 * d.measured.as_secs_f64())
        .sum::<f64>()
        / p;
    let cost = done
        .iter()
        .map(|d| d.wall.saturating_sub(d.measured).as_secs_f64())
        .sum::<f64>()
        / p;
    let best = (cost * sigma2 / tau2).sqrt();
    let best = std::time::Duration::try_from_secs_f64(best).ok()?;
    Some(best.clamp(LEAST_SHARE, remaining.max(LEAST_SHARE)))
}

/// What a finished process cost and found, for [`dimensioned_share`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ProcessCost {
    /// Its estimate.
    pub mean: f64,
    /// Its own half-width.
    pub half_width: f64,
    /// From its start to its report.
    pub wall: std::time::Duration,
    /// The time its analysed rounds took.
    pub measured: std::time::Duration,
}

/// What one process execution's session estimated.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ProcessEstimate {
    /// Its mean time per unit (ns); with an unresolved readings-only fit, the fitted slope,
    /// whatever its sign.
    pub mean: f64,
    /// Half-width of its own interval (ns).
    pub half_width: f64,
    /// Samples behind it.
    pub n: usize,
    /// Its subsession size.
    pub subsession_size: usize,
    /// Lag-1 autocorrelation of its subsession samples.
    pub autocorrelation: f64,
    /// Its analysed rounds.
    pub rounds: usize,
    /// What its `mean` is.
    pub estimator: crate::settings::Estimator,
    /// Its plain mean and that mean's half-width, beside a trimmed mean.
    pub plain: Option<(f64, f64)>,
}

/// How many process estimates the target half-width needs, judged from the spread of `means`
/// so far: Pilot's required sample size (eq. 3) with the processes as samples. `None` with
/// fewer than two means or a zero mean.
///
/// Time: O(P).
pub(crate) fn processes_needed(means: &[f64], config: &SessionConfig) -> Option<usize> {
    let s = Summary::of(means).ok()?;
    samplesize::required_for_half_width(
        s.variance,
        s.n as f64 - 1.0,
        config.target * s.mean.abs(),
        config.confidence,
    )
}

/// The estimate over process executions: the mean of their estimates, with the wider of
/// Student's t over those estimates (P − 1 degrees of freedom) and their own intervals combined
/// (`sqrt(Σ hw²) / P`, the half-width of a mean of independent estimates). Assumes the
/// processes are independent draws of the same bench.
///
/// # Panics
///
/// With fewer than two processes or a non-finite estimate: the caller combines at least two.
///
/// Time: O(P).
pub(crate) fn combine(done: &[ProcessEstimate], config: &SessionConfig) -> Estimate {
    let means: Vec<f64> = done.iter().map(|p| p.mean).collect();
    let halves: Vec<f64> = done.iter().map(|p| p.half_width).collect();
    let (s, ci, between, within) = combined(&means, &halves, config.confidence);
    let p = s.n as f64;
    let per_process: f64 = done.iter().map(|d| d.n as f64).sum::<f64>() / p;
    let required_n = processes_needed(&means, config)
        .map(|processes| (processes as f64 * per_process).ceil() as usize);
    // The typical process's subsession size (the median), not the most correlated one's.
    let mut q: Vec<usize> = done.iter().map(|d| d.subsession_size).collect();
    q.sort_unstable();
    // The plain means beside trimmed ones, combined alike, when every process has one.
    let plain: Option<Vec<(f64, f64)>> = done.iter().map(|d| d.plain).collect();
    let plain = plain.map(|pairs| {
        let (m, h): (Vec<f64>, Vec<f64>) = pairs.into_iter().unzip();
        let (s, ci, ..) = combined(&m, &h, config.confidence);
        MeanPi { mean: s.mean, ci }
    });
    Estimate {
        mean: s.mean,
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
        dof: if between > within { p - 1.0 } else { 1e6 },
        round_excess: (between / within).max(1.0),
        machine: None,
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
        machine: None,
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
mod tests {
    use super::*;

    fn process(mean: f64, half_width: f64, n: usize, q: usize) -> ProcessEstimate {
        ProcessEstimate {
            mean,
            half_width,
            n,
            subsession_size: q,
            autocorrelation: 0.05,
            rounds: 10,
            estimator: crate::settings::Estimator::Trimmed,
            plain: None,
        }
    }

    #[test]
    fn between_process_spread_decides_when_wider() {
        // Means 100, 102, 104: mean 102, s = 2, se = 2/√3; t(0.975, 2) = 4.302652729911275
        // (scipy.stats.t.ppf), so the half-width is 4.302652729911275 · 1.1547005383792517.
        let done = [
            process(100.0, 0.5, 1000, 4),
            process(102.0, 0.5, 2000, 1),
            process(104.0, 0.5, 3000, 8),
        ];
        let e = combine(&done, &SessionConfig::default());
        let half = 4.302652729911275 * 1.1547005383792517;
        assert!((e.mean - 102.0).abs() < 1e-12);
        assert!(
            (e.ci.half_width() - half).abs() < 1e-9,
            "{}",
            e.ci.half_width()
        );
        assert!(e.between_rounds);
        assert_eq!(e.n, 6000);
        assert_eq!(e.subsession_size, 4);
        assert_eq!(e.rounds, 30);
        assert_eq!(e.subsession_means, vec![100.0, 102.0, 104.0]);
    }

    #[test]
    fn own_intervals_decide_when_processes_agree() {
        // Means 10, 10: no spread, so the processes' own half-widths 3 and 4 combine to
        // √(9 + 16) / 2 = 2.5.
        let done = [process(10.0, 3.0, 10, 1), process(10.0, 4.0, 10, 1)];
        let e = combine(&done, &SessionConfig::default());
        assert!((e.ci.half_width() - 2.5).abs() < 1e-12);
        assert!(!e.between_rounds);
    }

    #[test]
    fn child_targets_by_hand() {
        // scipy: 0.01·√3·t.ppf(0.975, 1e6)/t.ppf(0.975, 2) (a process's many samples).
        let expected = 0.00788992634161618;
        let got = child_target(0.01, 3, 0.95);
        assert!((got - expected).abs() < 1e-6 * expected, "{got} {expected}");
        assert_eq!(child_target(0.4, 10, 0.95), 0.5);
    }

    #[test]
    fn dimensioning_follows_kalibera_and_jones() {
        use std::time::Duration;
        // Means 99, 101 (s² = 2), half-widths z·1 (se² = 1): τ² = 2 − 1 = 1; measured 1 s
        // each, so σ² = 1; wall 1.25 s, so c = 0.25 s: t* = √(0.25 · 1 / 1) = 0.5 s.
        let z = t_critical(0.95, 1e6);
        let cost = |mean| ProcessCost {
            mean,
            half_width: z,
            wall: Duration::from_millis(1250),
            measured: Duration::from_secs(1),
        };
        let share = dimensioned_share(&[cost(99.0), cost(101.0)], 0.95, Duration::from_secs(9));
        let share = share.unwrap().as_secs_f64();
        assert!((share - 0.5).abs() < 1e-6, "{share}");
        // Means that agree within their own noise: no between-process variance to size for.
        assert_eq!(
            dimensioned_share(&[cost(100.0), cost(100.5)], 0.95, Duration::from_secs(9)),
            None
        );
        assert_eq!(
            dimensioned_share(&[cost(1.0)], 0.95, Duration::from_secs(9)),
            None
        );
    }

    #[test]
    fn processes_needed_follows_the_spread() {
        let config = SessionConfig {
            target: 0.01,
            ..SessionConfig::default()
        };
        // Means 80, 120, 100: variance 400, t(0.975, 2)² = 18.512820514212944, target ±1 ns:
        // ⌈400 · 18.5128…⌉ = 7406 processes.
        assert_eq!(processes_needed(&[80.0, 120.0, 100.0], &config), Some(7406));
        assert_eq!(processes_needed(&[1.0], &config), None);
    }
}
