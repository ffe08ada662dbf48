//! Invariants of pilot's statistics, checked on random inputs with proptest.
//!
//! Series too long to shrink usefully (autocorrelated ones) are drawn from a seeded ChaCha
//! generator whose seed proptest chooses, so a failure still reproduces from its seed.

use pilot::stats::ols;
use pilot::stats::trend;
use pilot::stats::welch_test;
use pilot::stats::zscore_outliers;
use pilot::stats::{AnalysisConfig, analyze};
use pilot::stats::{Moments, Summary};
use pilot::stats::{block_means, lag1_autocorrelation, subsession_analysis};
use pilot::stats::{required_for_half_width, required_to_resolve};
use proptest::prelude::*;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};

/// A sample of 2 to 60 moderate values.
fn sample() -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(-1e3..1e3f64, 2..60)
}

/// An AR(1) series `x_t = φ x_{t−1} + e_t` around 100.
fn ar1(seed: u64, n: usize, phi: f64) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let noise = Normal::new(0.0, 1.0).unwrap();
    let mut x = noise.sample(&mut rng);
    (0..n)
        .map(|_| {
            x = phi * x + noise.sample(&mut rng);
            100.0 + x
        })
        .collect()
}

/// `|a − b| ≤ tol`, with a message naming the quantity.
fn close(what: &str, a: f64, b: f64, tol: f64) -> Result<(), TestCaseError> {
    prop_assert!(
        (a - b).abs() <= tol,
        "{what}: {a:e} vs {b:e} (difference {:e}, allowed {tol:e})",
        (a - b).abs()
    );
    Ok(())
}

