// A bench function in `criterion_group!` takes `&mut Criterion`; one taking `Criterion` by
// value is a type error at its name in the macro, in criterion 0.8 as here.
use criterion::{Criterion, criterion_group, criterion_main};

fn bench(mut c: Criterion) {
    c.bench_function("add", |b| b.iter(|| std::hint::black_box(1) + 1));
}

criterion_group!(benches, bench);
criterion_main!(benches);
