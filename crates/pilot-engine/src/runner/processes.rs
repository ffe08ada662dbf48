//! Several process executions of one bench: the parent starts them, each child runs a short
//! session and reports it in a message of its own.
//!
//! [`child`] is the child's side and how the parent starts one; [`message`] is what a child
//! writes for its parent, and [`report`] the same read for `cargo pilot bench --against`;
//! [`bench`] runs the processes of one bench, [`interleaved`] those of a group's members in
//! turn; [`combination`] makes one result of a bench's processes.

mod bench;
mod child;
mod combination;
mod interleaved;
mod message;
mod report;

pub(super) use bench::measure_in_processes;
pub use child::WarmUp;
pub(super) use child::{child_mode, child_session, inherit};
pub use combination::combine_children;
pub(super) use interleaved::{SoFar, measure_interleaved};
pub use report::{ChildFailure, ChildReport};
