//! A logarithmic axis's range, labelled ticks and minor grid lines, chosen from the values it
//! shows. plotters' own choice for a log axis labels only the powers of ten inside the range
//! (a 100 ns point could sit below the lowest label, `1.000 µs`, and an axis within one decade
//! had no label at all), and draws a minor line at every tenth of a decade's top value, so
//! that the lines crowd into a grey band below each power of ten. Here the range starts and
//! ends on labelled ticks, so every value lies between two labels, and the minor lines are
//! few enough to stay apart.

use std::ops::Range;

/// Most labelled ticks on one axis: more would crowd the labels of the parameter's axis.
const MAX_TICKS: usize = 8;

/// The mantissas of each decade that may be ticks, from the densest choice to the sparsest
/// (below them, powers of ten every few decades).
const MANTISSAS: [&[f64]; 3] = [
    &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0],
    &[1.0, 2.0, 5.0],
    &[1.0],
];

/// Minor grid lines are drawn at each integer multiple of a decade on an axis spanning at
/// most this many decades, at its 1, 2 and 5 multiples up to [`MINOR_125_DECADES`], and not
/// at all beyond: so that consecutive lines stay apart (the closest, 9 and 10 of a decade,
/// are 0.046 decades apart).
const MINOR_ALL_DECADES: f64 = 2.0;
/// See [`MINOR_ALL_DECADES`].
const MINOR_125_DECADES: f64 = 6.0;

/// A logarithmic axis: its range, the ticks that carry labels, and the minor grid lines.
#[derive(Debug, Clone, PartialEq)]
pub struct LogAxis {
    /// The drawn range: the lowest tick to the highest, widened a little so that a marker on
    /// either is not cut by the plot's edge.
    pub range: Range<f64>,
    /// The labelled ticks, ascending; the first at or below every value, the last at or above.
    pub ticks: Vec<f64>,
    /// Where minor grid lines go (not on a tick), ascending.
    pub minor: Vec<f64>,
}

impl LogAxis {
    /// The axis for the positive, finite `values` (others are left out; with none, 1 to 10).
    ///
    /// The ticks are the densest of: every integer multiple of each decade (1, 2, …, 9), the
    /// multiples 1, 2 and 5, the powers of ten, the powers of ten every few decades; whichever
    /// is the densest to give at most [`MAX_TICKS`] ticks from the greatest tick at or below
    /// the least value to the least tick at or above the greatest. A single value, or values
    /// all on one tick, get the ticks either side of it as well, so that an axis always has
    /// two labels or more.
    pub fn of(values: &[f64]) -> LogAxis {
        let positive = values.iter().copied().filter(|v| v.is_finite() && *v > 0.0);
        let (lo, hi) = positive.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
        let (lo, hi) = if lo.is_finite() {
            (lo, hi)
        } else {
            (1.0, 10.0)
        };
        let ticks = MANTISSAS
            .iter()
            .map(|set| ticks_between(lo, hi, set, 1))
            .find(|t| t.len() <= MAX_TICKS)
            .unwrap_or_else(|| {
                // Powers of ten every `step` decades, `step` the least that gives few enough
                // (a finite f64 spans under 700 decades).
                (2..)
                    .map(|step| ticks_between(lo, hi, &[1.0], step))
                    .find(|t| t.len() <= MAX_TICKS)
                    .expect("a step of 700 decades gives at most 3 ticks")
            });
        let (first, last) = (ticks[0], ticks[ticks.len() - 1]);
        // A sliver past the outer ticks, in proportion to the axis's length in decades.
        let pad = 10f64.powf(0.02 * (last / first).log10());
        LogAxis {
            range: first / pad..last * pad,
            minor: minor_lines(first, last, &ticks),
            ticks,
        }
    }
}

