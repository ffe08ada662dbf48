//! The plain program of `cargo pilot noise`: two fixed workloads timed with nothing but
//! `std::time::Instant`, no harness, in a fresh process each time, so that the spread of their
//! times between processes is the machine's own run-to-run variation as any program sees it.
//!
//! It lives in the engine, not in cargo-pilot, because the engine is built optimised even in
//! test builds: the workloads measure the same code in a test and in an installed tool.

use std::hint::black_box;
use std::time::Instant;

/// Calls of each workload in one process, alternating (compute, sort, compute, …) so that both
/// see the same moments of the process: a few hundred, so that the calls an interrupt hit are
/// a small minority. The median of these is the process's reading.
pub const PLAIN_CALLS: usize = 200;

/// Steps of the compute workload's loop: a dependent chain, so its time follows the core's
/// speed and not its memory.
const COMPUTE_STEPS: u32 = 100_000;

/// Values the sort workload sorts.
const SORT_LEN: usize = 10_000;

/// The workloads, by name, with what each does (for the output).
pub const PLAIN_WORKLOADS: [(&str, &str); 2] = [
    (
        "compute",
        "an integer hash chain (LCG and xorshift), 100 000 steps, in registers",
    ),
    (
        "sort",
        "sort_unstable of 10 000 pseudo-random u64, a fresh copy each call (the copy untimed)",
    ),
];

/// One workload's times in one process.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PlainTimes {
    /// The median call, ns.
    pub median_ns: f64,
    /// The fastest call, ns.
    pub min_ns: f64,
}

/// What one process of the plain program measured: the line it prints.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PlainReading {
    /// Calls of each workload.
    pub calls: usize,
    /// Each workload's times, in the order of [`PLAIN_WORKLOADS`].
    pub workloads: Vec<PlainTimes>,
}

/// The compute workload: a multiply-add (LCG) chain folded through an xorshift, every step
/// depending on the last, all in registers (nothing a layout or a cache could move). Returns a
/// value that depends on every step.
fn compute() -> u64 {
    let mut x: u64 = black_box(0x2545_F491_4F6C_DD1D);
    let mut h: u64 = 0;
    for _ in 0..COMPUTE_STEPS {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        h = (h ^ (x >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    h
}

/// The sort workload's input: the same pseudo-random values in every process (a fixed seed).
fn sort_input() -> Vec<u64> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..SORT_LEN)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect()
}

/// Runs the plain program: `calls` calls of each workload, alternating, each timed on its own
/// with `Instant`; the median and the fastest of each. Costs `calls` runs of both workloads.
/// Never call it where something else is being timed.
pub fn run_plain(calls: usize) -> PlainReading {
    let calls = calls.max(1);
    let input = sort_input();
    let mut compute_ns = Vec::with_capacity(calls);
    let mut sort_ns = Vec::with_capacity(calls);
    for _ in 0..calls {
        let start = Instant::now();
        black_box(compute());
        compute_ns.push(start.elapsed().as_nanos() as f64);
        let mut v = black_box(input.clone());
        let start = Instant::now();
        v.sort_unstable();
        black_box(&v);
        sort_ns.push(start.elapsed().as_nanos() as f64);
    }
    PlainReading {
        calls,
        workloads: vec![times(compute_ns), times(sort_ns)],
    }
}

/// The median and the least of `ns`.
fn times(mut ns: Vec<f64>) -> PlainTimes {
    ns.sort_unstable_by(f64::total_cmp);
    let mid = ns.len() / 2;
    let median_ns = if ns.len() % 2 == 1 {
        ns[mid]
    } else {
        (ns[mid - 1] + ns[mid]) / 2.0
    };
    PlainTimes {
        median_ns,
        min_ns: ns[0],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workloads_are_fixed_and_the_reading_has_each() {
        assert_eq!(compute(), compute());
        let input = sort_input();
        assert_eq!(input, sort_input());
        assert_eq!(input.len(), SORT_LEN);
        let r = run_plain(3);
        assert_eq!(r.calls, 3);
        assert_eq!(r.workloads.len(), PLAIN_WORKLOADS.len());
        for w in &r.workloads {
            assert!(w.min_ns > 0.0 && w.min_ns <= w.median_ns, "{w:?}");
        }
        let line = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<PlainReading>(&line).unwrap(), r);
    }

    #[test]
    fn the_median_of_an_even_count_is_the_middle_pair_s_mean() {
        assert_eq!(
            times(vec![4.0, 1.0, 3.0, 2.0]),
            PlainTimes {
                median_ns: 2.5,
                min_ns: 1.0
            }
        );
        assert_eq!(times(vec![5.0]).median_ns, 5.0);
    }
}
