//! Records the example data files in `examples/data/`: real unit readings taken on the machine
//! that runs it, so `cargo pilot analyze` has something true to chew on.
//!
//! `cargo run --release -p pilot-examples --bin record_readings -- examples/data`
//!
//! Writes:
//! - `sum-64k.txt`: nanoseconds to sum each 64 KiB chunk of a fresh 16 MiB buffer, cycling
//!   through it 16 times: the first pass also faults the pages in, a real warm-up phase;
//! - `sort-1k.txt`: nanoseconds per `sort` of a fresh 1 000-element `Vec<u64>`, 3 000 readings;
//! - `sort-unstable-1k.txt`: the same with `sort_unstable`, to compare with the first;
//! - `copy-wps.csv`: readings-only data: bytes copied per round and the round's duration in
//!   nanoseconds, work amounts from Pilot's bisection sequence over 64 KiB ..= 4 MiB.

use std::hint::black_box;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// A small xorshift generator: the inputs only need to be unsorted, not random in any deep sense.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn record_sorts(unstable: bool) -> Vec<u128> {
    let mut seed = 0x9E37_79B9_7F4A_7C15;
    let input: Vec<u64> = (0..1000).map(|_| xorshift(&mut seed)).collect();
    let mut readings = Vec::with_capacity(3000);
    for _ in 0..3000 {
        let mut v = input.clone();
        let start = Instant::now();
        if unstable {
            v.sort_unstable();
        } else {
            v.sort();
        }
        black_box(&v);
        readings.push(start.elapsed().as_nanos());
    }
    readings
}

fn record_sums() -> Vec<u128> {
    const CHUNK: usize = 64 << 10;
    const LEN: usize = 16 << 20;
    // Untouched memory: the first read of each page maps it (a page fault per 4 KiB).
    let buffer: Vec<u64> = vec![0; LEN / 8];
    let words = CHUNK / 8;
    let mut readings = Vec::new();
    for _pass in 0..16 {
        for chunk in buffer.chunks_exact(words) {
            let start = Instant::now();
            let sum: u64 = black_box(chunk).iter().fold(0, |a, &x| a.wrapping_add(x));
            black_box(sum);
            readings.push(start.elapsed().as_nanos());
        }
    }
    readings
}

/// Pilot's bisection sequence of work amounts over [a, b]: midpoint, then the midpoints of the
/// halves, and so on.
fn bisection(a: u64, b: u64, count: usize) -> Vec<u64> {
    let mut out = Vec::new();
    let mut level = vec![(a, b)];
    while out.len() < count {
        let mut next = Vec::new();
        for (lo, hi) in level {
            let mid = lo + (hi - lo) / 2;
            out.push(mid);
            next.push((lo, mid));
            next.push((mid, hi));
        }
        level = next;
    }
    out.truncate(count);
    out
}

fn main() -> std::io::Result<()> {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "examples/data".to_string());
    let dir = Path::new(&dir);
    for (name, unstable) in [("sort-1k.txt", false), ("sort-unstable-1k.txt", true)] {
        let mut f = std::fs::File::create(dir.join(name))?;
        let what = if unstable { "sort_unstable" } else { "sort" };
        writeln!(
            f,
            "# nanoseconds per {what} of a fresh 1000-element Vec<u64>, in order"
        )?;
        for r in record_sorts(unstable) {
            writeln!(f, "{r}")?;
        }
    }
    let mut f = std::fs::File::create(dir.join("sum-64k.txt"))?;
    writeln!(
        f,
        "# nanoseconds per sum of a 64 KiB chunk of a fresh 16 MiB buffer, 16 passes"
    )?;
    for r in record_sums() {
        writeln!(f, "{r}")?;
    }
    let src = vec![7u8; 4 << 20];
    // Written once before timing, so no round pays for mapping the destination's pages.
    let mut dst = vec![1u8; 4 << 20];
    let mut f = std::fs::File::create(dir.join("copy-wps.csv"))?;
    writeln!(f, "bytes,nanoseconds")?;
    for w in bisection(64 << 10, 4 << 20, 120) {
        let w = w as usize;
        let start = Instant::now();
        dst[..w].copy_from_slice(&src[..w]);
        black_box(&dst);
        writeln!(f, "{w},{}", start.elapsed().as_nanos())?;
    }
    Ok(())
}
