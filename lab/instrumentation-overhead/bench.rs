//! The full-form bench of issue 31's overhead bar, in a crate outside pilot's workspace (the
//! script copies this file there): a unit of about 2 µs of integer mixing, recorded with
//! `rec.unit`, whose recording overhead pilot measures between its rounds.

use pilot::{Recorder, black_box};

/// `steps` rounds of xorshift-multiply mixing (about 1.2 ns a step on the project's VM).
fn mix(steps: u64) -> u64 {
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    for i in 0..steps {
        x = (x ^ i).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x ^= x >> 31;
    }
    x
}

/// Steps per unit: `PILOT_BARS_STEPS`, 1 700 by default (about 2 µs).
fn steps() -> u64 {
    std::env::var("PILOT_BARS_STEPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_700)
}

#[pilot::bench]
fn full_2us(work: u64, rec: &mut Recorder) {
    let steps = steps();
    for _ in 0..work {
        rec.unit(|| mix(black_box(steps)));
    }
}

pilot::main!();