/// Largest absolute value of a sample: the scale rounding errors are relative to.
fn scale(xs: &[f64]) -> f64 {
    xs.iter().fold(1.0, |m, x| m.max(x.abs()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn ci_contains_the_mean_and_widens_with_confidence(xs in sample(), c1 in 0.5..0.999f64, dc in 0.0..0.5f64) {
        let c2 = (c1 + dc).min(0.9999);
        let s = Summary::of(&xs).unwrap();
        let (narrow, wide) = (s.mean_ci(c1).unwrap(), s.mean_ci(c2).unwrap());
        prop_assert!(narrow.contains(s.mean) && wide.contains(s.mean));
        prop_assert!(wide.low <= narrow.low && narrow.high <= wide.high, "{narrow:?} not inside {wide:?}");
        prop_assert!(s.min <= s.median && s.median <= s.max);
        prop_assert!(s.min <= s.mean && s.mean <= s.max);
    }

    #[test]
    fn summary_is_invariant_under_permutation(xs in sample(), seed in any::<u64>()) {
        let mut ys = xs.clone();
        ys.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        let (a, b) = (Summary::of(&xs).unwrap(), Summary::of(&ys).unwrap());
        // Order statistics are exact; sums only differ in rounding.
        prop_assert_eq!((a.n, a.min, a.max, a.median), (b.n, b.min, b.max, b.median));
        let m = scale(&xs);
        close("mean", a.mean, b.mean, 1e-13 * m)?;
        close("variance", a.variance, b.variance, 1e-12 * m * m)?;
    }

    #[test]
    fn summary_shifts_with_the_data(xs in sample(), c in -1e4..1e4f64) {
        let ys: Vec<f64> = xs.iter().map(|x| x + c).collect();
        let (a, b) = (Summary::of(&xs).unwrap(), Summary::of(&ys).unwrap());
        let m = scale(&xs) + c.abs();
        // Rounding is monotonic, so the extremes move exactly.
        prop_assert_eq!((b.min, b.max), (a.min + c, a.max + c));
        close("mean", b.mean, a.mean + c, 1e-13 * m)?;
        close("median", b.median, a.median + c, 1e-13 * m)?;
        close("variance", b.variance, a.variance, 1e-12 * m * m)?;
        let (ca, cb) = (a.mean_ci(0.95).unwrap(), b.mean_ci(0.95).unwrap());
        close("CI half-width", cb.half_width(), ca.half_width(), 1e-10 * m)?;
        if a.variance > 1e-6 * m * m {
            let (ra, rb) = (lag1_autocorrelation(&xs).unwrap(), lag1_autocorrelation(&ys).unwrap());
            close("lag-1 autocorrelation", rb, ra, 1e-9)?;
        }
    }

    #[test]
    fn variance_scales_with_the_square(xs in sample(), c in prop_oneof![-100.0..-0.01f64, 0.01..100.0f64]) {
        let ys: Vec<f64> = xs.iter().map(|x| c * x).collect();
        let (a, b) = (Summary::of(&xs).unwrap(), Summary::of(&ys).unwrap());
        let m = scale(&xs);
        close("variance", b.variance, c * c * a.variance, 1e-12 * c * c * m * m)?;
        close("mean", b.mean, c * a.mean, 1e-13 * c.abs() * m)?;
        close("CI half-width", b.mean_ci(0.9).unwrap().half_width(),
              c.abs() * a.mean_ci(0.9).unwrap().half_width(), 1e-10 * c.abs() * m)?;
    }

    #[test]
    fn subsession_analysis_keeps_its_promises(
        seed in any::<u64>(),
        n in 2usize..600,
        phi in -0.9..0.97f64,
        limit in 0.02..0.5f64,
        min in 0usize..50,
    ) {
        let xs = ar1(seed, n, phi);
        let s = subsession_analysis(&xs, limit, min).unwrap();
        let (q, h) = (s.size, s.count());
        prop_assert!(q >= 1 && q * h <= n && h == n / q, "q {q}, h {h}, n {n}");
        prop_assert!(q == 1 || h >= min.max(2), "q {q} left only {h} blocks (min {min})");
        if s.converged {
            prop_assert!(s.autocorrelation.abs() <= limit, "converged with r1 {}", s.autocorrelation);
        } else {
            prop_assert!(s.autocorrelation.abs() > limit);
            prop_assert!(n / (q + 1) < min.max(2), "gave up at q {q} though q + 1 leaves {} blocks", n / (q + 1));
        }
        // q is the first size that met the limit: every smaller one missed it (up to rounding,
        // since the analysis sums blocks differently from block_means).
        for smaller in 1..q {
            let r1 = lag1_autocorrelation(&block_means(&xs, smaller)).unwrap();
            prop_assert!(r1.abs() > limit - 1e-9, "q {smaller} < {q} already had r1 {r1}");
        }
        // The subsession samples' mean is the mean of the q·h inputs they cover.
        let used = Summary::of(&xs[..q * h]).unwrap().mean;
        close("mean of the subsession samples", s.mean(), used, 1e-11)?;
        if h >= 2 {
            let ci = s.mean_ci(0.95).unwrap();
            prop_assert!(ci.contains(s.mean()));
            prop_assert!(s.adjusted_mean_ci(0.95).unwrap().half_width() >= ci.half_width());
        }
    }

    #[test]
    fn welch_is_symmetric_in_its_arguments(
        na in 2usize..200, nb in 2usize..200,
        ma in -1e3..1e3f64, mb in -1e3..1e3f64,
        va in 0.0..1e4f64, vb in 1e-6..1e4f64,
        c in 0.5..0.999f64,
    ) {
        let a = Moments { n: na, mean: ma, variance: va };
        let b = Moments { n: nb, mean: mb, variance: vb };
        let (ab, ba) = (welch_test(&a, &b, c).unwrap(), welch_test(&b, &a, c).unwrap());
        // IEEE addition commutes: the swap is exact, not just close.
        prop_assert_eq!(ab.t, -ba.t);
        prop_assert_eq!(ab.p, ba.p);
        prop_assert_eq!(ab.dof, ba.dof);
        prop_assert_eq!(ab.difference, -ba.difference);
        prop_assert_eq!((ab.difference_ci.low, ab.difference_ci.high), (-ba.difference_ci.high, -ba.difference_ci.low));
        prop_assert!((0.0..=1.0).contains(&ab.p));
        prop_assert!(ab.difference_ci.contains(ab.difference));
        // The interval excludes 0 exactly when p < 1 − c (up to rounding at the boundary).
        let excludes = !ab.difference_ci.contains(0.0);
        if (ab.p - (1.0 - c)).abs() > 1e-6 {
            prop_assert_eq!(excludes, ab.p < 1.0 - c, "p {} at confidence {}", ab.p, c);
        }
        let dof_min = (na.min(nb) - 1) as f64;
        prop_assert!(ab.dof >= dof_min * (1.0 - 1e-12) && ab.dof <= (na + nb - 2) as f64 * (1.0 + 1e-12));
    }

    #[test]
    fn ols_recovers_exact_lines(
        xs in prop::collection::vec(-100.0..100.0f64, 3..40),
        a in -1e3..1e3f64,
        b in -1e3..1e3f64,
    ) {
        let (lo, hi) = xs.iter().fold((f64::MAX, f64::MIN), |(l, h), &x| (l.min(x), h.max(x)));
        prop_assume!(hi - lo >= 1.0);
        let ys: Vec<f64> = xs.iter().map(|x| a + b * x).collect();
        let f = ols(&xs, &ys).unwrap();
        let ymax = scale(&ys);
        let tol = 1e-11 * (ymax + b.abs() * 100.0 + a.abs());
        close("slope", f.slope, b, tol / (hi - lo))?;
        close("intercept", f.intercept, a, tol)?;
        close("residual variance", f.residual_variance, 0.0, tol * tol)?;
        let ci = f.slope_ci(0.95).unwrap();
        prop_assert!(ci.contains(f.slope) && ci.half_width() <= 10.0 * tol);
        if b.abs() > 1e-3 {
            close("R²", f.r_squared, 1.0, 1e-9)?;
        }
    }

    #[test]
    fn trend_recovers_exact_lines(n in 3usize..200, a in -1e3..1e3f64, b in -10.0..10.0f64) {
        let xs: Vec<f64> = (0..n).map(|i| a + b * i as f64).collect();
        let t = trend(&xs, 0.95).unwrap();
        close("slope", t.slope, b, 1e-11 * (a.abs() + b.abs() * n as f64 + 1.0) / n as f64)?;
        prop_assert!(t.slope_ci.contains(t.slope));
    }

    #[test]
    fn zscore_outliers_survive_affine_maps(
        seed in any::<u64>(),
        n in 10usize..300,
        spikes in prop::collection::vec((0usize..300, -20.0..20.0f64), 0..4),
        shift in -1e4..1e4f64,
        scale_by in 1e-3..1e3f64,
        threshold in 2.0..4.0f64,
    ) {
        let mut xs = ar1(seed, n, 0.0);
        for (i, v) in spikes {
            xs[i % n] = 100.0 + v;
        }
        let s = Summary::of(&xs).unwrap();
        prop_assume!(s.variance > 0.0);
        // A value within rounding of the threshold may land on either side after the map.
        let near = xs.iter().any(|x| (((x - s.mean) / s.std_dev).abs() - threshold).abs() < 1e-6);
        prop_assume!(!near);
        let ys: Vec<f64> = xs.iter().map(|x| shift + scale_by * x).collect();
        prop_assert_eq!(zscore_outliers(&xs, threshold).unwrap(), zscore_outliers(&ys, threshold).unwrap());
        let strict = zscore_outliers(&xs, threshold + 0.5).unwrap();
        let loose = zscore_outliers(&xs, threshold).unwrap();
        prop_assert!(strict.iter().all(|i| loose.contains(i)), "a higher threshold found more");
    }

    #[test]
    fn required_counts_fall_as_the_target_widens(
        variance in 1e-6..1e6f64,
        dof in 1.0..1e5f64,
        e in 1e-3..1e3f64,
        widen in 1.0..10.0f64,
        c in 0.5..0.999f64,
    ) {
        let (narrow, wide) = (
            required_for_half_width(variance, dof, e, c).unwrap(),
            required_for_half_width(variance, dof, e * widen, c).unwrap(),
        );
        prop_assert!(wide <= narrow && wide >= 2, "{narrow} for {e}, {wide} for {}", e * widen);
        let surer = required_for_half_width(variance, dof, e, (c + 0.0005).min(0.9995)).unwrap();
        prop_assert!(surer >= narrow, "more confidence needed fewer samples");
    }

    #[test]
    fn resolving_a_larger_difference_needs_fewer_samples(
        va in 1e-3..1e3f64,
        vb in 1e-3..1e3f64,
        d in 1e-2..1e2f64,
        grow in 1.0..10.0f64,
    ) {
        let small = required_to_resolve(va, vb, d, 0.05, 0.8).unwrap();
        let large = required_to_resolve(va, vb, d * grow, 0.05, 0.8).unwrap();
        prop_assert!(large <= small, "{small} for {d}, {large} for {}", d * grow);
    }

    #[test]
    fn subsession_required_count_falls_as_the_target_widens(
        seed in any::<u64>(),
        phi in 0.0..0.9f64,
        e in 1e-3..10.0f64,
        widen in 1.0..10.0f64,
    ) {
        let s = subsession_analysis(&ar1(seed, 400, phi), 0.1, 10).unwrap();
        let narrow = s.required_count(e, 0.95).unwrap();
        let wide = s.required_count(e * widen, 0.95).unwrap();
        prop_assert!(wide <= narrow, "{narrow} for {e}, {wide} for {}", e * widen);
    }
}

/// A finite `f64` of any magnitude: normal, subnormal or zero, of either sign, or near ±MAX.
fn any_finite() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => prop::num::f64::NORMAL,
        1 => prop::num::f64::SUBNORMAL | prop::num::f64::ZERO,
        1 => (0.5..1.0f64, prop::bool::ANY).prop_map(|(u, neg)| {
            if neg { -u * f64::MAX } else { u * f64::MAX }
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Every statistic divides by a power of two and multiplies back, so multiplying the data by
    /// 2^k multiplies every reported number by exactly 2^k (while all stay normal) and changes
    /// nothing else: the results of values near 1e270 or 1e-270 are those of values near 1.
    #[test]
    fn analysis_is_exactly_scale_equivariant(xs in sample(), k in -880..880i32) {
        let f = 2f64.powi(k);
        let ys: Vec<f64> = xs.iter().map(|x| x * f).collect();
        let (a, b) = (Summary::of(&xs).unwrap(), Summary::of(&ys).unwrap());
        prop_assert_eq!(
            (b.mean, b.median, b.min, b.max, b.std_dev),
            (a.mean * f, a.median * f, a.min * f, a.max * f, a.std_dev * f)
        );
        let config = AnalysisConfig::default();
        let (a, b) = (analyze(&xs, &config).unwrap(), analyze(&ys, &config).unwrap());
        prop_assert_eq!(&b.stable, &a.stable);
        prop_assert_eq!(b.subsession.size, a.subsession.size);
        prop_assert_eq!(b.raw_autocorrelation, a.raw_autocorrelation);
        prop_assert_eq!(b.required_n, a.required_n);
        prop_assert_eq!(&b.warnings, &a.warnings);
        prop_assert_eq!((b.mean, b.ci.low, b.ci.high), (a.mean * f, a.ci.low * f, a.ci.high * f));
        prop_assert_eq!(
            (b.raw_ci.low, b.raw_ci.high),
            (a.raw_ci.low * f, a.raw_ci.high * f)
        );
    }

    /// Any finite values: an analysis, or an out-of-range error; never a panic, and never a
    /// non-finite number in what is reported.
    #[test]
    fn any_finite_values_give_finite_results_or_an_error(
        xs in prop::collection::vec(any_finite(), 2..80),
    ) {
        match analyze(&xs, &AnalysisConfig::default()) {
            Ok(a) => {
                let reported = [
                    a.raw.mean, a.raw.median, a.raw.std_dev, a.raw_ci.low, a.raw_ci.high,
                    a.raw_autocorrelation, a.stable_summary.mean, a.stable_summary.std_dev,
                    a.mean, a.ci.low, a.ci.high, a.subsession.autocorrelation,
                    a.subsession.variance_inflation(),
                ];
                prop_assert!(reported.iter().all(|x| x.is_finite()), "{a:?}");
                prop_assert!(a.ci.low <= a.mean && a.mean <= a.ci.high, "{a:?}");
                // The required N is unknown only for a zero mean, or one so small against the
                // spread (s/|m| in the thousands) that ±1% of it needs 2^53 values or more.
                prop_assert!(
                    a.required_n.is_some()
                        || a.mean == 0.0
                        || a.stable_summary.std_dev > 1e3 * a.mean.abs(),
                    "{a:?}"
                );
            }
            Err(e) => prop_assert!(matches!(e, pilot::stats::Error::OutOfRange { .. }), "{e}"),
        }
    }

    /// Welch's test and a fit of any finite moments and points: a result with finite numbers,
    /// or an error; never a panic.
    #[test]
    fn welch_and_ols_never_panic(
        (mb, mo) in (any_finite(), any_finite()),
        (vb, vo) in (any_finite(), any_finite()),
        (nb, no) in (2..50usize, 2..50usize),
        points in prop::collection::vec((any_finite(), any_finite()), 3..30),
    ) {
        let m = |n, mean, v: f64| Moments { n, mean, variance: v.abs() };
        if let Ok(w) = welch_test(&m(nb, mb, vb), &m(no, mo, vo), 0.95) {
            prop_assert!(w.dof.is_finite() && w.dof > 0.0 && (0.0..=1.0).contains(&w.p), "{w:?}");
            prop_assert!(w.difference_ci.low.is_finite() && w.difference_ci.high.is_finite());
        }
        let (x, y): (Vec<f64>, Vec<f64>) = points.into_iter().unzip();
        if let Ok(f) = ols(&x, &y) {
            prop_assert!(f.slope.is_finite() && f.slope_se.is_finite() && f.intercept.is_finite());
            let p = f.slope_p();
            prop_assert!((0.0..=1.0).contains(&p), "{p}");
            let _ = f.slope_ci(0.95);
            let _ = trend(&y, 0.95);
        }
    }
}
