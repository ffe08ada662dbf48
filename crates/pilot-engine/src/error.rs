//! The one error type of the pilot library.

/// What went wrong in pilot: bad input to a statistic, or a failed step of a run.
///
/// Messages are lowercase and name the thing that failed; a cause, where there is one, comes from
/// [`std::error::Error::source`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A statistic has no answer for its input (too few values, one that is not finite, a
    /// parameter outside its range, …): [`pilot_stats::Error`], with its message.
    #[error(transparent)]
    Stats(#[from] pilot_stats::Error),
    /// A file or folder of saved results could not be read.
    #[error("failed to read `{}`: {message}", path.display())]
    ReadFailed {
        /// The file or folder.
        path: std::path::PathBuf,
        /// What the operating system said.
        message: String,
    },
    /// A file is not a result document this pilot can read: corrupt, truncated, another
    /// program's, or written by a newer pilot.
    #[error("`{}` is not a valid pilot result: {problem}", path.display())]
    InvalidResult {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong with it, naming the key at fault.
        problem: String,
    },
    /// A file pilot keeps could not be written.
    #[error("failed to write `{}`: {message}", path.display())]
    WriteFailed {
        /// The file.
        path: std::path::PathBuf,
        /// What the operating system said.
        message: String,
    },
    /// A file is not the pilot document expected there (a run's rankings, …): corrupt,
    /// another program's, or written by a newer pilot.
    #[error("`{}` is not a valid pilot document: {problem}", path.display())]
    InvalidDocument {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// A named baseline does not exist.
    #[error("no baseline `{name}` in `{}` ({})", dir.display(), match saved.as_slice() {
        [] => "no baselines are saved: save one with --save-baseline NAME".to_string(),
        names => format!("saved baselines: {}", names.join(", ")),
    })]
    MissingBaseline {
        /// The name asked for.
        name: String,
        /// Where baselines are kept.
        dir: std::path::PathBuf,
        /// The baselines that do exist.
        saved: Vec<String>,
    },
}

/// `Result` with pilot's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statistics_error_reads_as_the_statistic_wrote_it() {
        let stats = pilot_stats::Error::TooFewValues { needed: 2, got: 1 };
        let e = Error::from(stats.clone());
        assert_eq!(e.to_string(), "need at least 2 values, got 1");
        assert_eq!(e, Error::Stats(stats));
        // Transparent: no second layer for `{:#}` chains to print the message twice.
        assert!(std::error::Error::source(&e).is_none());
    }
}
