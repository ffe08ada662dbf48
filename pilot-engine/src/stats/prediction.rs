//! Where the next draw of a variation lands: the prediction interval of one more value.

use crate::stats::summary::t_critical;

/// Half-width of the prediction interval of one more value, from `n` values whose standard
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
pub fn prediction_half_width(sd: f64, n: usize, confidence: f64) -> Option<f64> {
    let usable = n >= 2 && sd.is_finite() && sd >= 0.0 && confidence > 0.0 && confidence < 1.0;
    if !usable {
        return None;
    }
    let n_f = n as f64;
    let half = t_critical(confidence, n_f - 1.0) * sd * (1.0 + 1.0 / n_f).sqrt();
    half.is_finite().then_some(half)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_distr::{Distribution, Normal};

    #[test]
    fn the_half_width_matches_student_t_by_hand() {
        // scipy: t.ppf(0.975, 29) = 2.045229642132703; · 0.01 · √(31/30) (lab/noise_reference.py).
        let h = prediction_half_width(0.01, 30, 0.95).unwrap();
        assert!((h - 0.020790373811037825).abs() < 1e-9, "{h}");
        // t.ppf(0.975, 4) = 2.7764451051977987; · 0.02 · √(6/5).
        let h = prediction_half_width(0.02, 5, 0.95).unwrap();
        assert!((h - 0.06082886455166541).abs() < 1e-9, "{h}");
        assert_eq!(prediction_half_width(0.0, 3, 0.95), Some(0.0));
        assert!(prediction_half_width(0.01, 1, 0.95).is_none());
        assert!(prediction_half_width(f64::NAN, 10, 0.95).is_none());
        assert!(prediction_half_width(-0.01, 10, 0.95).is_none());
        assert!(prediction_half_width(0.01, 10, 1.0).is_none());
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
            let s = crate::stats::Summary::of(&xs).unwrap();
            let h = prediction_half_width(s.std_dev, 8, 0.95).unwrap();
            if (normal.sample(&mut rng) - s.mean).abs() <= h {
                inside += 1;
            }
        }
        let rate = inside as f64 / trials as f64;
        assert!((rate - 0.95).abs() < 0.006, "{rate}");
    }
}
