//! The machine speed probe: a short, fixed reference workload whose time tells how fast the
//! machine runs at that moment. The same work on every run and every machine, so its time moves
//! only with the machine's state (frequency, contention from neighbours, the host's load):
//! timed at the start and end of each run it measures the machine's run-to-run variation
//! ([`super::history`]); timed before and after a bench it tells a drift of the machine from a
//! drift of the workload.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// The probe kernel's identity in the machine's history: a new kernel starts a new history.
pub(crate) const PROBE_KERNEL: &str = "xorshift-mul-400k";

/// Steps of one probe kernel: each waits for the last one's multiply, so a kernel lasts a
/// few cycles a step, on the order of a millisecond at the clock rates of current cores.
const KERNEL_STEPS: u32 = 400_000;

/// One run of the kernel: an xorshift sequence folded into a multiply-add chain, all in
/// registers. A kernel that touched memory or allocated proved sensitive to where its table
/// and heap landed in each process (its time moved between processes a second apart far more
/// than this one's): the probe is to see the machine's speed, not the process's layout.
/// Returns a value that depends on every step.
fn kernel() -> u64 {
    let mut x: u64 = black_box(0x9E37_79B9_7F4A_7C15);
    let mut acc: u64 = 0;
    for _ in 0..KERNEL_STEPS {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        acc = acc.wrapping_mul(0x2545_F491_4F6C_DD1D).wrapping_add(x);
    }
    acc
}

/// The probe's time: the median of `repeats` kernel runs (after one unmeasured run), in
/// nanoseconds. The median keeps an interrupt or a preemption of one run out of it. Costs about
/// `repeats + 1` milliseconds. Never call it while a workload is being timed.
pub(crate) fn probe_ns(repeats: usize) -> f64 {
    black_box(kernel());
    let mut times: Vec<Duration> = (0..repeats.max(1))
        .map(|_| {
            let start = Instant::now();
            black_box(kernel());
            start.elapsed()
        })
        .collect();
    times.sort_unstable();
    let mid = times.len() / 2;
    let median = if times.len() % 2 == 1 {
        times[mid]
    } else {
        (times[mid - 1] + times[mid]) / 2
    };
    median.as_nanos() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kernel_is_deterministic_and_the_probe_positive() {
        assert_eq!(kernel(), kernel());
        assert!(probe_ns(3) > 0.0);
    }
}
