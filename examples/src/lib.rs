//! Workloads shared by pilot's example benches and the plain-loop programs that check pilot's
//! numbers against an independent measurement.

/// A fixed pseudo-random input for the sort benches: the same numbers on every run (xorshift64),
/// so runs and harnesses are comparable.
pub fn sort_input(n: usize) -> Vec<u64> {
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

pub mod warm_up {
    //! A workload with a warm-up phase: its first [`SLOW_CALLS`] calls are about 10× slower
    //! than the rest (think of a cache being filled, or a JIT).

    use std::sync::atomic::{AtomicU64, Ordering};

    /// How many calls are slow.
    pub const SLOW_CALLS: u64 = 2_000;

    static CALLS: AtomicU64 = AtomicU64::new(0);

    /// The work of one call: a dependent chain of multiply-adds, 10× longer while warming up.
    pub fn step(seed: u64) -> u64 {
        let rounds = if CALLS.fetch_add(1, Ordering::Relaxed) < SLOW_CALLS {
            2_000
        } else {
            200
        };
        let mut x = seed;
        for _ in 0..rounds {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
        }
        x
    }
}