/// The candidate ticks from the greatest at or below `lo` to the least at or above `hi`: each
/// `mantissas` times the powers of ten that are multiples of `step`. When that is a single
/// tick (all values on it), the candidates either side of it are added.
fn ticks_between(lo: f64, hi: f64, mantissas: &[f64], step: i32) -> Vec<f64> {
    let first_exp = (lo.log10().floor() as i32).div_euclid(step) * step - step;
    let last_exp = hi.log10().ceil() as i32 + step;
    let candidates: Vec<f64> = (first_exp..=last_exp)
        .step_by(step as usize)
        .flat_map(|e| mantissas.iter().map(move |m| m * 10f64.powi(e)))
        .collect();
    // Candidates are exact to a few ulps; a value equal to one counts as on it.
    let on_or_below = |c: f64, v: f64| c <= v * (1.0 + 1e-12);
    let start = candidates
        .iter()
        .rposition(|&c| on_or_below(c, lo))
        .unwrap_or(0);
    let end = candidates
        .iter()
        .position(|&c| on_or_below(hi, c))
        .unwrap_or(candidates.len() - 1);
    let (start, end) = if start == end {
        (start.saturating_sub(1), (end + 1).min(candidates.len() - 1))
    } else {
        (start, end)
    };
    candidates[start..=end].to_vec()
}

