//! A pilot bench binary for the end-to-end test of order and throughput
//! (`tests/bench-binary/tests/bench_binary.rs`): benches whose names sort differently from their places in
//! this file, a group swept over two values, a thread sweep, and throughput in bytes and
//! elements.

use pilot::{Bencher, Recorder};

/// First in the file, last by name. 64 bytes per iteration.
#[pilot::bench(throughput = bytes(64))]
fn zeta(b: &mut Bencher) {
    let v = [1u8; 64];
    b.iter(|| {
        pilot::black_box(&v)
            .iter()
            .map(|&x| u64::from(x))
            .sum::<u64>()
    });
}

/// A group over two values: its members run and print together per value.
#[pilot::bench(group = "pair", args = [16, 32], throughput = elements(n))]
fn second(n: u64, b: &mut Bencher) {
    b.iter(|| (0..pilot::black_box(n)).sum::<u64>());
}

#[pilot::bench(group = "pair", args = [16, 32], throughput = elements(n))]
fn first(n: u64, b: &mut Bencher) {
    b.iter(|| (0..pilot::black_box(n)).rev().sum::<u64>());
}

/// On one and on two threads: runs after the single-threaded benches, listed in its place.
#[pilot::bench(threads = [1, 2], work = 1..=1_000)]
fn middle(work: u64, rec: &mut Recorder) {
    for i in 0..work {
        rec.unit(|| pilot::black_box(i).wrapping_mul(3));
    }
}

/// Last in the file, first by name.
#[pilot::bench]
fn alpha(b: &mut Bencher) {
    b.iter(|| pilot::black_box(2_u64).pow(3));
}

pilot::main!();
