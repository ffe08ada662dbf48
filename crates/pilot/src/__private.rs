//! Used by `#[pilot::bench]` and `pilot::main!()` expansions; not public API, not covered by
//! semver. Expansions name everything here by absolute path (`::pilot::__private::…`, or the
//! path given with `crate = …`), so users never depend on `inventory` or `pilot-engine`
//! themselves. It only re-exports the engine's items.

pub use inventory;

pub use pilot_engine::entry::{
    Amount, BenchBody, BenchDef, BenchOptions, IntoArgs, Lend, Throughput, ThroughputKind, amount,
    arg_at, arg_name, args,
};
pub use pilot_engine::record::{
    Bencher, Recorder, Timer, Tsc, clear_recorder, recorder, recorder_timed_by,
};
pub use pilot_engine::runner::main;
