//! Change-point detection (E-Divisive with Medians) and the stable segment of a series.
//!
//! A benchmark's readings usually go through phases: a warm-up (caches, JIT, frequency scaling),
//! a long stable phase, and sometimes a cool-down at the end. Pilot (Li et al., MASCOTS 2016,
//! §III-A) keeps only the stable phase: change points split the series into segments, and the
//! stable phase is the longest segment holding more than half of the values.
//!
//! - [`edm_multi`] is E-Divisive with Medians in its penalised multi-change form, exactly as
//!   Twitter's BreakoutDetection computes it. It is the reference form: O(n² log n), never finds
//!   a phase shorter than its minimum segment, cuts gradual warm-ups in the middle and reports
//!   spurious changes on strongly autocorrelated noise.
//! - [`level_changes`] finds the commits where a history moves to a new level: E-Divisive
//!   means ([`divisive_candidate`]) proposes splits and Student's t-test keeps the significant
//!   ones, as Hunter and Apache Otava do; it works on short series (one value per commit).
//!   [`searched_level_changes`] counts each change's p over the splits the search chose it
//!   from ([`searched_p`]), so that a series with no change shows one as rarely as its p says.
//!   [`short_runs`] finds the runs too short to be a level that stand far out (one wild run),
//!   which the search can leave out.
//! - [`find_stable_segment`] builds on it and fixes those weaknesses: EDM on block medians for
//!   speed, full-resolution refinement of each change point, a significance check that allows
//!   for autocorrelation, and a walk inward from both ends of the stable segment that trims
//!   gradual warm-ups and cool-downs of any length.

mod edm;
mod levels;
mod means;
mod search;
mod short_runs;
mod stable;

pub use edm::edm_multi;
pub use levels::{
    LevelChange, LevelChangeConfig, level_changes, relative_interval, searched_level_changes,
    split_test,
};
pub use means::{DivisiveCandidate, divisive_candidate};
pub use search::searched_p;
pub use short_runs::{SHORT_RUN_LIMIT, short_runs};
pub use stable::find_stable_segment;

use crate::error::{Error, Result};

/// Settings of E-Divisive with Medians in its penalised multi-change form.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChangepointConfig {
    /// Penalty per change point on the [0, 1]-rescaled data (BreakoutDetection's `beta`).
    pub beta: f64,
    /// Least number of values between two change points (BreakoutDetection's `min_size`).
    pub min_segment: usize,
    /// Degree of the penalty's dependence on the number of change points (0, 1 or 2).
    pub degree: u32,
}

impl Default for ChangepointConfig {
    fn default() -> Self {
        ChangepointConfig {
            beta: 0.008,
            min_segment: 30,
            degree: 1,
        }
    }
}

/// The stable phase of a series and the change points that bound the phases around it.
#[derive(Debug, Clone, PartialEq)]
pub struct StableSegment {
    /// First index of the stable phase (0-based).
    pub start: usize,
    /// One past the last index of the stable phase.
    pub end: usize,
    /// Every change point found, ascending; a change point `c` starts a new segment at `c`.
    pub changepoints: Vec<usize>,
    /// Whether the stable segment holds more than half of the series (Pilot's rule). When it
    /// does not, the series has no steady state and `start..end` is the longest segment.
    pub dominant: bool,
}

