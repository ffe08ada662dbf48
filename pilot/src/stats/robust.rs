//! A robust location of unit readings: the trimmed mean of subsession means, with an interval
//! that stays valid when readings are autocorrelated and a few of them were interrupted.
//!
//! Why not the mean: on a shared machine a unit that the scheduler interrupts for a time slice
//! reads thousands of times its cost, and 0.1% of such readings moved a mean by +21% (issue 27's
//! measurements). The mean then measures how often the bench was interrupted, which changes from
//! run to run, and its variance is dominated by those few readings. A trimmed mean of block
//! means, the blocks far out left out first, leaves the blocks that held an interruption out,
//! whatever their size, and keeps the efficiency of a mean on the rest (94% of the mean's at
//! normal data for a 20% trim).
//!
//! Why blocks: readings are autocorrelated and, for short units, quantised by the clock's
//! resolution. Means of `q` consecutive readings are (nearly) independent once `q` is large
//! enough (Pilot's subsession analysis) and continuous once `q` averages the quantisation away,
//! as the mean of dithered readings does; a trimmed mean or median of raw quantised readings
//! would sit on one clock tick.

use crate::error::{Error, Result, check_confidence, check_finite, check_len};
use crate::stats::autocorr::SubsessionAnalysis;
use crate::stats::scale::{ldexp, scale_exponent, scaled};
use crate::stats::summary::{ConfidenceInterval, Moments, interval, t_critical};
use crate::stats::welch::{WelchTest, welch_test};

/// The share of subsession means trimmed from each end (20%: Wilcox's and scipy's default; it
/// survives up to a fifth of the blocks being interrupted, at 94% of the mean's efficiency on
/// normal data).
pub const DEFAULT_TRIM: f64 = 0.2;

/// A trimmed mean with what its interval and comparisons need.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Trimmed {
    /// Values summarised (`n`).
    pub n: usize,
    /// Values trimmed from each end, `g = floor(trim · n)`.
    pub g: usize,
    /// Mean of the `n − 2g` middle values.
    pub mean: f64,
    /// Sample variance (`n − 1` divisor) of the values winsorized at the same `g`: the `g`
    /// smallest set to the next one up, the `g` largest to the next one down.
    pub winsorized_variance: f64,
}

impl Trimmed {
    /// The trimmed mean of `xs` with `trim` of the values cut from each end (`0 ≤ trim < 0.5`).
    /// Needs n ≥ 2 finite values and at least 2 left after trimming. Computed on the values
    /// divided by their power-of-two scale. Time: O(n log n) (a sort of a copy).
    pub fn of(xs: &[f64], trim: f64) -> Result<Trimmed> {
        check_len(xs, 2)?;
        check_finite(xs)?;
        if !(0.0..0.5).contains(&trim) {
            return Err(Error::InvalidParameter {
                name: "trim",
                value: trim,
                expected: "must be at least 0 and below 0.5",
            });
        }
        let n = xs.len();
        // scipy's `trimr` with `inclusive=True`: the count cut is truncated.
        let g = (trim * n as f64) as usize;
        if n - 2 * g < 2 {
            return Err(Error::TooFewValues {
                needed: 2 * g + 2,
                got: n,
            });
        }
        let (mut ys, e) = scaled(xs);
        ys.sort_unstable_by(f64::total_cmp);
        let middle = &ys[g..n - g];
        let mean = middle.iter().sum::<f64>() / middle.len() as f64;
        let (lo, hi) = (ys[g], ys[n - g - 1]);
        let w = |y: f64| y.clamp(lo, hi);
        let wmean = ys.iter().map(|&y| w(y)).sum::<f64>() / n as f64;
        let ss: f64 = ys.iter().map(|&y| (w(y) - wmean) * (w(y) - wmean)).sum();
        Ok(Trimmed {
            n,
            g,
            mean: ldexp(mean, e),
            winsorized_variance: ldexp(ldexp(ss / (n - 1) as f64, e), e),
        })
    }

    /// Values left after trimming, `h = n − 2g`.
    pub fn kept(&self) -> usize {
        self.n - 2 * self.g
    }

