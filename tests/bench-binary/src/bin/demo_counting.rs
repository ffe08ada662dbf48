//! A pilot bench binary with `pilot::CountingAlloc` as its global allocator, for the end-to-end
//! tests of allocation counts (`tests/bench-binary/tests/counting.rs`): benches whose units allocate a
//! known number of blocks of known sizes, none, on threads of their own, or time themselves.

use std::hint::black_box;

use pilot::{Bencher, Recorder};

#[global_allocator]
static ALLOC: pilot::CountingAlloc = pilot::CountingAlloc::system();

/// Allocations a unit beyond the three: `PILOT_DEMO_MORE_ALLOCATIONS` (0 by default), so that
/// "the same code" and "one more allocation" are the same binary.
fn more() -> usize {
    std::env::var("PILOT_DEMO_MORE_ALLOCATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// Three blocks of 24, 100 and 4 096 bytes (4 220 in all), and `more` of 8 bytes, each freed
/// before it returns.
fn three(more: usize) -> usize {
    let a = black_box(Vec::<u8>::with_capacity(24));
    let b = black_box(Vec::<u8>::with_capacity(100));
    let c = black_box(Vec::<u8>::with_capacity(4096));
    let extra: usize = (0..more)
        .map(|_| black_box(Vec::<u8>::with_capacity(8)).capacity())
        .sum();
    a.capacity() + b.capacity() + c.capacity() + extra
}

/// Full form: three allocations in every unit; the setup's allocation is outside every unit.
#[pilot::bench]
fn three_allocations(work: u64, rec: &mut Recorder) {
    let more = more();
    let setup = black_box(vec![0u8; 1 << 16]);
    for _ in 0..work {
        rec.unit(|| three(more));
    }
    drop(setup);
}

/// Micro form: the same, per iteration.
#[pilot::bench]
fn three_allocations_micro(b: &mut Bencher) {
    let more = more();
    b.iter(|| three(more));
}

/// Nothing allocated in a unit.
#[pilot::bench]
fn no_allocation(b: &mut Bencher) {
    let v: Vec<u64> = (0..256).collect();
    b.iter(|| v.iter().sum::<u64>());
}

/// A unit that starts a thread which allocates three blocks: what starting a thread allocates
/// on the unit's thread, and nothing of the other thread's.
#[pilot::bench]
fn thread_that_allocates(work: u64, rec: &mut Recorder) {
    for _ in 0..work {
        rec.unit(|| std::thread::scope(|s| s.spawn(|| three(0)).join().unwrap()));
    }
}

/// The same thread doing no allocating: the same count as above, since the other thread's
/// allocations are not counted.
#[pilot::bench]
fn thread_that_does_not_allocate(work: u64, rec: &mut Recorder) {
    for _ in 0..work {
        rec.unit(|| std::thread::scope(|s| s.spawn(|| black_box(4220)).join().unwrap()));
    }
}

/// A routine that times itself: pilot cannot tell which allocations its durations cover, and
/// counts none.
#[pilot::bench]
fn custom_timing(b: &mut Bencher) {
    b.iter_custom(|iters| {
        let start = std::time::Instant::now();
        for _ in 0..iters {
            black_box(three(0));
        }
        start.elapsed()
    });
}

pilot::main!();
