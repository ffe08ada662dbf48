//! A sweep's argument may be borrowed: `&str` from string literals or `String`s, `&[u8]` from
//! vectors or slices, `&Vec<T>` from vectors, `&[&str]`. Each bench checks the value it was
//! lent (the binary runs in test mode, each bench once per value).

use pilot::{Bencher, Recorder};

#[pilot::bench(args = ["english", "french"])]
fn greet(lang: &str, b: &mut Bencher) {
    assert!(lang == "english" || lang == "french", "{lang}");
    b.iter(|| pilot::black_box(lang).len());
}

#[pilot::bench(args = [String::from("english"), String::from("french")])]
fn owned_strings(lang: &str, work: u64, rec: &mut Recorder) {
    assert!(lang == "english" || lang == "french", "{lang}");
    for _ in 0..work {
        rec.unit(|| pilot::black_box(lang).to_uppercase());
    }
}

#[pilot::bench(args = [vec![7u8; 4], vec![7; 16]], throughput = bytes(input.len()))]
fn checksum(input: &[u8], b: &mut Bencher) {
    assert!(input.len() == 4 || input.len() == 16);
    assert!(input.iter().all(|&x| x == 7));
    b.iter(|| pilot::black_box(input).iter().map(|&x| x as u64).sum::<u64>());
}

const BYTES: &[&[u8]] = &[b"abc", b"defgh"];

#[pilot::bench(args = BYTES)]
fn static_slices(input: &'_ [u8], work: u64) {
    assert!(input == b"abc" || input == b"defgh");
    pilot::black_box(input.repeat(work as usize));
}

#[pilot::bench(args = vec![vec![1u64, 2, 3], vec![4, 5]])]
fn sum_vec(v: &Vec<u64>, b: &mut Bencher) {
    assert!(v == &[1, 2, 3] || v == &[4, 5], "{v:?}");
    b.iter(|| pilot::black_box(v).iter().sum::<u64>());
}

#[pilot::bench(args = [vec!["a", "b"], vec!["c"]], threads = [1, 2])]
fn words(list: &[&str], b: &mut Bencher) {
    assert!(list == ["a", "b"] || list == ["c"], "{list:?}");
    b.iter(|| pilot::black_box(list).concat());
}

pilot::main!();