    /// The trimmed mean's standard error as Tukey and McLaughlin (1963) give it and scipy's
    /// `mstats.trimmed_stde` computes it: `s_w / ((1 − 2·trim) · √n)`.
    pub fn std_error(&self, trim: f64) -> f64 {
        self.winsorized_variance.sqrt() / ((1.0 - 2.0 * trim) * (self.n as f64).sqrt())
    }

    /// Yuen's standard error of the trimmed mean, `√((n − 1)·s_w² / (h(h − 1)))`: Tukey and
    /// McLaughlin's with the share actually trimmed (`g/n`) for the nominal one, so that it is
    /// the mean's standard error when nothing is trimmed.
    pub fn yuen_std_error(&self) -> f64 {
        let m = self.yuen_moments();
        (m.variance / m.n as f64).sqrt()
    }

    /// The trimmed mean's moments as Yuen's test uses them: `h` values, and the variance whose
    /// `1/h` is Yuen's squared standard error `(n − 1)·s_w² / (h(h − 1))`, so that Welch's test
    /// on them is Yuen's.
    pub fn yuen_moments(&self) -> Moments {
        let h = self.kept();
        Moments {
            n: h,
            mean: self.mean,
            variance: (self.n - 1) as f64 * self.winsorized_variance / (h - 1) as f64,
        }
    }
}

/// The Tukey–McLaughlin interval of the trimmed mean of independent values:
/// `tm ± t(h − 1, 1 − (1 − c)/2) · s_w / ((1 − 2·trim)·√n)` with `h = n − 2·floor(trim·n)`,
/// exactly scipy's `mstats.trimmed_mean_ci(xs, limits=(trim, trim), alpha=1 − c)`.
///
/// Assumes independent values from a distribution symmetric about the location it estimates
/// (for a skewed one, it estimates the trimmed mean of that distribution). Time: O(n log n).
pub fn trimmed_mean_ci(xs: &[f64], trim: f64, confidence: f64) -> Result<ConfidenceInterval> {
    check_confidence(confidence)?;
    let t = Trimmed::of(xs, trim)?;
    let half = t_critical(confidence, (t.kept() - 1) as f64) * t.std_error(trim);
    interval(t.mean, half, confidence, "interval of the trimmed mean")
}

/// Yuen's test: Welch's test on trimmed means with winsorized variances (Yuen 1974), exactly
/// scipy's `ttest_ind(base, other, equal_var=False, trim=trim)`. Signs follow "other minus
/// base". Assumes each sample's values independent. Time: O(n log n).
pub fn yuen_test(base: &[f64], other: &[f64], trim: f64, confidence: f64) -> Result<WelchTest> {
    let (b, o) = (Trimmed::of(base, trim)?, Trimmed::of(other, trim)?);
    welch_test(&b.yuen_moments(), &o.yuen_moments(), confidence)
}

/// Lag-1 autocorrelation of `xs` (times `scale`) winsorized at `median ± 3 · 1.4826 · MAD`: the
/// plain coefficient ([`lag1_autocorrelation`](crate::stats::lag1_autocorrelation)) is decided
/// by a few interrupted readings (one reading 50 times the rest holds nearly all the variance
/// and pulls r1 to 0, hiding the correlation of the rest). A MAD of 0 (over half the values
/// equal) leaves the values as they are. `scale` brings the values into `[-2, 2)`. Time: O(n);
/// memory: one copy (the session calls this after every round, on up to 2^20 readings, and a
/// growing scratch would read as a leak of the bench's).
fn robust_lag1(xs: &[f64], scale: f64) -> f64 {
    let mut v: Vec<f64> = xs.iter().map(|x| x * scale).collect();
    let med = select_median(&mut v);
    for x in v.iter_mut() {
        *x = (*x - med).abs();
    }
    let mad = select_median(&mut v) * 1.482_602_218_505_602;
    drop(v);
    let (lo, hi) = if mad > 0.0 {
        (med - 3.0 * mad, med + 3.0 * mad)
    } else {
        (f64::NEG_INFINITY, f64::INFINITY)
    };
    lag1_of(xs.len(), |i| (xs[i] * scale).clamp(lo, hi))
}

