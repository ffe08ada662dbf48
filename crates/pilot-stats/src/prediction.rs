//! Where the next run's estimate lands: the spread of a series of runs' values around their
//! level, the recent runs weighing more, and the prediction interval of one more run.

use crate::summary::t_critical;

/// The age, in runs, at which a run weighs half as much as the newest one in [`run_spread`]:
/// the machine as it is now, not its worst hour.
pub const HALF_LIFE_RUNS: f64 = 5.0;

/// The level of a series of runs' values and their spread around it (see [`run_spread`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunSpread {
    /// The weighted mean of the values.
    pub level: f64,
    /// The weighted standard deviation of the values around [`level`](Self::level)
    /// (unbiased for reliability weights); 0 for a single value.
    pub sd: f64,
    /// Degrees of freedom of [`sd`](Self::sd): `n_eff − 1`, at least 1 from two values on; 0
    /// for a single value.
    pub dof: f64,
    /// Kish's effective number of values, `(Σwᵢ)² / Σwᵢ²`: the level is as precise as the
    /// plain mean of this many values (3 runs give 2.97, 10 give 9.8, 30 give 14).
    pub n_eff: f64,
    /// Values it is over.
    pub count: usize,
}

/// The level and spread of `values`, one per run, oldest first (the logarithms of a bench's
/// estimates, or a run's shift of many benches at once).
///
/// Weights `wᵢ = 2^(−ageᵢ/5)` (the newest run 1, one 5 runs older ½, [`HALF_LIFE_RUNS`]);
/// the level is `ȳ = Σwᵢyᵢ / Σwᵢ` and the spread `s = √(Σwᵢ(yᵢ − ȳ)² / (Σwᵢ − Σwᵢ²/Σwᵢ))`
/// (unbiased for reliability weights: `numpy.cov(y, aweights=w)`), with `n_eff − 1` degrees of
/// freedom (Kish's effective count). `None` for no values.
///
/// Why weighted: a history that includes a noisy hour should describe the machine as it is
/// now; ten quiet runs later, a noisy run weighs an eighth of the last. Why nothing is left
/// out as far out (as [`crate::independent_location`] leaves out a far-out process):
/// over the few runs a band is learnt from, the median absolute deviation is itself so
/// uncertain that a run 5 robust standard deviations out is often an ordinary one, and
/// leaving it out made the spread too narrow: a band from 6 runs held the next one 93.8% of
/// the time for a nominal 95%, and one from the shifts of 5 runs 90.4%, against 95.0% and
/// 94.7% with every run kept (`probe/reproducibility/tests.rs`). The weights make the
/// spread's sampling distribution only approximately `σ²χ²/ν` with Kish's `ν`; the prediction
/// interval built on it holds a next run at about its nominal rate all the same.
///
/// Assumes the values are independent draws around one level (runs far enough apart that
/// their machine states are independent). Time: O(n).
pub fn run_spread(values: &[f64]) -> Option<RunSpread> {
    let n = values.len();
    if n == 0 {
        return None;
    }
    // (weight, value); the newest has age 0.
    let used: Vec<(f64, f64)> = values
        .iter()
        .enumerate()
        .map(|(i, y)| (0.5f64.powf((n - 1 - i) as f64 / HALF_LIFE_RUNS), *y))
        .collect();
    let sw: f64 = used.iter().map(|(w, _)| w).sum();
    let sw2: f64 = used.iter().map(|(w, _)| w * w).sum();
    let level = used.iter().map(|(w, y)| w * y).sum::<f64>() / sw;
    let n_eff = sw * sw / sw2;
    if used.len() < 2 {
        return Some(RunSpread {
            level,
            sd: 0.0,
            dof: 0.0,
            n_eff,
            count: used.len(),
        });
    }
    let variance = used
        .iter()
        .map(|(w, y)| w * (y - level).powi(2))
        .sum::<f64>()
        / (sw - sw2 / sw);
    Some(RunSpread {
        level,
        sd: variance.sqrt(),
        dof: (n_eff - 1.0).max(1.0),
        n_eff,
        count: used.len(),
    })
}

/// The half-width of the prediction interval of one more run's value at `confidence`: the
/// next run's value minus a level averaged over `n_level` runs (each with standard deviation
/// `sd`) has variance `sd²(1 + 1/n_level)`, so the interval is
/// `level ± t(confidence, dof) · sd · √(1 + 1/n_level)`, with `dof` the degrees of freedom
/// of `sd` (Student's t for an estimated `sd`).
///
/// Assumes the runs' values are independent and normal around one level, the next run
/// included, and `sd` independent of the level (Hahn & Meeker, "Statistical Intervals",
/// 1991, §4.6). `n_level` may be fractional (Kish's effective count of weighted runs). Time:
/// O(1).
pub fn prediction_half_width(sd: f64, dof: f64, n_level: f64, confidence: f64) -> f64 {
    t_critical(confidence, dof) * sd * (1.0 + 1.0 / n_level).sqrt()
}

