//! Used by `#[divan::bench]` and `#[divan::bench_group]` expansions; not public API, not
//! covered by semver. Expansions name everything here by absolute path (`::divan::__private::…`,
//! or the path given with `crate = …`). It only re-exports.

pub use inventory;

pub use crate::Bencher;
pub use crate::arg::{Arg, Args, ArgsRunner, ToStringHelper};
pub use crate::entry::{Entry, Instance, Kind, Registered, Runner};
pub use crate::options::{BenchOptions, IntoDuration, IntoThreads, new_counter_set};
