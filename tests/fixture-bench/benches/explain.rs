//! A bench whose unit calls three inner functions of about the same work, for the test that
//! a change of the instructions is explained by the function it is in
//! (`crates/cargo-pilot/tests/explain.rs`): the test gives `inner_b` 10% more work in a commit
//! of its own by editing `B_STEPS`. The three bodies differ (an add, a xor-rotate, a multiply)
//! so that the compiler cannot merge them into one function, and none is inlined, so that each
//! is a function of its own in callgrind's output.

use pilot::{Bencher, black_box};

const A_STEPS: u64 = 1000;
const B_STEPS: u64 = 1000;
const C_STEPS: u64 = 1000;

#[inline(never)]
fn inner_a(steps: u64) -> u64 {
    let mut x = 1_u64;
    for i in 0..steps {
        x = black_box(x.wrapping_add(i));
    }
    x
}

#[inline(never)]
fn inner_b(steps: u64) -> u64 {
    let mut x = 2_u64;
    for i in 0..steps {
        x = black_box((x ^ i).rotate_left(7));
    }
    x
}

#[inline(never)]
fn inner_c(steps: u64) -> u64 {
    let mut x = 3_u64;
    for i in 0..steps {
        x = black_box(x.wrapping_mul(i | 1));
    }
    x
}

#[inline(never)]
fn outer() -> u64 {
    inner_a(black_box(A_STEPS)) ^ inner_b(black_box(B_STEPS)) ^ inner_c(black_box(C_STEPS))
}

#[pilot::bench]
fn three(b: &mut Bencher) {
    b.iter(outer);
}

pilot::main!();
