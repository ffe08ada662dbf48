//! A pilot bench binary for the end-to-end test of a batched routine whose inputs cost far
//! more to make than the routine takes (`tests/bench-binary/tests/bench_binary.rs`), as divan's searches
//! over a million elements do (0.3 s an input): here each input waits 80 ms, as one fetched
//! from a slow store would, then is a sorted vector of 65 536 values, and each iteration is one
//! binary search in it (under a microsecond).

use std::time::Duration;

use pilot::Bencher;

/// A search in a vector made for it: units hold one input each, and a cap of 1 s still ends
/// with an estimate.
#[pilot::bench]
fn search_slow_input(b: &mut Bencher) {
    let mut round = 0_u64;
    b.iter_batched(
        || {
            round += 1;
            std::thread::sleep(Duration::from_millis(80));
            let mut v = input(1 << 16);
            v.sort_unstable();
            let needle = v[(round as usize * 7919) % v.len()];
            (v, needle)
        },
        |(v, needle)| v.binary_search(&needle).is_ok(),
    );
}

/// `n` pseudo-random values (xorshift64), the same on every run.
fn input(n: usize) -> Vec<u64> {
    let mut x = 0x2545_F491_4F6C_DD1D_u64;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect()
}

pilot::main!();
