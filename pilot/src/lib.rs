#![doc = include_str!("../../README.md")]
#![deny(missing_docs)]

#[doc(hidden)]
pub mod __private;
#[doc(hidden)]
pub mod cargo_api;
mod checks;
mod cli;
mod compare;
mod entry;
mod error;
mod exit;
mod files;
mod fmt;
mod probe;
mod program;
mod record;
mod report;
mod runner;
mod schema;
mod session;
mod settings;
pub mod stats;
mod store;
mod sweep;

pub use error::{Error, Result};
pub use exit::Exit;
pub use record::{AsyncBencher, AsyncExecutor, BatchSize, Bencher, BlockingExecutor, Recorder};
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
            $crate::__private::main(cfg!(debug_assertions))
        }
    };
}
