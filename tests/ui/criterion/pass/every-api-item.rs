// Every criterion item issue 16 lists, used as criterion 0.8 documents it: this file compiles
// unchanged against criterion 0.8 (with its `async_tokio` feature) and against pilot-criterion
// renamed `criterion`. trybuild runs it without `--bench`: each bench runs once, in test mode.
#![allow(deprecated)] // criterion 0.8 deprecates its `black_box` for `std::hint::black_box`

use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{
    AxisScale, BatchSize, Bencher, BenchmarkGroup, BenchmarkId, Criterion, PlotConfiguration,
    SamplingMode, Throughput, black_box, criterion_group, criterion_main,
};

fn checksum(bytes: &[u8]) -> u32 {
    bytes.iter().map(|&b| u32::from(b)).sum()
}

/// `Criterion`'s own benches, and each of `Bencher`'s forms.
fn bencher_forms(c: &mut Criterion) {
    c.bench_function("iter", |b| b.iter(|| black_box(2u64).pow(10)));
    c.bench_function("iter_with_setup", |b| {
        b.iter_with_setup(|| vec![3u8; 256], |v| checksum(&v))
    });
    c.bench_function("iter_with_large_drop", |b| {
        b.iter_with_large_drop(|| vec![0u8; 1024])
    });
    c.bench_function("iter_batched", |b| {
        b.iter_batched(
            || (0..100u32).rev().collect::<Vec<_>>(),
            |mut v| {
                v.sort();
                v
            },
            BatchSize::SmallInput,
        )
    });
    c.bench_function("iter_batched_ref", |b| {
        b.iter_batched_ref(
            || vec![7u8; 4096],
            |v| {
                v.reverse();
                checksum(v)
            },
            BatchSize::LargeInput,
        )
    });
    c.bench_function("iter_batched_per_iteration", |b| {
        b.iter_batched(|| 5u64, |x| x * 3, BatchSize::PerIteration)
    });
    c.bench_function("iter_batched_num_batches", |b| {
        b.iter_batched(|| 5u64, |x| x * 3, BatchSize::NumBatches(4))
    });
    c.bench_function("iter_batched_num_iterations", |b| {
        b.iter_batched(|| 5u64, |x| x * 3, BatchSize::NumIterations(8))
    });
    c.bench_function("iter_custom", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for i in 0..iters {
                black_box(i);
            }
            start.elapsed()
        })
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    c.bench_function("to_async", |b| {
        b.to_async(&runtime).iter(|| async { black_box(1) + 1 })
    });
    let input = vec![9u8; 512];
    c.bench_with_input(BenchmarkId::new("checksum", input.len()), &input, |b, i| {
        b.iter(|| checksum(i))
    });
}

/// A bench function of criterion's own shape, named in `bench_with_input`.
fn sum_bytes(b: &mut Bencher, size: &usize) {
    let bytes = vec![1u8; *size];
    b.iter(|| checksum(&bytes));
}

/// Benches sharing a group's settings, as a function taking the group.
fn sizes(group: &mut BenchmarkGroup<'_, WallTime>) {
    for size in [64usize, 1024] {
        group.throughput(Throughput::Bytes(size as u64));
        group.bench_with_input(BenchmarkId::from_parameter(size), &size, sum_bytes);
        group.throughput(Throughput::BytesDecimal(size as u64));
        group.bench_with_input(BenchmarkId::new("decimal", size), &size, sum_bytes);
    }
    group.throughput(Throughput::Elements(100));
    group.bench_function("elements", |b| b.iter(|| (0..100u32).sum::<u32>()));
    group.throughput(Throughput::Bits(64));
    group.bench_function(BenchmarkId::new("bits", 64), |b| {
        b.iter(|| black_box(u64::MAX).count_ones())
    });
}

/// `BenchmarkGroup`'s settings.
fn groups(c: &mut Criterion) {
    let mut group = c.benchmark_group("group");
    group
        .sample_size(10)
        .measurement_time(Duration::from_millis(200))
        .warm_up_time(Duration::from_millis(100))
        .sampling_mode(SamplingMode::Flat)
        .plot_config(PlotConfiguration::default().summary_scale(AxisScale::Logarithmic));
    sizes(&mut group);
    group.finish();
}

criterion_group!(benches, bencher_forms);
criterion_group! {
    name = configured;
    config = Criterion::default()
        .sample_size(20)
        .measurement_time(Duration::from_secs(1))
        .warm_up_time(Duration::from_millis(500))
        .noise_threshold(0.02)
        .significance_level(0.05)
        .confidence_level(0.9)
        .with_plots()
        .without_plots()
        .configure_from_args();
    targets = groups
}
criterion_main!(benches, configured);
