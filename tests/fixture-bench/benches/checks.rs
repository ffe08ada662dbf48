//! Benches that the accuracy checks must catch (`lab/accuracy-checks-firing.sh`, and
//! `crates/cargo-pilot/tests/checks.rs`): one that keeps 64 KiB more memory every round, the same work without
//! the leak, one that gets slower over its session (20% by default), one whose setup leaves a buffer's first
//! touch to the first unit of each round, and a full-form unit of about 50 ns
//! whose recording overhead pilot measures, beside the same work timed as whole rounds with
//! and without two clock reads per unit (the independent measurement of that overhead), and the
//! same work in the micro form one input a unit, whose readings carry the clock's cost.

use std::sync::Mutex;
use std::time::Instant;

use pilot::{BatchSize, Bencher, Recorder, black_box};

/// What the leaking bench keeps: one more 64 KiB block per round.
static KEPT: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());

/// `steps` rounds of xorshift-multiply mixing.
fn mix(steps: u64) -> u64 {
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    for i in 0..steps {
        x = (x ^ i).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x ^= x >> 31;
    }
    x
}

/// A 64 KiB block with every page written (so it is resident, not only reserved).
fn block() -> Vec<u8> {
    vec![black_box(1u8); 64 << 10]
}

#[pilot::bench]
fn leak(work: u64, rec: &mut Recorder) {
    KEPT.lock().unwrap().push(block());
    for _ in 0..work {
        rec.unit(|| mix(black_box(2_000)));
    }
}

#[pilot::bench]
fn no_leak(work: u64, rec: &mut Recorder) {
    black_box(block());
    for _ in 0..work {
        rec.unit(|| mix(black_box(2_000)));
    }
}

/// When the slowing bench was first called.
static FIRST_CALL: Mutex<Option<Instant>> = Mutex::new(None);

/// A number from the environment variable `name`, or `default`.
fn env_or(name: &str, default: f64) -> f64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Each unit costs `PILOT_FIXTURE_SLOWDOWN_GROWTH` (default 0.2: 20%) more at the end of
/// `PILOT_FIXTURE_SLOWDOWN_S` seconds (default 3) than at its first call, growing evenly in
/// between: run it with `--min-time` and `--max-time` of that length.
#[pilot::bench]
fn slowdown(work: u64, rec: &mut Recorder) {
    let span = env_or("PILOT_FIXTURE_SLOWDOWN_S", 3.0);
    let growth = env_or("PILOT_FIXTURE_SLOWDOWN_GROWTH", 0.2);
    let first = *FIRST_CALL.lock().unwrap().get_or_insert_with(Instant::now);
    let progress = (first.elapsed().as_secs_f64() / span).min(1.0);
    let steps = (2_000.0 * (1.0 + growth * progress)).round() as u64;
    for _ in 0..work {
        rec.unit(|| mix(black_box(steps)));
    }
}

/// The same work as `no_leak`, saying when its session starts: its first call creates the file
/// `PILOT_FIXTURE_STARTED` names, so that `crates/cargo-pilot/tests/neighbour.rs` can start a
/// neighbour after the speed probe and stop it before the bench ends.
#[pilot::bench]
fn neighbour(work: u64, rec: &mut Recorder) {
    if let Some(path) = std::env::var_os("PILOT_FIXTURE_STARTED") {
        if !std::path::Path::new(&path).exists() {
            std::fs::write(&path, b"started").unwrap();
        }
    }
    for _ in 0..work {
        rec.unit(|| mix(black_box(2_000)));
    }
}

/// A buffer allocated before timing (zero pages, mapped on first touch) and written whole by
/// every unit: each round's first unit also pays for mapping its 32 MiB, several times a
/// unit's one write of it. A round holds eight units, too few for change-point detection or
/// the trimming of a segment's edges to cut the first (base64's 30 MiB `decode_slice` bench
/// under criterion, which runs a few iterations a sample, in small). The cold_start check must
/// name it.
#[pilot::bench(work = 8..=8)]
fn first_touch(work: u64, rec: &mut Recorder) {
    let mut buf = vec![0u8; 32 << 20];
    for k in 0..work {
        rec.unit(|| {
            buf.fill(black_box(k as u8));
            black_box(&buf);
        });
    }
}

/// Steps of `mix` in a unit of about 50 ns here.
const SHORT: u64 = 28;

#[pilot::bench]
fn unit_50ns(work: u64, rec: &mut Recorder) {
    for _ in 0..work {
        rec.unit(|| mix(black_box(SHORT)));
    }
}

/// The same work in the micro form with one input a unit (`BatchSize::PerIteration`): every
/// unit reading holds two clock reads, which the clock_overhead check names.
#[pilot::bench]
fn per_iteration_50ns(b: &mut Bencher) {
    b.iter_batched_with(
        || SHORT,
        |steps| mix(black_box(steps)),
        BatchSize::PerIteration,
    );
}

/// The same units timed only as a whole round.
#[pilot::bench(group = "recording", work = 10_000..=4_000_000)]
fn whole_plain(work: u64) {
    for _ in 0..work {
        black_box(mix(black_box(SHORT)));
    }
}

/// The same units with what recording does around each: two clock reads and a store into a
/// buffer reserved before the round.
#[pilot::bench(group = "recording", work = 10_000..=4_000_000)]
fn whole_clocked(work: u64) {
    let mut readings: Vec<u64> = Vec::with_capacity(work as usize);
    for _ in 0..work {
        let start = Instant::now();
        black_box(mix(black_box(SHORT)));
        readings.push(start.elapsed().as_nanos() as u64);
    }
    black_box(readings);
}

pilot::main!();