/// Half-width of the prediction interval of one more value, from a sample of `n` values whose standard
/// deviation is `sd`: `t(1 − (1 − c)/2, n − 1) · sd · √(1 + 1/n)` around their mean, which holds
/// the next value with probability `confidence`.
///
/// The `√(1 + 1/n)` is the next value's own variance (1) plus that of the mean it is measured
/// from (`1/n`); Student's t accounts for `sd` being estimated from the same `n` values. Applied
/// to the logarithms of run times (`sd` their standard deviation), the half-width is relative:
/// a next run lands within `± half-width` of the runs' level (the geometric mean).
///
/// Assumes the `n` values and the next one are independent draws of one normal distribution:
/// a machine whose speed drifts in one direction over the draws breaks the first, and a next
/// value taken in another state of the machine (an hour later, under other load) the second.
/// `None` for fewer than 2 values, a negative or non-finite `sd`, or a confidence outside
/// (0, 1). Time: O(1).
pub fn sample_prediction_half_width(sd: f64, n: usize, confidence: f64) -> Option<f64> {
    let usable = n >= 2 && sd.is_finite() && sd >= 0.0 && confidence > 0.0 && confidence < 1.0;
    if !usable {
        return None;
    }
    let n_f = n as f64;
    let half = prediction_half_width(sd, n_f - 1.0, n_f, confidence);
    half.is_finite().then_some(half)
}

