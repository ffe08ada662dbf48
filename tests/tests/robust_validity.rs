//! Monte Carlo validity of pilot's robust location (`pilot::stats::robust_location`: the 20%
//! trimmed mean of subsession means with its Tukey–McLaughlin interval widened for the residual
//! correlation): does its "95% interval" hold the location of the uninterrupted series 95% of
//! the time, on series of unit readings that are autocorrelated, start with a warm-up, or have a
//! few readings interrupted by the scheduler?
//!
//! 1000 seeded series per case (each from its own seed, so the figures do not depend on how the
//! replicates are split between threads); the bar, 93%, leaves room for the Monte Carlo error of
//! 1000 series (±0.7 percentage points at 95%, one standard error). Beside it, the interval of
//! the mean pilot computed before (`subsession_analysis(…).adjusted_mean_ci`) on the same series,
//! for contrast. Printed figures (run with `--nocapture`) are the ones quoted in the notes.

use pilot::stats::{ChangepointConfig, DEFAULT_TRIM, find_stable_segment};
use pilot::stats::{robust_location, subsession_analysis};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

const SERIES: usize = 1000;
/// The seed of the first series of every case: the cases share their noise where they can
/// (same n and φ), so that two cases differ by what they add to it, not by luck.
const SEED: u64 = 0x27_0000;
const CONFIDENCE: f64 = 0.95;
/// The stable level of every series, and the spread of its readings.
const LEVEL: f64 = 100.0;
const SD: f64 = 5.0;
/// An interrupted reading is 51 times its cost (+5000%), one in 1000 of them.
const INTERRUPTED: f64 = 51.0;
const INTERRUPTED_PER: usize = 1000;

/// How a case's series are made.
struct Case {
    name: &'static str,
    n: usize,
    /// Lag-1 autocorrelation φ of the noise (0: independent).
    phi: f64,
    /// Whether the first 10% of readings are a warm-up, which the stable-segment search must
    /// remove before the location is taken.
    warm_up: bool,
    /// Whether one reading in 1000, at random places, is interrupted.
    interrupted: bool,
}

/// Noise of standard deviation [`SD`] whose lag-1 autocorrelation is `phi` (AR(1), started from
/// its stationary law).
fn noise(rng: &mut ChaCha8Rng, n: usize, phi: f64) -> Vec<f64> {
    let innovation = SD * (1.0 - phi * phi).sqrt();
    let mut e = SD * rng.sample::<f64, _>(StandardNormal);
    (0..n)
        .map(|_| {
            let out = e;
            e = phi * e + innovation * rng.sample::<f64, _>(StandardNormal);
            out
        })
        .collect()
}

/// One series of readings for `case`: the level plus noise; during a warm-up (the first 10%)
/// each reading multiplied by a factor falling linearly from 3 to 1; then `n / 1000` readings at
/// random places multiplied by [`INTERRUPTED`].
fn series(case: &Case, seed: u64) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut xs: Vec<f64> = noise(&mut rng, case.n, case.phi)
        .into_iter()
        .map(|e| LEVEL + e)
        .collect();
    if case.warm_up {
        let ramp = case.n / 10;
        for (i, x) in xs.iter_mut().take(ramp).enumerate() {
            *x *= 3.0 - 2.0 * i as f64 / ramp as f64;
        }
    }
    if case.interrupted {
        for _ in 0..case.n / INTERRUPTED_PER {
            let i = rng.random_range(0..case.n);
            xs[i] *= INTERRUPTED;
        }
    }
    xs
}

/// Coverage and width of one interval over the series of a case.
#[derive(Default)]
struct Coverage {
    hits: usize,
    /// Sum of half-widths relative to the truth.
    relative_half_width: f64,
    count: usize,
}

impl Coverage {
    fn add(&mut self, low: f64, high: f64) {
        self.hits += usize::from(low <= LEVEL && LEVEL <= high);
        self.relative_half_width += (high - low) / 2.0 / LEVEL;
        self.count += 1;
    }
    fn merge(&mut self, other: Coverage) {
        self.hits += other.hits;
        self.relative_half_width += other.relative_half_width;
        self.count += other.count;
    }
    fn rate(&self) -> f64 {
        self.hits as f64 / self.count as f64
    }
    fn half_width(&self) -> f64 {
        self.relative_half_width / self.count as f64
    }
}

