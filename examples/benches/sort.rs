//! Micro form with per-iteration input: sorting 10 000 `u64`s.
//!
//! `iter_batched` builds each input outside the timing, so only the sort is measured (a plain
//! `iter` would also time the clone, and would sort an already sorted vector after the first
//! call).

/// A fixed pseudo-random input: the same numbers on every run, so runs are comparable.
fn input(n: usize) -> Vec<u64> {
    let mut x = 0x2545_F491_4F6C_DD1D_u64;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect()
}

#[pilot::bench]
fn sort_10k(b: &mut pilot::Bencher) {
    let data = input(10_000);
    b.iter_batched(|| data.clone(), |mut v| v.sort_unstable());
}

pilot::main!();
