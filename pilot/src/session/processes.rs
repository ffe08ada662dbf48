//! The estimate over several process executions of one bench (Kalibera & Jones, "Rigorous
//! benchmarking in reasonable time"): what a process starts with (memory layout, where its pages
//! land, the machine's state at that moment) stays fixed within it and changes between
//! processes, so the processes' estimates are the samples of the level above them.

use super::{Estimate, SessionConfig};
use crate::stats::summary::t_critical;
use crate::stats::{ConfidenceInterval, Summary, samplesize};

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
    let s = Summary::of(&means).expect("at least two finite process estimates");
    let p = s.n as f64;
    let between = t_critical(config.confidence, p - 1.0) * s.std_error();
    let within = done
        .iter()
        .map(|d| d.half_width * d.half_width)
        .sum::<f64>()
        .sqrt()
        / p;
    let half = between.max(within);
    let per_process: f64 = done.iter().map(|d| d.n as f64).sum::<f64>() / p;
    let required_n = processes_needed(&means, config)
        .map(|processes| (processes as f64 * per_process).ceil() as usize);
    // The typical process's subsession size (the median), not the most correlated one's.
    let mut q: Vec<usize> = done.iter().map(|d| d.subsession_size).collect();
    q.sort_unstable();
    Estimate {
        mean: s.mean,
        ci: ConfidenceInterval {
            low: s.mean - half,
            high: s.mean + half,
            confidence: config.confidence,
        },
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
