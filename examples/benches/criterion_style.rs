//! A bench file written for criterion, run by pilot: `Cargo.toml` names `pilot-criterion` as
//! `criterion`, the one line a project with criterion benches changes. Nothing below is
//! pilot's own API; each id runs in one of pilot's adaptive sessions.
//!
//! `cargo bench -p pilot-examples --bench criterion_style`

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// Single benches: ids `sort_10k` and `checksum/4096`.
fn singles(c: &mut Criterion) {
    let data = pilot_examples::sort_input(10_000);
    c.bench_function("sort_10k", |b| {
        b.iter_batched(
            || data.clone(),
            |mut v| v.sort_unstable(),
            BatchSize::SmallInput,
        )
    });
    let bytes: Vec<u8> = (0..4096u32).map(|i| (i * 31 % 251) as u8).collect();
    c.bench_with_input(
        BenchmarkId::new("checksum", bytes.len()),
        &bytes,
        |b, bytes| b.iter(|| checksum(black_box(bytes))),
    );
}

/// A group over input sizes, with a throughput and settings of its own: ids
/// `checksum_sizes/1024` … and `checksum_sizes/reversed/1024` ….
fn sizes(c: &mut Criterion) {
    let mut group = c.benchmark_group("checksum_sizes");
    group
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_secs(1));
    for size in [1024usize, 16 * 1024] {
        let bytes: Vec<u8> = (0..size as u32).map(|i| (i * 7 % 253) as u8).collect();
        group.throughput(Throughput::Bytes(size as u64));
        group.bench_with_input(BenchmarkId::from_parameter(size), &bytes, |b, bytes| {
            b.iter(|| checksum(bytes))
        });
        group.bench_with_input(BenchmarkId::new("reversed", size), &bytes, |b, bytes| {
            b.iter_batched_ref(
                || bytes.clone(),
                |v| {
                    v.reverse();
                    checksum(v)
                },
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

/// The routine times itself (`iter_custom`) and an async routine on a tokio runtime.
fn custom_and_async(c: &mut Criterion) {
    c.bench_function("spin_custom", |b| {
        b.iter_custom(|iters| {
            let start = std::time::Instant::now();
            for i in 0..iters {
                black_box(checksum(&black_box(i).to_le_bytes()));
            }
            start.elapsed()
        })
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    c.bench_function("tokio_yield", |b| {
        b.to_async(&runtime)
            .iter(|| async { tokio::task::yield_now().await })
    });
}

/// Fletcher-16 over `bytes`.
fn checksum(bytes: &[u8]) -> u16 {
    let (mut a, mut b) = (0u16, 0u16);
    for &x in bytes {
        a = (a + u16::from(x)) % 255;
        b = (b + a) % 255;
    }
    (b << 8) | a
}

criterion_group!(benches, singles, sizes);
criterion_group! {
    name = timed;
    config = Criterion::default().warm_up_time(Duration::from_millis(500));
    targets = custom_and_async
}
criterion_main!(benches, timed);
