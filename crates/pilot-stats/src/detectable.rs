//! The smallest change a comparison detects: how large a true difference must be for a
//! two-sided test at significance `alpha` to find it with probability `power`, between two runs
//! (each one draw of the machine's run-to-run variation) and over interleaved pairs of
//! processes (a trimmed mean of their log ratios, Yuen's standard error).

use crate::summary::t_quantile;

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
/// --against`, the engine's `compare::compare_paired`): `pairs` pairs judged by
/// the `trim`-trimmed mean of their log ratios with Yuen's standard error
/// `s_w · √((m − 1) / (h(h − 1)))` and Student's t with `h − 1` degrees of freedom
/// (`m = pairs`, `h = m − 2·⌊trim · m⌋` kept; [`Trimmed::yuen_std_error`](crate::Trimmed::yuen_std_error)),
/// where `s_w` is `winsorized_sd`, the standard deviation of the log ratios winsorized at the
/// same `trim` (learnt from pairs with no change between their sides, A/A pairs):
/// [`detectable_change`] with that standard error. Untrimmed (`trim = 0`) it is the paired
/// t-test's, `s_w` the plain standard deviation.
///
/// Why the winsorized spread and not the plain one: the trimmed mean leaves far-out pairs
/// out, and so does `s_w`; a plain standard deviation would let one far-out pair of the
/// learning run decide the figure. At normal log ratios `s_w ≈ 0.64 σ` at 20% (the
/// winsorized variance of the standard normal is 0.412), so the standard error is about
/// `σ · √(1.145 / m)`: the trimmed mean's price at normal data is 7% of its interval.
///
/// The result is a difference of logarithms (a relative change of `exp(δ) − 1`). Assumes
/// independent log ratios, symmetric about the change (the machine's state cancels within a
/// pair; what stays is a process's own variation and the machine's change within the pair),
/// and `s_w` as the comparison will find it. `None` with fewer than 2 pairs left after
/// trimming, a `trim` outside [0, 0.5), or as [`detectable_change`]. Time: O(1).
pub fn detectable_in_pairs(
    winsorized_sd: f64,
    pairs: usize,
    trim: f64,
    alpha: f64,
    power: f64,
) -> Option<f64> {
    if !(0.0..0.5).contains(&trim) {
        return None;
    }
    let kept = pairs.checked_sub(2 * (trim * pairs as f64) as usize)?;
    if kept < 2 {
        return None;
    }
    let (m, h) = (pairs as f64, kept as f64);
    let se = winsorized_sd * ((m - 1.0) / (h * (h - 1.0))).sqrt();
    detectable_change(se, h - 1.0, alpha, power)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DEFAULT_TRIM, Summary, Trimmed};
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
        // 40 pairs, 8 trimmed from each end: 24 kept, 23 degrees of freedom; Yuen's standard
        // error 0.01 · √(39 / (24 · 23)):
        // (t.ppf(0.995, 23) + t.ppf(0.8, 23)) · 0.01 · √(39 / 552).
        let d = detectable_in_pairs(0.01, 40, 0.2, 0.01, 0.8).unwrap();
        assert!((d - 0.009741386488269598).abs() < 1e-9, "{d}");
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
        assert!(detectable_in_pairs(0.01, 40, 0.5, 0.01, 0.8).is_none());
        assert!(detectable_in_pairs(0.01, 40, -0.1, 0.01, 0.8).is_none());
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
        // p < 0.01. The winsorized sd is the population's (from 200 000 A/A ratios). At the
        // detectable change about 80% are detected (binomial sd 0.6% over 4000 trials;
        // tolerance 3%: the normal approximation of Yuen's t leaves the rate a point or so
        // low at 40 pairs).
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let sd = 0.01;
        let aa: Vec<f64> = (0..200_000)
            .map(|_| Gauss::new(0.0, sd).unwrap().sample(&mut rng))
            .collect();
        let winsorized = Trimmed::of(&aa, DEFAULT_TRIM)
            .unwrap()
            .winsorized_variance
            .sqrt();
        // The winsorized variance of the standard normal at 20% is 0.41209 (scipy).
        assert!(
            (winsorized / sd - 0.41209f64.sqrt()).abs() < 0.01,
            "{winsorized}"
        );
        let delta = detectable_in_pairs(winsorized, 40, DEFAULT_TRIM, 0.01, 0.8).unwrap();
        let mut trial = |change: f64, far: bool| {
            let ratio = Gauss::new(change, sd).unwrap();
            let mut logs: Vec<f64> = (0..40).map(|_| ratio.sample(&mut rng)).collect();
            if far {
                // Two pairs far out, either way: the trimmed mean leaves them out.
                logs[0] += 0.3;
                logs[1] -= 0.2;
            }
            let t = Trimmed::of(&logs, DEFAULT_TRIM).unwrap();
            let stat = t.mean / t.yuen_std_error();
            2.0 * crate::summary::t_sf(stat.abs(), (t.kept() - 1) as f64) < 0.01
        };
        let detected = rate(4_000, || trial(delta, false));
        assert!((detected - 0.80).abs() < 0.03, "{detected}");
        let false_alarms = rate(4_000, || trial(0.0, false));
        assert!(false_alarms < 0.025, "{false_alarms}");
        // Two far-out pairs of 40 cost a few points (75% with this seed: they take the place
        // of two normal ones), where the paired t-test on the plain mean would lose nearly
        // all (its standard error grows about sixfold).
        let detected = rate(4_000, || trial(delta, true));
        assert!(detected > 0.70, "{detected}");
    }
}
