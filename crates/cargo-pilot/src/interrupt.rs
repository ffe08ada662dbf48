//! Ctrl-C (or SIGTERM, SIGHUP) while a bench binary runs: the binary (which gets Ctrl-C too,
//! from the terminal, or the signal forwarded from here as SIGINT) ends its round, saves nothing
//! half-done and exits; then this run stops and says how to resume. Forwarding a SIGTERM means
//! no bench binary is left running as an orphan that goes on measuring and writing.
//!
//! cargo's build runs in a process group of its own, and an interrupt is passed on to the whole
//! group: cargo, and the compilers and build scripts it started, stop together, and the build
//! ends only once none of them is left ([`end_group`]). Sent to cargo alone, the signal would
//! leave its children compiling after the command had ended.
//!
//! `cargo pilot run` stops through the engine's flag instead (its programs are measured as the
//! bench binary measures): [`happened`] reads both, so that a wait for the history stops on
//! either.

use std::process::{Child, ExitStatus};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::time::{Duration, Instant};

use crate::exit::{self, Failure};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// The running child the handler passes an interrupt on to, as `kill` names it: a process id,
/// or the negated id of a process group (0: none).
static CHILD: AtomicI32 = AtomicI32::new(0);

/// Installs the handler: it records the interrupt and passes it on to the running child. A
/// second call keeps the first handler.
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        INTERRUPTED.store(true, Ordering::SeqCst);
        // A Ctrl-C typed at a terminal reaches a child in this process group too; a signal
        // sent to this process alone (a CI runner cancelling the job), or a child in a group
        // of its own, is told here.
        forward();
    });
}

/// Sends SIGINT to the watched child or group, if any.
fn forward() {
    let to = CHILD.load(Ordering::SeqCst);
    #[cfg(unix)]
    if to != 0 {
        // SAFETY: kill has no memory effects; a process or group already gone is ESRCH.
        unsafe { libc::kill(to, libc::SIGINT) };
    }
    #[cfg(not(unix))]
    let _ = to;
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
    CHILD.store(i32::try_from(child.id()).unwrap_or(0), Ordering::SeqCst);
    Watched(())
}

/// While the guard lives, an interrupt is passed on to the process group that `child` leads
/// (started with `process_group(0)`), all of it; one that came before is passed on at once.
pub fn watch_group(child: &Child) -> Watched {
    CHILD.store(-i32::try_from(child.id()).unwrap_or(0), Ordering::SeqCst);
    if happened() {
        forward();
    }
    Watched(())
}

/// The running child known to the handler; dropping it forgets the child.
pub struct Watched(());

impl Drop for Watched {
    fn drop(&mut self) {
        CHILD.store(0, Ordering::SeqCst);
    }
}

/// How long the rest of an interrupted group has to end after its leader did, before it is
/// killed.
const GRACE: Duration = Duration::from_secs(3);

/// Waits, after an interrupt, until no process of the group that `leader` led (and that has
/// ended) is left: the compilers and build scripts end on the SIGINT the group was sent, and
/// what is still there after [`GRACE`] is killed. A group's processes that have ended but
/// not yet been reaped by their new parent count as left, so a system whose init never reaps
/// them costs the grace period, no more.
pub fn end_group(leader: u32) {
    #[cfg(unix)]
    {
        let group = -i32::try_from(leader).unwrap_or(0);
        if group == 0 {
            return;
        }
        // SAFETY: kill has no memory effects; signal 0 only asks whether the group exists.
        let left = || unsafe { libc::kill(group, 0) } == 0;
        let until = |deadline: Instant| {
            while left() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
        };
        until(Instant::now() + GRACE);
        if left() {
            // SAFETY: as above.
            unsafe { libc::kill(group, libc::SIGKILL) };
            until(Instant::now() + Duration::from_secs(1));
        }
    }
    #[cfg(not(unix))]
    let _ = leader;
}

/// Whether Ctrl-C (or SIGTERM) came: to this handler, or to the engine's (`cargo pilot run`).
pub fn happened() -> bool {
    INTERRUPTED.load(Ordering::SeqCst) || pilot_engine::session::stop_requested()
}

/// A step's error as the command's failure: an interruption when an interrupt came (the step
/// failed because of it), else an error.
pub fn failure(e: anyhow::Error) -> Failure {
    if happened() {
        Failure::Interrupted(e)
    } else {
        Failure::Error(e)
    }
}
