//! Time of the analysis of one long series: `find_stable_segment` (change points, stable
//! segment) followed by subsession analysis of the stable segment, on seeded synthetic series of
//! 10⁴, 10⁵ and 10⁶ readings (exponential warm-up, AR(1) noise, a short cool-down).
//!
//! Run: `cargo bench -p pilot --bench analysis`. Prints, per size, the mean time over the
//! repetitions with its 95% confidence interval (Student t over the repetitions).

use std::hint::black_box;
use std::time::Instant;

use pilot::stats::Summary;
use pilot::stats::autocorr::{
    DEFAULT_AUTOCORRELATION_LIMIT, DEFAULT_MIN_SUBSESSIONS, subsession_analysis,
};
use pilot::stats::changepoint::{ChangepointConfig, find_stable_segment};
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

fn main() {
    // libtest-style arguments (`--bench`, filters) are accepted and ignored.
    println!("find_stable_segment + subsession_analysis, release build");
    for (n, reps) in [(10_000, 30), (100_000, 20), (1_000_000, 10)] {
        let xs = series(n, 2016);
        let (start, end, q) = analyse(&xs);
        black_box(analyse(black_box(&xs))); // warm-up run
        let times: Vec<f64> = (0..reps)
            .map(|_| {
                let t0 = Instant::now();
                black_box(analyse(black_box(&xs)));
                t0.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        let summary = Summary::of(&times).expect("at least 2 repetitions");
        let ci = summary.mean_ci(0.95).expect("a valid confidence level");
        println!(
            "n = {n:>9}: {:>8.3} ms, 95% CI [{:.3}, {:.3}] ms over {reps} runs \
             (stable {start}..{end}, subsession size {q})",
            summary.mean, ci.low, ci.high
        );
    }
}
