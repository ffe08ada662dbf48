//! A pilot bench binary for the end-to-end test of a sweep whose values do not fit the bench's
//! argument type (`tests/bench-binary/tests/bench_binary.rs`): that bench fails with the reason, and the
//! other one, and `--list`, work as usual.

use pilot::Bencher;

/// `pilot::range(1, 1024, 2)` goes past 255, which a `u8` cannot hold.
#[pilot::bench(args = pilot::range(1, 1024, 2))]
fn too_big(n: u8, b: &mut Bencher) {
    b.iter(|| pilot::black_box(n).wrapping_add(1));
}

/// An ordinary bench beside it.
#[pilot::bench]
fn fine(b: &mut Bencher) {
    b.iter(|| pilot::black_box(2_u64) * 3);
}

pilot::main!();
