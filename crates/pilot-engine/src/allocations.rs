//! Counting allocations: [`CountingAlloc`], the opt-in global allocator whose counts become the
//! `allocations` and `allocated_bytes` performance indices, and what the recorder reads of it
//! around each unit.
//!
//! # What is counted
//! Each thread keeps its own counts (a thread-local of plain cells: no lock, no atomic, and no
//! allocation inside the allocator). The recorder reads the counts of the thread that runs a
//! unit just before the unit's first clock read and just after its second, so a unit's counts
//! are what **that thread** asked of the allocator while the unit ran:
//!
//! - `allocations`: calls of `alloc`, `alloc_zeroed` and `realloc`. A `realloc` counts as one
//!   allocation of its new size (as dhat counts it: the block may move, and a growing `Vec`
//!   pays for each step);
//! - `allocated_bytes`: the sizes those calls asked for (`realloc`: the new size);
//! - deallocations (`dealloc` calls) and, among the allocations, reallocations, reported
//!   beside the indices as means per unit.
//!
//! Not counted: what other threads allocate, including threads the unit itself starts or
//! hands work to (a thread pool, an async runtime's workers), and what the process's other
//! threads do meanwhile. With `threads = N`, each of pilot's N threads counts its own units.
//! Allocations outside units (a bench's setup, pilot's own buffers) are never counted.
//!
//! # Cost
//! Counting adds four additions to thread-local cells per allocator call; [`counting_cost_ns`]
//! measures that cost on this machine at the start of a run, and the result reports it beside
//! the time, since the time per unit includes it once per allocation. Without a
//! `CountingAlloc`, nothing of this runs: the recorder checks once per round, not per unit,
//! whether one is installed.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU8, Ordering};

/// A global allocator that counts, per thread, the allocations it passes on to `A` (the
/// system's allocator by default), so that pilot can report allocations and bytes per unit.
///
/// Opt in once per bench target:
///
/// ```
/// #[global_allocator]
/// static ALLOC: pilot::CountingAlloc = pilot::CountingAlloc::system();
/// ```
///
/// or wrap another allocator, for a bench that measures with the allocator it ships with:
///
/// ```
/// use std::alloc::System;
///
/// #[global_allocator]
/// static ALLOC: pilot::CountingAlloc<System> = pilot::CountingAlloc::new(System);
/// ```
///
/// Every bench of the target then gets the performance indices `allocations` and
/// `allocated_bytes` per unit (per iteration in the micro form) with their intervals, which
/// are exact (zero width) when the workload allocates the same in every unit. Only the thread
/// that runs a unit is counted (see the [module docs](self) for what is and is not counted);
/// a readings-only bench, which cannot mark its units, and `iter_custom`, which times its
/// iterations itself, get no counts.
pub struct CountingAlloc<A = System> {
    inner: A,
}

impl CountingAlloc<System> {
    /// Counting around the system's allocator ([`System`]).
    pub const fn system() -> Self {
        CountingAlloc { inner: System }
    }
}

impl<A> CountingAlloc<A> {
    /// Counting around `inner`, which does the allocating.
    pub const fn new(inner: A) -> Self {
        CountingAlloc { inner }
    }

    /// The allocator that does the allocating.
    pub const fn inner(&self) -> &A {
        &self.inner
    }
}

// SAFETY: every method passes its arguments unchanged to `inner`, which upholds
// `GlobalAlloc`'s contract, and returns what `inner` returns; counting touches only this
// thread's cells and never allocates, unwinds or blocks.
unsafe impl<A: GlobalAlloc> GlobalAlloc for CountingAlloc<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(|c| c.allocated(layout.size()));
        // SAFETY: the caller's contract for `alloc`, passed on.
        unsafe { self.inner.alloc(layout) }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(|c| c.allocated(layout.size()));
        // SAFETY: the caller's contract for `alloc_zeroed`, passed on.
        unsafe { self.inner.alloc_zeroed(layout) }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note(Counters::deallocated);
        // SAFETY: the caller's contract for `dealloc`, passed on.
        unsafe { self.inner.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(|c| c.reallocated(new_size));
        // SAFETY: the caller's contract for `realloc`, passed on.
        unsafe { self.inner.realloc(ptr, layout, new_size) }
    }
}

/// One thread's counts so far, as the recorder reads them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// `alloc`, `alloc_zeroed` and `realloc` calls.
    pub allocations: u64,
    /// Bytes those calls asked for (`realloc`: the new size).
    pub bytes: u64,
    /// `realloc` calls (counted among `allocations` too).
    pub reallocations: u64,
    /// `dealloc` calls.
    pub deallocations: u64,
}

impl Counts {
    /// What was counted from `before` to `self` (counts wrap rather than overflow).
    #[inline(always)]
    pub fn since(self, before: Counts) -> Counts {
        Counts {
            allocations: self.allocations.wrapping_sub(before.allocations),
            bytes: self.bytes.wrapping_sub(before.bytes),
            reallocations: self.reallocations.wrapping_sub(before.reallocations),
            deallocations: self.deallocations.wrapping_sub(before.deallocations),
        }
    }
}

/// A thread's counters: plain cells, touched only by their own thread.
struct Counters {
    allocations: Cell<u64>,
    bytes: Cell<u64>,
    reallocations: Cell<u64>,
    deallocations: Cell<u64>,
}

impl Counters {
    #[inline(always)]
    fn allocated(&self, size: usize) {
        self.allocations.set(self.allocations.get().wrapping_add(1));
        self.bytes.set(self.bytes.get().wrapping_add(size as u64));
    }

    #[inline(always)]
    fn reallocated(&self, size: usize) {
        self.allocated(size);
        self.reallocations
            .set(self.reallocations.get().wrapping_add(1));
    }

