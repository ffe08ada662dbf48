//! pilot's engine: the adaptive sessions, the accuracy checks, the results on disk, comparisons,
//! reports, and the bench binary's runner (its groups and processes).
//!
//! Users depend on [`pilot`](https://docs.rs/pilot), which re-exports the parts a bench is
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
//! | 0 | [`allocations`], [`error`], [`exit`], [`fmt`], [`files`], [`out`](mod@out), [`sweep`] |
//! | 1 | [`stats`], [`counts`] |
//! | 2 | [`settings`], [`schema`], [`record`] |
//! | 3 | [`probe`], [`checks`], [`entry`], [`cli`] |
//! | 4 | [`session`] |
//! | 5 | [`store`] |
//! | 6 | [`compare`], [`report`] |
//! | 7 | [`runner`] |
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
pub mod exit;
pub mod files;
pub mod fmt;
pub mod out;
pub mod probe;
pub mod record;
pub mod report;
pub mod runner;
pub mod schema;
pub mod session;
pub mod settings;
pub mod stats;
pub mod store;
pub mod sweep;

pub use allocations::CountingAlloc;
pub use error::{Error, Result};
pub use exit::Exit;
pub use record::{AsyncBencher, AsyncExecutor, BatchSize, Bencher, BlockingExecutor, Recorder};
pub use sweep::{MAX_SWEEP, Sweep, range};
