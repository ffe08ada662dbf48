//! Runs too short to be a level. One run of a history slowed by a neighbour's burst, or two in
//! a row, stand far out from the values around them; counted as values of their level they
//! widen the t-test of the change whose side holds them, so that one wild run can hide a clear
//! change. A change needs `min_segment` values at each level, so a shorter run is never one
//! ([`LevelChangeConfig::min_segment`](super::LevelChangeConfig)): such a run, when it stands
//! far out, can be left out.

use crate::error::{Result, check_finite};
use crate::outliers::robust_scale_above;

/// How far out a short run must stand from its neighbourhood's median to be left out, in robust standard deviations of the series' noise: far enough that normal noise
/// almost never does (a value of normal noise stands this far out about once in a million).
pub const SHORT_RUN_LIMIT: f64 = 5.0;

/// The indices of the values of `xs` that stand more than `limit` robust standard deviations
/// from the median of their neighbourhood, ascending: Hampel's identifier (Hampel 1974), with
/// one scale for the whole series estimated from its successive differences.
///
/// The neighbourhood of `xs[i]` is the `2·half_width + 1` values centred on it, shifted to lie
/// inside the series at its ends. A run of at most `half_width` far values is a minority of each
/// of its members' neighbourhoods, so their median stands at the level around the run and the
/// run is found; a run of `half_width + 1` or more holds the median of its first member's
/// neighbourhood, so a level that lasts that long is kept whole. The median stands for a level
/// only where most of the neighbourhood (`half_width + 1` values or more) stands within the
/// limit of it: where far values are as many as the rest (a stretch of wild runs), the
/// neighbourhood holds no level to measure them from, and nothing in it is found. The scale is `MAD(d) / 0.6745
/// / √2` of the successive differences `d` (each value less the one before it): a level change
/// moves one difference and a short run two per run, so neither moves the MAD much, and for
/// independent normal noise of standard deviation σ it estimates σ. When more than half the
/// differences are equal (but for rounding) the MAD is 0 and the mean absolute deviation scaled
/// to the same
/// normal-consistent scale (`1.2533 · mean|d − median(d)|`) stands in; a series whose
/// differences are all equal has no far value.
///
/// Assumes the noise between levels is about normal with one variance, as the t-test the
/// values then go to does. Returns nothing for fewer than `2·half_width + 1` values or a
/// `half_width` of 0. Errors: [`Error::NotFinite`](crate::Error::NotFinite) for NaN or infinite
/// values. Time: O(n·w·log w) for n values and neighbourhoods of w; memory O(n).
pub fn short_runs(xs: &[f64], half_width: usize, limit: f64) -> Result<Vec<usize>> {
    check_finite(xs)?;
    let width = 2 * half_width + 1;
    if half_width == 0 || xs.len() < width {
        return Ok(Vec::new());
    }
    let Some(scale) = difference_scale(xs) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    let mut window = Vec::with_capacity(width);
    for (i, &x) in xs.iter().enumerate() {
        let start = i.saturating_sub(half_width).min(xs.len() - width);
        window.clear();
        window.extend_from_slice(&xs[start..start + width]);
        window.sort_by(f64::total_cmp);
        let median = window[half_width];
        let near = |v: f64| (v - median).abs() <= limit * scale;
        if !near(x) && window.iter().filter(|v| near(**v)).count() > half_width {
            out.push(i);
        }
    }
    Ok(out)
}

