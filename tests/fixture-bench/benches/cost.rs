//! The fixture's benches. `spin`'s work per iteration is `SOURCE_COST` × `PILOT_FIXTURE_COST` ×
//! 2 000 steps of a 64-bit mixing function: no memory traffic and no branches to mispredict, so
//! its time is proportional to the step count and a cost of 1.10 is a true 10% slowdown. The
//! environment variable changes the cost of one build; the constant, edited in a commit,
//! makes two builds differ (`cargo pilot bench --against`).

use pilot::{Bencher, Recorder, black_box};

/// The cost factor of this source.
const SOURCE_COST: f64 = 1.0;

/// The cost factor: `SOURCE_COST` × `PILOT_FIXTURE_COST` (default 1).
fn cost() -> f64 {
    let run = match std::env::var("PILOT_FIXTURE_COST") {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("PILOT_FIXTURE_COST: `{v}` is not a number")),
        Err(_) => 1.0,
    };
    SOURCE_COST * run
}

/// `steps` rounds of xorshift-multiply mixing.
fn mix(steps: u64) -> u64 {
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    for i in 0..steps {
        x = (x ^ i).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x ^= x >> 31;
    }
    x
}

#[pilot::bench]
fn spin(b: &mut Bencher) {
    let steps = (2_000.0 * cost()).round() as u64;
    b.iter(|| mix(black_box(steps)));
}

/// Panics when `PILOT_FIXTURE_PANIC` is set, so the tests can see a failed bench.
#[pilot::bench]
fn units(work: u64, rec: &mut Recorder) {
    if std::env::var_os("PILOT_FIXTURE_PANIC").is_some() {
        panic!("the fixture was asked to fail");
    }
    let steps = (20_000.0 * cost()).round() as u64;
    for _ in 0..work {
        rec.unit(|| mix(black_box(steps)));
    }
}

#[cfg(feature = "extra")]
#[pilot::bench]
fn extra(b: &mut Bencher) {
    b.iter(|| mix(black_box(500)));
}

#[cfg(feature = "groups")]
#[pilot::bench(group = "pick")]
fn pick_quarter(b: &mut Bencher) {
    b.iter(|| mix(black_box(500)));
}

#[cfg(feature = "groups")]
#[pilot::bench(group = "pick")]
fn pick_whole(b: &mut Bencher) {
    b.iter(|| mix(black_box(2_000)));
}

pilot::main!();
