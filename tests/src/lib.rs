//! Integration tests of pilot live in `tests/`.
//!
//! This library holds the book's chapters and the README as doc comments of private modules,
//! so that `cargo test --doc` compiles and runs every Rust example in them against the real
//! crates (`pilot`, and pilot-criterion as `criterion`, are dev-dependencies of this crate).
//! `tests/book.rs` fails when a chapter is missing here, or when an example is marked `ignore`.

/// `README.md`
#[doc = include_str!("../../README.md")]
mod readme {}

/// `book/src/introduction.md`
#[doc = include_str!("../../book/src/introduction.md")]
mod introduction {}

/// `book/src/getting-started.md`
#[doc = include_str!("../../book/src/getting-started.md")]
mod getting_started {}

/// `book/src/writing-benches.md`
#[doc = include_str!("../../book/src/writing-benches.md")]
mod writing_benches {}

/// `book/src/reading-results.md`
#[doc = include_str!("../../book/src/reading-results.md")]
mod reading_results {}

/// `book/src/accuracy-checks.md`
#[doc = include_str!("../../book/src/accuracy-checks.md")]
mod accuracy_checks {}

/// `book/src/comparing.md`
#[doc = include_str!("../../book/src/comparing.md")]
mod comparing {}

/// `book/src/ci.md`
#[doc = include_str!("../../book/src/ci.md")]
mod ci {}

/// `book/src/history.md`
#[doc = include_str!("../../book/src/history.md")]
mod history {}

/// `book/src/command-line-programs.md`
#[doc = include_str!("../../book/src/command-line-programs.md")]
mod command_line_programs {}

/// `book/src/importing.md`
#[doc = include_str!("../../book/src/importing.md")]
mod importing {}

/// `book/src/coming-from-criterion.md`
#[doc = include_str!("../../book/src/coming-from-criterion.md")]
mod coming_from_criterion {}

/// `book/src/coming-from-hyperfine.md`
#[doc = include_str!("../../book/src/coming-from-hyperfine.md")]
mod coming_from_hyperfine {}

/// `book/src/coming-from-divan.md`
#[doc = include_str!("../../book/src/coming-from-divan.md")]
mod coming_from_divan {}

/// `book/src/statistics.md`
#[doc = include_str!("../../book/src/statistics.md")]
mod statistics {}

/// `book/src/reference.md`
#[doc = include_str!("../../book/src/reference.md")]
mod reference {}

/// `book/src/contributing.md`
#[doc = include_str!("../../book/src/contributing.md")]
mod contributing {}
