//! The level changes of a series: one value per commit (the mean of the logarithms of its
//! runs' estimates, clean runs on their branch or line only), and the engine's
//! [`searched_level_changes`] over them: Hunter's method, each change's p counted over the
//! splits searched. Which of them the machine explains, and which a suite names, is
//! [`super::machine`]'s.

use pilot_stats::Summary;
use pilot_stats::summary::median;
use pilot_stats::{
    LevelChangeConfig, SHORT_RUN_LIMIT, relative_interval, searched_level_changes, short_runs,
    split_test, t_quantile,
};

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
    /// When runs left out as too imprecise ([`imprecise`]) lie between `previous` and
    /// `commit`, the first of their commits: the change came at it or after it, up to `commit`.
    pub earliest: Option<String>,
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
    /// For a series' newest change, when its newest one or two commits read back near the
    /// level before it ([`receded`]): a level the code may have left again since.
    pub receded: Option<Receded>,
}

/// A series' newest commits, fewer than [`MIN_SEGMENT`] and so no level of their own, that
/// read back near the level before the series' newest change ([`receded`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Receded {
    /// How many of the newest commits.
    pub commits: usize,
    /// Their mean's relative difference from the rest of the changed level.
    pub change: f64,
    /// Student's t-test of them against the rest of the changed level, the spread pooled with
    /// the level before it.
    pub p: f64,
}

/// The two-sided p below which [`receded`] says the newest commits left the changed level: a
/// note that asks for another run, not a change named, so the suite's `--max-p` is not what
/// it is held to.
pub const RECEDED_P: f64 = 0.05;

/// Whether the newest commits of a series read back near the level before its newest change:
/// `prior` the values of the level before the change, `level` those of the changed level,
/// which runs to the newest commit (one a commit, logarithms, oldest first). The newest `k`
/// commits (2, then 1: fewer than [`MIN_SEGMENT`], which a change needs on each side) count
/// when each is nearer the mean of `prior` than the mean of the rest of `level` (which keeps at
/// least [`MIN_SEGMENT`]), and Student's two-sample t-test ([`split_test`]) of them against that
/// rest, its spread never taken below the two levels' pooled spread (a side of one or two
/// commits says little of its own spread) and its degrees of freedom the two sides', gives p <
/// [`RECEDED_P`]. Assumes values about normal, one variance on every level. Time: O(n).
pub fn receded(prior: &[f64], level: &[f64]) -> Option<Receded> {
    if prior.len() < 2 {
        return None;
    }
    let prior = Summary::of(prior).ok()?;
    (1..MIN_SEGMENT).rev().find_map(|k| {
        let end = level.len().checked_sub(k)?;
        if end < MIN_SEGMENT {
            return None;
        }
        let (rest, newest) = level.split_at(end);
        let now = Summary::of(rest).ok()?;
        if !newest
            .iter()
            .all(|x| (x - prior.mean).abs() < (x - now.mean).abs())
        {
            return None;
        }
        // Each level's sum of squares is its variance times its degrees of freedom.
        let squares = |s: &Summary| s.variance * (s.n - 1) as f64;
        let dof = (prior.n + now.n - 2) as f64;
        let pooled = ((squares(&prior) + squares(&now)) / dof).sqrt();
        let t = split_test(end, (rest, newest), pooled, 0.95).ok()?;
        (t.p < RECEDED_P).then(|| Receded {
            commits: k,
            change: t.shift().exp_m1(),
            p: t.p,
        })
    })
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
            "earliest": self.earliest,
            "subject": self.subject,
            "change": self.change,
            "change_ci": self.change_ci.map(|(lo, hi)| serde_json::json!({"low": lo, "high": hi})),
            "p": self.p,
            "p_adjusted": self.p_adjusted,
            "commits_before": self.before,
            "commits_after": self.after,
            "verdict": if self.is_regression() { "regressed" } else { "improved" },
            "newest_receded": self.receded.map(|r| serde_json::json!({
                "commits": r.commits,
                "change": r.change,
                "p": r.p,
            })),
        })
    }
}

/// A run counts for no change when, weighed by its precision (1 / (its own variance + the
/// bench's run-to-run variance), as a meta-analysis weighs studies), it would count less than
/// this fraction of its bench's median run. A run its time cap stopped far from its precision
/// is usually one a neighbour disturbed: its estimate is off by about its interval, and a few of
/// them in a row look like a level to a test that weighs every commit alike. It is left out,
/// and the output says so.
pub const IMPRECISE_WEIGHT: f64 = 0.125;

