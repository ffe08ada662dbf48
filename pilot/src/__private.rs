//! Used by `#[pilot::bench]` and `pilot::main!()` expansions; not public API, not covered by
//! semver. Expansions name everything here by absolute path (`::pilot::__private::…`, or the
//! path given with `crate = …`), so users never depend on `inventory` themselves. It only
//! re-exports: each item lives where its concept does.

pub use inventory;

pub use crate::entry::{
    Amount, BenchBody, BenchDef, BenchOptions, IntoArgs, Throughput, ThroughputKind, amount,
    arg_at, arg_name, args,
};
pub use crate::record::{Bencher, Recorder, clear_recorder, recorder};
pub use crate::runner::{driven, main};
