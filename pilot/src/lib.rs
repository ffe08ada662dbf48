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

mod error;
pub mod stats;

pub use error::{Error, Result};

pub use pilot_macros::bench;
