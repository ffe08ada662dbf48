//! z-score outliers (Auto-pilot's outlier warning).

use crate::error::{Result, check_finite};
use crate::stats::scale::scaled;
use crate::stats::summary::Summary;

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
}
