//! pilot: a benchmark harness that runs until every performance index's confidence interval is as
//! narrow as asked, and no longer.
//!
//! pilot implements the methods of the Pilot paper (Li et al., "Pilot: A Framework that
//! Understands How to Do Performance Benchmarks the Right Way", MASCOTS 2016): warm-up and
//! cool-down phases are cut off by change-point detection ([`stats::changepoint`]),
//! autocorrelation is removed by subsession analysis ([`stats::autocorr`]) before any confidence
//! interval is computed, readings-only workloads are measured by the work-per-second regression
//! ([`stats::regression`]), and results are compared with Welch's t-test ([`stats::welch`]).
//!
//! This release holds the statistics engine, which `cargo pilot analyze` exposes for data from
//! anywhere. The `#[pilot::bench]` harness builds on it.
#![deny(missing_docs)]

#[doc(hidden)]
pub mod __private;
mod cli;
pub mod compare;
mod entry;
mod error;
mod fmt;
mod probe;
mod record;
pub mod report;
mod runner;
mod session;
pub mod stats;
pub mod store;
mod sweep;

pub use error::{Error, Result};
pub use record::{Bencher, Recorder};
pub use std::hint::black_box;
pub use sweep::{MAX_SWEEP, Sweep, range};

pub use pilot_macros::bench;

/// Generates the bench binary's `main`: runs the `#[pilot::bench]` functions of this target the
/// way `cargo bench`, `cargo test --benches` and cargo-nextest expect a harness to.
///
/// Put it once at the end of each bench target (`harness = false` in `Cargo.toml`).
#[macro_export]
macro_rules! main {
    () => {
        fn main() -> ::std::process::ExitCode {
            $crate::__private::main()
        }
    };
}
