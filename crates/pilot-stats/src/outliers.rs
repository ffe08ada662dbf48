//! Outliers: the z-score rule (Auto-pilot's outlier warning) and a robust rule on the median and
//! the median absolute deviation, which one wild value cannot mask. pilot counts them and warns;
//! it never drops them.

use crate::error::{Result, check_finite};
use crate::scale::{ldexp, scaled};
use crate::summary::Summary;

/// Default |z| above which a value is an outlier.
pub const DEFAULT_Z_THRESHOLD: f64 = 3.0;

/// Indices of the values whose z-score `|x − mean| / s` exceeds `threshold`, ascending.
///
/// The mean and `s` (n − 1 divisor) are those of the whole sample, outliers included, so a
/// single wild value in a small sample can mask itself (with n values no |z| can exceed
/// `(n − 1)/√n`). Meant for warnings, not for dropping data. A constant sample has none.
/// z does not depend on the scale, so it is computed on the sample divided by its power-of-two
/// scale, where no deviation overflows. Time: O(n); memory: the scaled copy.
pub fn zscore_outliers(xs: &[f64], threshold: f64) -> Result<Vec<usize>> {
    check_finite(xs)?;
    if xs.len() < 2 {
        return Ok(Vec::new());
    }
    let (xs, _) = scaled(xs);
    let s = Summary::of(&xs)?;
    let sd = s.std_dev;
    if sd == 0.0 {
        return Ok(Vec::new());
    }
    Ok(xs
        .iter()
        .enumerate()
        .filter(|(_, x)| ((*x - s.mean) / sd).abs() > threshold)
        .map(|(i, _)| i)
        .collect())
}

/// Default |modified z| above which a value is an outlier under the robust rule (Iglewicz and
/// Hoaglin's 3.5).
pub const DEFAULT_MAD_THRESHOLD: f64 = 3.5;

/// Indices of the values whose modified z-score `0.6745 · |x − median| / MAD` exceeds
/// `threshold`, ascending (Iglewicz and Hoaglin, 1993).
///
/// MAD is the median of `|x − median|`; the median of an even count is the mean of the two
/// middle values. When more than half the values are equal the MAD is 0, and the mean absolute
/// deviation scaled to the same normal-consistent scale, `1.2533 · mean|x − median|`, stands in
/// for `MAD / 0.6745` (IBM's variant of the rule); a constant sample has no outliers. Unlike
/// the z-score, the rule is not masked by the outliers themselves. Time: O(n log n); memory: a
/// sorted copy.
pub fn mad_outliers(xs: &[f64], threshold: f64) -> Result<Vec<usize>> {
    check_finite(xs)?;
    let Some((median, scale)) = robust_scale(xs) else {
        return Ok(Vec::new());
    };
    Ok(xs
        .iter()
        .enumerate()
        .filter(|(_, x)| (*x - median).abs() / scale > threshold)
        .map(|(i, _)| i)
        .collect())
}

/// The median of `xs` and the normal-consistent robust scale of [`mad_outliers`]
/// (`MAD / 0.6745`, or `1.2533 · mean|x − median|` when the MAD is 0); `None` for fewer than 2
/// values or a constant sample. Computed on the sample divided by its power-of-two scale.
fn robust_scale(xs: &[f64]) -> Option<(f64, f64)> {
    robust_scale_above(xs, 0.0)
}

/// [`robust_scale`], with a MAD of at most `least_share` of the mean absolute deviation read as
/// 0: values equal but for rounding leave a MAD of rounding error, which is no scale.
pub(crate) fn robust_scale_above(xs: &[f64], least_share: f64) -> Option<(f64, f64)> {
    if xs.len() < 2 {
        return None;
    }
    let (scaled_xs, e) = scaled(xs);
    let median = median_of(scaled_xs.clone());
    let deviations: Vec<f64> = scaled_xs.iter().map(|x| (x - median).abs()).collect();
    let mean_deviation = crate::summary::mean(&deviations);
    let mad = median_of(deviations);
    let scale = if mad > least_share * mean_deviation {
        mad / 0.6745
    } else {
        1.253_314 * mean_deviation
    };
    (scale > 0.0).then(|| (ldexp(median, e), ldexp(scale, e)))
}

/// The median of `v` (the mean of the two middle values for an even count); `v` is not empty.
fn median_of(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// How many of a session's readings each rule calls an outlier.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OutlierCount {
    /// Beyond [`DEFAULT_Z_THRESHOLD`] standard deviations of the mean.
    pub z: usize,
    /// Beyond [`DEFAULT_MAD_THRESHOLD`] under the robust rule.
    pub mad: usize,
    /// Readings looked at.
    pub readings: usize,
    /// Sum of the readings looked at.
    pub sum: f64,
    /// Sum of the z-score outliers among them: with [`sum`](Self::sum), how much the outliers
    /// move the mean.
    pub outlier_sum: f64,
}

impl OutlierCount {
    /// Adds another round's counts.
    pub fn add(&mut self, other: &OutlierCount) {
        self.z += other.z;
        self.mad += other.mad;
        self.readings += other.readings;
        self.sum += other.sum;
        self.outlier_sum += other.outlier_sum;
    }

