//! Why instructions could not be counted: Valgrind missing or not answering, a counting
//! process that could not start or failed, dumps that cannot be read.

use std::path::PathBuf;

use crate::counts::DumpError;

/// Why counting instructions failed, one variant per step that can fail; its `Display` is the
/// message a user reads, written here and nowhere else.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CountError {
    /// This architecture has no client requests to Valgrind in pilot.
    #[error(
        "--instructions needs x86-64 or AArch64: pilot's requests to Valgrind are written for \
         those, and this is {arch}"
    )]
    Unsupported {
        /// The architecture (`std::env::consts::ARCH`).
        arch: &'static str,
    },
    /// No `valgrind` on `PATH`: the package to install is named.
    #[error(
        "valgrind is not installed (no `valgrind` on PATH): --instructions counts instructions \
         under Valgrind's callgrind; install the Debian or Ubuntu package `valgrind` \
         (`apt-get install valgrind`)"
    )]
    Missing,
    /// `valgrind --version` could not be run.
    #[error("cannot run `valgrind --version`: {0}")]
    NoVersion(String),
    /// `valgrind --version` answered, but not as Valgrind does.
    #[error("`valgrind --version` did not answer as Valgrind does ({status}): {stderr}")]
    NotValgrind {
        /// How it exited.
        status: String,
        /// What it said on standard error.
        stderr: String,
    },
    /// The temporary folder of a counting process could not be made.
    #[error("cannot make a temporary folder for a counting process: {0}")]
    Scratch(String),
    /// A file of a counting process could not be created.
    #[error("cannot create `{}`: {message}", path.display())]
    Create {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        message: String,
    },
    /// A program could not be started.
    #[error("cannot start `{}`: {message}", program.display())]
    Start {
        /// The program.
        program: PathBuf,
        /// What the operating system said.
        message: String,
    },
    /// The counting process said why it failed (or panicked outside the bench's body).
    #[error("the counting process failed: {0}")]
    Failed(String),
    /// The counting process exited unsuccessfully without saying why.
    #[error("the counting process exited with {status}{}", valgrind.as_ref().map_or(String::new(), |v| format!("; valgrind: {v}")))]
    Exited {
        /// How it exited.
        status: String,
        /// The last line of Valgrind's log, when it wrote one.
        valgrind: Option<String>,
    },
    /// Callgrind wrote no dump.
    #[error("callgrind wrote no dump")]
    NoDump,
    /// A folder or file of dumps could not be read.
    #[error("cannot read `{}`: {message}", path.display())]
    Read {
        /// The folder or file.
        path: PathBuf,
        /// What the operating system said.
        message: String,
    },
    /// A file is no dump of callgrind's.
    #[error("`{}`: {problem}", path.display())]
    BadDump {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: DumpError,
    },
    /// The dumps were read but give no counts.
    #[error("the counting process's dumps cannot be read: {0}")]
    Dumps(DumpError),
    /// Every counting process ran, but their counts make no estimate.
    #[error("the counting processes gave no count")]
    NoCount,
    /// The running bench binary cannot find its own executable.
    #[error("cannot find the bench executable: {0}")]
    NoExecutable(String),
}
