//! A bench whose work is fixed and whose memory traffic the environment sets, for the test
//! that a time change with unchanged instructions is said to be the environment's, not the
//! code's (`crates/cargo-pilot/tests/explain.rs`). Each iteration loads `LOADS` values that lie
//! `PILOT_FIXTURE_STRIDE` values apart (1 by default: neighbours, in the first level of cache).
//! A stride of 512 puts every load on a page and a cache line of its own, all of them in the
//! same few cache sets: the same instructions, many times the time, as a busier machine or
//! a layout that misses its caches makes it.

use pilot::{Bencher, black_box};

/// The values an iteration loads.
const LOADS: usize = 2048;

/// `PILOT_FIXTURE_STRIDE`, 1 by default.
fn stride() -> usize {
    match std::env::var("PILOT_FIXTURE_STRIDE") {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("PILOT_FIXTURE_STRIDE: `{v}` is not a whole number")),
        Err(_) => 1,
    }
}

#[pilot::bench]
fn walk(b: &mut Bencher) {
    let stride = black_box(stride());
    let values = vec![1_u64; LOADS * stride];
    b.iter(|| {
        let mut sum = 0_u64;
        for i in 0..LOADS {
            // Volatile, so that each value is one load of its own (not a vector of them, nor
            // a loop specialised for a stride of 1): the instructions do not depend on the
            // stride. SAFETY: the pointer comes from a reference to an element of `values`.
            sum = sum.wrapping_add(unsafe { std::ptr::read_volatile(&values[i * stride]) });
        }
        sum
    });
}

pilot::main!();