    #[inline(always)]
    fn deallocated(&self) {
        self.deallocations
            .set(self.deallocations.get().wrapping_add(1));
    }

    #[inline(always)]
    fn read(&self) -> Counts {
        Counts {
            allocations: self.allocations.get(),
            bytes: self.bytes.get(),
            reallocations: self.reallocations.get(),
            deallocations: self.deallocations.get(),
        }
    }
}

thread_local! {
    // Constant-initialised and without a destructor: no lazy set-up and nothing registered at
    // thread exit, so reading or bumping it never allocates (which, inside the allocator,
    // would recurse) and stays valid while a thread is being torn down.
    static COUNTERS: Counters = const {
        Counters {
            allocations: Cell::new(0),
            bytes: Cell::new(0),
            reallocations: Cell::new(0),
            deallocations: Cell::new(0),
        }
    };
}

/// Applies `f` to this thread's counters. A thread-local without a destructor is always
/// there, but an allocator must never panic: were it not, nothing is counted.
#[inline(always)]
fn note(f: impl FnOnce(&Counters)) {
    let _ = COUNTERS.try_with(f);
}

/// This thread's counts so far: what the recorder reads on each side of a unit (the
/// difference is the unit's). Zero on a thread that never went through a [`CountingAlloc`].
#[inline(always)]
pub fn snapshot() -> Counts {
    COUNTERS.try_with(Counters::read).unwrap_or_default()
}

/// Whether this process's global allocator is a [`CountingAlloc`]: found once, by making one
/// allocation and seeing whether this thread's count moved (cached after).
pub fn counting() -> bool {
    const UNKNOWN: u8 = 0;
    const NO: u8 = 1;
    const YES: u8 = 2;
    static INSTALLED: AtomicU8 = AtomicU8::new(UNKNOWN);
    match INSTALLED.load(Ordering::Relaxed) {
        NO => false,
        YES => true,
        _ => {
            let before = snapshot();
            // Through `black_box` the allocation escapes, so it cannot be optimised away.
            drop(std::hint::black_box(Box::new(std::hint::black_box(0_u64))));
            let yes = snapshot().since(before).allocations > 0;
            INSTALLED.store(if yes { YES } else { NO }, Ordering::Relaxed);
            yes
        }
    }
}

/// What counting costs one allocation on this machine, in nanoseconds: the additions a
/// [`CountingAlloc`] makes to this thread's counters for one `alloc` and its `dealloc`, timed
/// in 21 batches of 10 000 (the median batch, robust to a preemption in one). The loop's own
/// cost is included, so this is a slight overestimate. Takes about half a millisecond; it bumps
/// this thread's counters, so call it outside units.
pub(crate) fn counting_cost_ns() -> f64 {
    const CALLS: u32 = 10_000;
    let mut per_call: Vec<f64> = (0..21)
        .map(|_| {
            let start = std::time::Instant::now();
            for _ in 0..CALLS {
                // `black_box` on the counters keeps each iteration's loads and stores: the
                // allocator makes them once per call, never merged across calls.
                note(|c| std::hint::black_box(c).allocated(std::hint::black_box(24)));
                note(|c| std::hint::black_box(c).deallocated());
            }
            start.elapsed().as_nanos() as f64 / f64::from(CALLS)
        })
        .collect();
    per_call.sort_by(f64::total_cmp);
    per_call[per_call.len() / 2]
}

/// What counting costs one allocation in this process ([`counting_cost_ns`], measured at the
/// first call and kept), when a [`CountingAlloc`] is this process's allocator; `None` without
/// one.
pub(crate) fn counting_cost() -> Option<f64> {
    static COST: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    counting().then(|| *COST.get_or_init(counting_cost_ns))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `CountingAlloc` used directly (this test binary's global allocator is the system's):
    /// each call moves this thread's counts as the module docs say.
    #[test]
    fn each_call_counts_on_its_own_thread() {
        let a = CountingAlloc::system();
        let before = snapshot();
        let layout = Layout::from_size_align(24, 8).unwrap();
        // SAFETY: a non-zero-size layout; each block is freed once with the layout (and size)
        // it has.
        unsafe {
            let p = a.alloc(layout);
            let q = a.alloc_zeroed(Layout::from_size_align(100, 8).unwrap());
            let p = a.realloc(p, layout, 4096);
            a.dealloc(p, Layout::from_size_align(4096, 8).unwrap());
            a.dealloc(q, Layout::from_size_align(100, 8).unwrap());
        }
        let counted = snapshot().since(before);
        assert_eq!(
            counted,
            Counts {
                allocations: 3,
                bytes: 24 + 100 + 4096,
                reallocations: 1,
                deallocations: 2,
            }
        );
        // Another thread's calls are its own.
        let other = std::thread::spawn(move || {
            let before = snapshot();
            // SAFETY: as above.
            unsafe { a.dealloc(a.alloc(layout), layout) };
            snapshot().since(before)
        })
        .join()
        .unwrap();
        assert_eq!((other.allocations, other.deallocations), (1, 1));
        assert_eq!(snapshot().since(before), counted);
    }

    #[test]
    fn counts_wrap_rather_than_overflow() {
        let before = Counts {
            allocations: u64::MAX,
            ..Counts::default()
        };
        let after = Counts {
            allocations: 2,
            ..Counts::default()
        };
        assert_eq!(after.since(before).allocations, 3);
    }

    #[test]
    fn the_system_allocator_is_not_counting_and_counting_costs_little() {
        // This test binary keeps the default global allocator.
        assert!(!counting());
        let cost = counting_cost_ns();
        assert!(cost.is_finite() && cost > 0.0, "{cost}");
    }
}
