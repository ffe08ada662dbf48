#![doc = include_str!("../../README.md")]
#![deny(missing_docs)]

#[doc(hidden)]
pub mod __private;

pub use pilot_engine::record::{
    AsyncBencher, AsyncExecutor, BatchSize, Bencher, BlockingExecutor, Recorder,
};
pub use pilot_engine::stats;
pub use pilot_engine::sweep::{MAX_SWEEP, Sweep, range};
pub use pilot_engine::{Error, Exit, Result};
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