/// Checks a configuration: `min_segment ≥ 2` (as the reference demands), `beta` finite and
/// non-negative, `degree` 0, 1 or 2.
fn validate(config: &ChangepointConfig) -> Result<()> {
    if config.min_segment < 2 {
        return Err(Error::InvalidParameter {
            name: "minimum segment",
            value: config.min_segment as f64,
            expected: "must be at least 2",
        });
    }
    if !(config.beta.is_finite() && config.beta >= 0.0) {
        return Err(Error::InvalidParameter {
            name: "penalty beta",
            value: config.beta,
            expected: "must be finite and non-negative",
        });
    }
    if config.degree > 2 {
        return Err(Error::InvalidParameter {
            name: "penalty degree",
            value: f64::from(config.degree),
            expected: "must be 0, 1 or 2",
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn whole(n: usize) -> StableSegment {
        StableSegment {
            start: 0,
            end: n,
            changepoints: Vec::new(),
            dominant: true,
        }
    }

    /// A deterministic, irregular wiggle in [-1, 1] (no random generator needed).
    fn wiggle(i: usize) -> f64 {
        ((i as f64 * 12.9898).sin() * 43_758.545_3).fract()
    }

    #[test]
    fn tiny_and_constant_series_are_stable_as_they_are() {
        let cfg = ChangepointConfig::default();
        assert_eq!(find_stable_segment(&[], &cfg).unwrap(), whole(0));
        assert_eq!(find_stable_segment(&[3.0], &cfg).unwrap(), whole(1));
        assert_eq!(find_stable_segment(&[3.0, 4.0], &cfg).unwrap(), whole(2));
        assert_eq!(find_stable_segment(&[7.5; 500], &cfg).unwrap(), whole(500));
        assert_eq!(
            find_stable_segment(&[7.5; 5000], &cfg).unwrap(),
            whole(5000)
        );
    }

    #[test]
    fn extreme_magnitudes_do_not_panic() {
        let cfg = ChangepointConfig::default();
        let xs: Vec<f64> = (0..700)
            .map(|i| if i % 3 == 0 { f64::MAX } else { -f64::MAX })
            .collect();
        let s = find_stable_segment(&xs, &cfg).unwrap();
        assert!(s.start < s.end && s.end <= xs.len());
        let tiny: Vec<f64> = (0..100).map(|i| f64::MIN_POSITIVE * wiggle(i)).collect();
        assert!(find_stable_segment(&tiny, &cfg).is_ok());
    }

    #[test]
    fn the_stable_segment_does_not_depend_on_the_scale() {
        // Noise around 1 has no change point. Times 1e-200 its noise variance (1e-402)
        // underflowed to 0, which made every difference of means significant: change points
        // were invented. Times 1e200 it overflowed, and no change was ever significant.
        let cfg = ChangepointConfig::default();
        let noise: Vec<f64> = (0..100).map(|i| 1.0 + 0.1 * wiggle(i)).collect();
        assert_eq!(find_stable_segment(&noise, &cfg).unwrap(), whole(100));
        let step: Vec<f64> = (0..200)
            .map(|i| if i < 60 { 2.0 } else { 1.0 } + 0.1 * wiggle(i))
            .collect();
        let base = find_stable_segment(&step, &cfg).unwrap();
        assert_eq!((base.start, base.end), (60, 200));
        for f in [1e-200, 1e200, f64::MAX / 4.0, 1e-315] {
            let scaled: Vec<f64> = noise.iter().map(|x| x * f).collect();
            assert_eq!(
                find_stable_segment(&scaled, &cfg).unwrap(),
                whole(100),
                "{f:e}"
            );
            let scaled: Vec<f64> = step.iter().map(|x| x * f).collect();
            assert_eq!(find_stable_segment(&scaled, &cfg).unwrap(), base, "{f:e}");
        }
    }

    #[test]
    fn non_finite_values_and_bad_settings_are_errors() {
        let cfg = ChangepointConfig::default();
        let err = find_stable_segment(&[1.0, f64::INFINITY, 2.0], &cfg).unwrap_err();
        assert_eq!(
            err,
            Error::NotFinite {
                index: 1,
                value: f64::INFINITY
            }
        );
        assert!(matches!(
            find_stable_segment(&[f64::NAN], &cfg),
            Err(Error::NotFinite { index: 0, .. })
        ));
        let bad = ChangepointConfig {
            beta: f64::NAN,
            ..cfg
        };
        assert!(matches!(
            find_stable_segment(&[1.0], &bad),
            Err(Error::InvalidParameter { .. })
        ));
    }

    #[test]
    fn a_clean_warmup_and_cooldown_are_cut_exactly() {
        // 40 readings at 20, 300 at 10 (with a small wiggle), 6 at 15.
        let xs: Vec<f64> = (0..346)
            .map(|i| match i {
                0..40 => 20.0,
                340.. => 15.0,
                _ => 10.0 + 0.1 * wiggle(i),
            })
            .collect();
        let s = find_stable_segment(&xs, &ChangepointConfig::default()).unwrap();
        assert_eq!((s.start, s.end, s.dominant), (40, 340, true));
        assert_eq!(s.changepoints, vec![40, 340]);
    }

    #[test]
    fn three_levels_have_no_dominant_segment() {
        // Levels 0, 1, 2 of 200 readings each (a clean staircase, where the reference's
        // approximate recursion finds only one of the two changes): the longest segment holds
        // a third.
        let xs: Vec<f64> = (0..600)
            .map(|i| (i / 200) as f64 + 0.05 * wiggle(i))
            .collect();
        let s = find_stable_segment(&xs, &ChangepointConfig::default()).unwrap();
        assert!(!s.dominant, "{s:?}");
        assert_eq!(s.changepoints, vec![200, 400]);
        assert!(
            [(200, 400), (400, 600)].contains(&(s.start, s.end)),
            "{s:?}"
        );
    }

    #[test]
    fn a_short_cooldown_in_a_long_series_is_found_at_full_resolution() {
        let n = 50_000;
        let xs: Vec<f64> = (0..n)
            .map(|i| {
                if i >= n - 7 {
                    13.0
                } else {
                    10.0 + 0.5 * wiggle(i)
                }
            })
            .collect();
        let s = find_stable_segment(&xs, &ChangepointConfig::default()).unwrap();
        assert_eq!((s.start, s.end), (0, n - 7));
    }

    #[test]
    fn ar1_variance_factor_by_hand() {
        // d = 2: Var(x1 + x2) = 2σ²(1 + φ); the formula gives 2(1+φ)/(1−φ) − 2φ(1−φ²)/(1−φ)².
        let phi: f64 = 0.5;
        let direct: f64 = 2.0 * (1.0 + phi);
        let formula = 2.0 * (1.0 + phi) / (1.0 - phi) - 2.0 * phi * (1.0 - phi * phi) / 0.25;
        assert!((direct - formula).abs() < 1e-12);
    }

    fn series() -> impl Strategy<Value = Vec<f64>> {
        prop_oneof![
            proptest::collection::vec(-1e3..1e3_f64, 0..200),
            // Few distinct values: ties and constant stretches.
            proptest::collection::vec((0..3_i32).prop_map(f64::from), 0..200),
            // Steps.
            (
                proptest::collection::vec(-1.0..1.0_f64, 60..900),
                1..5_usize
            )
                .prop_map(|(mut xs, k)| {
                    let len = xs.len();
                    for (i, x) in xs.iter_mut().enumerate() {
                        *x += (i * k / len) as f64 * 3.0;
                    }
                    xs
                }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn stable_segment_invariants(xs in series(), min_segment in 2..40_usize) {
            let cfg = ChangepointConfig { min_segment, ..ChangepointConfig::default() };
            let n = xs.len();
            let s = find_stable_segment(&xs, &cfg).unwrap();
            prop_assert!(s.start <= s.end && s.end <= n);
            prop_assert!(n < 1 || s.start < s.end);
            prop_assert!(s.changepoints.windows(2).all(|w| w[0] < w[1]));
            prop_assert!(s.changepoints.iter().all(|&c| 0 < c && c < n));
            prop_assert!(s.start == 0 || s.changepoints.contains(&s.start));
            prop_assert!(s.end == n || s.changepoints.contains(&s.end));
            // An empty series is its own (empty, trivially dominant) stable segment.
            prop_assert_eq!(s.dominant, n == 0 || 2 * (s.end - s.start) > n);
        }

        #[test]
        fn edm_change_points_are_spaced(xs in series(), min_segment in 2..40_usize) {
            let cfg = ChangepointConfig { min_segment, ..ChangepointConfig::default() };
            let n = xs.len();
            let cps = edm_multi(&xs, &cfg).unwrap();
            let mut bounds = vec![0];
            bounds.extend(&cps);
            bounds.push(n);
            if n >= 2 * min_segment || !cps.is_empty() {
                prop_assert!(bounds.windows(2).all(|w| w[1] - w[0] >= min_segment));
            }
            prop_assert!(n >= 2 * min_segment || cps.is_empty());
        }
    }
}
