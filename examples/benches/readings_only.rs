//! Readings-only form: a workload that cannot time its own units. pilot times whole rounds of
//! different work amounts and fits `duration = α + work / v` (Pilot's WPS method): `v` is the
//! stable speed, and `α` absorbs the fixed cost that every round pays once.

use std::sync::OnceLock;

/// 8 MiB of data, made once and shared by all rounds (the first round pays for it: a
/// non-stable phase the regression is robust to).
fn data() -> &'static [u64] {
    static DATA: OnceLock<Vec<u64>> = OnceLock::new();
    DATA.get_or_init(|| {
        (0..1u64 << 20)
            .map(|i| i.wrapping_mul(2_654_435_761))
            .collect()
    })
}

/// Checksums the first `work` words of the data: time grows linearly with `work`.
#[pilot::bench(work = 1_000..=1_000_000)]
fn checksum(work: u64) {
    let words = &data()[..work as usize];
    pilot::black_box(words.iter().fold(0u64, |a, &x| a.rotate_left(5) ^ x));
}

pilot::main!();
