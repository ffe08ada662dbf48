//! A pilot bench binary for the end-to-end test of the warm-up class over processes
//! (`tests/bench-binary/tests/bench_binary.rs`): in each process, the first 2 000 calls of its bench take
//! ten times as long as the rest, as a table filled on first use would. The processes after
//! the first run that warm-up unmeasured before their sessions; the bench still warms up.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};

/// Calls so far in this process.
static CALLS: AtomicU64 = AtomicU64::new(0);

/// How many calls are slow.
const SLOW_CALLS: u64 = 2_000;

/// A chain of dependent multiply-adds, each kept from the optimiser by `black_box`, ten times
/// as long for the first [`SLOW_CALLS`] calls.
fn call() -> u64 {
    let steps = if CALLS.fetch_add(1, Ordering::Relaxed) < SLOW_CALLS {
        2_000
    } else {
        200
    };
    let mut x = 7_u64;
    for _ in 0..steps {
        x = black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
    }
    x
}

#[pilot::bench]
fn slow_first_calls(b: &mut pilot::Bencher) {
    b.iter(call);
}

pilot::main!();
