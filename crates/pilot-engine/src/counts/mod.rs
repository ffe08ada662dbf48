//! Instruction counts under Valgrind's callgrind: what a counting process is asked to run
//! ([`plan`]), callgrind's dump files read ([`dump`], their functions in [`callgraph`]), and
//! from them the counts per iteration and their estimate over processes ([`estimate`]), and
//! where they go by function and call stack ([`profile`]), and where a bench allocates, by call
//! site ([`sites`]); why dumps give no counts ([`DumpError`]). Plain data in, numbers out: the
//! runner starts the processes, the store and the comparisons use the numbers.
//!
//! A count is exact where the work is: callgrind counts every instruction a unit executes, the
//! same on a busy machine as on an idle one. What still moves it between processes is what a
//! process starts with (addresses, the environment's size, hash seeds drawn at random), which
//! is why a count, like a time, comes from several processes.

pub(crate) mod callgraph;
pub(crate) mod dump;
mod error;
pub(crate) mod estimate;
pub(crate) mod plan;
pub(crate) mod profile;
pub(crate) mod rounds;
pub(crate) mod sites;

pub(crate) use dump::Dump;
pub use error::DumpError;
pub(crate) use estimate::process_counts;
pub use estimate::{CountEstimate, ProcessCounts};
pub use plan::CountPlan;
pub(crate) use plan::PLAN_VARIABLE;
pub(crate) use plan::{RoundKind, RoundLabel};
