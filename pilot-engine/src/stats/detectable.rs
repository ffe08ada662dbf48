//! The smallest change a comparison detects: how large a true difference must be for a
//! two-sided test at significance `alpha` to find it with probability `power`, between two runs
//! (each one draw of the machine's run-to-run variation) and over interleaved pairs of
//! processes (a trimmed mean of their log ratios).

use statrs::distribution::{Continuous, ContinuousCDF, Normal};

use crate::stats::summary::t_quantile;

/// The smallest true difference that a two-sided test at significance `alpha` detects with
/// probability `power`, for an estimate of the difference whose standard error is `se`, known
/// with `dof` degrees of freedom: `(t(1 − α/2, ν) + t(power, ν)) · se`.
///
/// Derivation: the test rejects when `|D̂| / ŝe > t(1 − α/2, ν)`. With `D̂ ~ N(δ, se²)` and
/// `ŝe ≈ se`, it rejects with probability about `Φ(δ/se − t(1 − α/2, ν))` (the opposite tail
/// is negligible); setting that to `power` gives `δ = (t(1 − α/2, ν) + z(power)) · se`, and
/// `z(power)` is replaced by `t(power, ν)` for `ŝe` being estimated too (the usual
/// approximation of the noncentral t, exact as `ν → ∞`; the tests below check it by
/// simulation). `power = 0.5` gives the difference that is just significant:
/// `t(1 − α/2, ν) · se`, which the same estimate exceeds by chance alone with probability
/// `alpha` when there is no difference.
///
/// Assumes a normal estimate of the difference and a standard error that stays as estimated.
/// `None` for a negative or non-finite `se`, `dof` not above 0, or `alpha` or `power` outside
/// (0, 1). Time: O(1).
pub fn detectable_change(se: f64, dof: f64, alpha: f64, power: f64) -> Option<f64> {
    let usable = se.is_finite()
        && se >= 0.0
        && dof > 0.0
        && alpha > 0.0
        && alpha < 1.0
        && power > 0.0
        && power < 1.0;
    if !usable {
        return None;
    }
    let d = (t_quantile(1.0 - alpha / 2.0, dof) + t_quantile(power, dof)) * se;
    d.is_finite().then_some(d)
}

/// The smallest change between two runs (a saved baseline and a later run) that a test at
/// `alpha` detects with probability `power`, when each run's estimate is one draw of a
/// run-to-run variation of standard deviation `sd` known with `dof` degrees of freedom:
/// [`detectable_change`] of their difference, whose standard error is `√2 · sd`:
/// `(t(1 − α/2, ν) + t(power, ν)) · √2 · sd`.
///
/// With `sd` the standard deviation of the logarithm of the runs' times, the result is a
/// difference of logarithms (a relative change of `exp(δ) − 1`).
///
/// Assumes the two draws are independent and normal, and that each run's own uncertainty is
/// already inside its draw (a run's estimate moves with the machine's state by more than its
/// own interval): more processes in each run do not shrink it, since each run sees one state
/// of the machine. `None` as [`detectable_change`]. Time: O(1).
pub fn detectable_between_runs(sd: f64, dof: f64, alpha: f64, power: f64) -> Option<f64> {
    detectable_change(std::f64::consts::SQRT_2 * sd, dof, alpha, power)
}

/// The smallest change that interleaved pairs of processes detect (`cargo pilot bench
/// --against`, [`compare_paired`](crate::compare::compare_paired)): `pairs` pairs whose log
/// ratios have standard deviation `sd_pair`, compared by their `trim`-trimmed mean (Yuen's
/// standard error, Student's t with `h − 1` degrees of freedom, `h = pairs − 2·⌊trim · pairs⌋`):
/// [`detectable_change`] with `se = sd_pair · √(v(trim) / pairs)`, where `v` is
/// [`trimmed_mean_variance_factor`] (1 untrimmed, 1.145 at 20%).
///
/// The result is a difference of logarithms (a relative change of `exp(δ) − 1`).
///
/// Assumes independent, normal log ratios (the machine's state cancels within a pair; what
/// stays is a process's own variation and the machine's change within the pair), and enough
/// pairs for the trimmed mean's large-sample variance: with 10 pairs the detection rate is a
/// few points below `power`. `None` with fewer than 2 pairs left after trimming, a `trim`
/// outside [0, 0.5), or as [`detectable_change`]. Time: O(1).
pub fn detectable_in_pairs(
    sd_pair: f64,
    pairs: usize,
    trim: f64,
    alpha: f64,
    power: f64,
) -> Option<f64> {
    let factor = trimmed_mean_variance_factor(trim)?;
    let kept = pairs.checked_sub(2 * (trim * pairs as f64).floor() as usize)?;
    if kept < 2 {
        return None;
    }
    let se = sd_pair * (factor / pairs as f64).sqrt();
    detectable_change(se, (kept - 1) as f64, alpha, power)
}

