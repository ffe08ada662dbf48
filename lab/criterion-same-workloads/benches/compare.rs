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
    // The workload of tests/fixture-bench (bench `spin`), for the time a comparison costs.
    let cost: f64 = std::env::var("PILOT_FIXTURE_COST").map_or(1.0, |v| v.parse().unwrap());
    let steps = (2_000.0 * cost).round() as u64;
    c.bench_function("fixture_spin", |b| b.iter(|| mix(black_box(steps))));
}

/// The mixing loop of tests/fixture-bench/benches/cost.rs.
fn mix(steps: u64) -> u64 {
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    for i in 0..steps {
        x = (x ^ i).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x ^= x >> 31;
    }
    x
}

criterion_group!(compare, benches);
criterion_main!(compare);
