//! pilot's engine: the adaptive sessions, the accuracy checks, the results on disk, comparisons,
//! reports, and the bench binary's runner (its groups and processes).
//!
//! Users depend on [`pilot`](https://docs.rs/pilot-bench), which re-exports the parts a bench is
//! written with. This crate is for the programs built on the engine: `pilot` itself,
//! `pilot-criterion` (criterion's API on these sessions) and `cargo-pilot` (the `cargo pilot`
//! command). They depend on it by exact version (`=0.2.0`): its API moves with pilot's releases.
//!
//! # The engine's API
//!
//! Public is what another crate of ours, or a user through `pilot`, calls; everything else is
//! `pub(crate)`, and the crate denies `unreachable_pub`, so an item declared `pub` is part of
//! this API (`tests/tests/engine_api.rs` counts it and keeps it under a limit):
//! - **for benches**, re-exported by `pilot`: [`Bencher`], [`AsyncBencher`], [`BatchSize`],
//!   [`Recorder`], [`CountingAlloc`], [`Sweep`], [`range`], [`Error`];
//! - **for the expansions of `#[pilot::bench]` and `pilot::main!()`**, through
//!   `pilot::__private`: [`entry`] (a bench's definition and options), [`record`]'s recorder
//!   slot and timers, [`runner::main`];
//! - **for the drop-ins** (`pilot-criterion`, `pilot-divan`): [`cli`] (the bench binary's
//!   arguments), [`runner::driven`] (benches a foreign API announces one at a time),
//!   [`runner::listed`], [`session`] (a session and a group of them), [`settings`],
//!   [`allocations`]' counters;
//! - **for `cargo-pilot`**: the results on disk ([`store`]), [`compare`], [`report`], [`fmt`],
//!   [`files`], [`out`](mod@out), the speed and noise probes ([`probe`]), instruction counts
//!   ([`counts`], [`runner::counting`]), the busy-machine meter ([`checks`]), and the runner's
//!   parts that `cargo pilot run` measures a command-line program with ([`runner`]).
//!
//! Each module holds one concept, and the modules are layered: a module uses only modules of its
//! own layer or of layers below it (`ARCHITECTURE.md` at the repository's root lists the layers,
//! and a test enforces them).
//!
//! | layer | modules |
//! |---|---|
//! | 0 | [`allocations`], `error`, [`fmt`], [`files`], [`out`](mod@out), `sweep` |
//! | 1 | [`counts`] |
//! | 2 | [`settings`], [`record`] |
//! | 3 | [`probe`], [`checks`], [`entry`], [`cli`] |
//! | 4 | [`session`] |
//! | 5 | [`store`] |
//! | 6 | [`compare`], [`report`] |
//! | 7 | [`runner`] |
//!
//! Below every layer are two crates of their own: the statistics on plain numbers
//! ([`pilot_stats`]) and the documents other tools read with the exit codes ([`pilot_format`]).
#![deny(missing_docs)]
#![deny(unreachable_pub)]
// Module docs name the private files that hold each concern (`runner`'s `bench_mode`, `group`,
// …): links for a reader of the source, plain text on the rendered page.
#![allow(rustdoc::private_intra_doc_links)]

pub mod allocations;
pub mod checks;
pub mod cli;
pub mod compare;
pub mod counts;
pub mod entry;
mod error;
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
mod sweep;

pub use allocations::CountingAlloc;
pub use error::{Error, Result};
pub use record::{AsyncBencher, AsyncExecutor, BatchSize, Bencher, BlockingExecutor, Recorder};
pub use sweep::{MAX_SWEEP, Sweep, range};
