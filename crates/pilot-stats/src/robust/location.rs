//! The robust locations: of a series of readings (the trimmed mean of its subsession means,
//! far-out blocks left out first), and of independent values such as the processes'
//! estimates.

use super::far_out::{Sides, far_out, without_far_out};
use super::subsession::robust_subsession_analysis;
use super::trimmed::Trimmed;
use crate::autocorr::SubsessionAnalysis;
use crate::error::{Result, check_confidence, check_finite, check_len};
use crate::summary::{ConfidenceInterval, interval, t_critical};

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
/// runs its whole life slower (or, less often, a lucky one faster): a short bench on a stack
/// buffer can run markedly slower in a minority of processes, and in none with randomisation
/// off. Student's t over the processes' mean is then decided by how many slow ones a run
/// happened to draw. The typical process is what most fresh processes see,
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
    use crate::robust::DEFAULT_TRIM;

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
        let s = crate::Summary::of(&three).unwrap();
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
