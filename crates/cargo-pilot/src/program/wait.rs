//! Waiting for a started program until it exits or its deadline passes, reading its standard
//! output meanwhile (kept when its numbers are the readings, else read into a fixed buffer and
//! discarded), so that a full pipe never stops it and a chatty program costs pilot no memory.
//!
//! The wait must add nothing to a short run's time. On Linux the child's exit is a pidfd that
//! `poll` watches beside the pipe: pilot wakes the moment the child ends, at the cost of a
//! `pidfd_open` and a `poll` beyond the `wait4` that reaps it (two system calls). Where there
//! are no pidfds (other systems, Linux before 5.3) the loop checks `wait4(WNOHANG)` between
//! sleeps of 2% of the time waited so far (10 µs at least, 10 ms at most), which bounds what
//! the sleeping adds.
//! No thread and no signal handler is involved.
//!
//! A program runs in its own process group (see [`super::spawn`]): at the deadline the whole
//! group is killed, a shell's children with it. A stop request (Ctrl-C), which the terminal no
//! longer delivers to that group, is passed on to it as SIGINT, as the terminal would have.

use std::io::Read;
use std::os::fd::{AsRawFd, OwnedFd};
use std::process::ChildStdout;
use std::time::{Duration, Instant};

use pilot_engine::session::stop_requested;

/// How often a wait looks at the stop flag when nothing else wakes it: a signal that lands
/// just before `poll` starts is seen this late at most.
const TICK: Duration = Duration::from_millis(100);

/// The bytes read from the pipe at a time (on the stack: reading allocates nothing).
const CHUNK: usize = 64 * 1024;

/// How a waited-for program ended.
pub(super) struct Ended {
    /// Its wait status, as `wait4` gives it.
    pub status: libc::c_int,
    /// Its own resource use.
    pub usage: libc::rusage,
    /// When it was reaped.
    pub at: Instant,
    /// Whether it was still running at the deadline and was killed.
    pub killed: bool,
}

/// Waits for child `pid` (a process group's leader), reading `out` into `keep` (or discarding
/// it) until the child is reaped and the pipe is closed, or `deadline` passes: then the group
/// is killed and the child reaped. `Err` when the system refuses to wait or read.
pub(super) fn wait(
    pid: libc::pid_t,
    mut out: Option<ChildStdout>,
    mut keep: Option<&mut Vec<u8>>,
    deadline: Option<Instant>,
) -> Result<Ended, String> {
    let start = Instant::now();
    let pidfd = pidfd_open(pid);
    if let Some(pipe) = &out {
        set_nonblocking(pipe.as_raw_fd())
            .map_err(|e| format!("failed to read the output of process {pid}: {e}"))?;
    }
    let mut buf = [0u8; CHUNK];
    let mut reaped: Option<(libc::c_int, libc::rusage, Instant)> = None;
    let mut forwarded = false;
    // With a pidfd, `wait4` is called once it says the child has ended; without, every time.
    let mut ended = pidfd.is_none();
    loop {
        if let Some(pipe) = &mut out
            && drain(pipe, &mut buf, keep.as_deref_mut())?
        {
            out = None;
        }
        if reaped.is_none() && ended {
            reaped = reap(pid, libc::WNOHANG)?;
        }
        if reaped.is_some() && out.is_none() {
            break;
        }
        let now = Instant::now();
        if deadline.is_some_and(|d| now >= d) {
            // The child itself, or something it left holding the pipe: the group goes.
            kill_group(pid, libc::SIGKILL);
            let killed = reaped.is_none();
            let (status, usage, at) = match reaped {
                Some(r) => r,
                None => reap(pid, 0)?.ok_or("wait4 returned without the child")?,
            };
            return Ok(Ended {
                status,
                usage,
                at,
                killed,
            });
        }
        if stop_requested() && !forwarded {
            kill_group(pid, libc::SIGINT);
            forwarded = true;
        }
        let timeout = deadline.map_or(TICK, |d| (d - now).min(TICK));
        let child = reaped.is_none().then_some(pidfd.as_ref()).flatten();
        ended |= sleep_until_ready(child, out.as_ref(), timeout, start.elapsed());
    }
    let (status, usage, at) = reaped.expect("the loop ends once the child is reaped");
    Ok(Ended {
        status,
        usage,
        at,
        killed: false,
    })
}

