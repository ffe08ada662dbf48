//! How a command ends: the exit codes `cargo pilot` documents, the failure a command returns,
//! and the code of a comparison's outcome.
//!
//! A leaf: every command returns these, and `main` turns them into the process's exit code.

use std::process::ExitCode;

use pilot_engine::compare::{Comparison, any_regressed};

pub use pilot_format::Exit;

/// The exit code of a command that compared: 1 when a bench failed (no verdict can hide
/// that), 3 when one regressed, else 0.
pub fn comparison_exit(failed: bool, comparisons: &[Comparison]) -> ExitCode {
    if failed {
        ExitCode::from(Exit::Error)
    } else if any_regressed(comparisons) {
        ExitCode::from(Exit::Regression)
    } else {
        ExitCode::SUCCESS
    }
}

/// A failed command: the user asked for something malformed (exit 2), the data or the run
/// went wrong (exit 1), or Ctrl-C (or SIGTERM) stopped a step that was waiting (exit 130).
#[derive(Debug)]
pub enum Failure {
    /// Bad flags or arguments; the message names the flag.
    Usage(anyhow::Error),
    /// Bad data or a failed step.
    Error(anyhow::Error),
    /// Stopped by an interrupt; the message says what was kept.
    Interrupted(anyhow::Error),
}

impl Failure {
    /// The exit code this failure ends the process with.
    pub fn code(&self) -> u8 {
        match self {
            Failure::Usage(_) => Exit::Usage.code(),
            Failure::Error(_) => Exit::Error.code(),
            Failure::Interrupted(_) => Exit::Interrupted.code(),
        }
    }

    /// What the failure says.
    pub fn error(&self) -> &anyhow::Error {
        match self {
            Failure::Usage(e) | Failure::Error(e) | Failure::Interrupted(e) => e,
        }
    }
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure::Error(e)
    }
}
