//! A pilot bench binary for the end-to-end test of result file names
//! (`tests/bench-binary/tests/bench_binary.rs`): two benches whose names once mapped to one file.

use pilot::Bencher;

/// A name with a folder in it, as sweeps make them.
#[pilot::bench(name = "coll/x")]
fn slash(b: &mut Bencher) {
    b.iter(|| pilot::black_box(1_u64) + 1);
}

/// The same name with `_`: a different bench, and a different file.
#[pilot::bench(name = "coll_x")]
fn underscore(b: &mut Bencher) {
    let v: Vec<u64> = (0..256).collect();
    b.iter(|| v.iter().sum::<u64>());
}

pilot::main!();
