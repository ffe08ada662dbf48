//! Groups, parameter sweeps and threads compile in every form, with any argument type.

use pilot::{Bencher, Recorder};

#[pilot::bench(group = "sum", args = [10, 1_000])]
fn sum_loop(n: usize, b: &mut Bencher) {
    b.iter(|| (0..n).sum::<usize>());
}

#[pilot::bench(group = "sum", args = [10, 1_000])]
fn sum_formula(n: usize, b: &mut Bencher) {
    b.iter(|| n * (n - 1) / 2);
}

#[pilot::bench(args = pilot::range(1, 64, 4), threads = [1, 2])]
fn full(n: u32, work: u64, rec: &mut Recorder) {
    for _ in 0..work {
        rec.unit(|| pilot::black_box(n).pow(2));
    }
}

const WORDS: &[&str] = &["a", "bb"];

#[pilot::bench(args = WORDS, threads = 2, work = 1..=100)]
fn readings_only(word: &'static str, work: u64) {
    pilot::black_box(word.repeat(work as usize));
}

pilot::main!();