/// The lag-1 autocorrelation of the `n` values `f(0)`, …, `f(n − 1)`, as
/// [`lag1_autocorrelation`](crate::stats::lag1_autocorrelation) computes it (deviations taken
/// from the first value before the mean), without storing them. Time: O(n).
fn lag1_of(n: usize, f: impl Fn(usize) -> f64) -> f64 {
    if n < 2 {
        return 0.0;
    }
    let origin = f(0);
    let m = (0..n).map(|i| f(i) - origin).sum::<f64>() / n as f64;
    let dev = |i: usize| f(i) - origin - m;
    let denom: f64 = (0..n).map(|i| dev(i) * dev(i)).sum();
    let size = origin.abs() + m.abs();
    if denom <= f64::EPSILON * f64::EPSILON * size * size * n as f64 || denom == 0.0 {
        return 0.0;
    }
    (1..n).map(|i| dev(i - 1) * dev(i)).sum::<f64>() / denom
}

/// The (upper) median by selection, reordering `v`. Time: O(n).
fn select_median(v: &mut [f64]) -> f64 {
    let mid = v.len() / 2;
    *v.select_nth_unstable_by(mid, f64::total_cmp).1
}

/// The least block size whose means are continuous enough to trim: readings quantised to steps
/// of `quantum` (the clock's resolution per reading) have block means in steps of
/// `quantum / q`, and those steps must be small against the block means' spread, about
/// `σ / √q` for readings of spread `σ`: `quantum / q ≤ σ / (4√q)`, so `q ≥ 16 · (quantum/σ)²`.
/// `σ` is the standard deviation of the readings winsorized at their 1st and 99th percentiles
/// (so that interruptions do not make it look wide). 1 for continuous readings (`quantum` 0).
/// Time: O(n); memory: one copy.
fn least_block(xs: &[f64], quantum: f64) -> usize {
    if quantum <= 0.0 || xs.len() < 4 {
        return 1;
    }
    let n = xs.len();
    let (lo, hi) = {
        let mut v = xs.to_vec();
        let k = n / 100;
        let lo = *v.select_nth_unstable_by(k, f64::total_cmp).1;
        let hi = *v.select_nth_unstable_by(n - 1 - k, f64::total_cmp).1;
        (lo, hi)
    };
    let clipped = |i: usize| xs[i].clamp(lo, hi);
    let m = (0..n).map(clipped).sum::<f64>() / n as f64;
    let sd = ((0..n).map(|i| (clipped(i) - m).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt();
    if sd <= 0.0 {
        // Every reading on one tick (bar the 1% at each end): no block averages the tick away;
        // the largest blocks that leave enough of them are the best there is.
        return usize::MAX;
    }
    let ratio = quantum / sd;
    (16.0 * ratio * ratio).ceil().clamp(1.0, 1e9) as usize
}

/// Subsession analysis for a robust location: Pilot's (merge each `q` consecutive readings into
/// their mean, raise `q` until the merged samples are nearly uncorrelated), with two changes.
/// The lag-1 autocorrelation is that of the block means winsorized at 3 MADs (see
/// `robust_lag1`), so interrupted readings cannot hide correlation; and `q` starts at the
/// least size whose block means average the clock's ticks away (`quantum`, the resolution of
/// one reading in its unit; 0 for continuous readings).
///
/// Gives up, as [`subsession_analysis`](crate::stats::subsession_analysis) does, when the next
/// `q` would leave fewer than `min_subsessions` samples, and says so through `converged`.
/// Computed on the readings divided by their power-of-two scale, the block means multiplied
/// back. Time: O(n) per `q` tried from prefix sums, O(n log n) in all; memory: the prefix sums
/// and one copy at a time.
pub fn robust_subsession_analysis(
    xs: &[f64],
    limit: f64,
    min_subsessions: usize,
    quantum: f64,
) -> Result<SubsessionAnalysis> {
    check_len(xs, 2)?;
    check_finite(xs)?;
    if !(limit > 0.0 && limit < 1.0) {
        return Err(Error::InvalidParameter {
            name: "autocorrelation limit",
            value: limit,
            expected: "must be strictly between 0 and 1",
        });
    }
    let n = xs.len();
    let min_h = min_subsessions.max(2);
    let e = scale_exponent(xs);
    let inverse = ldexp(1.0, -e);
    let quantum = ldexp(quantum.max(0.0), -e);
    let origin = xs[0] * inverse;
    let mut prefix = Vec::with_capacity(n + 1);
    prefix.push(0.0);
    let mut acc = 0.0;
    for &x in xs {
        acc += x * inverse - origin;
        prefix.push(acc);
    }
    let means_for = |q: usize| -> Vec<f64> {
        (0..n / q)
            .map(|b| origin + (prefix[(b + 1) * q] - prefix[b * q]) / q as f64)
            .collect()
    };
    let input_autocorrelation = robust_lag1(xs, inverse);
    // The least size that still leaves the minimum count, when the data ask for larger.
    let largest = (n / min_h).max(1);
    let mut q = least_block_scaled(xs, inverse, quantum).min(largest);
    let mut means = means_for(q);
    let mut r1 = robust_lag1(&means, 1.0);
    let mut converged = r1.abs() <= limit;
    while !converged && n / (q + 1) >= min_h {
        q += 1;
        means = means_for(q);
        r1 = robust_lag1(&means, 1.0);
        converged = r1.abs() <= limit;
    }
    Ok(SubsessionAnalysis {
        size: q,
        means: means.into_iter().map(|m| ldexp(m, e)).collect(),
        autocorrelation: r1,
        converged,
        input_len: n,
        input_autocorrelation,
    })
}

/// [`least_block`] of the readings times `scale` against `quantum` in the same scale: the
/// ratio `quantum/σ` does not depend on the scale, so the unscaled readings and the unscaled
/// quantum give the same size.
fn least_block_scaled(xs: &[f64], scale: f64, quantum: f64) -> usize {
    least_block(xs, quantum / scale)
}

/// How far from the median of the subsession means, in robust standard deviations
/// (`1.4826 · MAD`), a mean counts as interrupted and is left out before trimming. Block means of
/// uninterrupted readings are nearly normal (each is the mean of `q` readings), so a clean one
/// lies beyond 5 of them about once in 1.7 million.
const FAR_OUT: f64 = 5.0;

/// The subsession means less those beyond [`FAR_OUT`] robust standard deviations above their
/// median, when they are fewer than `trim` of the means; all of them otherwise, and when the MAD
/// is 0 (over half the means equal). Time: O(h).
///
/// Why: trimming a fixed share from each end is not leaving the interrupted blocks out. Each
/// interrupted block takes one of the `g` places cut from the top, so one more clean block is
/// cut from the bottom than from the top: the kept window shifts up by about half a block per
/// interrupted block. The bias this leaves is a fixed fraction of the spread of the block means
/// while the interval shrinks as `1/√h`, so long sessions missed: with one reading in 1000 at
/// 51 times its cost on AR(1) φ = 0.7 readings, the 95% interval held the truth in 91.9% of
/// 1000 series of 20 000 readings and in 67% of 200 series of 100 000, against 95.5% and 96%
/// with the far-out blocks left out first (tests/tests/robust_validity.rs).
///
/// Why only above, and only a few: an interruption adds time, it never takes any away, and it
/// is rare. Blocks far *below* the rest, or far-out blocks making up a fifth of the session or
/// more, are a second state of the machine or of the workload (a neighbour that came and went
/// for seconds, a frequency switch), not interruptions: leaving them out would report whichever
/// state held the majority of the blocks, with an interval around it alone. They stay, and the
/// trimmed mean and its winsorized variance see both states.
pub(crate) fn without_far_out(means: &[f64], trim: f64) -> Vec<f64> {
    far_out(means, Sides::Above, 0.0).without(trim)
}

/// Which side of the median a value may lie far out on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sides {
    /// Above only: interruptions add time, never take any away.
    Above,
    /// Above or below: a process's layout, or a run's machine state, can be luckier than the
    /// rest as well as unluckier.
    Both,
}

/// The values of a sample that lie far out (see [`far_out`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FarOut {
    /// The values, in their order.
    values: Vec<f64>,
    /// Whether each is far out.
    far: Vec<bool>,
}

