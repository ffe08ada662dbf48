//! Instruction counts (`--instructions`): each bench, once its time is measured, runs again in
//! processes of its own under Valgrind's callgrind, with collection switched on only around
//! its units, and the counts per unit become the `instructions` performance index (and, with
//! `--cache-sim`, `estimated_cycles`).
//!
//! [`valgrind`] finds Valgrind and runs one counting process; [`child`] is that process's
//! side (the bench binary under callgrind, its rounds and their dumps); [`bench`] plans a
//! bench's counting from its measured time and combines its processes.

mod bench;
mod child;
mod valgrind;

pub(super) use bench::count_for_run;
pub use bench::{COUNT_PROCESSES, Counted, plan_for};
pub(super) use child::count_child;
pub use valgrind::{CountRequest, Valgrind, count_process};
