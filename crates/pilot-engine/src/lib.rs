//! pilot's engine: the adaptive sessions, the accuracy checks, the results on disk, comparisons,
//! reports, and the bench binary's runner (its groups and processes).
//!
//! Users depend on [`pilot`](https://docs.rs/pilot-bench), which re-exports the parts a bench is
//! written with. This crate is for the programs built on the engine: `pilot` itself,
//! `pilot-criterion` (criterion's API on these sessions) and `cargo-pilot` (the `cargo pilot`
//! command). They depend on it by exact version (`=0.1.0`): its API moves with pilot's releases.
//!
//! Each module holds one concept, and the modules are layered: a module uses only modules of its
//! own layer or of layers below it (`ARCHITECTURE.md` at the repository's root lists the layers,
//! and a test enforces them).
//!
//! | layer | modules |
//! |---|---|
//! | 0 | [`allocations`], [`error`], [`fmt`], [`files`], [`out`](mod@out), [`sweep`] |
//! | 1 | [`counts`] |
//! | 2 | [`settings`], [`record`] |
//! | 3 | [`probe`], [`checks`], [`entry`], [`cli`] |
//! | 4 | [`session`] |
//! | 5 | [`store`] |
//! | 6 | [`compare`], [`report`] |
//! | 7 | [`runner`] |
//!
//! Below every layer are two crates of their own: the statistics on plain numbers
//! ([`pilot_stats`], re-exported as [`stats`]) and the documents other tools read with the exit
//! codes ([`pilot_format`]).
#![deny(missing_docs)]
// Module docs name the private files that hold each concern (`runner`'s `bench`, `group`, …):
// links for a reader of the source, plain text on the rendered page.
#![allow(rustdoc::private_intra_doc_links)]

pub mod allocations;
pub mod checks;
pub mod cli;
pub mod compare;
pub mod counts;
pub mod entry;
pub mod error;
pub mod files;
pub mod fmt;
pub mod out;
pub mod probe;
pub mod record;
pub mod report;
pub mod runner;
pub mod session;
pub mod settings;
pub mod store;
pub mod sweep;

/// The statistics on plain numbers: [`pilot_stats`], at the path benches and tests have named
/// (`pilot::stats`, `pilot_engine::stats`).
pub use pilot_stats as stats;

pub use allocations::CountingAlloc;
pub use error::{Error, Result};
pub use record::{AsyncBencher, AsyncExecutor, BatchSize, Bencher, BlockingExecutor, Recorder};
pub use sweep::{MAX_SWEEP, Sweep, range};
