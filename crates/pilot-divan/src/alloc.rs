//! divan's `AllocProfiler`: a global allocator that counts the allocations it passes on, so
//! that `#[global_allocator] static ALLOC: AllocProfiler = AllocProfiler::system();` compiles
//! unchanged and gives every bench of the target pilot's `allocations` and `allocated_bytes`
//! performance indices per iteration, with intervals, beside time. It is pilot's
//! [`CountingAlloc`](pilot_engine::CountingAlloc) under divan's name (what it counts and what it
//! costs are documented there): only the thread that runs an iteration is counted.

use std::alloc::{GlobalAlloc, Layout, System};

use pilot_engine::CountingAlloc;

/// A global allocator that counts, per thread, the allocations it passes on to `Alloc` (the
/// system's by default), as divan's does; its counts become pilot's allocation PIs.
pub struct AllocProfiler<Alloc = System> {
    counting: CountingAlloc<Alloc>,
}

impl AllocProfiler {
    /// Counting around the system's allocator.
    pub const fn system() -> Self {
        AllocProfiler {
            counting: CountingAlloc::system(),
        }
    }
}

impl<A> AllocProfiler<A> {
    /// Counting around `alloc`, which does the allocating.
    pub const fn new(alloc: A) -> Self {
        AllocProfiler {
            counting: CountingAlloc::new(alloc),
        }
    }
}

impl Default for AllocProfiler {
    fn default() -> Self {
        AllocProfiler::system()
    }
}

impl<A> std::fmt::Debug for AllocProfiler<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AllocProfiler")
    }
}

// SAFETY: every call is `CountingAlloc`'s, with the same arguments, so its guarantees (those
// of the allocator it wraps) are this allocator's.
unsafe impl<A: GlobalAlloc> GlobalAlloc for AllocProfiler<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as received (see above).
        unsafe { self.counting.alloc(layout) }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as received.
        unsafe { self.counting.alloc_zeroed(layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded as received.
        unsafe { self.counting.realloc(ptr, layout, new_size) }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as received.
        unsafe { self.counting.dealloc(ptr, layout) }
    }
}
