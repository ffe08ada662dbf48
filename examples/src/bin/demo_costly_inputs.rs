//! A pilot bench binary for the end-to-end test of a batched routine whose inputs cost far
//! more to make than the routine takes (`examples/tests/bench_binary.rs`), as divan's searches
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
            let mut v = pilot_examples::sort_input(1 << 16);
            v.sort_unstable();
            let needle = v[(round as usize * 7919) % v.len()];
            (v, needle)
        },
        |(v, needle)| v.binary_search(&needle).is_ok(),
    );
}

pilot::main!();