/// The large-sample variance of a `trim`-trimmed mean of normal values, relative to that of
/// their mean (the inverse of its efficiency): `σ_w² / (1 − 2γ)²`, where the winsorized
/// variance of the standard normal at `γ = trim` is
/// `σ_w² = (1 − 2γ) − 2c·φ(c) + 2γ·c²`, `c = Φ⁻¹(1 − γ)` (Tukey & McLaughlin 1963; Wilcox,
/// *Introduction to Robust Estimation and Hypothesis Testing*, §3.2). 1 at `trim = 0`,
/// 1.0604 at 0.1, 1.1447 at 0.2 (scipy, `lab/noise_reference.py`).
///
/// Assumes normal values and many of them: for 50 values the 20%-trimmed mean's variance is
/// 1.137 times the mean's (simulated). `None` for a `trim` outside [0, 0.5). Time: O(1).
pub fn trimmed_mean_variance_factor(trim: f64) -> Option<f64> {
    if !(0.0..0.5).contains(&trim) {
        return None;
    }
    if trim == 0.0 {
        return Some(1.0);
    }
    let normal = Normal::new(0.0, 1.0).expect("standard normal");
    let c = normal.inverse_cdf(1.0 - trim);
    let winsorized = (1.0 - 2.0 * trim) - 2.0 * c * normal.pdf(c) + 2.0 * trim * c * c;
    Some(winsorized / (1.0 - 2.0 * trim).powi(2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{DEFAULT_TRIM, Summary, Trimmed};
    use rand::SeedableRng;
    use rand_distr::{Distribution, Normal as Gauss};

    // The reference values are scipy's (`lab/noise_reference.py`, which prints each).

    #[test]
    fn the_formulas_match_scipy() {
        // (t.ppf(0.995, 29) + t.ppf(0.8, 29)) · √2 · 0.01
        // = (2.756385903670605 + 0.8541919858818557) · 0.0141421…
        let d = detectable_between_runs(0.01, 29.0, 0.01, 0.8).unwrap();
        assert!((d - 0.05106128219409517).abs() < 1e-9, "{d}");
        // At 95%: (2.045229642132703 + 0.8541919858818557) · √2 · 0.01.
        let d = detectable_between_runs(0.01, 29.0, 0.05, 0.8).unwrap();
        assert!((d - 0.04100401389376068).abs() < 1e-9, "{d}");
        // Power ½: just significant, t.ppf(0.995, 29) · √2 · 0.01.
        let d = detectable_between_runs(0.01, 29.0, 0.01, 0.5).unwrap();
        assert!((d - 0.038981183281049894).abs() < 1e-9, "{d}");
        for (trim, v) in [(0.2, 1.1446853519616507), (0.1, 1.060397748363866)] {
            let f = trimmed_mean_variance_factor(trim).unwrap();
            assert!((f - v).abs() < 1e-12, "{trim}: {f}");
        }
        // 40 pairs, 8 trimmed from each end: 24 kept, 23 degrees of freedom;
        // (t.ppf(0.995, 23) + t.ppf(0.8, 23)) · 0.01 · √(1.1446853519616507 / 40).
        let d = detectable_in_pairs(0.01, 40, 0.2, 0.01, 0.8).unwrap();
        assert!((d - 0.006199705737281733).abs() < 1e-9, "{d}");
        // Untrimmed, the paired t-test: (t.ppf(0.995, 39) + t.ppf(0.8, 39)) · 0.01 / √40.
        let d = detectable_in_pairs(0.01, 40, 0.0, 0.01, 0.8).unwrap();
        assert!((d - 0.005627033084830842).abs() < 1e-9, "{d}");
    }

    #[test]
    fn bad_parameters_have_no_answer() {
        assert!(detectable_change(f64::NAN, 10.0, 0.01, 0.8).is_none());
        assert!(detectable_change(-1.0, 10.0, 0.01, 0.8).is_none());
        assert!(detectable_change(1.0, 0.0, 0.01, 0.8).is_none());
        assert!(detectable_change(1.0, 10.0, 0.0, 0.8).is_none());
        assert!(detectable_change(1.0, 10.0, 0.01, 1.0).is_none());
        assert_eq!(detectable_change(0.0, 10.0, 0.01, 0.8), Some(0.0));
        assert!(trimmed_mean_variance_factor(0.5).is_none());
        assert!(trimmed_mean_variance_factor(-0.1).is_none());
        // 2 pairs untrimmed leave 1 degree of freedom; 1 pair none; 3 pairs at 20% trim none.
        assert!(detectable_in_pairs(0.01, 2, 0.0, 0.01, 0.8).is_some());
        assert!(detectable_in_pairs(0.01, 1, 0.0, 0.01, 0.8).is_none());
        assert!(detectable_in_pairs(0.01, 0, 0.2, 0.01, 0.8).is_none());
        assert!(detectable_in_pairs(0.01, 5, 0.2, 0.01, 0.8).is_some());
    }

    #[test]
    fn more_pairs_detect_less_and_a_smaller_alpha_needs_more() {
        let at = |pairs| detectable_in_pairs(0.01, pairs, 0.2, 0.01, 0.8).unwrap();
        assert!(at(10) > at(20) && at(20) > at(100) && at(100) > at(1000));
        let runs = |alpha| detectable_between_runs(0.01, 29.0, alpha, 0.8).unwrap();
        assert!(runs(0.001) > runs(0.01) && runs(0.01) > runs(0.05));
    }

    /// The share of `trials` in which `detects` says yes.
    fn rate(trials: usize, mut detects: impl FnMut() -> bool) -> f64 {
        (0..trials).filter(|_| detects()).count() as f64 / trials as f64
    }

    #[test]
    fn a_baseline_comparison_detects_the_detectable_change_80_times_in_100() {
        // Two runs, each one draw of a run-to-run variation of sd 1%, known from 30 values
        // (29 degrees of freedom) as the comparison knows it; the test of their difference
        // rejects at p < 0.01 when |D| > t(0.995, 29) · √2 · ŝ. At the detectable change it
        // rejects 80% of the time (binomial sd 0.4% over 10 000 trials; tolerance 1.5%), and
        // with no change about 1% of the time.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        let sd = 0.01;
        let noise = Gauss::new(0.0, sd).unwrap();
        let critical = t_quantile(0.995, 29.0);
        let delta = detectable_between_runs(sd, 29.0, 0.01, 0.8).unwrap();
        let mut trial = |change: f64| {
            let learnt: Vec<f64> = (0..30).map(|_| noise.sample(&mut rng)).collect();
            let s = Summary::of(&learnt).unwrap().std_dev;
            let d = change + noise.sample(&mut rng) - noise.sample(&mut rng);
            d.abs() > critical * std::f64::consts::SQRT_2 * s
        };
        let detected = rate(10_000, || trial(delta));

        assert!((detected - 0.80).abs() < 0.015, "{detected}");
        let false_alarms = rate(10_000, || trial(0.0));
        assert!(false_alarms < 0.02, "{false_alarms}");
    }

    #[test]
    fn interleaved_pairs_detect_the_detectable_change_80_times_in_100() {
        // 40 pairs whose log ratios have sd 1%, judged as `--against` judges them: their
        // 20%-trimmed mean, Yuen's standard error, Student's t with h − 1 degrees of freedom,
        // p < 0.01. At the detectable change about 80% are detected (binomial sd 0.6% over 4000
        // trials; tolerance 3%: the normal approximation of Yuen's t leaves the rate a point
        // or so low at 40 pairs, 78.9% with this seed).
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let sd = 0.01;
        let delta = detectable_in_pairs(sd, 40, DEFAULT_TRIM, 0.01, 0.8).unwrap();
        let mut trial = |change: f64| {
            let ratio = Gauss::new(change, sd).unwrap();
            let logs: Vec<f64> = (0..40).map(|_| ratio.sample(&mut rng)).collect();
            let t = Trimmed::of(&logs, DEFAULT_TRIM).unwrap();
            let stat = t.mean / t.yuen_std_error();
            2.0 * crate::stats::summary::t_sf(stat.abs(), (t.kept() - 1) as f64) < 0.01
        };
        let detected = rate(4_000, || trial(delta));

        assert!((detected - 0.80).abs() < 0.03, "{detected}");
        let false_alarms = rate(4_000, || trial(0.0));
        assert!(false_alarms < 0.025, "{false_alarms}");
    }
}
