//! A benchmark harness that measures until every result's confidence interval is as narrow as
//! asked, and no longer: the methods of the Pilot paper (Li et al., MASCOTS 2016).
//!
//! This crate is what a bench is written with: the [`bench`] attribute, the [`main!`] macro that
//! writes the bench binary's `main`, and the types a bench function receives. The guide (how
//! to write, read, compare and run benches in CI, `cargo pilot`, the statistics) is pilot's book,
//! `book/` in the repository; `mdbook build book` writes it to `target/book/`.
//!
//! # A bench target
//!
//! ```toml
//! # Cargo.toml
//! [dev-dependencies]
//! pilot-bench = "0.2" # the package's name on crates.io; in code it is `pilot`
//!
//! [[bench]]
//! name = "my_benches"
//! harness = false
//! ```
//!
//! `cargo bench` measures the target's benches; `cargo test --benches` and cargo-nextest run
//! each once, as a test. The signature of a `#[pilot::bench]` function picks its form:
//!
//! ```
//! // benches/my_benches.rs
//! use pilot::{Bencher, Recorder};
//!
//! /// Micro form: the routine runs many times per timed unit; the time is per iteration.
//! #[pilot::bench]
//! fn sort_10k(b: &mut Bencher) {
//!     let input: Vec<u64> = (0..10_000).rev().collect(); // setup: not timed
//!     b.iter_batched(|| input.clone(), |mut v| v.sort());
//! }
//!
//! /// Full form: pilot picks each round's work amount, and the function times each unit.
//! #[pilot::bench(unit = "MiB", work = 1..=4096)]
//! fn fill_1mib(work: u64, rec: &mut Recorder) {
//!     let mut buf = vec![0u8; 1 << 20];
//!     for i in 0..work {
//!         // black_box: the buffer is never read, and the compiler would drop the fill unseen
//!         rec.unit(|| pilot::black_box(&mut buf).fill(i as u8));
//!     }
//! }
//!
//! /// Readings-only form: pilot times whole rounds of different work amounts and fits
//! /// `duration = α + work / v`.
//! #[pilot::bench(work = 10_000..=8_000_000)]
//! fn checksum(work: u64) {
//!     pilot::black_box((0..work).fold(0u64, |a, x| a.rotate_left(5) ^ x));
//! }
//!
//! /// A sweep in a group: `vec/1000` and `vec_deque/1000` are measured interleaved and ranked,
//! /// and likewise for 100 000.
//! #[pilot::bench(group = "sum", args = [1_000, 100_000], throughput = elements(n))]
//! fn vec(n: u64, b: &mut Bencher) {
//!     let v: Vec<u64> = (0..n).collect();
//!     b.iter(|| v.iter().sum::<u64>());
//! }
//!
//! #[pilot::bench(group = "sum", args = [1_000, 100_000], throughput = elements(n))]
//! fn vec_deque(n: u64, b: &mut Bencher) {
//!     let v: std::collections::VecDeque<u64> = (0..n).collect();
//!     b.iter(|| v.iter().sum::<u64>());
//! }
//!
//! pilot::main!();
//! ```
//!
//! # Items
//!
//! - [`bench`]: the attribute, and every option it takes (`ci`, `max_time`, `args`, `threads`,
//!   `group`, `throughput`, …).
//! - [`main!`]: the bench binary's `main`, once at the end of each bench target.
//! - [`Bencher`]: the micro form's timer: [`iter`](Bencher::iter),
//!   [`iter_batched`](Bencher::iter_batched) and its variants with a [`BatchSize`],
//!   [`iter_custom`](Bencher::iter_custom), and [`to_async`](Bencher::to_async), which gives an
//!   [`AsyncBencher`] on an [`AsyncExecutor`] ([`BlockingExecutor`], or a tokio runtime with
//!   the `tokio` feature).
//! - [`Recorder`]: the full form's timer of each work unit, [`Recorder::unit`].
//! - [`CountingAlloc`]: an opt-in global allocator; with it, every bench of the target also
//!   reports `allocations` and `allocated_bytes` per unit.
//! - [`range`] and [`Sweep`]: geometric sweeps for `args`, at most [`MAX_SWEEP`] values.
//! - [`black_box`]: the standard library's, re-exported.
//! - [`stats`]: the statistics every result is computed with, for data from anywhere.
//! - [`Error`], [`Result`] and [`Exit`]: the error type and the exit codes every pilot binary
//!   ends with.
//!
//! The statistics can be used on readings taken elsewhere:
//!
//! ```
//! use pilot::stats::{AnalysisConfig, analyze};
//!
//! // 100 slow readings of a warm-up, then 900 around 10.0.
//! let readings: Vec<f64> = (0..1000)
//!     .map(|i| if i < 100 { 30.0 } else { 10.0 + (i % 7) as f64 * 0.01 })
//!     .collect();
//! let analysis = analyze(&readings, &AnalysisConfig::default())?;
//! assert!(analysis.stable.start >= 100, "the warm-up is cut off");
//! assert!((analysis.mean - 10.03).abs() < 0.01);
//! assert!(analysis.ci.low <= analysis.mean && analysis.mean <= analysis.ci.high);
//! # Ok::<(), pilot::Error>(())
//! ```
//!
//! # Features
//!
//! - `tokio`: [`AsyncExecutor`] for tokio's `Runtime` and `Handle`, for
//!   [`Bencher::to_async`].
#![deny(missing_docs)]

#[doc(hidden)]
pub mod __private;

pub use pilot_engine::allocations::CountingAlloc;
pub use pilot_engine::record::{
    AsyncBencher, AsyncExecutor, BatchSize, Bencher, BlockingExecutor, Recorder,
};
pub use pilot_engine::{Error, Result};
pub use pilot_engine::{MAX_SWEEP, Sweep, range};
pub use pilot_format::Exit;
pub use pilot_stats as stats;
pub use std::hint::black_box;

pub use pilot_macros::bench;

/// Generates the bench binary's `main`: runs the `#[pilot::bench]` functions of this target the
/// way `cargo bench`, `cargo test --benches` and cargo-nextest expect a harness to.
///
/// Put it once at the end of each bench target (`harness = false` in `Cargo.toml`).
#[macro_export]
macro_rules! main {
    () => {
        fn main() -> ::std::process::ExitCode {
            $crate::__private::main(cfg!(debug_assertions))
        }
    };
}
