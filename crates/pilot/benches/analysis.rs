//! Time of the analysis of one long series: `find_stable_segment` (change points, stable
//! segment) followed by subsession analysis of the stable segment, on seeded synthetic series of
//! 10⁴, 10⁵ and 10⁶ readings (exponential warm-up, AR(1) noise, a short cool-down).
//!
//! Run with pilot itself: `cargo bench -p pilot --bench analysis` (time per analysis, with its
//! 95% confidence interval, in pilot's table).

use std::hint::black_box;

use pilot::stats::{ChangepointConfig, find_stable_segment};
use pilot::stats::{DEFAULT_AUTOCORRELATION_LIMIT, DEFAULT_MIN_SUBSESSIONS, subsession_analysis};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

/// Readings around 1000 ns: a warm-up decaying from +300 ns, AR(1) noise (φ = 0.5, sd 10 ns) and
/// the last 10 readings 50 ns slower.
fn series(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let phi: f64 = 0.5;
    let innovation = 10.0 * (1.0 - phi * phi).sqrt();
    let mut noise = 0.0;
    (0..n)
        .map(|i| {
            let e: f64 = rng.sample(StandardNormal);
            noise = phi * noise + innovation * e;
            let warmup = 300.0 * (-(i as f64) / (n as f64 / 200.0).max(20.0)).exp();
            let cooldown = if i + 10 >= n { 50.0 } else { 0.0 };
            1000.0 + warmup + noise + cooldown
        })
        .collect()
}

fn analyse(xs: &[f64]) -> (usize, usize, usize) {
    let stable = find_stable_segment(xs, &ChangepointConfig::default()).expect("finite readings");
    let sub = subsession_analysis(
        &xs[stable.start..stable.end],
        DEFAULT_AUTOCORRELATION_LIMIT,
        DEFAULT_MIN_SUBSESSIONS,
    )
    .expect("a stable segment of at least 2 readings");
    (stable.start, stable.end, sub.size)
}

/// One bench per size; each iteration analyses the same seeded series. A 10⁶ iteration takes
/// about 0.2 s, so the long ones get a wider target to finish in reasonable time.
#[pilot::bench(ci = 0.02)]
fn analysis_1e4(b: &mut pilot::Bencher) {
    let xs = series(10_000, 1);
    b.iter(|| analyse(black_box(&xs)));
}

#[pilot::bench(ci = 0.02)]
fn analysis_1e5(b: &mut pilot::Bencher) {
    let xs = series(100_000, 2);
    b.iter(|| analyse(black_box(&xs)));
}

#[pilot::bench(ci = 0.03, max_time = 20)]
fn analysis_1e6(b: &mut pilot::Bencher) {
    let xs = series(1_000_000, 3);
    b.iter(|| analyse(black_box(&xs)));
}

pilot::main!();
