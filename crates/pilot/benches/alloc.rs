//! What `pilot::CountingAlloc` costs an allocation, measured with pilot (issue 31's bar; divan
//! quotes 1–2 ns for its `AllocProfiler`).
//!
//! This target's global allocator is a `CountingAlloc` around the system's. `counted_box`
//! allocates and frees 24 bytes through it (as every allocation of a counting bench does);
//! `system_box` asks the system's allocator for the same directly, past the counting. The
//! difference of the two is what counting adds to one allocation and its free. Both benches
//! report `allocations` 1 and 0 per iteration: the counts of this very target.
//!
//! `cargo bench -p pilot --bench alloc`

use std::alloc::{GlobalAlloc, Layout, System};

use pilot::black_box;

#[global_allocator]
static ALLOC: pilot::CountingAlloc = pilot::CountingAlloc::system();

#[pilot::bench]
fn counted_box(b: &mut pilot::Bencher) {
    b.iter(|| drop(black_box(Box::new(black_box([0_u64; 3])))));
}

#[pilot::bench]
fn system_box(b: &mut pilot::Bencher) {
    let layout = Layout::new::<[u64; 3]>();
    b.iter(|| {
        // SAFETY: a non-zero-size layout; the block is freed once, with the layout it has.
        unsafe {
            let p = black_box(System.alloc(layout));
            System.dealloc(p, layout);
        }
    });
}

pilot::main!();