/// Sleeps until the child ends (its pidfd is readable), the pipe has data or closes, or
/// `timeout` passes; returns whether the child has ended. Without a pidfd the child's end is
/// not seen (`false`): the sleep is then a short step, 2% of `waited` (see the module docs).
fn sleep_until_ready(
    child: Option<&OwnedFd>,
    pipe: Option<&ChildStdout>,
    timeout: Duration,
    waited: Duration,
) -> bool {
    let mut fds = [libc::pollfd {
        fd: -1,
        events: libc::POLLIN,
        revents: 0,
    }; 2];
    if let Some(fd) = child {
        fds[0].fd = fd.as_raw_fd();
    }
    if let Some(p) = pipe {
        fds[1].fd = p.as_raw_fd();
    }
    let timeout = if child.is_some() {
        timeout
    } else {
        timeout.min((waited / 50).clamp(Duration::from_micros(10), Duration::from_millis(10)))
    };
    if child.is_none() && pipe.is_none() {
        std::thread::sleep(timeout);
        return false;
    }
    // Rounded up: a timeout rounded down to 0 ms would spin until the deadline.
    let ms = timeout.as_micros().div_ceil(1000).min(i32::MAX as u128) as libc::c_int;
    // SAFETY: `fds` is a valid array of 2 pollfd; negative fds are ignored by poll. An EINTR
    // (a signal) just ends the sleep early: the caller looks again.
    let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, ms) };
    ready > 0 && fds[0].revents != 0
}

/// Reads what the pipe holds now into `keep`, or discards it. Returns whether the pipe is
/// closed (every writer gone).
fn drain(
    pipe: &mut ChildStdout,
    buf: &mut [u8; CHUNK],
    mut keep: Option<&mut Vec<u8>>,
) -> Result<bool, String> {
    loop {
        match pipe.read(buf) {
            Ok(0) => return Ok(true),
            Ok(n) => {
                if let Some(k) = keep.as_deref_mut() {
                    k.extend_from_slice(&buf[..n]);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return Ok(false),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("failed to read the program's output: {e}")),
        }
    }
}

/// `wait4(pid, options)`: the status, resource use and time of the reaping, or `None` when
/// `WNOHANG` finds the child still running.
fn reap(
    pid: libc::pid_t,
    options: libc::c_int,
) -> Result<Option<(libc::c_int, libc::rusage, Instant)>, String> {
    let mut status: libc::c_int = 0;
    // SAFETY: an all-zero rusage is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `pid` is our own child, not yet reaped (std reaps only in `wait`, never
        // called on it); `status` and `usage` are valid for writes.
        let r = unsafe { libc::wait4(pid, &mut status, options, &mut usage) };
        if r == pid {
            return Ok(Some((status, usage, Instant::now())));
        }
        if r == 0 {
            return Ok(None);
        }
        let err = std::io::Error::last_os_error();
        if err.kind() != std::io::ErrorKind::Interrupted {
            return Err(format!("failed to wait for process {pid}: {err}"));
        }
    }
}

/// Sends `signal` to process group `pid`. A group already gone is no error.
pub(super) fn kill_group(pid: libc::pid_t, signal: libc::c_int) {
    // SAFETY: kill has no memory effects; `-pid` names the group the child leads.
    unsafe { libc::kill(-pid, signal) };
}

/// A pidfd of `pid` (Linux 5.3 and later), readable once the process has ended.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn pidfd_open(pid: libc::pid_t) -> Option<OwnedFd> {
    use std::os::fd::FromRawFd;
    // SAFETY: pidfd_open takes a pid and flags and returns a new fd or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    // SAFETY: a non-negative result is a new fd that nothing else owns.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as libc::c_int) })
}

/// No pidfds here: the wait falls back to short sleeps.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn pidfd_open(_pid: libc::pid_t) -> Option<OwnedFd> {
    None
}

/// Makes reads of `fd` return `WouldBlock` instead of waiting (our end of the pipe only: the
/// child's end is a separate open file).
fn set_nonblocking(fd: libc::c_int) -> std::io::Result<()> {
    // SAFETY: fcntl on an fd we own, with F_GETFL/F_SETFL, has no memory effects.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    // SAFETY: as above.
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}
