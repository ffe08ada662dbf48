//! Why the bench binary's command line, a `PILOT_*` variable or a bench's attribute was
//! refused.

use std::time::Duration;

/// A usage error of the bench binary (exit code 2), one variant per mistake; its `Display` is
/// the message a user reads, naming the flag or variable at fault, written here and nowhere
/// else.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UsageError {
    /// A flag that takes a value came last, without one.
    #[error("{flag} needs a value")]
    NeedsValue {
        /// The flag.
        flag: String,
    },
    /// A value out of its setting's bounds or not of its kind.
    #[error("{given_as}: {problem}")]
    Invalid {
        /// The flag, variable or attribute key that gave it.
        given_as: String,
        /// What is wrong with the value.
        problem: String,
    },
    /// `--cache-sim` (or its variable) without `--instructions`.
    #[error(
        "{given_as} needs --instructions: callgrind's cache simulation runs only in the \
         processes that count instructions"
    )]
    CacheSimAlone {
        /// The flag or variable that asked for the cache simulation.
        given_as: String,
    },
    /// A flag neither pilot's nor libtest's.
    #[error("unknown flag `{arg}` (see --help for pilot's flags and the libtest flags it accepts)")]
    UnknownFlag {
        /// The argument as given.
        arg: String,
    },
    /// `--format` names no format.
    #[error("--format: `{given}` is not one of {known}")]
    Format {
        /// The format asked for.
        given: String,
        /// The formats there are, listed.
        known: String,
    },
    /// A filter, `--skip` value or `--compare-across` pattern that is no regular expression.
    #[error(
        "{given_as} `{}` is not a valid regular expression: {why} (this bench binary reads \
         filters as regular expressions, as criterion does; `--exact NAME` matches a name as \
         written)",
        crate::fmt::terminal(text)
    )]
    NotARegex {
        /// What gave it: `filter`, `--skip`, `--compare-across`.
        given_as: String,
        /// The text as given.
        text: String,
        /// Why the `regex` crate refused it, in its words.
        why: String,
    },
    /// Filters read as regular expressions by an engine built without its `regex` feature.
    #[error(
        "this bench binary's front end reads filters as regular expressions, but pilot-engine \
         was built without its `regex` feature"
    )]
    FiltersNeedRegex,
    /// `--compare-across` given to an engine built without its `regex` feature.
    #[error("--compare-across needs pilot-engine's `regex` feature (pilot-criterion enables it)")]
    CompareAcrossNeedsRegex,
    /// A bench name with a part too long to be a file name.
    #[error(
        "bench name `{name}` is too long to be stored: its part `{part}` is {len} bytes as a \
         file name (at most {most}); shorten it with #[pilot::bench(name = \"...\")]"
    )]
    NameTooLong {
        /// The bench's name.
        name: String,
        /// The part of its file name that is too long.
        part: String,
        /// The part's length, in bytes.
        len: usize,
        /// The most a part may have.
        most: usize,
    },
    /// Two bench names whose files a file system that ignores case would take for one.
    #[error(
        "benches `{first}` and `{second}` differ only in case, and this file system would store \
         both in one file; rename one"
    )]
    NamesDifferInCase {
        /// The first bench's name.
        first: String,
        /// The second's.
        second: String,
    },
    /// `--min-time` above `--max-time`.
    #[error(
        "--min-time ({} s) is above --max-time ({} s)",
        min.as_secs_f64(),
        max.as_secs_f64()
    )]
    MinAboveMax {
        /// `--min-time`.
        min: Duration,
        /// `--max-time`.
        max: Duration,
    },
}
