//! Ctrl-C (SIGINT) and SIGTERM during a run.
//!
//! The handler only sets
//! [`stop_request::REQUESTED`](crate::session::stop_request::REQUESTED): sessions check it
//! between rounds, so the round in progress ends normally, the workload's own cleanup runs,
//! and the runner saves nothing of the interrupted bench, says how to resume, and exits with
//! [`Exit::Interrupted`](pilot_format::Exit::Interrupted). No thread waits for the signal, so a single-threaded bench runs in a
//! single-threaded process (a second thread alone makes glibc's allocator slower). A second
//! signal exits at once, for a round that never ends.

use crate::session::stop_request;

/// Installs the handlers. If they cannot be installed, signals keep their default action
/// (the process ends at once), which loses nothing already saved.
pub fn install() {
    #[cfg(unix)]
    let signals = [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM];
    #[cfg(not(unix))]
    let signals = [signal_hook::consts::SIGINT];
    for signal in signals {
        // The shutdown goes first: it fires only once the flag is already set, on a second
        // signal.
        let _ = signal_hook::flag::register_conditional_shutdown(
            signal,
            i32::from(pilot_format::Exit::Interrupted.code()),
            &stop_request::REQUESTED,
        );
        let _ = signal_hook::flag::register(signal, &stop_request::REQUESTED);
    }
}

/// Whether a stop was requested.
pub(super) fn requested() -> bool {
    stop_request::requested()
}

/// Says what was kept after an interruption and how to continue.
pub(super) fn report(results: &std::path::Path) {
    eprintln!(
        "\ninterrupted: the benches finished so far are saved in `{}`; run again with --resume \
         to measure only the rest",
        crate::fmt::terminal_path(results)
    );
}
