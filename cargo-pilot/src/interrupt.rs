//! Ctrl-C (or SIGTERM, SIGHUP) while a bench binary runs: the binary (which gets Ctrl-C too,
//! from the terminal, or the signal forwarded from here as SIGINT) ends its round, saves nothing
//! half-done and exits; then this run stops and says how to resume. Forwarding a SIGTERM means
//! no bench binary is left running as an orphan that goes on measuring and writing.

use std::process::{Child, ExitStatus};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use crate::exit;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// The running bench binary's process id (0: none).
static CHILD: AtomicU32 = AtomicU32::new(0);

/// Installs the handler: it records the interrupt and passes it on to the running binary.
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        INTERRUPTED.store(true, Ordering::SeqCst);
        let pid = CHILD.load(Ordering::SeqCst);
        // A Ctrl-C typed at a terminal reaches the binary too; a signal sent to this
        // process alone (a CI runner cancelling the job) is passed on.
        if pid != 0 && cfg!(unix) {
            let _ = std::process::Command::new("kill")
                .args(["-INT", &pid.to_string()])
                .stderr(std::process::Stdio::null())
                .status();
        }
    });
}

/// Waits for `child`, known to the handler meanwhile.
pub fn wait(child: &mut Child) -> std::io::Result<ExitStatus> {
    let _watched = watch(child);
    let status = child.wait();
    if let Ok(status) = &status {
        note(status);
    }
    status
}

/// Records an interrupt when a child's `status` says it was stopped by one: killed by SIGINT,
/// SIGTERM or SIGHUP, or exited with 130 as pilot's bench binaries do. Ctrl-C at a terminal
/// reaches the whole process group at once, and the handler records it on a thread of its
/// own, so the child's end can be seen first: without this, a build stopped by Ctrl-C would
/// read as a build that failed.
pub fn note(status: &ExitStatus) {
    #[cfg(unix)]
    let signalled = {
        use std::os::unix::process::ExitStatusExt;
        // SIGHUP, SIGINT, SIGTERM.
        matches!(status.signal(), Some(1 | 2 | 15))
    };
    #[cfg(not(unix))]
    let signalled = false;
    if signalled || status.code() == Some(i32::from(exit::Exit::Interrupted.code())) {
        INTERRUPTED.store(true, Ordering::SeqCst);
    }
}

/// While the guard lives, an interrupt is passed on to `child` (a process whose output is read
/// before it is waited for, such as cargo's build).
pub fn watch(child: &Child) -> Watched {
    CHILD.store(child.id(), Ordering::SeqCst);
    Watched(())
}

/// The running child known to the handler; dropping it forgets the child.
pub struct Watched(());

impl Drop for Watched {
    fn drop(&mut self) {
        CHILD.store(0, Ordering::SeqCst);
    }
}

/// Whether Ctrl-C came.
pub fn happened() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
