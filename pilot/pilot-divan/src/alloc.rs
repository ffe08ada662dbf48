//! divan's `AllocProfiler`, accepted: a global allocator that forwards every call to the one it
//! wraps, so that `#[global_allocator] static ALLOC: AllocProfiler = AllocProfiler::system();`
//! compiles and runs unchanged. It counts nothing: pilot's allocation counts come from its own
//! counting allocator (`pilot::CountingAlloc`), a performance index like time.

use std::alloc::{GlobalAlloc, Layout, System};

/// A global allocator that forwards to `Alloc` (the system's by default). divan counts
/// allocations with it; under pilot it only forwards.
#[derive(Debug, Default)]
pub struct AllocProfiler<Alloc = System> {
    alloc: Alloc,
}

impl AllocProfiler {
    /// Forwards to the system's allocator.
    pub const fn system() -> Self {
        AllocProfiler { alloc: System }
    }
}

impl<A> AllocProfiler<A> {
    /// Forwards to `alloc`.
    pub const fn new(alloc: A) -> Self {
        AllocProfiler { alloc }
    }
}

// SAFETY: every call is the wrapped allocator's, with the same arguments, so its guarantees
// are this allocator's.
unsafe impl<A: GlobalAlloc> GlobalAlloc for AllocProfiler<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as received (see above).
        unsafe { self.alloc.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as received.
        unsafe { self.alloc.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded as received.
        unsafe { self.alloc.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as received.
        unsafe { self.alloc.dealloc(ptr, layout) }
    }
}
