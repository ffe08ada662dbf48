//! divan's example `search::ordsearch` (examples/benches/search.rs, divan 0.1.21): the same
//! inputs (a sorted collection of `len` random `u64`s and a needle, made per iteration) and the
//! same routine, timed by pilot's `iter_batched_ref_with` with a fixed number of inputs per unit
//! (`ordN_nK`: K inputs) and with pilot-divan's default (`_small`: `SmallInput`, as many as make
//! a unit long enough). See run.sh.

use std::collections::BTreeSet;
use fastrand::Rng;
use ordsearch::OrderedCollection;
use pilot::BatchSize;

fn gen_inputs(len: usize) -> impl FnMut() -> (OrderedCollection<u64>, u64) {
    let mut rng = Rng::with_seed(len as u64);
    move || {
        let mut haystack = BTreeSet::new();
        for _ in 0..len {
            while !haystack.insert(rng.u64(..)) {}
        }
        let haystack: Vec<u64> = haystack.into_iter().collect();
        let needle = if rng.bool() { *rng.choice(&haystack).unwrap() } else { rng.u64(..) };
        (OrderedCollection::from_sorted_iter(haystack), needle)
    }
}

fn with(b: &mut pilot::Bencher, len: usize, n: u64) {
    b.iter_batched_ref_with(gen_inputs(len), |(h, n)| std::hint::black_box(h.find_gte(*n)).copied(), BatchSize::NumIterations(n));
}

#[pilot::bench] fn ord512_n16(b: &mut pilot::Bencher) { with(b, 512, 16) }
#[pilot::bench] fn ord512_n64(b: &mut pilot::Bencher) { with(b, 512, 64) }
#[pilot::bench] fn ord512_n256(b: &mut pilot::Bencher) { with(b, 512, 256) }
#[pilot::bench] fn ord512_n1024(b: &mut pilot::Bencher) { with(b, 512, 1024) }
#[pilot::bench] fn ord512_small(b: &mut pilot::Bencher) { b.iter_batched_ref(gen_inputs(512), |(h, n)| std::hint::black_box(h.find_gte(*n)).copied()) }
#[pilot::bench] fn ord16384_n2(b: &mut pilot::Bencher) { with(b, 16384, 2) }
#[pilot::bench] fn ord16384_n8(b: &mut pilot::Bencher) { with(b, 16384, 8) }
#[pilot::bench] fn ord16384_n32(b: &mut pilot::Bencher) { with(b, 16384, 32) }
#[pilot::bench] fn ord16384_small(b: &mut pilot::Bencher) { b.iter_batched_ref(gen_inputs(16384), |(h, n)| std::hint::black_box(h.find_gte(*n)).copied()) }

pilot::main!();