    /// How much the z-score outliers raise (+) or lower (−) the mean, relative to the mean of
    /// the other readings: `mean(all) / mean(without outliers) − 1`; 0 without outliers.
    pub fn effect_on_mean(&self) -> f64 {
        let rest = self.readings - self.z;
        if self.z == 0 || rest == 0 || self.sum == 0.0 {
            return 0.0;
        }
        let without = (self.sum - self.outlier_sum) / rest as f64;
        let all = self.sum / self.readings as f64;
        if without == 0.0 {
            0.0
        } else {
            all / without - 1.0
        }
    }
}

/// Most values the robust rule's median and MAD are estimated from in [`count_outliers`].
const MAX_ROBUST_SAMPLE: usize = 1 << 14;

/// Counts the outliers of one round's stable readings under both rules, in O(n): the mean and
/// standard deviation are exact; the median and MAD are those of an evenly strided subsample of
/// at most 16 384 values (exact below that), so a round of 2 million readings costs two passes,
/// not a sort. Non-finite input counts nothing.
pub fn count_outliers(xs: &[f64]) -> OutlierCount {
    let mut count = OutlierCount {
        readings: xs.len(),
        ..OutlierCount::default()
    };
    if xs.len() < 3 || xs.iter().any(|x| !x.is_finite()) {
        return count;
    }
    if let Ok(s) = Summary::of(xs) {
        count.sum = s.mean * xs.len() as f64;
        if s.std_dev > 0.0 && s.std_dev.is_finite() {
            let limit = DEFAULT_Z_THRESHOLD * s.std_dev;
            for x in xs.iter().filter(|x| (*x - s.mean).abs() > limit) {
                count.z += 1;
                count.outlier_sum += x;
            }
        }
    }
    let stride = xs.len().div_ceil(MAX_ROBUST_SAMPLE);
    let sample: Vec<f64> = xs.iter().step_by(stride).copied().collect();
    if let Some((median, scale)) = robust_scale(&sample) {
        let limit = DEFAULT_MAD_THRESHOLD * scale;
        count.mad = xs.iter().filter(|x| (*x - median).abs() > limit).count();
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_wild_value() {
        // 20 values of 10 and one of 100: mean 14.2857, s = 19.64; z(100) = 4.36.
        let mut xs = vec![10.0; 20];
        xs.push(100.0);
        assert_eq!(zscore_outliers(&xs, 3.0).unwrap(), vec![20]);
        assert!(zscore_outliers(&xs, 4.5).unwrap().is_empty());
        assert!(zscore_outliers(&[5.0; 4], 3.0).unwrap().is_empty());
    }

    #[test]
    fn robust_rule_by_hand() {
        // 1..=9 and 40: median 5.5; |x − 5.5| = 4.5 3.5 2.5 1.5 .5 .5 1.5 2.5 3.5 34.5, whose
        // median is 2.5; modified z of 40 = 0.6745 · 34.5 / 2.5 = 9.31, of 1 = 1.21.
        let mut xs: Vec<f64> = (1..=9).map(f64::from).collect();
        xs.push(40.0);
        assert_eq!(mad_outliers(&xs, 3.5).unwrap(), vec![9]);
        // The z-score rule is masked: mean 8.5, s = 11.37, z(40) = 2.77.
        assert!(zscore_outliers(&xs, 3.0).unwrap().is_empty());
        assert!(mad_outliers(&xs, 9.5).unwrap().is_empty());
        let c = count_outliers(&xs);
        assert_eq!((c.z, c.mad, c.readings), (0, 1, 10));
        assert_eq!(c.effect_on_mean(), 0.0);
    }

    #[test]
    fn zero_mad_falls_back_to_the_mean_deviation() {
        // Six 10s and 11, 12, 30: median 10, MAD 0; mean |x − 10| = (1 + 2 + 20) / 9 = 2.556,
        // scale 1.2533 · 2.556 = 3.203; 30 is 6.24 scales out, 12 is 0.62.
        let xs = [10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 11.0, 12.0, 30.0];
        assert_eq!(mad_outliers(&xs, 3.5).unwrap(), vec![8]);
        assert!(mad_outliers(&[7.0; 5], 3.5).unwrap().is_empty());
    }

    #[test]
    fn counting_a_long_round_uses_a_subsample_for_the_median() {
        // 100 000 values alternating 10 and 11 with every 1000th at 50: the strided subsample
        // sees the same median (10.5) and MAD (0.5); z(50) = (50 − 10.54) / 1.345 = 29.3.
        let xs: Vec<f64> = (0..100_000)
            .map(|i| {
                if i % 1000 == 999 {
                    50.0
                } else {
                    10.0 + (i % 2) as f64
                }
            })
            .collect();
        let c = count_outliers(&xs);
        assert_eq!((c.z, c.mad, c.readings), (100, 100, 100_000));
        // Mean of all 10.5395; without the 100 50s, (1 053 950 − 5000) / 99 900 = 10.5000.
        assert!((c.effect_on_mean() - (10.5395 / 10.5 - 1.0)).abs() < 1e-6);
    }
}