/// The degrees of freedom of a sum of independent variance estimates `parts`, each
/// `(variance, degrees of freedom)`: Welch–Satterthwaite's `(Σvᵢ)² / Σ(vᵢ²/νᵢ)`. Parts of
/// variance 0 add nothing; with none left, the largest `νᵢ` (the sum is then exact). Computed
/// relative to the largest variance, so no square overflows or underflows.
///
/// Assumes each `vᵢ` is a scaled χ² with `νᵢ` degrees of freedom (Satterthwaite 1946). Time:
/// O(parts).
pub fn satterthwaite_dof(parts: &[(f64, f64)]) -> f64 {
    let largest = parts.iter().map(|(v, _)| *v).fold(0.0, f64::max);
    if largest <= 0.0 {
        return parts.iter().map(|(_, d)| *d).fold(0.0, f64::max);
    }
    let sum: f64 = parts.iter().map(|(v, _)| v / largest).sum();
    let denominator: f64 = parts
        .iter()
        .filter(|(v, _)| *v > 0.0)
        .map(|(v, d)| (v / largest).powi(2) / d)
        .sum();
    sum * sum / denominator
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Summary;
    use rand::SeedableRng;
    use rand_distr::{Distribution, Normal};

    #[test]
    fn a_run_spread_is_the_weighted_spread_of_its_runs() {
        // ln 100, ln 102, ln 98, ln 101 with weights 2^(-3/5), 2^(-2/5), 2^(-1/5), 1: the
        // weighted variance with reliability weights, by hand (numpy.cov(y, aweights=w)).
        let runs = [100.0f64, 102.0, 98.0, 101.0];
        let y: Vec<f64> = runs.iter().map(|m| m.ln()).collect();
        let w: Vec<f64> = (0..4).map(|i| 0.5f64.powf((3 - i) as f64 / 5.0)).collect();
        let (sw, sw2) = (w.iter().sum::<f64>(), w.iter().map(|w| w * w).sum::<f64>());
        let mean = w.iter().zip(&y).map(|(w, y)| w * y).sum::<f64>() / sw;
        let var = w
            .iter()
            .zip(&y)
            .map(|(w, y)| w * (y - mean).powi(2))
            .sum::<f64>()
            / (sw - sw2 / sw);
        let s = run_spread(&y).unwrap();
        assert!((s.sd - var.sqrt()).abs() < 1e-15, "{}", s.sd);
        assert!((s.level - mean).abs() < 1e-15);
        assert_eq!(s.count, 4);
        assert!((s.n_eff - sw * sw / sw2).abs() < 1e-12, "{}", s.n_eff);
        assert!((s.dof - (s.n_eff - 1.0)).abs() < 1e-12, "{}", s.dof);
        // Equal weights would give the sample variance: the weights matter.
        let plain = Summary::of(&y).unwrap();
        assert!((var - plain.variance).abs() > 1e-7);
        // One run of a noisy hour in six, 40% slower: kept (the next run may be another),
        // and the spread says so; it fades as quiet runs follow (below).
        let mut noisy = y.clone();
        noisy.extend([100.2f64.ln(), 140f64.ln()]);
        let s = run_spread(&noisy).unwrap();
        assert_eq!(s.count, 6);
        assert!(s.sd > 0.1, "{}", s.sd);
        // A single run: its value, with no spread.
        let one = run_spread(&[5.0]).unwrap();
        assert_eq!(
            (one.level, one.sd, one.dof, one.n_eff),
            (5.0, 0.0, 0.0, 1.0)
        );
        assert!(run_spread(&[]).is_none());
    }

    #[test]
    fn a_noisy_hour_fades_from_a_run_spread() {
        // Four runs of a noisy hour (±10%), then quiet runs within ±0.3%: ten quiet runs
        // later the noisy ones weigh an eighth of the last, and the spread is near the quiet
        // runs' own.
        let mut runs: Vec<f64> = [110.0f64, 90.0, 108.0, 93.0].map(f64::ln).to_vec();
        let early = run_spread(&runs).unwrap().sd;
        assert!(early > 0.05, "{early}");
        for i in 0..15 {
            runs.push((100.0 + 0.3 * ((i % 3) as f64 - 1.0)).ln());
        }
        let later = run_spread(&runs).unwrap().sd;
        assert!(later < early / 2.0, "{later} against {early}");
    }

    #[test]
    fn satterthwaite_dof_weighs_each_part_by_its_variance() {
        // v = (4, 1), ν = (9, 2): by hand, (4 + 1)² / (16/9 + 1/2) = 25 / 2.2777… =
        // 10.97560975609756.
        let d = satterthwaite_dof(&[(4.0, 9.0), (1.0, 2.0)]);
        assert!((d - 10.975_609_756_097_56).abs() < 1e-12, "{d}");
        // One part alone: its own degrees of freedom, at any scale.
        assert!((satterthwaite_dof(&[(1e-300, 7.0), (0.0, 1.0)]) - 7.0).abs() < 1e-12);
        assert!((satterthwaite_dof(&[(1e300, 3.0), (1e300, 3.0)]) - 6.0).abs() < 1e-9);
        assert_eq!(satterthwaite_dof(&[(0.0, 4.0), (0.0, 2.0)]), 4.0);
    }

    #[test]
    fn the_prediction_half_width_is_students_t_over_one_more_run() {
        // sd 2% over 4 degrees of freedom, a level of 5 runs, 95%: scipy.stats.t.ppf(0.975, 4)
        // = 2.7764451051977934, and 2.7764451051977934 · 0.02 · √1.2 = 0.06082886455166541.
        let h = prediction_half_width(0.02, 4.0, 5.0, 0.95);
        assert!((h / 0.060_828_864_551_665_41 - 1.0).abs() < 2e-8, "{h}");
        // A level of one run (this run's estimate itself): √2 wider than the sd's interval
        // alone. t.ppf(0.95, 10) = 1.8124611228116756; · 0.01 · √2 = 0.0256320710115424.
        let h = prediction_half_width(0.01, 10.0, 1.0, 0.90);
        assert!((h / 0.025_632_071_011_542_4 - 1.0).abs() < 2e-8, "{h}");
        // Fractional degrees of freedom and runs (Kish's counts): t.ppf(0.995, 2.5) =
        // 7.163728138948783, · 0.03 · √(1 + 1/2.9).
        let h = prediction_half_width(0.03, 2.5, 2.9, 0.99);
        let expected = 7.163_728_138_948_783 * 0.03 * (1.0 + 1.0 / 2.9f64).sqrt();
        assert!((h / expected - 1.0).abs() < 2e-8, "{h}");
    }

    #[test]
    fn the_half_width_matches_student_t_by_hand() {
        // scipy: t.ppf(0.975, 29) = 2.045229642132703; · 0.01 · √(31/30) (lab/noise_reference.py).
        let h = sample_prediction_half_width(0.01, 30, 0.95).unwrap();
        assert!((h - 0.020790373811037825).abs() < 1e-9, "{h}");
        // t.ppf(0.975, 4) = 2.7764451051977987; · 0.02 · √(6/5).
        let h = sample_prediction_half_width(0.02, 5, 0.95).unwrap();
        assert!((h - 0.06082886455166541).abs() < 1e-9, "{h}");
        assert_eq!(sample_prediction_half_width(0.0, 3, 0.95), Some(0.0));
        assert!(sample_prediction_half_width(0.01, 1, 0.95).is_none());
        assert!(sample_prediction_half_width(f64::NAN, 10, 0.95).is_none());
        assert!(sample_prediction_half_width(-0.01, 10, 0.95).is_none());
        assert!(sample_prediction_half_width(0.01, 10, 1.0).is_none());
    }

    #[test]
    fn the_next_value_lands_inside_as_often_as_promised() {
        // 20 000 trials of 8 normal values and a ninth: the ninth lies within the band around
        // the eight's mean 95% of the time (binomial sd 0.15%; tolerance 0.6%).
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(41);
        let normal = Normal::new(0.0, 0.013).unwrap();
        let trials = 20_000;
        let mut inside = 0;
        for _ in 0..trials {
            let xs: Vec<f64> = (0..8).map(|_| normal.sample(&mut rng)).collect();
            let s = Summary::of(&xs).unwrap();
            let h = sample_prediction_half_width(s.std_dev, 8, 0.95).unwrap();
            if (normal.sample(&mut rng) - s.mean).abs() <= h {
                inside += 1;
            }
        }
        let rate = inside as f64 / trials as f64;
        assert!((rate - 0.95).abs() < 0.006, "{rate}");
    }
}