impl FarOut {
    /// How many values are far out.
    pub(crate) fn count(&self) -> usize {
        self.far.iter().filter(|f| **f).count()
    }

    /// The values less the far-out ones when those are fewer than `share` of all; all of them
    /// otherwise (then they are no minority: a second state or mode, which stays).
    pub(crate) fn without(&self, share: f64) -> Vec<f64> {
        if (self.count() as f64) < share * self.values.len() as f64 {
            self.values
                .iter()
                .zip(&self.far)
                .filter(|(_, f)| !**f)
                .map(|(v, _)| *v)
                .collect()
        } else {
            self.values.clone()
        }
    }
}

/// Which of `values` lie more than [`FAR_OUT`] robust standard deviations (1.4826 MADs), and
/// more than `floor`, from their median on the `sides` given. None does when the MAD is 0 with
/// no floor (over half the values equal). Time: O(n).
pub(crate) fn far_out(values: &[f64], sides: Sides, floor: f64) -> FarOut {
    let mut v = values.to_vec();
    let med = select_median(&mut v);
    for x in v.iter_mut() {
        *x = (*x - med).abs();
    }
    let reach = (FAR_OUT * 1.482_602_218_505_602 * select_median(&mut v)).max(floor);
    let far = values
        .iter()
        .map(|&m| {
            reach > 0.0
                && match sides {
                    Sides::Above => m - med > reach,
                    Sides::Both => (m - med).abs() > reach,
                }
        })
        .collect();
    FarOut {
        values: values.to_vec(),
        far,
    }
}

