// Every option of `#[divan::bench]` and `#[divan::bench_group]` and every `Bencher` method, as
// divan 0.1.21's docs write them: compiled, then run (in test mode, each bench once).
use std::collections::{BTreeSet, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use divan::counter::{BytesCount, CharsCount, ItemsCount};
use divan::{AllocProfiler, Bencher, black_box, black_box_drop};

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

const LENS: &[usize] = &[1, 8];
const SIZES: &[usize] = &[1, 2, 5];
const TEXT: &str = "héllo wörld";

#[divan::bench]
fn plain() -> i32 {
    black_box(1) + black_box(42)
}

#[divan::bench(name = "renamed", sample_count = 10, sample_size = 5, skip_ext_time)]
fn original() {
    black_box_drop(black_box(1) * 3);
}

#[divan::bench(args = [1000, LEN, len()])]
fn init_vec(len: usize) -> Vec<usize> {
    (0..len).collect()
}

const LEN: usize = 10;

fn len() -> usize {
    3
}

#[divan::bench(args = LENS, max_time = 2, min_time = 0.5)]
fn sum(bencher: Bencher, len: usize) {
    let v: Vec<usize> = (0..len).collect();
    bencher.counter(len).bench(|| v.iter().sum::<usize>());
}

#[derive(Debug, Clone, Copy)]
enum Shape {
    Small,
    Large,
}

#[divan::bench(args = [Shape::Small, Shape::Large], max_time = Duration::from_millis(500))]
fn by_shape(shape: Shape) -> usize {
    match shape {
        Shape::Small => 1,
        Shape::Large => 1000,
    }
}

#[derive(Debug)]
enum Owned {
    A,
}

#[divan::bench(args = [Owned::A])]
fn by_reference(arg: &Owned) -> bool {
    matches!(arg, Owned::A)
}

fn strings() -> impl Iterator<Item = String> {
    ["a", "bc"].into_iter().map(String::from)
}

#[divan::bench(args = strings())]
fn by_str(s: &str) -> usize {
    s.len()
}

#[divan::bench(consts = [1, 16, LEN])]
fn array<const N: usize>() -> [i32; N] {
    [black_box(0); N]
}

#[divan::bench(consts = SIZES)]
fn array_external<const N: usize>() -> [i32; N] {
    [0; N]
}

#[divan::bench(types = [&str, String])]
fn from_str<'a, T>() -> T
where
    T: From<&'a str>,
{
    black_box("hello").into()
}

#[divan::bench(types = [Vec<i32>, BTreeSet<i32>, HashSet<i32>], args = [0, 16])]
fn from_range<T: FromIterator<i32>>(n: i32) -> T {
    (0..n).collect()
}

#[divan::bench(types = [u8, u64], consts = [4, 64])]
fn filled<T: Default + Clone, const N: usize>() -> Vec<T> {
    vec![T::default(); N]
}

#[divan::bench(threads = [1, 2], counter = ItemsCount::new(1usize))]
fn shared_counter(bencher: Bencher) {
    let n = Arc::new(AtomicUsize::new(0));
    bencher.bench(|| n.fetch_add(1, Ordering::Relaxed));
}

#[divan::bench(threads)]
fn all_threads(bencher: Bencher) {
    let arc = Arc::new(42);
    bencher.bench(|| arc.clone());
}

#[divan::bench(threads = false, bytes_count = TEXT.len(), chars_count = 11u32)]
fn counts() -> usize {
    black_box(TEXT).chars().count()
}

#[divan::bench(counters = [BytesCount::of_str(TEXT), CharsCount::of_str(TEXT)], items_count = 1u8)]
fn many_counters() -> usize {
    black_box(TEXT).len()
}

#[divan::bench(ignore)]
fn ignored_by_option() {
    unimplemented!()
}

#[divan::bench]
#[ignore]
fn ignored_by_attribute() {
    unimplemented!()
}

#[divan::bench(ignore = std::env::var("NEVER_SET_HERE").is_ok())]
fn ignored_at_run_time() {}

#[divan::bench]
fn every_bencher_method(bencher: Bencher) {
    bencher
        .with_inputs(|| String::from("abc"))
        .input_counter(BytesCount::of_str)
        .bench_values(|s| s + "d");
}

#[divan::bench]
fn local(bencher: Bencher) {
    let mut out = Vec::new();
    bencher.bench_local(|| out.push(1));
}

#[divan::bench]
fn local_values(bencher: Bencher) {
    let mut kept = Vec::new();
    bencher
        .with_inputs(|| 7usize)
        .count_inputs_as::<ItemsCount>()
        .bench_local_values(|n| kept.push(n));
}

#[divan::bench]
fn refs(bencher: Bencher) {
    bencher
        .with_inputs(|| vec![3, 1, 2])
        .bench_refs(|v| v.sort());
}

#[divan::bench]
fn local_refs(bencher: Bencher) {
    let mut total = 0;
    bencher
        .with_inputs(|| vec![3, 1, 2])
        .bench_local_refs(|v| total += v.len());
}

#[divan::bench(threads = 2)]
fn refs_on_threads(bencher: Bencher) {
    bencher
        .counter(BytesCount::new(24u32))
        .with_inputs(|| vec![3u64, 1, 2])
        .bench_refs(|v| v.sort());
}

extern "C" fn c_abi() -> i32 {
    1
}

#[divan::bench]
extern "C" fn extern_abi() -> i32 {
    c_abi()
}

#[divan::bench_group(
    sample_count = 100,
    sample_size = 500,
    max_time = 1,
    counter = BytesCount::of_str(TEXT),
)]
mod parent {
    use super::*;

    #[divan::bench_group(sample_size = 1, name = "first")]
    mod child1 {
        #[divan::bench]
        fn bench() {}
    }

    #[divan::bench_group(threads = [1, 2])]
    mod child2 {
        #[divan::bench(crate = divan)]
        fn bench() -> usize {
            divan::black_box(super::TEXT).len()
        }
    }

    mod child3 {
        #[divan::bench(sample_count = 1)]
        fn bench() {}
    }
}

#[divan::bench_group]
#[ignore]
mod ignored_group {
    #[divan::bench]
    fn todo() {
        unimplemented!()
    }
}

#[divan::bench_group(ignore = false, chars_count = 3u8, items_count = 1u8, bytes_count = 2u8)]
mod shorthands {
    #[divan::bench]
    fn run() {}
}

fn main() {
    divan::main();
}
