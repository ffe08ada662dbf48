//! What a bench's panic becomes: its message, and the message of a bench that never timed
//! anything, which every way of running a bench reports alike.

use std::panic::{AssertUnwindSafe, catch_unwind};

/// The message of a micro-form bench that never timed anything.
pub(crate) const NEVER_ITERATED: &str =
    "the bench never called `b.iter(...)` or `b.iter_batched(...)`";

/// Runs `f`, turning a panic into its message.
pub(crate) fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "the bench panicked".to_string())
    })
}
