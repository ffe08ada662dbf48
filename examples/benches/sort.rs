//! Micro form with per-iteration input: sorting 10 000 `u64`s.
//!
//! `iter_batched` builds each input outside the timing, so only the sort is measured (a plain
//! `iter` would also time the clone, and would sort an already sorted vector after the first
//! call).

#[pilot::bench]
fn sort_10k(b: &mut pilot::Bencher) {
    let data = pilot_examples::sort_input(10_000);
    b.iter_batched(|| data.clone(), |mut v| v.sort_unstable());
}

pilot::main!();