/// The noise's standard deviation estimated from the successive differences of `xs` (see
/// [`short_runs`]); `None` when they are all equal.
fn difference_scale(xs: &[f64]) -> Option<f64> {
    let d: Vec<f64> = xs.windows(2).map(|w| w[1] - w[0]).collect();
    // Differences equal but for rounding (a sawtooth, values on a grid) leave a MAD of
    // rounding error: that is a MAD of 0.
    let (_, scale) = robust_scale_above(&d, 1e-9)?;
    Some(scale / std::f64::consts::SQRT_2).filter(|s| s.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_far_value_by_hand() {
        // 0 1 0 1 0 9 0 1 0: differences 1 −1 1 −1 9 −9 1 −1, sorted −9 −1 −1 −1 1 1 1 9, median
        // 0; |d| 1 1 1 1 1 1 9 9, MAD 1; scale 1 / 0.6745 / √2 = 1.0484. The neighbourhood of
        // index 5 (half width 2) is 1 0 9 0 1, median 1: 9 stands 8 out, 7.63 scales, above 5;
        // the other values stand at most 1 from their neighbourhood's median (0 or 1).
        let xs = [0.0, 1.0, 0.0, 1.0, 0.0, 9.0, 0.0, 1.0, 0.0];
        assert_eq!(short_runs(&xs, 2, 5.0).unwrap(), [5]);
        // 8 / 1.0484 = 7.63: a limit above that keeps it.
        assert!(short_runs(&xs, 2, 7.7).unwrap().is_empty());
        assert_eq!(short_runs(&xs, 2, 7.6).unwrap(), [5]);
    }

    #[test]
    fn two_far_values_in_a_row_are_found_and_three_are_a_level() {
        let base = [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0];
        let mut two = base;
        two[5] = 20.0;
        two[6] = 21.0;
        // The neighbourhoods 1 0 20 21 1 (of 5) and 0 20 21 1 0 (of 6) have medians 1 and 1.
        assert_eq!(short_runs(&two, 2, 5.0).unwrap(), [5, 6]);
        let mut three = two;
        three[7] = 20.0;
        assert!(short_runs(&three, 2, 5.0).unwrap().is_empty());
    }

    #[test]
    fn a_step_and_a_level_at_either_end_are_kept() {
        // A step of 50 noise widths at 6, and three values up at the end: all levels.
        let noise = |i: usize| ((i * 7) % 5) as f64 / 4.0;
        let step: Vec<f64> = (0..12)
            .map(|i| noise(i) + if i >= 6 { 50.0 } else { 0.0 })
            .collect();
        assert!(short_runs(&step, 2, 5.0).unwrap().is_empty());
        let end: Vec<f64> = (0..12)
            .map(|i| noise(i) + if i >= 9 { 50.0 } else { 0.0 })
            .collect();
        assert!(short_runs(&end, 2, 5.0).unwrap().is_empty());
        // Two at the end are a short run, the first value alone too.
        let mut short = end.clone();
        short[9] = noise(9);
        assert_eq!(short_runs(&short, 2, 5.0).unwrap(), [10, 11]);
        let mut first = step[..6].to_vec();
        first.extend_from_slice(&step[..6]);
        first[0] = 40.0;
        assert_eq!(short_runs(&first, 2, 5.0).unwrap()[0], 0);
    }

    #[test]
    fn a_neighbourhood_of_wild_values_holds_no_level_to_measure_them_from() {
        // 24 values of noise (sd 0.3, drawn once) with wild values at 0, 2 and 4 (80, 30, 12).
        // Differences: median −0.01, MAD 0.24, scale 0.24 / 0.6745 / √2 = 0.2516, limit 1.258.
        // The neighbourhood of 0 to 4 is 80 0.15 30 −0.09 12, median 12, and only 12 stands
        // within the limit of it: no level, so nothing there is found far (not even 0.15 at 1,
        // far from 12). The neighbourhood of 4 (2 to 6) is 30 −0.09 12 −0.06 0.33, median
        // 0.33, three values near it: 12 is found.
        let mut xs = [
            -0.08, 0.15, -0.07, -0.09, -0.28, -0.06, 0.33, 0.13, 0.31, 0.07, 0.12, 0.06, -0.5,
            0.26, 0.15, 0.15, -0.51, -0.52, -0.27, -0.14, 0.09, -0.01, 0.16, -0.19,
        ];
        xs[0] = 80.0;
        xs[2] = 30.0;
        xs[4] = 12.0;
        assert_eq!(short_runs(&xs, 2, 5.0).unwrap(), [4]);
    }

    #[test]
    fn too_few_values_equal_differences_and_bad_values() {
        assert!(
            short_runs(&[0.0, 9.0, 0.0, 0.0], 2, 5.0)
                .unwrap()
                .is_empty()
        );
        assert!(
            short_runs(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 2, 5.0)
                .unwrap()
                .is_empty()
        );
        assert!(
            short_runs(&[0.0, 9.0, 0.0, 0.0, 0.0], 0, 5.0)
                .unwrap()
                .is_empty()
        );
        assert!(short_runs(&[0.0, f64::NAN, 0.0, 0.0, 0.0], 2, 5.0).is_err());
        // All differences 0 but two: the MAD is 0, the mean deviation stands in: mean |d| =
        // 18 / 9 = 2, scale 1.2533 · 2 / √2 = 1.7725; 9 stands 9 out, 5.08 scales.
        let xs = [0.0, 0.0, 0.0, 0.0, 9.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        assert_eq!(short_runs(&xs, 2, 5.0).unwrap(), [4]);
        assert!(short_runs(&xs, 2, 5.1).unwrap().is_empty());
        // A sawtooth whose steps differ by rounding only: its MAD is rounding error, read as
        // 0, so the step of 0.1 inside a rise of 0.1 a value is no far value.
        let saw: Vec<f64> = (0..20).map(|i| 0.1 * (i % 7) as f64 + 1e-3).collect();
        assert!(short_runs(&saw, 2, 5.0).unwrap().is_empty());
    }
}