/// The robust location of a series of readings and its interval (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct RobustLocation {
    /// The trimmed mean of the subsession means.
    pub value: f64,
    /// Its interval: Tukey–McLaughlin's over the subsession means, widened for the correlation
    /// left between them by `√variance_inflation` (as
    /// [`SubsessionAnalysis::adjusted_mean_ci`] widens the mean's).
    pub ci: ConfidenceInterval,
    /// The subsession analysis the blocks came from.
    pub subsession: SubsessionAnalysis,
    /// The trimmed mean's figures over the subsession means that were not far out (interrupted):
    /// `subsession.count() − trimmed.n` of them were left out before trimming.
    pub trimmed: Trimmed,
    /// Degrees of freedom of the interval: the kept subsession means less one.
    pub dof: f64,
}

impl RobustLocation {
    /// Subsession means needed for a half-width of `target` (absolute), at the spread and
    /// correlation seen: the half-width falls as `1/√h`. `None` for a target ≤ 0 or a count
    /// beyond any number.
    pub fn required_count(&self, target: f64) -> Option<usize> {
        let usable = target > 0.0;
        if !usable {
            return None;
        }
        let h = self.subsession.count() as f64;
        let ratio = self.ci.half_width() / target;
        let needed = (h * ratio * ratio).ceil();
        (needed.is_finite() && needed < 9e15).then(|| (needed as usize).max(2))
    }
}

/// The robust location of `xs` (readings in order, non-stable phases removed): the
/// `trim`-trimmed mean of the means of `q` consecutive readings, `q` from
/// [`robust_subsession_analysis`], with its interval at `confidence`. Means more than 5 robust
/// standard deviations above their median (blocks that held an interruption) are left out
/// before trimming, so that they do not shift the share trimmed from each end, while they are
/// fewer than `trim` of the means (more are a state of the machine, and stay).
///
/// Assumes the stable readings are a stationary series whose block means are symmetric about
/// their centre (sums of many readings are, by the central limit theorem), with interruptions
/// in fewer than `trim` of the blocks. Coverage measured by Monte Carlo in
/// `tests/tests/robust_validity.rs`. Time: O(n log n).
pub fn robust_location(
    xs: &[f64],
    trim: f64,
    confidence: f64,
    limit: f64,
    min_subsessions: usize,
    quantum: f64,
) -> Result<RobustLocation> {
    check_confidence(confidence)?;
    let subsession = robust_subsession_analysis(xs, limit, min_subsessions, quantum)?;
    let trimmed = Trimmed::of(&without_far_out(&subsession.means, trim), trim)?;
    let dof = (trimmed.kept() - 1) as f64;
    let half = t_critical(confidence, dof)
        * trimmed.std_error(trim)
        * subsession.variance_inflation().sqrt();
    let ci = interval(
        trimmed.mean,
        half,
        confidence,
        "interval of the trimmed mean",
    )?;
    Ok(RobustLocation {
        value: trimmed.mean,
        ci,
        subsession,
        trimmed,
        dof,
    })
}