/// A run whose interval is within ± this (relative) always counts: the changes a history names
/// are a few percent.
pub const IMPRECISE_FLOOR: f64 = 0.02;

/// A run's own interval's half-width relative to its estimate, when it recorded one.
fn half_width(p: &Point) -> Option<f64> {
    let (e, lo, hi) = (p.estimate?, p.low?, p.high?);
    let w = (hi - lo) / (2.0 * e);
    (e > 0.0 && w.is_finite() && w >= 0.0).then_some(w)
}

/// A run's own standard error, relative: its half-width over the normal quantile of its
/// confidence (95% when it recorded none).
fn standard_error(p: &Point) -> Option<f64> {
    let c = p
        .confidence
        .filter(|c| *c > 0.0 && *c < 1.0)
        .unwrap_or(0.95);
    Some(half_width(p)? / t_quantile(0.5 + c / 2.0, f64::INFINITY))
}

/// Whether a point counts for changes before its precision is weighed: a positive estimate, a
/// clean tree, on its branch or line.
fn eligible(p: &Point) -> bool {
    p.estimate.is_some_and(|e| e > 0.0 && e.is_finite()) && p.dirty != Some(true) && p.on_branch
}

/// The points whose runs are too imprecise to count: per point, true for one left out.
///
/// With `s` the median standard error of the bench's eligible runs and `σ` its run-to-run
/// spread (the median absolute difference of successive log estimates / (0.6745 × √2), over the
/// runs at least as precise as the median one: robust to the few level changes a history has,
/// and a disturbed run's own error is what is weighed, not part of what it is weighed against),
/// a run of standard error `sᵢ` counts less than [`IMPRECISE_WEIGHT`] = 1/8 of the median run
/// when `sᵢ² + σ² > 8 (s² + σ²)`, and is left out unless its interval is within
/// ±[`IMPRECISE_FLOOR`]. The scale is the bench's own, so a bench whose runs are all noisy keeps
/// them. Assumes a run's interval is about symmetric in the log (its half-width stands for a
/// standard error). Time: O(n log n) for n runs.
pub fn imprecise(points: &[Point]) -> Vec<bool> {
    let counted: Vec<&Point> = points.iter().filter(|p| eligible(p)).collect();
    let errors: Vec<f64> = counted.iter().filter_map(|p| standard_error(p)).collect();
    if errors.is_empty() {
        return vec![false; points.len()];
    }
    let typical = median(&errors);
    let logs: Vec<f64> = counted
        .iter()
        .filter(|p| standard_error(p).is_none_or(|s| s <= typical))
        .filter_map(|p| p.estimate)
        .map(f64::ln)
        .collect();
    let spread = if logs.len() >= 3 {
        let steps: Vec<f64> = logs.windows(2).map(|w| (w[1] - w[0]).abs()).collect();
        median(&steps) / (0.6745 * std::f64::consts::SQRT_2)
    } else {
        0.0
    };
    let (s2, v2) = (typical * typical, spread * spread);
    let limit = (s2 / IMPRECISE_WEIGHT + v2 * (1.0 / IMPRECISE_WEIGHT - 1.0)).sqrt();
    points
        .iter()
        .map(|p| {
            eligible(p)
                && half_width(p).is_some_and(|w| w > IMPRECISE_FLOOR)
                && standard_error(p).is_some_and(|s| s > limit)
        })
        .collect()
}

/// The points that count for a bench's changes, grouped by commit in order: each group's
/// first point's index and its value (mean log estimate). A run too imprecise to count
/// ([`imprecise`]) is left out; a commit whose runs all are has no value.
pub(super) fn values(points: &[Point]) -> Vec<(usize, f64)> {
    let left_out = imprecise(points);
    grouped(points, |i, p| eligible(p) && !left_out[i])
}

/// Every eligible run's value, grouped by commit as [`values`], the imprecise ones too: what the
/// machine's series reads (a run a neighbour disturbed is evidence of the machine's state, and
/// the median over benches that series takes is not moved by one bench's noisy run).
pub(super) fn readings(points: &[Point]) -> Vec<(usize, f64)> {
    grouped(points, |_, p| eligible(p))
}

