//! Allocations per unit: with `pilot::CountingAlloc` as this target's global allocator, every
//! bench here reports `allocations` and `allocated_bytes` per unit (per iteration in the micro
//! form) beside its time, compared against baselines and exported like it. Counts are exact
//! when every unit allocates the same: `3 allocs, 4,220 B`.
//!
//! Only the thread that runs a unit is counted; the counting costs about a nanosecond per
//! allocation, which the result states (`--verbose` prints it under each bench).

use pilot::{Bencher, Recorder, black_box};

#[global_allocator]
static ALLOC: pilot::CountingAlloc = pilot::CountingAlloc::system();

/// Three blocks a unit, of 24, 100 and 4 096 bytes: exactly 3 allocations and 4 220 bytes.
#[pilot::bench]
fn three_blocks(work: u64, rec: &mut Recorder) {
    for _ in 0..work {
        rec.unit(|| {
            let small = black_box(Vec::<u8>::with_capacity(24));
            let medium = black_box(Vec::<u8>::with_capacity(100));
            let page = black_box(Vec::<u8>::with_capacity(4096));
            small.capacity() + medium.capacity() + page.capacity()
        });
    }
}

/// A vector grown by pushing 100 numbers: one allocation and the reallocations of its
/// doublings (capacity 4, 8, …, 128), against one allocation of the right size.
#[pilot::bench]
fn push_100(b: &mut Bencher) {
    b.iter(|| {
        let mut v = Vec::new();
        for i in 0..100_u64 {
            v.push(black_box(i));
        }
        v
    });
}

#[pilot::bench]
fn with_capacity_100(b: &mut Bencher) {
    b.iter(|| {
        let mut v = Vec::with_capacity(100);
        for i in 0..100_u64 {
            v.push(black_box(i));
        }
        v
    });
}

/// Summing a slice allocates nothing: 0 per iteration.
#[pilot::bench]
fn sum_no_allocation(b: &mut Bencher) {
    let v: Vec<u64> = (0..1000).collect();
    b.iter(|| v.iter().sum::<u64>());
}

pilot::main!();
