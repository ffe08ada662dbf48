// A `BenchmarkId`'s parameter is part of the bench's id, so it must be `Display`; a `Vec` is
// not, in criterion 0.8 as here.
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("numbers");
    let input = vec![5u32, 3, 1];
    group.bench_with_input(BenchmarkId::new("sum", input.clone()), &input, |b, v| {
        b.iter(|| v.iter().sum::<u32>())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
