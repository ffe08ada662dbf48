//! Where a bench allocates: the number of calls each function makes into the allocator, in
//! one callgrind dump, from the numbers of calls between functions it records (`calls=`).
//!
//! # What is counted
//! A call counts when it enters an allocating function of the allocator ([`allocating`]) from
//! a function outside the allocator ([`in_allocator`]): so each allocation counts once, at
//! the first call into the allocator, however far the allocator's own functions call each
//! other down to the C library. Which function that first call enters depends on inlining:
//! code compiled in the crate that installs the global allocator (a bench target with
//! `#[global_allocator]`) has Rust's allocator entry points inlined and calls the C library's
//! `malloc`, `calloc` or `realloc` itself; code of other crates calls Rust's `__rust_alloc`,
//! `__rust_alloc_zeroed` or `__rust_realloc`; both count, as a `CountingAlloc` counts
//! `alloc`, `alloc_zeroed` and `realloc` (a `realloc` is one allocation). Freeing is not an
//! allocation. Another allocator than the system's is seen through Rust's entry points only:
//! where they are inlined, its own functions are not recognised.
//!
//! # The call site
//! The function that made the call, demangled; where that function is the standard library's
//! ([`in_std`]: a `Vec` growing, a `String` formatted), its allocations go up to the functions
//! that called it, shared among them as their numbers of calls into it are (callgrind keeps
//! calls between pairs of functions, not whole stacks), until they reach a function outside the
//! standard library or one nothing in the dump called.

use std::collections::{BTreeMap, HashMap};

use super::callgraph::CallGraph;

/// Most levels an allocation goes up through the standard library's functions: deeper, it
/// stays with the function it reached (a cycle of the library's functions ends there too).
const DEEPEST: usize = 32;

/// The allocating entry points: Rust's (`__rust_*`, the global allocator's `__rg_*`, the
/// default one's `__rdl_*`) and the C library's.
const ALLOCATING: &[&str] = &[
    "__rust_alloc",
    "__rust_alloc_zeroed",
    "__rust_realloc",
    "__rg_alloc",
    "__rg_alloc_zeroed",
    "__rg_realloc",
    "__rdl_alloc",
    "__rdl_alloc_zeroed",
    "__rdl_realloc",
    "malloc",
    "calloc",
    "realloc",
    "posix_memalign",
    "aligned_alloc",
    "memalign",
];

/// The allocator's functions that do not allocate, and the C library's internals that call its
/// own entry points (`posix_memalign`'s `_mid_memalign` calls `malloc` for small alignments).
const FREEING_AND_INTERNAL: &[&str] = &[
    "__rust_dealloc",
    "__rg_dealloc",
    "__rdl_dealloc",
    "free",
    "_mid_memalign",
];

/// The last segment of a demangled path (`__rust_alloc` of `__rustc::__rust_alloc`).
fn last_segment(name: &str) -> &str {
    name.rsplit("::").next().unwrap_or(name)
}

/// Whether `name` is an implementation of `GlobalAlloc`'s method `method`, or of any of its
/// methods when `method` is empty (`<pilot_engine::allocations::CountingAlloc<A> as
/// core::alloc::global::GlobalAlloc>::alloc`).
fn global_alloc_method(name: &str, method: &str) -> bool {
    name.split_once(" as core::alloc::global::GlobalAlloc>::")
        .is_some_and(|(_, m)| method.is_empty() || m == method)
}

/// Whether a call into `name` is an allocation.
pub(crate) fn allocating(name: &str) -> bool {
    ALLOCATING.contains(&last_segment(name))
        || ["alloc", "alloc_zeroed", "realloc"]
            .iter()
            .any(|m| global_alloc_method(name, m))
}

/// Whether `name` is the allocator's own: an entry point, a `GlobalAlloc` method, the standard
/// library's allocator code (`std::sys::alloc::…`) or the C library's internals. Its calls into
/// the allocator are not allocations of their own.
pub(crate) fn in_allocator(name: &str) -> bool {
    allocating(name)
        || FREEING_AND_INTERNAL.contains(&last_segment(name))
        || name.starts_with("_int_")
        || name.starts_with("__libc_")
        || global_alloc_method(name, "")
        || name.starts_with("std::sys::alloc::")
        || name.starts_with("std::sys::pal::unix::alloc::")
}

/// Whether `name` is a function of Rust's standard library, whose allocations are its
/// callers': a path in `alloc`, `core` or `std` (`alloc::fmt::format::format_inner`, or
/// `<alloc::vec::Vec<T>>::push` for an inherent method), or the standard library's trait
/// implemented for its own or a primitive type (`<u64 as core::fmt::Display>::fmt`, whose
/// type has no path). A standard trait of a type of the program's
/// (`<bench::Point as core::fmt::Display>::fmt`) is the program's.
pub(crate) fn in_std(name: &str) -> bool {
    let std_path = |p: &str| {
        ["alloc::", "core::", "std::"]
            .iter()
            .any(|s| p.trim_start_matches('<').starts_with(s))
    };
    let Some(inner) = name.strip_prefix('<') else {
        return std_path(name);
    };
    match inner.split_once(" as ") {
        Some((ty, tr)) => (std_path(ty) || !ty.contains("::")) && std_path(tr),
        None => std_path(inner),
    }
}

