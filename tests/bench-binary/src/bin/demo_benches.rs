//! A pilot bench binary built as a plain program, so the end-to-end tests
//! (`tests/bench-binary/tests/bench_binary.rs`) can start it as a process: one bench of each form, and an
//! ignored one that panics.

use pilot::{Bencher, Recorder};

/// Micro form.
#[pilot::bench]
fn add(b: &mut Bencher) {
    let x = 41_u64;
    b.iter(|| pilot::black_box(x) + 1);
}

/// Full form with a throughput unit.
#[pilot::bench(unit = "KiB")]
fn sum_1k(work: u64, rec: &mut Recorder) {
    let data: Vec<u64> = (0..128).collect();
    for _ in 0..work {
        rec.unit(|| data.iter().sum::<u64>());
    }
}

/// Readings-only form. Its top work amount takes milliseconds, so that the rounds' durations
/// grow with the work however a busy machine stretches them, and the fit finds its slope.
#[pilot::bench(work = 10_000..=10_000_000)]
fn fold(work: u64) {
    pilot::black_box((0..work).fold(0u64, |a, x| a.rotate_left(3) ^ x));
}

/// Fails on purpose; run only with `--ignored`.
#[pilot::bench(ignore)]
fn panics(_b: &mut Bencher) {
    panic!("this bench fails on purpose");
}

pilot::main!();
