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

/// Checksums `work` words, passing over the data as many times as it takes: time grows
/// linearly with `work`. The range's top is 8 M words (about 4.5 ms here), so that the longest
/// rounds outlast the interruptions a busy machine adds to a round's duration.
#[pilot::bench(work = 10_000..=8_000_000)]
fn checksum(work: u64) {
    let data = data();
    let mut sum = 0u64;
    let mut left = work as usize;
    while left > 0 {
        let n = left.min(data.len());
        sum = data[..n].iter().fold(sum, |a, &x| a.rotate_left(5) ^ x);
        left -= n;
    }
    pilot::black_box(sum);
}

pilot::main!();
