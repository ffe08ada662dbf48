//! divan's `AllocProfiler` as the global allocator counts what pilot's allocation PIs read:
//! the counts of the thread that allocates, as `pilot::CountingAlloc` keeps them (whose
//! sessions turn them into `allocations` and `allocated_bytes` per unit; tested end to end in
//! `tests/bench-binary/tests/counting.rs`).

use std::hint::black_box;

use pilot_divan::AllocProfiler;
use pilot_engine::allocations;

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

#[test]
fn allocations_through_alloc_profiler_are_counted_exactly() {
    // Warm the thread's counters up (the first call may set them up).
    drop(black_box(Vec::<u8>::with_capacity(1)));
    assert!(
        allocations::counting(),
        "AllocProfiler did not install counting"
    );
    let before = allocations::snapshot();
    let a = black_box(Vec::<u8>::with_capacity(24));
    let b = black_box(Vec::<u8>::with_capacity(100));
    let c = black_box(Vec::<u8>::with_capacity(4096));
    drop((a, b, c));
    let mut grow = black_box(Vec::<u8>::with_capacity(8));
    grow.reserve_exact(64);
    drop(grow);
    let counted = allocations::snapshot().since(before);
    // Three blocks, one more of 8 bytes grown to 64: five allocations (one a reallocation).
    assert_eq!(counted.allocations, 5, "{counted:?}");
    assert_eq!(counted.bytes, 24 + 100 + 4096 + 8 + 64, "{counted:?}");
    assert_eq!(counted.reallocations, 1, "{counted:?}");
    assert_eq!(counted.deallocations, 4, "{counted:?}");
}

#[test]
fn each_thread_counts_its_own() {
    std::thread::scope(|s| {
        s.spawn(|| {
            drop(black_box(Vec::<u8>::with_capacity(1)));
            let before = allocations::snapshot();
            drop(black_box(Vec::<u8>::with_capacity(10)));
            let counted = allocations::snapshot().since(before);
            assert_eq!((counted.allocations, counted.bytes), (1, 10), "{counted:?}");
        });
    });
}
