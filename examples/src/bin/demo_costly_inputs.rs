//! A pilot bench binary for the end-to-end test of a batched routine whose inputs cost far
//! more to build than the routine takes (`examples/tests/bench_binary.rs`), as divan's searches
//! over a million elements do: each input is a freshly sorted million-element vector (tens of
//! milliseconds), each iteration one binary search in it (about a microsecond).

use pilot::Bencher;

/// A search in a vector built for it: units hold one input each, and a cap of 1 s still ends
/// with an estimate.
#[pilot::bench]
fn search_fresh_million(b: &mut Bencher) {
    let mut round = 0_u64;
    b.iter_batched(
        || {
            round += 1;
            let mut v = pilot_examples::sort_input(1 << 20);
            v.sort_unstable();
            let needle = v[(round as usize * 7919) % v.len()];
            (v, needle)
        },
        |(v, needle)| v.binary_search(&needle).is_ok(),
    );
}

pilot::main!();
