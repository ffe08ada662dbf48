//! The exit codes every pilot binary ends with: the bench binaries, `cargo pilot` and
//! pilot-criterion's benches. One enum, so a script or a CI step reads the same code from each.

use std::process::ExitCode;

/// How a pilot binary ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Exit {
    /// Everything asked for ran and was written; nothing regressed.
    Success = 0,
    /// An error in the data or the run, or a bench that failed (it panicked, its result could
    /// not be written, or a comparison has a side without an estimate).
    Error = 1,
    /// A usage error: a bad flag, value or name, found before anything is built or measured.
    Usage = 2,
    /// A regression found against a baseline (or the base build of `--against`).
    Regression = 3,
    /// Interrupted by Ctrl-C or SIGTERM (128 + SIGINT, as shells report Ctrl-C); what finished
    /// before it is kept.
    Interrupted = 130,
}

impl Exit {
    /// The process's exit status.
    pub const fn code(self) -> u8 {
        self as u8
    }
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e.code())
    }
}
