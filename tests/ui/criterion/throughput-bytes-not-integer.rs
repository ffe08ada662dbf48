// `Throughput::Bytes` counts whole bytes (`u64`); a float is a type error, in criterion 0.8
// as here.
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let kib = 4.0;
    let input = vec![1u8; 4096];
    let mut group = c.benchmark_group("sum");
    group.throughput(Throughput::Bytes(kib * 1024.0));
    group.bench_function("bytes", |b| {
        b.iter(|| input.iter().map(|&x| u64::from(x)).sum::<u64>())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
