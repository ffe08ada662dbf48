//! The four quick benches of issue 27's bars, in a crate outside pilot's workspace (the script
//! copies this file there): a one-instruction add, a ~40 ns fill, a ~40 µs sort, and an ~80 ns
//! bench whose first calls are ten times slower (a warm-up).

use std::sync::atomic::{AtomicU64, Ordering};

#[pilot::bench]
fn add(b: &mut pilot::Bencher) {
    let x = 41_u64;
    b.iter(|| pilot::black_box(x) + 1);
}

#[pilot::bench]
fn fill(b: &mut pilot::Bencher) {
    let mut buf = [0u8; 1024];
    b.iter(|| {
        buf.fill(pilot::black_box(0xA5));
        pilot::black_box(&buf);
    });
}

#[pilot::bench]
fn sort(b: &mut pilot::Bencher) {
    let mut x = 0x9E37_79B9_7F4A_7C15_u64;
    let input: Vec<u64> = (0..4_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect();
    b.iter_batched_ref(|| input.clone(), |v| v.sort_unstable());
}

static CALLS: AtomicU64 = AtomicU64::new(0);

#[pilot::bench]
fn warm_up(b: &mut pilot::Bencher) {
    b.iter(|| {
        let rounds = if CALLS.fetch_add(1, Ordering::Relaxed) < 200_000 {
            1_000
        } else {
            100
        };
        let mut x = pilot::black_box(7u64);
        for _ in 0..rounds {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
        }
        x
    });
}

pilot::main!();
