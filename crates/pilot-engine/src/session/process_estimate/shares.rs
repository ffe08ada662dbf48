//! How long each process of a bench measures: the first ones' shares, the half-width each
//! should reach, and Kalibera and Jones's dimensioning of the later ones.

use pilot_stats::Summary;
use pilot_stats::summary::t_critical;

/// The measuring time each of the first `planned` processes of a bench capped at `cap` is
/// given: a fifth of the cap shared among them, at least [`EARLY_LEAST_SHARE`]. The rest of
/// the cap is for the processes their spread asks for (each sized by [`dimensioned_share`]).
/// A process stops sooner when its own interval is as narrow as [`child_target`] asks.
/// Time: O(1).
pub(crate) fn first_share(cap: std::time::Duration, planned: usize) -> std::time::Duration {
    (cap / (5 * planned.max(1)) as u32).max(EARLY_LEAST_SHARE)
}

/// The least measuring time of a bench's first processes, which a short cap (under 6 s over
/// eight processes) comes down to: enough for a child's session to learn its work amount,
/// reach its first estimate in half of it and run its six rounds. Their job is a first draw
/// of the between-process level each, which decides how many more processes the bench needs
/// and how long each should be ([`dimensioned_share`], at least [`LEAST_SHARE`]); a longer
/// first process buys precision within one layout, which more processes buy better.
pub(crate) const EARLY_LEAST_SHARE: std::time::Duration = std::time::Duration::from_millis(150);

/// The least measuring time a process after a bench's first ones is given (and an interleaved
/// pair's): enough for a session to learn its work amount and run ten rounds.
pub(crate) const LEAST_SHARE: std::time::Duration = std::time::Duration::from_millis(250);

/// The measuring time of every process of a bench after its first once the first met its own
/// target within its share (the units are short), and the least a dimensioned share of such
/// a bench comes down to: a process that reaches its estimate in a tenth of a second adds as
/// much to the between-process level as one that runs a quarter: the level, not the length,
/// is what the processes are for. A longer process of short units buys precision within one
/// layout, which the next process buys better, since what a process costs beyond measuring
/// (its start, calibration, result) is small beside this share.
pub(crate) const SHORT_SHARE: std::time::Duration = std::time::Duration::from_millis(100);

/// The measuring time of process `done + 1` of the first `planned` of a bench capped at
/// `cap`, when `short` (its first process met its own target in its share): the first gets
/// [`first_share`]; the later ones [`SHORT_SHARE`] when the units are short, whatever the cap,
/// else [`first_share`] too. Time: O(1).
pub(crate) fn early_share(
    cap: std::time::Duration,
    planned: usize,
    done: usize,
    short: bool,
) -> std::time::Duration {
    if done == 0 || !short {
        first_share(cap, planned)
    } else {
        SHORT_SHARE
    }
}

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
/// least `least` ([`LEAST_SHARE`], or [`SHORT_SHARE`] for short units) and at most
/// `remaining` (or `least`). Time: O(P).
pub(crate) fn dimensioned_share(
    done: &[ProcessCost],
    confidence: f64,
    (least, remaining): (std::time::Duration, std::time::Duration),
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
    Some(best.clamp(least, remaining.max(least)))
}

/// What a finished process cost and found, for [`dimensioned_share`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ProcessCost {
    /// Its estimate.
    pub(crate) mean: f64,
    /// Its own half-width.
    pub(crate) half_width: f64,
    /// From its start to its report.
    pub(crate) wall: std::time::Duration,
    /// The time its analysed rounds took.
    pub(crate) measured: std::time::Duration,
}
