//! Comparing alternatives in one run, and parameter sweeps.
//!
//! `group = "iterate"` makes the three containers alternatives: in benchmark mode they run
//! interleaved, round by round, and are ranked with the ratio of each to the fastest and a
//! verdict for each adjacent pair (`slower`, `equivalent`, `undecided`: each member against the
//! one before it). With `args`, each argument value is its own comparison (`iterate/1000`,
//! `iterate/100000`).
//!
//! `sum_sweep` sweeps its input size with `pilot::range` (Auto-pilot's `FOR … FACTOR` loop):
//! one bench per value, `sum_sweep/1000` … `sum_sweep/64000`, each with its throughput in
//! elements summed per second (`throughput = elements(n)`: `n` elements per iteration).
//! `fill_threads` runs on one and on two threads at once, and reports per-thread and aggregate
//! throughput in bytes per second (`throughput = bytes(64 * 1024)`: 64 KiB per unit).

use std::collections::{LinkedList, VecDeque};

use pilot::{Bencher, Recorder};

const SIZES: [usize; 2] = [1_000, 100_000];

#[pilot::bench(group = "iterate", args = SIZES)]
fn vec(n: usize, b: &mut Bencher) {
    let v: Vec<u64> = (0..n as u64).collect();
    b.iter(|| v.iter().sum::<u64>());
}

#[pilot::bench(group = "iterate", args = SIZES)]
fn vec_deque(n: usize, b: &mut Bencher) {
    let v: VecDeque<u64> = (0..n as u64).collect();
    b.iter(|| v.iter().sum::<u64>());
}

#[pilot::bench(group = "iterate", args = SIZES)]
fn linked_list(n: usize, b: &mut Bencher) {
    let v: LinkedList<u64> = (0..n as u64).collect();
    b.iter(|| v.iter().sum::<u64>());
}

#[pilot::bench(args = pilot::range(1_000, 64_000, 4), throughput = elements(n))]
fn sum_sweep(n: u64, b: &mut Bencher) {
    let v: Vec<u64> = (0..n).collect();
    b.iter(|| pilot::black_box(&v).iter().sum::<u64>());
}

/// Fills a 64 KiB buffer per unit, on one thread and on two at once.
#[pilot::bench(throughput = bytes(64 * 1024), threads = [1, 2])]
fn fill_threads(work: u64, rec: &mut Recorder) {
    let mut buf = vec![0u8; 64 * 1024];
    for i in 0..work {
        rec.unit(|| buf.fill(i as u8));
    }
    pilot::black_box(&buf);
}

pilot::main!();