/// Minor grid lines between `first` and `last`: every integer multiple of each decade, or its
/// 1, 2 and 5 multiples, or none, by how many decades the axis spans (see
/// [`MINOR_ALL_DECADES`]); none on a tick.
fn minor_lines(first: f64, last: f64, ticks: &[f64]) -> Vec<f64> {
    let decades = (last / first).log10();
    let mantissas: &[f64] = if decades <= MINOR_ALL_DECADES {
        MANTISSAS[0]
    } else if decades <= MINOR_125_DECADES {
        MANTISSAS[1]
    } else {
        return Vec::new();
    };
    let near = |a: f64, b: f64| (a / b - 1.0).abs() < 1e-9;
    (first.log10().floor() as i32..=last.log10().ceil() as i32)
        .flat_map(|e| mantissas.iter().map(move |m| m * 10f64.powi(e)))
        .filter(|v| *v > first && *v < last && !near(*v, first) && !near(*v, last))
        .filter(|v| !ticks.iter().any(|t| near(*t, *v)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ticks, rounded to 9 significant digits so that `3e-7` reads as written.
    fn ticks(values: &[f64]) -> Vec<f64> {
        round(&LogAxis::of(values).ticks)
    }

    fn round(xs: &[f64]) -> Vec<f64> {
        xs.iter()
            .map(|x| format!("{x:.8e}").parse().unwrap())
            .collect()
    }

    /// Every value lies between the first tick and the last, and inside the range.
    fn check_covers(values: &[f64]) {
        let axis = LogAxis::of(values);
        let (first, last) = (axis.ticks[0], *axis.ticks.last().unwrap());
        for &v in values {
            assert!(
                first <= v * (1.0 + 1e-12) && v <= last * (1.0 + 1e-12),
                "{v}: {axis:?}"
            );
            assert!(axis.range.contains(&v), "{v}: {axis:?}");
        }
        assert!(
            axis.ticks.len() >= 2 && axis.ticks.len() <= MAX_TICKS,
            "{axis:?}"
        );
        assert!(axis.ticks.windows(2).all(|w| w[0] < w[1]), "{axis:?}");
    }

    #[test]
    fn a_point_at_100_ns_under_others_at_1_to_10_us_is_labelled() {
        // Times in ns. plotters labelled 1 µs and 10 µs only, with the 100 ns point below.
        let values = [100.0, 1_000.0, 2_500.0, 10_000.0];
        check_covers(&values);
        // Two decades: 1-2-5 would be 7 ticks.
        assert_eq!(
            ticks(&values),
            [100.0, 200.0, 500.0, 1_000.0, 2_000.0, 5_000.0, 10_000.0]
        );
        // A 3 µs point with others up to 10 µs: the axis starts at 3 µs, not under it.
        assert_eq!(
            ticks(&[3_000.0, 4_200.0, 10_000.0]),
            [
                3_000.0, 4_000.0, 5_000.0, 6_000.0, 7_000.0, 8_000.0, 9_000.0, 10_000.0
            ]
        );
        check_covers(&[3_000.0, 4_200.0, 10_000.0]);
    }

    #[test]
    fn points_spanning_exactly_one_decade_end_on_ticks() {
        assert_eq!(ticks(&[2_000.0, 20_000.0]), [2e3, 5e3, 1e4, 2e4]);
        assert_eq!(ticks(&[1_000.0, 10_000.0]), [1e3, 2e3, 5e3, 1e4]);
        check_covers(&[1_000.0, 10_000.0]);
        // The parameter of a sweep over three decades.
        assert_eq!(
            ticks(&[1_000.0, 10_000.0, 100_000.0]),
            [1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5]
        );
    }

    #[test]
    fn points_within_a_factor_of_one_and_a_half() {
        assert_eq!(ticks(&[3_100.0, 4_500.0]), [3e3, 4e3, 5e3]);
        check_covers(&[3_100.0, 4_500.0]);
        // Across a power of ten.
        assert_eq!(ticks(&[8.5, 12.0]), [8.0, 9.0, 10.0, 20.0]);
        check_covers(&[8.5, 12.0]);
    }

    #[test]
    fn a_single_point_gets_a_tick_either_side() {
        assert_eq!(ticks(&[3_300.0]), [3e3, 4e3]);
        // On a tick: the ticks either side as well.
        assert_eq!(ticks(&[3_000.0]), [2e3, 3e3, 4e3]);
        assert_eq!(ticks(&[1e-3]), [9e-4, 1e-3, 2e-3]);
        check_covers(&[3_300.0]);
        // Nothing to show: one decade.
        assert_eq!(ticks(&[]), [1.0, 2.0, 5.0, 10.0]);
        assert_eq!(ticks(&[0.0, -3.0, f64::NAN]), [1.0, 2.0, 5.0, 10.0]);
    }

    #[test]
    fn many_decades_are_labelled_at_powers_of_ten() {
        let values = [2.0, 3e12];
        check_covers(&values);
        let t = ticks(&values);
        assert!(
            t.iter()
                .all(|x| (x.log10() - x.log10().round()).abs() < 1e-9),
            "{t:?}"
        );
        assert_eq!(ticks(&[1.0, 1e5]), [1.0, 10.0, 100.0, 1e3, 1e4, 1e5]);
    }

    #[test]
    fn minor_lines_stay_apart() {
        // plotters drew 99 lines a decade, 0.4% of a decade apart below each power of ten.
        for values in [
            &[100.0, 10_000.0][..],
            &[3_000.0, 4_200.0],
            &[1_000.0, 10_000.0, 100_000.0],
            &[1.0, 1e6],
            &[1.0, 1e9],
            &[3_300.0],
        ] {
            let axis = LogAxis::of(values);
            let length = (axis.range.end / axis.range.start).log10();
            let mut lines: Vec<f64> = axis.ticks.iter().chain(&axis.minor).copied().collect();
            lines.sort_by(f64::total_cmp);
            for w in lines.windows(2) {
                let gap = (w[1] / w[0]).log10() / length;
                assert!(gap >= 0.015, "{values:?}: {w:?} {gap}: {axis:?}");
            }
            assert!(
                axis.minor
                    .iter()
                    .all(|m| *m > axis.ticks[0] && m < axis.ticks.last().unwrap()),
                "{axis:?}"
            );
        }
        let axis = LogAxis::of(&[100.0, 10_000.0]);
        assert_eq!(
            round(&axis.minor),
            [
                300.0, 400.0, 600.0, 700.0, 800.0, 900.0, 3e3, 4e3, 6e3, 7e3, 8e3, 9e3
            ]
        );
        assert!(LogAxis::of(&[1.0, 1e9]).minor.is_empty());
    }
}
