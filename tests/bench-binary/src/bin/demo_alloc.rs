//! A pilot bench binary for the end-to-end test of what a bench's process contains
//! (`tests/bench-binary/tests/bench_binary.rs`): an allocating nanosecond bench that also checks, on Linux,
//! that it runs in a single-threaded process.

/// The threads of this process, from `/proc/self/status` (Linux; `None` elsewhere).
fn threads() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("Threads:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn encode(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(HEX[usize::from(b >> 4)] as char);
        s.push(HEX[usize::from(b & 15)] as char);
    }
    s
}

/// Encoding 3 bytes to a new `String`: one allocation and one free per iteration.
#[pilot::bench]
fn encode_3(b: &mut pilot::Bencher) {
    if let Some(n) = threads() {
        assert_eq!(n, 1, "the bench's process has {n} threads");
    }
    let input = [1_u8, 2, 3];
    b.iter(|| encode(pilot::black_box(&input)));
}

pilot::main!();
