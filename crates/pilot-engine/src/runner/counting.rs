//! Instruction counts (`--instructions`): each bench, once its time is measured, runs again in
//! processes of its own under Valgrind's callgrind, with collection switched on only around
//! its units, and the counts per unit become the `instructions` performance index (and, with
//! `--cache-sim`, `estimated_cycles`).
//!
//! [`valgrind`] finds Valgrind and runs one counting process; [`child`] is that process's
//! side (the bench binary under callgrind, its rounds and their dumps), which tells its parent
//! how it ended in a [`message`]; [`parent`] plans a bench's counting from its measured time
//! and combines its processes; [`error`] says why counting failed ([`CountError`]).

mod child;
mod error;
mod message;
mod parent;
mod valgrind;

pub(super) use child::count_child;
pub use error::CountError;
pub(super) use parent::count_for_run;
pub(crate) use parent::sizing_ns;
pub use parent::{COUNT_PROCESSES, Counted, plan_of};
pub use valgrind::{CountRequest, Valgrind, count_process};
