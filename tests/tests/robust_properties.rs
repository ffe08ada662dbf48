//! Invariants of pilot's trimmed mean, its interval, Yuen's test and the robust location,
//! checked on random inputs with proptest (the style of `stats_properties.rs`).

use pilot::stats::{DEFAULT_TRIM, Trimmed, robust_location, trimmed_mean_ci, yuen_test};
use proptest::prelude::*;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};

/// A sample of 2 to 80 moderate values.
fn sample() -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(-1e3..1e3f64, 2..80)
}

/// A share to trim from each end, 0 to 0.45.
fn trim() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), Just(0.1), Just(DEFAULT_TRIM), 0.0..0.45f64]
}

/// Whether `trim` leaves at least 2 of `n` values (what `Trimmed::of` needs).
fn leaves_two(n: usize, trim: f64) -> bool {
    n - 2 * (trim * n as f64) as usize >= 2
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

/// The mean of `sorted[from..to]`.
fn mean_of(sorted: &[f64], from: usize, to: usize) -> f64 {
    sorted[from..to].iter().sum::<f64>() / (to - from) as f64
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn trimmed_mean_lies_within_the_values_and_its_interval(
        xs in sample(), trim in trim(), c in 0.5..0.999f64,
    ) {
        prop_assume!(leaves_two(xs.len(), trim));
        let t = Trimmed::of(&xs, trim).unwrap();
        let (min, max) = xs.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        prop_assert!(min <= t.mean && t.mean <= max, "{} outside [{min}, {max}]", t.mean);
        let ci = trimmed_mean_ci(&xs, trim, c).unwrap();
        prop_assert!(ci.contains(t.mean), "{} outside {ci:?}", t.mean);
        prop_assert!(t.winsorized_variance >= 0.0);
    }

    #[test]
    fn trimmed_mean_is_translation_and_scale_equivariant(
        xs in sample(), trim in trim(), a in 1e-3..1e3f64, b in -1e4..1e4f64,
    ) {
        prop_assume!(leaves_two(xs.len(), trim));
        let ys: Vec<f64> = xs.iter().map(|x| a * x + b).collect();
        let (tx, ty) = (Trimmed::of(&xs, trim).unwrap(), Trimmed::of(&ys, trim).unwrap());
        prop_assert_eq!((tx.n, tx.g), (ty.n, ty.g));
        // Rounding a·x + b is monotonic, so the same values are cut; what is left differs by
        // the rounding of a·x + b and of the sums.
        let m = a * scale(&xs) + b.abs();
        close("trimmed mean", ty.mean, a * tx.mean + b, 1e-13 * m)?;
        close("winsorized variance", ty.winsorized_variance, a * a * tx.winsorized_variance, 1e-11 * m * m)?;
        let (cx, cy) = (trimmed_mean_ci(&xs, trim, 0.95).unwrap(), trimmed_mean_ci(&ys, trim, 0.95).unwrap());
        close("half-width", cy.half_width(), a * cx.half_width(), 1e-9 * m)?;
    }

    /// Replacing any `g` values by anything at all moves each kept order statistic by at most
    /// `g` ranks, so the trimmed mean stays between the means of the `h` lowest and the `h`
    /// highest of the first values whatever the replacements: its influence is bounded.
    #[test]
    fn replacing_g_values_by_huge_ones_moves_the_trimmed_mean_a_bounded_amount(
        xs in prop::collection::vec(-1e3..1e3f64, 5..80),
        trim in prop_oneof![Just(0.1), Just(DEFAULT_TRIM), 0.05..0.45f64],
        seed in any::<u64>(),
        huge in prop::collection::vec(prop_oneof![1e6..1e300f64, -1e300..-1e6f64], 40),
    ) {
        prop_assume!(leaves_two(xs.len(), trim));
        let t = Trimmed::of(&xs, trim).unwrap();
        let (n, g, h) = (t.n, t.g, t.kept());
        let mut sorted = xs.clone();
        sorted.sort_by(f64::total_cmp);
        let mut ys = xs.clone();
        let mut places: Vec<usize> = (0..n).collect();
        places.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        for (&i, &v) in places.iter().take(g).zip(&huge) {
            ys[i] = v;
        }
        let moved = Trimmed::of(&ys, trim).unwrap().mean;
        let (low, high) = (mean_of(&sorted, 0, h), mean_of(&sorted, n - h, n));
        let slack = 1e-12 * scale(&xs);
        prop_assert!(low - slack <= moved && moved <= high + slack,
            "g = {g} replaced: {moved} outside [{low}, {high}] (was {})", t.mean);
    }

    #[test]
    fn yuens_p_is_symmetric_in_its_samples(a in sample(), b in sample(), trim in trim()) {
        prop_assume!(leaves_two(a.len(), trim) && leaves_two(b.len(), trim));
        let (ab, ba) = (yuen_test(&a, &b, trim, 0.95).unwrap(), yuen_test(&b, &a, trim, 0.95).unwrap());
        close("p", ab.p, ba.p, 1e-14)?;
        prop_assert!((0.0..=1.0).contains(&ab.p));
        close("t", ab.t, -ba.t, 1e-12 * ab.t.abs())?;
        close("dof", ab.dof, ba.dof, 1e-12 * ab.dof)?;
        close("difference", ab.difference, -ba.difference, 0.0)?;
    }

    #[test]
    fn robust_location_lies_within_the_readings_and_its_interval(
        seed in any::<u64>(), n in 2usize..3000, c in 0.5..0.999f64, interrupted in 0usize..20,
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let noise = Normal::new(100.0, 5.0).unwrap();
        let mut xs: Vec<f64> = (0..n).map(|_| noise.sample(&mut rng)).collect();
        for i in 0..interrupted.min(n) {
            xs[i * 7919 % n] *= 51.0;
        }
        let r = robust_location(&xs, DEFAULT_TRIM, c, 0.1, 30, 0.0).unwrap();
        let (min, max) = xs.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        prop_assert!(min <= r.value && r.value <= max);
        prop_assert!(r.ci.contains(r.value), "{} outside {:?}", r.value, r.ci);
        prop_assert!(r.trimmed.n <= r.subsession.count());
    }
}
