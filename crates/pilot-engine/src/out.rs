//! Standard output for pilot's binaries (the bench binary, `cargo pilot`), written so that a
//! reader that stops reading ends the process quietly.
//!
//! `bench --list | head -1` closes the pipe after one line, and Rust ignores SIGPIPE, so the
//! next `println!` finds the pipe closed and panics with a backtrace (exit code 101). Printed
//! through [`outln!`](crate::outln) and [`out!`](macro@crate::out) instead, a write that finds
//! standard output closed ([`BrokenPipe`](std::io::ErrorKind::BrokenPipe)) exits at once with
//! code 0, as ripgrep does: whoever read the output wanted no more of it, and nothing is lost
//! that was finished, since a result is saved before its line is printed. Any other failure to
//! write (a redirect to a full disk) is said on standard error, exit code 1.
//!
//! Why checked writes and not SIGPIPE's default action (which ends a C program the same way):
//! the bench binary is the user's process, running the user's code. With SIGPIPE's default
//! action, a bench that writes to a socket or pipe whose reader has gone would be killed by
//! the signal where its code expects an `EPIPE` error, and a signal's disposition is the whole
//! process's. The check is on each print's result, between sessions: nothing runs beside the
//! workload, and nothing is added to the timing path.

use std::io::Write;

/// Writes `args` to standard output, or ends the process as the module says. Used by
/// [`outln!`](crate::outln) and [`out!`](macro@crate::out).
#[doc(hidden)]
pub fn write_fmt(args: std::fmt::Arguments<'_>) {
    let written = std::io::stdout().lock().write_fmt(args);
    if let Err(e) = written {
        closed(&e);
    }
}

/// Ends the process quietly (code 0) when standard output is a pipe whose reader has gone, as
/// the next print would; returns otherwise. For a program about to report that another
/// process, which shares its standard output, stopped early: that process (a bench binary
/// under `cargo pilot bench`) ended for the same closed pipe, and said nothing, rightly.
/// Nothing is written to find out (unix: `poll` sees the pipe's error).
pub fn end_if_closed() {
    #[cfg(unix)]
    {
        let mut fd = libc::pollfd {
            fd: libc::STDOUT_FILENO,
            events: libc::POLLOUT,
            revents: 0,
        };
        // SAFETY: one valid pollfd, a zero timeout: poll only reads and writes `fd`.
        let ready = unsafe { libc::poll(&mut fd, 1, 0) };
        if ready == 1 && fd.revents & libc::POLLERR != 0 {
            std::process::exit(0);
        }
    }
}

/// Ends the process after standard output failed with `e`: quietly with code 0 when its reader
/// closed it, else with the error said and code 1.
fn closed(e: &std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("error: failed to write to standard output: {e}");
    std::process::exit(i32::from(pilot_format::Exit::Error.code()));
}

/// `println!` for pilot's binaries: a closed standard output ends the process quietly (see
/// [the module](mod@crate::out)).
#[macro_export]
macro_rules! outln {
    () => {
        $crate::out::write_fmt(::core::format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write_fmt(::core::format_args!("{}\n", ::core::format_args!($($arg)*)))
    };
}

/// `print!` for pilot's binaries: a closed standard output ends the process quietly (see
/// [the module](mod@crate::out)).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write_fmt(::core::format_args!($($arg)*))
    };
}
