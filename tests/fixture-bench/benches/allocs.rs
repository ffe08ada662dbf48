//! A bench whose unit allocates a known number of times from three known call sites, with
//! pilot's `CountingAlloc` installed, for the tests that allocations are counted by call site
//! (`crates/cargo-pilot/tests/instructions.rs`) and that a change of the allocations is
//! explained by the call site it is in (`crates/cargo-pilot/tests/explain.rs`, which gives
//! `buffers` one more allocation in a commit of its own by editing `BUFFERS`).
//!
//! `boxes` allocates `BOXES` times an iteration and `buffers` `BUFFERS` times, both with code
//! the compiler inlines into them (`Box::new`, `Vec::with_capacity`), so that they call the C
//! library's allocator themselves; `text` allocates once inside the standard library's
//! compiled `format!` (a `String` growing from empty to hold a short number), which calls
//! Rust's `__rust_alloc`. None of the three is inlined, so that each is a function of its own
//! in callgrind's output.

use pilot::{Bencher, black_box};

#[global_allocator]
static ALLOC: pilot::CountingAlloc = pilot::CountingAlloc::system();

const BOXES: u64 = 1;
const BUFFERS: u64 = 2;

/// `BOXES` boxes, each allocated and freed: `BOXES` allocations.
#[inline(never)]
fn boxes() -> u64 {
    let mut sum = 0;
    for i in 0..black_box(BOXES) {
        sum += *black_box(Box::new(black_box(i)));
    }
    sum
}

/// `BUFFERS` vectors of 16 bytes, each allocated and freed: `BUFFERS` allocations.
#[inline(never)]
fn buffers() -> u64 {
    let mut sum = 0;
    for i in 0..black_box(BUFFERS) {
        let mut v: Vec<u64> = Vec::with_capacity(black_box(2));
        v.push(i);
        sum += black_box(v)[0];
    }
    sum
}

/// A short number formatted: one allocation, made inside the standard library.
#[inline(never)]
fn text() -> u64 {
    format!("{}", black_box(12345_u64)).len() as u64
}

#[pilot::bench]
fn sites(b: &mut Bencher) {
    b.iter(|| boxes() + buffers() + text());
}

pilot::main!();