/// The share of process estimates below which far-out ones are a minority mode, left out by
/// [`independent_location`]: fewer than half.
pub const PROCESS_FAR_SHARE: f64 = 0.5;

/// The robust location of independent values (the estimates of several processes): their
/// `trim`-trimmed mean after leaving out the values more than 5 robust standard deviations,
/// and more than `floor`, from their median (on either side) while those are fewer than half
/// of the values (the floor keeps a value that its own uncertainty cannot tell from the
/// others: a process's estimate has an interval of its own), with the trimmed mean's interval
/// over the rest: `tm ± t(h − 1) · √((n − 1)·s_w² / (h(h − 1)))`, Yuen's standard error (Yuen
/// 1974), which is Tukey–McLaughlin's with the share actually trimmed, `g/n`, for the nominal
/// one (with few values `g` rounds down, to 0 for fewer than 5 at 20%: then it is Student's t
/// exactly, where the nominal share would widen it by `1/(1 − 2·trim)` for nothing trimmed).
///
/// Why at the level of processes: where a process's stack, heap and code land is drawn afresh
/// at each start (address-space layout randomisation), and a process at an unlucky alignment
/// runs its whole life slower (or, less often, a lucky one faster). On this project's VM a
/// 12 ns fill of a 1 KiB stack buffer took 75–80% longer in 7 of 24 processes, and in none of
/// 24 with randomisation off; Student's t over the processes' mean is then decided by how many
/// slow ones a run happened to draw. The typical process is what most fresh processes see,
/// and what a later run's estimate repeats; the others are a minority mode, named by the
/// caller (the `process_modes` check), not averaged in. When they are half or more, there is
/// no typical process, and all are kept: the interval then spans the modes.
///
/// Assumes independent values symmetric about their centre but for the far-out ones. Time:
/// O(n log n).
pub fn independent_location(
    xs: &[f64],
    floor: f64,
    trim: f64,
    confidence: f64,
) -> Result<IndependentLocation> {
    check_len(xs, 2)?;
    check_finite(xs)?;
    let far = far_out(xs, Sides::Both, floor.max(0.0));
    let mut loc = trimmed_location(&far.without(PROCESS_FAR_SHARE), trim, confidence)?;
    loc.far = far.count();
    Ok(loc)
}

/// The `trim`-trimmed mean of independent values with the interval of
/// [`independent_location`] (Yuen's standard error, `h − 1` degrees of freedom), leaving
/// nothing out before trimming: for values whose far-out ones fall on both sides alike (the
/// log ratios of pairs of processes, where either side's process can be the slow one), where
/// symmetric trimming is unbiased. Time: O(n log n).
pub fn trimmed_location(xs: &[f64], trim: f64, confidence: f64) -> Result<IndependentLocation> {
    check_confidence(confidence)?;
    let trimmed = Trimmed::of(xs, trim)?;
    let dof = (trimmed.kept() - 1) as f64;
    let half = t_critical(confidence, dof) * trimmed.yuen_std_error();
    let ci = interval(
        trimmed.mean,
        half,
        confidence,
        "interval of the trimmed mean",
    )?;
    Ok(IndependentLocation {
        value: trimmed.mean,
        ci,
        kept: xs.len(),
        far: 0,
        trimmed,
        dof,
    })
}

