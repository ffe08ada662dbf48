//! The micro form beyond `iter`: inputs too large to build thousands of ahead of a unit,
//! inputs lent by reference, a routine that times itself, and an async routine on a tokio
//! runtime.
//!
//! Each bench is capped at 3 s: `LargeInput` and `iter_custom` units hold few iterations, and
//! a flag (`--max-time`) still overrides the cap.

use std::sync::mpsc;
use std::time::Instant;

use pilot::{BatchSize, Bencher};

/// 2 MiB inputs: `LargeInput` builds at most 8 at once before a unit (the two-argument
/// `iter_batched` would build up to 4096: 8 GiB).
#[pilot::bench(max_time = 3)]
fn sort_256k_large_input(b: &mut Bencher) {
    let data = pilot_examples::sort_input(1 << 18);
    b.iter_batched_with(
        || data.clone(),
        |mut v| v.sort_unstable(),
        BatchSize::LargeInput,
    );
}

/// The routine gets `&mut` the input: freeing the vector happens after the unit, untimed.
#[pilot::bench(max_time = 3)]
fn retain_10k_by_ref(b: &mut Bencher) {
    let data = pilot_examples::sort_input(10_000);
    b.iter_batched_ref(|| data.clone(), |v| v.retain(|x| x % 3 != 0));
}

/// The routine times only the round trips: starting and joining the echo thread stay outside
/// the duration it returns.
#[pilot::bench(max_time = 3)]
fn channel_round_trip(b: &mut Bencher) {
    b.iter_custom(|iters| {
        let (to_echo, echo_in) = mpsc::channel::<u64>();
        let (echo_out, from_echo) = mpsc::channel::<u64>();
        let echo = std::thread::spawn(move || {
            for x in echo_in {
                echo_out.send(x).unwrap();
            }
        });
        let start = Instant::now();
        for i in 0..iters {
            to_echo.send(i).unwrap();
            pilot::black_box(from_echo.recv().unwrap());
        }
        let elapsed = start.elapsed();
        drop(to_echo);
        echo.join().unwrap();
        elapsed
    });
}

/// An async routine on a tokio runtime (pilot's `tokio` feature): the runtime is built
/// before, and each unit times spawned tasks being awaited.
#[pilot::bench(max_time = 3)]
fn tokio_spawn(b: &mut Bencher) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    b.to_async(&rt)
        .iter(|| async { tokio::spawn(async { 1u64 }).await.unwrap() });
}

pilot::main!();
