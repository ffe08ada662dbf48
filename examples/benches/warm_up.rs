//! A workload with a warm-up phase: its first 2 000 calls are about 10× slower than the rest
//! (think of a cache being filled, or a JIT). pilot's change-point detection cuts the slow calls
//! off, so the result is the steady state, not a blend of the two.

use std::sync::atomic::{AtomicU64, Ordering};

static CALLS: AtomicU64 = AtomicU64::new(0);

/// The work of one call: a dependent chain of multiply-adds, 10× longer while warming up.
pub fn step(seed: u64) -> u64 {
    let rounds = if CALLS.fetch_add(1, Ordering::Relaxed) < 2_000 {
        2_000
    } else {
        200
    };
    let mut x = seed;
    for _ in 0..rounds {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
    }
    x
}

#[pilot::bench]
fn warm_up(b: &mut pilot::Bencher) {
    b.iter(|| step(pilot::black_box(7)));
}

pilot::main!();
