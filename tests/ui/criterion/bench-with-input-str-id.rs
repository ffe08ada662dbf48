// `Criterion::bench_with_input` takes a `BenchmarkId` (a function name and a parameter); a
// string is a type error, in criterion 0.8 as here. (A group's `bench_with_input` takes both.)
use criterion::{Criterion, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let input = vec![3u8; 64];
    c.bench_with_input("checksum", &input, |b, input| {
        b.iter(|| input.iter().map(|&x| u32::from(x)).sum::<u32>())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
