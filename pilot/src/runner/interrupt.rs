//! Ctrl-C during a run.

/// Ctrl-C during a run: every bench finished so far is already on disk (each result is
/// written when its bench ends, and the run's progress with it), so the run stops at once with
/// exit code 130 and says how to continue. The handler waits in a thread of its own, blocked
/// until a signal comes: nothing on the timing path. If the program set a handler of its own,
/// that one stays.
pub(super) fn on_interrupt(results: &std::path::Path) {
    let results = results.display().to_string();
    let _ = ctrlc::set_handler(move || {
        eprintln!(
            "\ninterrupted: the benches finished so far are saved in `{results}`; run again with \
             --resume to measure only the rest"
        );
        std::process::exit(130);
    });
}
