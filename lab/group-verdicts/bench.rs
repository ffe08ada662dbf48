//! The groups whose verdicts `lab/group-verdicts/run.sh` measures (20 fresh runs each, in a
//! crate of its own outside the workspace).
//!
//! - `sorts`: three sorts of 1 000, 4 000 and 16 000 elements: must be ranked 1k < 4k < 16k.
//! - `identical`: two identical functions: must never be `faster`.
//! - `five_percent`: a chain of 2 000 dependent multiply-adds against one of 2 100: `fast` must
//!   be `faster` than `slow`.

mod sorts {
    fn sort(b: &mut pilot::Bencher, n: usize) {
        let data = pilot_examples::sort_input(n);
        b.iter_batched(|| data.clone(), |mut v| v.sort_unstable());
    }

    #[pilot::bench(group = "sorts")]
    fn sort_1k(b: &mut pilot::Bencher) {
        sort(b, 1_000);
    }

    #[pilot::bench(group = "sorts")]
    fn sort_4k(b: &mut pilot::Bencher) {
        sort(b, 4_000);
    }

    #[pilot::bench(group = "sorts")]
    fn sort_16k(b: &mut pilot::Bencher) {
        sort(b, 16_000);
    }
}

/// `steps` dependent multiply-adds: a time proportional to `steps` on any machine.
#[inline(never)]
fn chain(seed: u64, steps: u64) -> u64 {
    let mut x = seed;
    for _ in 0..steps {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
    }
    x
}

mod identical {
    #[pilot::bench(group = "identical")]
    fn first(b: &mut pilot::Bencher) {
        b.iter(|| super::chain(pilot::black_box(7), 2_000));
    }

    #[pilot::bench(group = "identical")]
    fn second(b: &mut pilot::Bencher) {
        b.iter(|| super::chain(pilot::black_box(7), 2_000));
    }
}

mod five_percent {
    #[pilot::bench(group = "five_percent")]
    fn fast(b: &mut pilot::Bencher) {
        b.iter(|| super::chain(pilot::black_box(7), 2_000));
    }

    #[pilot::bench(group = "five_percent")]
    fn slow(b: &mut pilot::Bencher) {
        b.iter(|| super::chain(pilot::black_box(7), 2_100));
    }
}

pilot::main!();