/// The robust interval's and the mean's coverage on the series `seeds` of `case`.
fn measure(case: &Case, seeds: std::ops::Range<u64>) -> (Coverage, Coverage) {
    let (mut robust, mut mean) = (Coverage::default(), Coverage::default());
    for seed in seeds {
        let xs = series(case, seed);
        let stable = if case.warm_up {
            let s = find_stable_segment(&xs, &ChangepointConfig::default()).unwrap();
            &xs[s.start..s.end]
        } else {
            &xs[..]
        };
        let r = robust_location(stable, DEFAULT_TRIM, CONFIDENCE, 0.1, 30, 0.0).unwrap();
        robust.add(r.ci.low, r.ci.high);
        let m = subsession_analysis(stable, 0.1, 30)
            .unwrap()
            .adjusted_mean_ci(CONFIDENCE)
            .unwrap();
        mean.add(m.low, m.high);
    }
    (robust, mean)
}

/// [`measure`] over [`SERIES`] series, on two threads.
fn coverage(case: &Case, seed: u64) -> (Coverage, Coverage) {
    let half = SERIES as u64 / 2;
    let (first, second) = std::thread::scope(|s| {
        let a = s.spawn(|| measure(case, seed..seed + half));
        let b = s.spawn(|| measure(case, seed + half..seed + SERIES as u64));
        (a.join().unwrap(), b.join().unwrap())
    });
    let ((mut robust, mut mean), (r2, m2)) = (first, second);
    robust.merge(r2);
    mean.merge(m2);
    (robust, mean)
}

fn check(case: Case) -> (Coverage, Coverage) {
    let (robust, mean) = coverage(&case, SEED);
    eprintln!(
        "{:<44} robust: coverage {:5.1}%, mean half-width {:.3}% | mean: coverage {:5.1}%, \
         mean half-width {:.3}%",
        format!("{} (n = {}):", case.name, case.n),
        100.0 * robust.rate(),
        100.0 * robust.half_width(),
        100.0 * mean.rate(),
        100.0 * mean.half_width(),
    );
    assert!(
        robust.rate() >= 0.93,
        "{}: robust coverage {:.1}%",
        case.name,
        100.0 * robust.rate()
    );
    (robust, mean)
}

fn case(name: &'static str, n: usize, phi: f64, warm_up: bool, interrupted: bool) -> Case {
    Case {
        name,
        n,
        phi,
        warm_up,
        interrupted,
    }
}

#[test]
fn independent_normal_readings() {
    let (robust, mean) = check(case("i.i.d. normal", 5000, 0.0, false, false));
    // On clean data the trimmed mean costs little width against the mean (about 6% efficiency
    // for a 20% trim of normal values, √(1/0.94) in width, plus coarser blocks).
    assert!(robust.half_width() < 1.5 * mean.half_width());
}

#[test]
fn autocorrelated_readings() {
    check(case("AR(1) φ = 0.7", 5000, 0.7, false, false));
}

#[test]
fn warm_up_then_stable_through_the_full_pipeline() {
    check(case(
        "warm-up ramp 3× → 1×, stable segment",
        5000,
        0.0,
        true,
        false,
    ));
}

#[test]
fn one_reading_in_a_thousand_interrupted() {
    let (robust, mean) = check(case("1 in 1000 readings ×51", 5000, 0.0, false, true));
    // The mean's interval is what the robust location replaces: it must be the worse one here,
    // wider or off the truth.
    assert!(mean.half_width() > 2.0 * robust.half_width() || mean.rate() < 0.9);
}

#[test]
fn autocorrelated_and_interrupted() {
    check(case(
        "AR(1) φ = 0.7 and 1 in 1000 ×51",
        5000,
        0.7,
        false,
        true,
    ));
}

#[test]
fn autocorrelated_and_interrupted_long_session() {
    // The case that found the window shift `robust_location` now avoids by leaving the far-out
    // blocks out before trimming: 91.9% without (and 67% at 100 000 readings, 200 series).
    check(case(
        "AR(1) φ = 0.7 and 1 in 1000 ×51",
        20_000,
        0.7,
        false,
        true,
    ));
}
