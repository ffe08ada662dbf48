//! Several process executions of one bench: the parent starts them, each child runs a short
//! session and reports it in a message of its own.
//!
//! [`child`] is the child's side and how the parent starts one; [`message`] is what a child
//! writes for its parent, and [`child_report`] the same read for `cargo pilot bench
//! --against`; [`parent`] runs the processes of one bench, [`interleaved`] those of a group's
//! members in turn; [`combination`] makes one result of a bench's processes; [`fresh_copy`]
//! gives each process a file of its own to run.

mod child;
mod child_report;
mod combination;
mod fresh_copy;
mod interleaved;
mod message;
mod parent;

pub use child::WarmUp;
pub(super) use child::{child_mode, child_session, inherit};
pub use child_report::{ChildFailure, ChildReport};
pub use combination::combine_children;
pub use fresh_copy::fresh_copy;
pub(super) use interleaved::{SoFar, measure_interleaved};
pub(super) use parent::measure_in_processes;
