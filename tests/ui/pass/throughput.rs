//! `throughput = bytes(…)` and `elements(…)` compile in every form, with and without `args`,
//! using the argument by its parameter's name whatever its type and pattern.

use pilot::{Bencher, Recorder};

#[pilot::bench(args = [64, 4096], throughput = bytes(n))]
fn encode(n: usize, b: &mut Bencher) {
    let input = vec![0u8; n];
    b.iter(|| input.iter().map(|&x| x as u64).sum::<u64>());
}

#[pilot::bench(args = pilot::range(1, 64, 4), throughput = elements(2 * n))]
fn pairs(mut n: u32, work: u64, rec: &mut Recorder) {
    n += 1;
    for _ in 0..work {
        rec.unit(|| pilot::black_box(n).pow(2));
    }
}

const WORDS: &[&str] = &["a", "bb"];

#[pilot::bench(args = WORDS, throughput = bytes(word.len()), work = 1..=100)]
fn repeat(word: &'static str, work: u64) {
    pilot::black_box(word.repeat(work as usize));
}

#[pilot::bench(throughput = bytes(64 * 1024), threads = [1, 2])]
fn fill(work: u64, rec: &mut Recorder) {
    let mut buf = vec![0u8; 64 * 1024];
    for i in 0..work {
        rec.unit(|| buf.fill(i as u8));
    }
}

const ROWS: u64 = 1_000;

#[pilot::bench(throughput = elements(ROWS))]
fn rows(b: &mut Bencher) {
    b.iter(|| (0..ROWS).sum::<u64>());
}

pilot::main!();
