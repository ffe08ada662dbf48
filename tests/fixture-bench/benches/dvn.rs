//! The fixture's work written for divan's API, run through pilot-divan: `spin`'s mixing loop,
//! its cost set by `PILOT_FIXTURE_COST` as in `cost.rs`, over two step counts with an items
//! counter, in a group, on one and two threads, and a bench that panics when
//! `PILOT_FIXTURE_PANIC` is set.

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};

/// The cost factor `PILOT_FIXTURE_COST` (default 1).
fn cost() -> f64 {
    std::env::var("PILOT_FIXTURE_COST").map_or(1.0, |v| v.parse().unwrap())
}

/// `steps` rounds of xorshift-multiply mixing.
fn mix(steps: u64) -> u64 {
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    for i in 0..steps {
        x = (x ^ i).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x ^= x >> 31;
    }
    x
}

#[divan::bench_group(name = "mixing")]
mod mix {
    use super::*;

    /// `dvn::mixing::spin::500` and `…::2000`: the steps are the items counted.
    #[divan::bench(args = [500, 2000])]
    fn spin(bencher: Bencher, steps: u64) {
        let scaled = (steps as f64 * cost()).round() as u64;
        bencher
            .counter(ItemsCount::new(steps))
            .bench(|| mix(black_box(scaled)));
    }

    /// `dvn::mixing::on_threads::t=1` and `…::t=2`.
    #[divan::bench(threads = [1, 2])]
    fn on_threads() -> u64 {
        mix(black_box((500.0 * cost()).round() as u64))
    }
}

/// `dvn::width::u8` and `dvn::width::u64`.
#[divan::bench(types = [u8, u64])]
fn width<T: Default + Copy>() -> [T; 64] {
    black_box([T::default(); 64])
}

#[divan::bench]
fn may_panic(bencher: Bencher) {
    if std::env::var_os("PILOT_FIXTURE_PANIC").is_some() {
        panic!("the fixture was asked to fail");
    }
    bencher.bench(|| mix(black_box(100)));
}

fn main() {
    divan::main();
}
