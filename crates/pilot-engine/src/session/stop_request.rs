//! A request to stop, from Ctrl-C or SIGTERM: sessions check it between rounds, so a round
//! that has started runs to its end, the workload's own cleanup (its `Drop`s, its temporary
//! files) runs as usual, and nothing of pilot's runs beside the workload while it is measured
//! (the signal handler only stores a flag: no thread waits for it).

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the signal handler (see `runner::interrupt`); a plain atomic store is all a handler
/// may safely do.
pub(crate) static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Whether a stop was requested.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}