/// The points `keep` keeps, grouped by commit in order: each group's first point's index and
/// its mean log estimate.
fn grouped(points: &[Point], keep: impl Fn(usize, &Point) -> bool) -> Vec<(usize, f64)> {
    let mut out: Vec<(usize, Option<&str>, f64, usize)> = Vec::new();
    for (i, p) in points.iter().enumerate() {
        if !keep(i, p) {
            continue;
        }
        let Some(e) = p.estimate else { continue };
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

/// Notes on `f`, a series' newest change, whether the newest commits read back near the level
/// before it ([`receded`]). `vals` are the series' values, one a commit (its place on the
/// machine's axis, its first point, its value), and `from` the first of those the change was
/// searched among (its segment between the machine's changes). The levels are read as the
/// search read them: a run of one or two commits far out from those around it is left out
/// ([`short_runs`], as [`config`] has the search do), so `f.before` counts the commits kept
/// before it; the newest commits count whether or not they stood far out (a return to the
/// level before is such a run). Nothing is noted unless the change's level runs to the
/// newest commit. Time: O(n·w log w), windows of w = 2·[`MIN_SEGMENT`] − 1.
pub(super) fn note_receded(vals: &[(usize, usize, f64)], from: usize, f: &mut FoundChange) {
    let Some(at) = vals
        .iter()
        .position(|v| v.1 == f.point)
        .filter(|&at| at >= from)
    else {
        return;
    };
    let xs: Vec<f64> = vals[from..].iter().map(|v| v.2).collect();
    let at = at - from;
    let far = short_runs(&xs, MIN_SEGMENT - 1, SHORT_RUN_LIMIT).unwrap_or_default();
    let kept = |i: &usize| far.binary_search(i).is_err();
    // The level's commits the search counted: all of them are its, or a change follows.
    if (at..xs.len()).filter(kept).count() > f.after {
        return;
    }
    let mut prior: Vec<f64> = (0..at)
        .rev()
        .filter(kept)
        .take(f.before)
        .map(|i| xs[i])
        .collect();
    prior.reverse();
    let tip = xs.len().saturating_sub(MIN_SEGMENT - 1);
    let level: Vec<f64> = (at..xs.len())
        .filter(|i| *i >= tip || kept(i))
        .map(|i| xs[i])
        .collect();
    f.receded = receded(&prior, &level);
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
        add_back: true,
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
    let changes = level_changes_of(&xs, options);
    let left_out = if changes.is_empty() {
        Vec::new()
    } else {
        imprecise(points)
    };
    changes
        .iter()
        .map(|c| found(points, vals, c, &left_out))
        .collect()
}

/// The level change `c` of the values `vals` (`(point, value)`, from [`values`] of `points`)
/// as a change found; `left_out` says which points [`imprecise`] left out.
pub(super) fn found(
    points: &[Point],
    vals: &[(usize, f64)],
    c: &pilot_stats::LevelChange,
    left_out: &[bool],
) -> FoundChange {
    let at = vals[c.index].0;
    let prev = vals[c.index - 1].0;
    let earliest = (prev + 1..at)
        .find(|&i| left_out[i] && points[i].commit != points[prev].commit)
        .and_then(|i| points[i].commit.clone());
    FoundChange {
        point: at,
        commit: points[at].commit.clone(),
        subject: points[at].subject.clone(),
        previous: points[prev].commit.clone(),
        earliest,
        change: c.shift().exp_m1(),
        change_ci: c.shift_ci.map(relative_interval),
        p: c.p,
        p_adjusted: c.p,
        before: c.n_before,
        after: c.n_after,
        receded: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A clean run at commit `n` of `ns` with an interval of ± `w` (relative).
    fn run(n: usize, ns: f64, w: f64) -> Point {
        Point {
            run_id: n as i64,
            commit: Some(format!("{n:040x}")),
            subject: None,
            committed_at: Some(n as i64),
            position: Some(n as i64),
            dirty: Some(false),
            branch: Some("main".into()),
            on_branch: true,
            started: String::new(),
            source: "bench".into(),
            status: "ok".into(),
            unit: Some("ns".into()),
            estimate: Some(ns),
            low: Some(ns * (1.0 - w)),
            high: Some(ns * (1.0 + w)),
            confidence: Some(0.95),
            processes: Vec::new(),
            probe_ns: None,
            load: None,
            executable: None,
        }
    }

    fn left_out(points: &[Point]) -> Vec<usize> {
        imprecise(points)
            .iter()
            .enumerate()
            .filter_map(|(i, out)| out.then_some(i))
            .collect()
    }

    #[test]
    fn a_run_counts_unless_it_would_weigh_under_an_eighth_of_the_median_run() {
        // Five steady runs at ± `typical`, then one at ± `last`.
        let steady = |typical: f64, last: f64| {
            let mut points: Vec<Point> = (1..=5).map(|n| run(n, 100.0, typical)).collect();
            points.push(run(6, 100.0, last));
            points
        };
        // Runs at ±1% (σ = 0): the limit is a half-width of √8 · 1% = 2.828%.
        assert!(left_out(&steady(0.01, 0.028)).is_empty());
        assert_eq!(left_out(&steady(0.01, 0.029)), vec![5]);
        // Runs at ±0.2%: √8 · 0.2% = 0.57%, under the ±2% floor, which decides.
        assert!(left_out(&steady(0.002, 0.019)).is_empty());
        assert_eq!(left_out(&steady(0.002, 0.021)), vec![5]);
        // Runs alternating 100 and 110 at ±1% (standard error s = 0.01 / 1.95996): every
        // successive step is ln 1.1, so σ = ln 1.1 / (0.6745 · √2) = 0.099918, and a run is
        // left out above the standard error √(8 s² + 7 σ²) = 0.264751, a half-width of ±51.890%
        // (computed by hand): a run a neighbour disturbed is weighed against how far this
        // bench's runs move anyway.
        let alternating = |last: f64| {
            let mut points: Vec<Point> = (1..=10)
                .map(|n| run(n, if n % 2 == 0 { 110.0 } else { 100.0 }, 0.01))
                .collect();
            points.push(run(11, 100.0, last));
            points
        };
        assert!(left_out(&alternating(0.518)).is_empty());
        assert_eq!(left_out(&alternating(0.520)), vec![10]);
    }

    #[test]
    fn only_eligible_runs_are_weighed_or_left_out() {
        let mut points: Vec<Point> = (1..=5).map(|n| run(n, 100.0, 0.01)).collect();
        // A dirty run and one off its branch are never counted, so never "left out" either,
        // and their intervals do not set the scale.
        let mut dirty = run(6, 100.0, 0.5);
        dirty.dirty = Some(true);
        let mut off = run(7, 100.0, 0.5);
        off.on_branch = false;
        // A run without an interval (an imported figure) counts as it is.
        let mut bare = run(8, 100.0, 0.0);
        (bare.low, bare.high) = (None, None);
        points.extend([dirty, off, bare, run(9, 100.0, 0.3)]);
        assert_eq!(left_out(&points), vec![8]);
        let kept: Vec<usize> = values(&points).iter().map(|v| v.0).collect();
        assert_eq!(kept, vec![0, 1, 2, 3, 4, 7]);
        let read: Vec<usize> = readings(&points).iter().map(|v| v.0).collect();
        assert_eq!(read, vec![0, 1, 2, 3, 4, 7, 8]);
    }

    #[test]
    fn a_change_after_runs_left_out_may_have_come_as_early_as_the_first_of_them() {
        // 10% slower from commit 9 on; commits 9 and 10 measured far from their precision.
        let points: Vec<Point> = (1..=16)
            .map(|n| match n {
                9 | 10 => run(n, 110.0, 0.4),
                _ => run(n, if n < 9 { 100.0 } else { 110.0 }, 0.005),
            })
            .collect();
        assert_eq!(left_out(&points), vec![8, 9]);
        let found = detect(&points, &values(&points), &ChangeOptions::default());
        assert_eq!(found.len(), 1, "{found:?}");
        let c = &found[0];
        // Named at the first run kept (11), after commit 8: it lies between them.
        assert_eq!(c.commit, points[10].commit);
        assert_eq!(c.previous, points[7].commit);
        assert_eq!(c.earliest, points[8].commit);
        // With every run as precise, it is named where it is, with nothing earlier to say.
        let precise: Vec<Point> = (1..=16)
            .map(|n| run(n, if n < 9 { 100.0 } else { 110.0 }, 0.005))
            .collect();
        let found = detect(&precise, &values(&precise), &ChangeOptions::default());
        assert_eq!(found[0].commit, precise[8].commit);
        assert_eq!(found[0].earliest, None);
    }

    #[test]
    fn the_newest_commits_back_near_the_earlier_level_are_noted_with_their_test() {
        // By hand: the level before, 0.00 0.02 0.00 0.02 (mean 0.01, squares 0.0004); the
        // changed level's rest, 0.10 0.12 0.10 0.12 (mean 0.11, squares 0.0004); the newest
        // two at 0.01, each nearer 0.01 than 0.11. Pooled over the two levels, sd² =
        // 0.0008 / 6; the newest two against the rest pooled alone give 0.0004 / 4, the
        // smaller, so the test takes the levels' with the sides' 4 degrees of freedom:
        // se = √(0.0008/6 · (1/4 + 1/2)) = 0.01, t = (0.01 − 0.11) / 0.01 = −10,
        // p = 2 · t.sf(10, 4) = 5.62003622715991e-4 (scipy: `lab/receded_reference.py`),
        // change = e^−0.1 − 1.
        let xs = [0.00, 0.02, 0.00, 0.02, 0.10, 0.12, 0.10, 0.12, 0.01, 0.01];
        let r = receded(&xs[..4], &xs[4..]).expect("the newest two are back");
        assert_eq!(r.commits, 2);
        assert!((r.p - 5.62003622715991e-4).abs() < 1e-12, "{r:?}");
        assert!((r.change - (-0.1f64).exp_m1()).abs() < 1e-12, "{r:?}");
        // The newest two nearer the changed level: nothing to note, with one or with two.
        let stayed = [0.00, 0.02, 0.00, 0.02, 0.10, 0.12, 0.10, 0.12, 0.07, 0.08];
        assert_eq!(receded(&stayed[..4], &stayed[4..]), None);
        // Only the newest one is back: it alone is noted.
        let one = [0.00, 0.02, 0.00, 0.02, 0.10, 0.12, 0.10, 0.12, 0.11, 0.01];
        assert_eq!(receded(&one[..4], &one[4..]).map(|r| r.commits), Some(1));
        // The changed level must keep three commits of its own beside them.
        let short = [0.00, 0.02, 0.00, 0.02, 0.10, 0.12, 0.01, 0.01];
        assert_eq!(receded(&short[..4], &short[4..]), None);
        // Back by less than the spread of the levels shows: p ≥ 0.05, nothing noted.
        let noisy = [0.00, 0.06, -0.04, 0.02, 0.10, 0.16, 0.04, 0.14, 0.05];
        assert_eq!(receded(&noisy[..4], &noisy[4..]), None);
    }

    #[test]
    fn the_newest_commits_are_read_against_the_levels_the_search_read() {
        // One run far out in the level before (0.60 at index 3): the search leaves it out, so
        // a change at 8 counts 7 commits before and 7 from it. Read as the search read it,
        // the level before is the other seven (pooled with the rest: sd 0.010797, above the
        // two sides' own 0.009798), t = −10.8488 with 5 dof, p = 1.1551931945932891e-4,
        // change e^(0.01 − 0.108) − 1 = −9.335% (scipy: `lab/receded_reference.py`).
        // Counted as positions, the level before held the 0.60 and lost the oldest value, and
        // its spread hid the return.
        let xs = [
            0.00, 0.02, 0.00, 0.60, 0.02, 0.00, 0.02, 0.00, 0.10, 0.12, 0.10, 0.12, 0.10, 0.01,
            0.01,
        ];
        assert_eq!(
            short_runs(&xs, MIN_SEGMENT - 1, SHORT_RUN_LIMIT).unwrap(),
            [3]
        );
        let vals: Vec<(usize, usize, f64)> =
            xs.iter().enumerate().map(|(i, x)| (i, i, *x)).collect();
        let mut f = FoundChange {
            point: 8,
            commit: None,
            subject: None,
            previous: None,
            earliest: None,
            change: 0.1,
            change_ci: None,
            p: 1e-4,
            p_adjusted: 1e-4,
            before: 7,
            after: 7,
            receded: None,
        };
        note_receded(&vals, 0, &mut f);
        let r = f.receded.expect("the newest two are back");
        assert_eq!(r.commits, 2);
        assert!((r.p - 1.1551931945932891e-4).abs() < 1e-12, "{r:?}");
        assert!((r.change - (-0.0933510962460791)).abs() < 1e-12, "{r:?}");
        // Read from a later start (a machine's change at 4), the level before is the four
        // commits after it; a change whose level stops short of the newest commit is not read.
        let mut g = FoundChange {
            before: 4,
            ..f.clone()
        };
        note_receded(&vals, 4, &mut g);
        assert_eq!(g.receded.map(|r| r.commits), Some(2));
        let mut h = FoundChange {
            after: 5,
            receded: None,
            ..f
        };
        note_receded(&vals, 0, &mut h);
        assert_eq!(h.receded, None);
    }
}
