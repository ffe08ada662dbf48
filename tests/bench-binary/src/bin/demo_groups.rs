//! A pilot bench binary with a group, a parameter sweep and threads, built as a plain program
//! so the end-to-end tests (`tests/bench-binary/tests/bench_binary.rs`) can start it as a process.

use pilot::{Bencher, Recorder};

/// Group member: a short sum.
#[pilot::bench(group = "sum", args = [10, 1_000])]
fn short_sum(n: u64, b: &mut Bencher) {
    b.iter(|| (0..pilot::black_box(n)).sum::<u64>());
}

/// Group member: the same sum, twice.
#[pilot::bench(group = "sum", args = [10, 1_000])]
fn double_sum(n: u64, b: &mut Bencher) {
    b.iter(|| (0..pilot::black_box(n)).sum::<u64>() + (0..pilot::black_box(n)).sum::<u64>());
}

/// Full form on one and on two threads.
#[pilot::bench(threads = [1, 2])]
fn threaded(work: u64, rec: &mut Recorder) {
    let data: Vec<u64> = (0..256).collect();
    for _ in 0..work {
        rec.unit(|| data.iter().sum::<u64>());
    }
}

pilot::main!();
