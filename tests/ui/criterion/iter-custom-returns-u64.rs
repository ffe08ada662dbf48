// `iter_custom`'s routine returns the time its iterations took as a `Duration` (the
// measurement's value); a count of nanoseconds is a type error, in criterion 0.8 as here.
use criterion::{Criterion, criterion_group, criterion_main};
use std::time::Instant;

fn bench(c: &mut Criterion) {
    c.bench_function("spin", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for i in 0..iters {
                std::hint::black_box(i);
            }
            start.elapsed().as_nanos() as u64
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
