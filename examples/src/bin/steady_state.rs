//! The true steady state of the warm-up example, measured without pilot: exhaust the slow
//! calls, then time batches of 20 000 calls with a plain loop for 5 seconds (long enough to
//! average the speed changes of a shared machine, as a pilot session does) and report the mean
//! and median time per call. pilot's estimate for the `warm_up` bench should agree within 3%.
//!
//! `cargo run --release -p pilot-examples --bin steady_state`

use std::hint::black_box;
use std::time::Instant;

use pilot_examples::warm_up::{SLOW_CALLS, step};

fn main() {
    for i in 0..SLOW_CALLS {
        black_box(step(black_box(i)));
    }
    let began = Instant::now();
    let mut per_call = Vec::new();
    while began.elapsed().as_secs() < 5 {
        let start = Instant::now();
        for _ in 0..20_000 {
            black_box(step(black_box(7)));
        }
        per_call.push(start.elapsed().as_nanos() as f64 / 20_000.0);
    }
    per_call.sort_by(f64::total_cmp);
    let mean = per_call.iter().sum::<f64>() / per_call.len() as f64;
    println!(
        "mean {mean:.4} ns per call, median {:.4} ns, over {} batches",
        per_call[per_call.len() / 2],
        per_call.len()
    );
}
