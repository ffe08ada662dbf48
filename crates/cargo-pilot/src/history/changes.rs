//! The level changes of a series: one value per commit (the mean of the logarithms of its
//! runs' estimates, clean runs on their branch or line only), and the engine's
//! [`searched_level_changes`] over them: Hunter's method, each change's p counted over the
//! splits searched. Which of them the machine explains, and which a suite names, is
//! [`super::machine`]'s.

use pilot_stats::{LevelChangeConfig, relative_interval, searched_level_changes};

use super::read::Point;

/// Least commits on each side of a change. One or two odd runs are never a change, and a
/// change is found once the second commit after it is measured (measured by simulation in
/// `changes_simulation`, see the book's history chapter).
pub const MIN_SEGMENT: usize = 3;

/// The thresholds of change detection.
#[derive(Debug, Clone, Copy)]
pub struct ChangeOptions {
    /// A change needs its p below this: for a bench's, counted over the splits searched and
    /// adjusted over its machine's series (Holm's step-down), the suite's false-alarm rate.
    pub max_p: f64,
    /// A change needs to be larger than this, relative (0.01 is 1%).
    pub noise: f64,
}

impl Default for ChangeOptions {
    fn default() -> Self {
        ChangeOptions {
            max_p: 0.01,
            noise: 0.01,
        }
    }
}

/// A change found in a series.
#[derive(Debug, Clone, PartialEq)]
pub struct FoundChange {
    /// Index of its first point in the series' points.
    pub point: usize,
    /// The commit it starts at (the first measured at the new level).
    pub commit: Option<String>,
    /// Its subject line.
    pub subject: Option<String>,
    /// The commit measured before it.
    pub previous: Option<String>,
    /// The relative change of the geometric mean time, and its interval.
    pub change: f64,
    pub change_ci: Option<(f64, f64)>,
    /// Student's t-test of the commits on either side, counted over the splits of those
    /// commits the search chose it from (`pilot_stats::searched_p`).
    pub p: f64,
    /// `p` adjusted over its machine's series (Holm's step-down), what `--max-p` decides on;
    /// `p` itself for a series read alone.
    pub p_adjusted: f64,
    /// Commits on each side.
    pub before: usize,
    pub after: usize,
}

impl FoundChange {
    /// Whether it is a slowdown.
    pub fn is_regression(&self) -> bool {
        self.change > 0.0
    }

    /// The change as a signed percentage with its interval: `+8.12% [+6.90%, +9.34%]`.
    pub fn text(&self) -> String {
        let pct = |x: f64| format!("{:+.2}%", 100.0 * x);
        match self.change_ci {
            Some((lo, hi)) => format!("{} [{}, {}]", pct(self.change), pct(lo), pct(hi)),
            None => pct(self.change),
        }
    }

    /// `slower` or `faster`.
    pub fn verdict(&self) -> &'static str {
        if self.is_regression() {
            "slower"
        } else {
            "faster"
        }
    }

    /// The change as JSON (`pilot.history/1` and `pilot.changes/1`).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "commit": self.commit,
            "previous": self.previous,
            "subject": self.subject,
            "change": self.change,
            "change_ci": self.change_ci.map(|(lo, hi)| serde_json::json!({"low": lo, "high": hi})),
            "p": self.p,
            "p_adjusted": self.p_adjusted,
            "commits_before": self.before,
            "commits_after": self.after,
            "verdict": if self.is_regression() { "regressed" } else { "improved" },
        })
    }
}

/// The points that count for changes, grouped by commit in order: each group's first point's
/// index and its value (mean log estimate).
pub(super) fn values(points: &[Point]) -> Vec<(usize, f64)> {
    let mut out: Vec<(usize, Option<&str>, f64, usize)> = Vec::new();
    for (i, p) in points.iter().enumerate() {
        let Some(e) = p.estimate.filter(|e| *e > 0.0 && e.is_finite()) else {
            continue;
        };
        if p.dirty == Some(true) || !p.on_branch {
            continue;
        }
        match out.last_mut() {
            Some(last) if p.commit.is_some() && last.1 == p.commit.as_deref() => {
                last.2 += e.ln();
                last.3 += 1;
            }
            _ => out.push((i, p.commit.as_deref(), e.ln(), 1)),
        }
    }
    out.into_iter()
        .map(|(i, _, sum, n)| (i, sum / n as f64))
        .collect()
}

/// The settings of the statistic as `changes` uses it: Hunter's, with at least
/// [`MIN_SEGMENT`] commits at each level, a level that comes back tested as such, and a run of
/// one or two commits far out from the commits around it (a run a neighbour slowed) read as
/// their level rather than let widen the test of every change beside it.
fn config(options: &ChangeOptions) -> LevelChangeConfig {
    LevelChangeConfig {
        max_p: options.max_p,
        min_shift: options.noise.ln_1p(),
        min_segment: MIN_SEGMENT,
        up_and_back: true,
        leave_out_short_runs: true,
        ..LevelChangeConfig::default()
    }
}

/// The level changes of `xs` (any series of logarithms, one value per commit) at `options`, by
/// index, each change's p counted over the splits searched; none when there are too few
/// values.
pub(super) fn level_changes_of(
    xs: &[f64],
    options: &ChangeOptions,
) -> Vec<pilot_stats::LevelChange> {
    searched_level_changes(xs, &config(options)).unwrap_or_default()
}

/// The changes of a bench's values `vals` (from [`values`] of `points`, perhaps with the
/// machine's shifts taken out), oldest first, each change's p counted over the splits searched
/// ([`searched_level_changes`]): read alone, the series shows a change where its code did not
/// change about as rarely as `options.max_p` says.
pub(super) fn detect(
    points: &[Point],
    vals: &[(usize, f64)],
    options: &ChangeOptions,
) -> Vec<FoundChange> {
    let xs: Vec<f64> = vals.iter().map(|v| v.1).collect();
    level_changes_of(&xs, options)
        .iter()
        .map(|c| {
            let at = vals[c.index].0;
            let prev = vals[c.index - 1].0;
            FoundChange {
                point: at,
                commit: points[at].commit.clone(),
                subject: points[at].subject.clone(),
                previous: points[prev].commit.clone(),
                change: c.shift().exp_m1(),
                change_ci: c.shift_ci.map(relative_interval),
                p: c.p,
                p_adjusted: c.p,
                before: c.n_before,
                after: c.n_after,
            }
        })
        .collect()
}
