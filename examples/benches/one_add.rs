//! Micro form at the clock's limit: one addition takes well under a nanosecond, far less than
//! reading the clock. pilot batches thousands of iterations into each timed unit, so the clock's
//! cost stays under 0.5% of what is measured, and reports time per iteration.

#[pilot::bench]
fn one_add(b: &mut pilot::Bencher) {
    let x = 41_u64;
    b.iter(|| pilot::black_box(x) + 1);
}

pilot::main!();