/// The allocations of one dump by call site (see the [module docs](self)), as numbers of
/// calls; sites with none are absent. Time: O(calls · depth).
pub(crate) fn allocation_sites(graph: &CallGraph) -> BTreeMap<String, f64> {
    let mut at: HashMap<usize, f64> = HashMap::new();
    let mut callers: HashMap<usize, Vec<(usize, u64)>> = HashMap::new();
    for (&(f, g), &n) in &graph.call_counts {
        callers.entry(g).or_default().push((f, n));
        if n > 0 && allocating(&graph.names[g]) && !in_allocator(&graph.names[f]) {
            *at.entry(f).or_default() += n as f64;
        }
    }
    for _ in 0..DEEPEST {
        let lifted: Vec<usize> = at
            .keys()
            .copied()
            .filter(|&f| in_std(&graph.names[f]) && callers.contains_key(&f))
            .collect();
        if lifted.is_empty() {
            break;
        }
        for f in lifted {
            let Some(amount) = at.remove(&f) else {
                continue;
            };
            let from = &callers[&f];
            let calls: u64 = from.iter().map(|(_, n)| n).sum();
            if calls == 0 {
                at.insert(f, amount);
                continue;
            }
            for &(g, n) in from {
                *at.entry(g).or_default() += amount * n as f64 / calls as f64;
            }
        }
    }
    at.into_iter()
        .map(|(f, n)| (graph.names[f].clone(), n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A graph of `calls` (caller, callee, number of calls) between functions named as they
    /// are listed.
    fn graph(calls: &[(&str, &str, u64)]) -> CallGraph {
        let mut g = CallGraph::default();
        let index = |g: &mut CallGraph, name: &str| match g.names.iter().position(|n| n == name) {
            Some(i) => i,
            None => {
                g.names.push(name.to_string());
                g.self_cost.push(0);
                g.names.len() - 1
            }
        };
        for &(f, c, n) in calls {
            let (f, c) = (index(&mut g, f), index(&mut g, c));
            g.call_counts.insert((f, c), n);
        }
        g
    }

    #[test]
    fn each_allocation_counts_once_at_the_first_call_into_the_allocator() {
        let counting = "<pilot_engine::allocations::CountingAlloc<A> as \
                        core::alloc::global::GlobalAlloc>::alloc";
        let g = graph(&[
            // Inlined: the bench's own function calls the C library.
            ("bench::boxes", "malloc", 4),
            ("bench::boxes", "free", 4),
            (
                "bench::boxes",
                "__rustc::__rust_no_alloc_shim_is_unstable_v2",
                4,
            ),
            // Through Rust's entry points, each calling the next down to `malloc`.
            ("dep::parse", "__rustc::__rust_alloc", 3),
            ("__rustc::__rust_alloc", "__rustc::__rg_alloc", 3),
            ("__rustc::__rg_alloc", counting, 3),
            (counting, "malloc", 3),
            ("dep::parse", "__rustc::__rust_realloc", 1),
            ("__rustc::__rust_realloc", "realloc", 1),
            ("realloc", "malloc", 1),
            ("dep::parse", "__rustc::__rust_dealloc", 4),
            // The C library's own internals.
            ("posix_memalign", "_mid_memalign", 2),
            ("_mid_memalign", "malloc", 2),
            ("bench::aligned", "posix_memalign", 2),
        ]);
        let sites = allocation_sites(&g);
        assert_eq!(
            sites,
            [
                ("bench::aligned".to_string(), 2.0),
                ("bench::boxes".to_string(), 4.0),
                ("dep::parse".to_string(), 4.0),
            ]
            .into()
        );
    }

    #[test]
    fn the_standard_librarys_allocations_go_to_its_callers_by_their_calls() {
        let grow = "alloc::raw_vec::finish_grow";
        let reserve = "alloc::raw_vec::RawVecInner<A>::reserve::do_reserve_and_handle";
        let g = graph(&[
            (grow, "__rustc::__rust_realloc", 8),
            (reserve, grow, 8),
            ("bench::a", reserve, 6),
            ("bench::b", reserve, 2),
            // `<alloc::string::String as core::clone::Clone>::clone` has no caller here: it
            // stays the site.
            (
                "<alloc::string::String as core::clone::Clone>::clone",
                "malloc",
                5,
            ),
        ]);
        let sites = allocation_sites(&g);
        assert_eq!(sites["bench::a"], 6.0);
        assert_eq!(sites["bench::b"], 2.0);
        assert_eq!(
            sites["<alloc::string::String as core::clone::Clone>::clone"],
            5.0
        );
        assert_eq!(sites.len(), 3, "{sites:?}");
        assert!(in_std("<alloc::vec::Vec<T> as core::clone::Clone>::clone"));
        assert!(in_std("<u64 as core::fmt::Display>::fmt"));
        assert!(in_std("<alloc::vec::Vec<u8>>::push"));
        assert!(!in_std("<bench::Point as core::fmt::Display>::fmt"));
        assert!(!in_std("<alloc::vec::Vec<u8> as bench::Fill>::fill"));
        assert!(!in_std("bench::alloc::grow"));
    }
}
