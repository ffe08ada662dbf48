//! The workloads of pilot's quick example benches, under criterion's default settings.

use std::hash::{DefaultHasher, Hasher};
use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

fn benches(c: &mut Criterion) {
    let data = pilot_examples::sort_input(10_000);
    c.bench_function("sort_10k", |b| {
        b.iter_batched(|| data.clone(), |mut v| v.sort_unstable(), BatchSize::SmallInput)
    });
    let bytes: Vec<u8> = (0..4096u32).map(|i| (i * 31 % 251) as u8).collect();
    c.bench_function("siphash_4k", |b| {
        b.iter(|| {
            let mut h = DefaultHasher::new();
            h.write(black_box(&bytes));
            h.finish()
        })
    });
    c.bench_function("fill_64k", |b| {
        b.iter(|| {
            let mut v: Vec<u8> = Vec::with_capacity(64 << 10);
            v.resize(64 << 10, 0xA5);
            v
        })
    });
    let x = 41_u64;
    c.bench_function("one_add", |b| b.iter(|| black_box(x) + 1));
    c.bench_function("warm_up", |b| b.iter(|| pilot_examples::warm_up::step(black_box(7))));
}

criterion_group!(compare, benches);
criterion_main!(compare);