/// What [`independent_location`] found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IndependentLocation {
    /// The trimmed mean of the values not far out.
    pub value: f64,
    /// Its interval (Yuen's standard error, Student's t with `h − 1` degrees of freedom).
    pub ci: ConfidenceInterval,
    /// Values left after the far-out ones were left out (before trimming).
    pub kept: usize,
    /// Values that lay far out, left out or not (when they are half or more, none is).
    pub far: usize,
    /// The trimmed mean's figures over those.
    pub trimmed: Trimmed,
    /// Degrees of freedom of the interval.
    pub dof: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trimmed_mean_by_hand() {
        // n = 10, trim 0.2: g = 2; sorted 1..=9 and 100; middle 3..=8 (mean 5.5);
        // winsorized 3 3 3 4 5 6 7 8 8 8 (mean 5.5), squares of deviations: 3·6.25 + 2.25
        // + 0.25 + 0.25 + 2.25 + 3·6.25 = 42.5, variance 42.5/9.
        let xs = [5.0, 1.0, 100.0, 2.0, 9.0, 3.0, 8.0, 4.0, 7.0, 6.0];
        let t = Trimmed::of(&xs, 0.2).unwrap();
        assert_eq!((t.n, t.g, t.kept()), (10, 2, 6));
        assert_eq!(t.mean, 5.5);
        assert!((t.winsorized_variance - 42.5 / 9.0).abs() < 1e-12);
        // The outlier moves nothing: replace 100 by 1e12.
        let mut ys = xs;
        ys[2] = 1e12;
        assert_eq!(Trimmed::of(&ys, 0.2).unwrap().mean, 5.5);
        assert!(Trimmed::of(&[1.0, 2.0, 3.0], 0.4).is_err());
        assert!(Trimmed::of(&xs, 0.5).is_err());
    }

    #[test]
    fn yuen_moments_give_yuens_standard_error() {
        // Yuen's d = (n − 1)·s_w² / (h(h − 1)) = 9 · (42.5/9) / (6 · 5) = 42.5/30.
        let xs = [5.0, 1.0, 100.0, 2.0, 9.0, 3.0, 8.0, 4.0, 7.0, 6.0];
        let m = Trimmed::of(&xs, 0.2).unwrap().yuen_moments();
        assert_eq!(m.n, 6);
        assert!((m.variance / m.n as f64 - 42.5 / 30.0).abs() < 1e-12);
    }

    #[test]
    fn interruptions_do_not_hide_correlation() {
        // A slow square wave (runs of 20 alike) is strongly correlated; two readings 1000 times
        // the rest took the plain r1 of the series to about 0.
        let mut xs: Vec<f64> = (0..2000)
            .map(|i| if (i / 20) % 2 == 0 { 1.0 } else { 1.1 })
            .collect();
        xs[500] = 1000.0;
        xs[1500] = 1000.0;
        let plain = crate::stats::lag1_autocorrelation(&xs).unwrap();
        assert!(plain.abs() < 0.1, "{plain}");
        let e = crate::stats::scale::scale_exponent(&xs);
        assert!(robust_lag1(&xs, ldexp(1.0, -e)) > 0.8);
        let s = robust_subsession_analysis(&xs, 0.1, 30, 0.0).unwrap();
        assert!(s.size >= 10, "{}", s.size);
    }

    #[test]
    fn interrupted_blocks_do_not_shift_the_trimmed_window() {
        // 1000 readings 100 ± 5 in steps of 0.01, in a scrambled order (uncorrelated), and 10
        // more interrupted at 51 times the cost. Trimming 202 from each end of all 1010 would
        // cut 192 clean ones from the top and 202 from the bottom: 100.05.
        let mut xs: Vec<f64> = (0..1000u64)
            .map(|i| 100.0 + ((i * 2_654_435_761) % 1000) as f64 / 100.0 - 4.995)
            .collect();
        for k in 0..10 {
            xs.insert(100 * k + 50, 5100.0);
        }
        let r = robust_location(&xs, DEFAULT_TRIM, 0.95, 0.1, 30, 0.0).unwrap();
        assert_eq!(r.subsession.size, 1);
        assert!((r.value - 100.0).abs() < 1e-9, "{}", r.value);
        assert_eq!(r.trimmed.n, 1000);
        let all = Trimmed::of(&xs, DEFAULT_TRIM).unwrap();
        assert!((all.mean - 100.05).abs() < 1e-9, "{}", all.mean);
        // A MAD of 0 rejects nothing.
        assert_eq!(without_far_out(&[1.0, 1.0, 1.0, 9.0], 0.2).len(), 4);
    }

    #[test]
    fn far_out_blocks_are_left_out_only_above_and_only_when_rare() {
        // 20 blocks around 100 (spread 1, MAD 0.5) and far-out ones: by hand, the reach is
        // 5 · 1.4826 · MAD from the median.
        let base: Vec<f64> = (0..20).map(|i| 99.0 + (i % 3) as f64).collect();
        // Two slow blocks in 22 (9%, under a fifth): left out.
        let mut slow = base.clone();
        slow.extend([150.0, 160.0]);
        assert_eq!(without_far_out(&slow, 0.2).len(), 20);
        // Two fast blocks: a faster state, not an interruption; kept.
        let mut fast = base.clone();
        fast.extend([50.0, 40.0]);
        assert_eq!(without_far_out(&fast, 0.2).len(), 22);
        // Eight slow blocks in 28 (29%): a second state of the machine; all kept.
        let mut state = base.clone();
        state.extend([130.0; 8]);
        assert_eq!(without_far_out(&state, 0.2).len(), 28);
    }

    #[test]
    fn independent_values_leave_a_far_out_one_out_from_six() {
        // Six processes, one of them 74% slower: left out (1 of 6 is under a fifth). The five
        // left, sorted 11.92 11.93 11.95 11.97 11.99: g = 1, the middle three's mean 11.95;
        // winsorized 11.93 11.93 11.95 11.97 11.97 (mean 11.95), squared deviations
        // 4e-4 + 4e-4 + 0 + 4e-4 + 4e-4 = 1.6e-3, s_w² = 4e-4; Yuen's d = 4 · 4e-4 / (3 · 2);
        // t(0.975, 2) = 4.302652729911275 (scipy.stats.t.ppf).
        let xs = [11.95, 11.93, 20.8, 11.97, 11.92, 11.99];
        let loc = independent_location(&xs, 0.0, DEFAULT_TRIM, 0.95).unwrap();
        assert_eq!(loc.kept, 5);
        assert!((loc.value - 11.95).abs() < 1e-12, "{}", loc.value);
        let half = 4.302652729911275 * (4.0 * 4e-4 / 6.0_f64).sqrt();
        assert!((loc.ci.half_width() - half).abs() < 1e-9, "{:?}", loc.ci);
        assert_eq!(loc.dof, 2.0);
        // Two slow of six (a third): a minority mode, left out too.
        let two = [11.95, 11.93, 20.8, 11.97, 20.6, 11.99];
        let loc = independent_location(&two, 0.0, DEFAULT_TRIM, 0.95).unwrap();
        assert_eq!(loc.kept, 4);
        // A floor above the slow ones' distance keeps them: their own uncertainty cannot tell
        // them from the rest.
        let loc = independent_location(&two, 9.0, DEFAULT_TRIM, 0.95).unwrap();
        assert_eq!(loc.kept, 6);
        // Three of six: no typical process; all are kept, and the interval spans both.
        let three_of_six = [11.95, 20.7, 20.8, 11.97, 20.6, 11.99];
        let loc = independent_location(&three_of_six, 0.0, DEFAULT_TRIM, 0.95).unwrap();
        assert_eq!(loc.kept, 6);
        assert!(
            loc.ci.contains(12.0) && loc.ci.contains(20.0),
            "{:?}",
            loc.ci
        );
        // Three values: nothing trimmed, Student's t exactly.
        let three = [1.0, 2.0, 4.0];
        let loc = independent_location(&three, 0.0, DEFAULT_TRIM, 0.95).unwrap();
        let s = crate::stats::Summary::of(&three).unwrap();
        assert_eq!(loc.value, s.mean);
        assert!((loc.ci.half_width() - 4.302652729911275 * s.std_error()).abs() < 1e-9);
    }

    #[test]
    fn quantised_readings_get_blocks_that_average_the_ticks() {
        // Readings of 40 or 60 ns (a 20 ns clock) in a 9 : 1 mix, no correlation: the median
        // and the trimmed mean of single readings sit on 40; blocks must average to 42.
        let xs: Vec<f64> = (0..20_000u64)
            .map(|i| {
                if (i.wrapping_mul(2_654_435_761) >> 7) % 10 == 0 {
                    60.0
                } else {
                    40.0
                }
            })
            .collect();
        let truth = xs.iter().sum::<f64>() / xs.len() as f64;
        assert!((truth - 42.0).abs() < 0.5, "{truth}");
        let r = robust_location(&xs, DEFAULT_TRIM, 0.95, 0.1, 30, 20.0).unwrap();
        // σ ≈ 20·√(0.09) = 6: q ≥ 16·(20/6)² ≈ 178.
        assert!(r.subsession.size >= 170, "{}", r.subsession.size);
        assert!(r.ci.contains(truth), "{:?} {truth}", r.ci);
        assert!(r.ci.half_width() > 0.0);
    }
}
