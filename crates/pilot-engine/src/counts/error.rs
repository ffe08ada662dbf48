//! Why a counting process's dumps give no counts.

/// Why callgrind's dumps of a counting process give no counts: a file that is not callgrind's
/// output (each variant names what it lacks, with the line where one is at fault), or dumps
/// that lack a round pilot labelled. Its `Display` is the message, written here alone.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DumpError {
    /// No `events:` line.
    #[error("no `events:` line: not a callgrind output file")]
    NoEventsLine,
    /// An `events:` line naming nothing.
    #[error("its `events:` line names no event")]
    NoEvent,
    /// An `events:` line without instructions (`Ir`).
    #[error("its `events:` line has no `Ir`")]
    NoInstructions,
    /// No `totals:` (nor `summary:`) line.
    #[error("no `totals:` line: not a callgrind output file")]
    NoTotalsLine,
    /// A word of the `totals:` line that is no count.
    #[error("`{word}` on its `totals:` line is not a count")]
    NotACount {
        /// The word.
        word: String,
    },
    /// More totals than events.
    #[error("its `totals:` line has {totals} counts for {events} events")]
    TooManyTotals {
        /// The totals.
        totals: usize,
        /// The events.
        events: usize,
    },
    /// A cost line before the `events:` line.
    #[error("line {line}: a cost before the `events:` line")]
    CostBeforeEvents {
        /// The line's number, from 1.
        line: usize,
    },
    /// A line that starts as a cost line but holds no count where the instructions are.
    #[error("line {line}: `{text}` is not a cost line")]
    NotACostLine {
        /// The line's number, from 1.
        line: usize,
        /// The line.
        text: String,
    },
    /// A cost line before any `fn=`.
    #[error("line {line}: a cost before `fn=`")]
    CostBeforeFunction {
        /// The line's number, from 1.
        line: usize,
    },
    /// A `calls=` line that does not start with a number of calls.
    #[error("line {line}: `{text}` does not start with a number of calls")]
    NotACallCount {
        /// The line's number, from 1.
        line: usize,
        /// The line.
        text: String,
    },
    /// A `calls=` line before any `cfn=`.
    #[error("line {line}: `calls=` before `cfn=`")]
    CallBeforeCallee {
        /// The line's number, from 1.
        line: usize,
    },
    /// A compressed name `(id` without its `)`.
    #[error("line {line}: `{value}` has no closing `)`")]
    Unclosed {
        /// The line's number, from 1.
        line: usize,
        /// The `fn=` or `cfn=` value.
        value: String,
    },
    /// A compressed name `(id)` used before it was given a name.
    #[error("line {line}: function ({id}) was never named")]
    Unnamed {
        /// The line's number, from 1.
        line: usize,
        /// The id.
        id: String,
    },
    /// A dump's label that is not pilot's.
    #[error("{0}")]
    Label(String),
    /// No dump of the empty units.
    #[error("no dump of the empty units")]
    NoEmptyUnits,
    /// No dump of a counted round.
    #[error("no dump of a counted round")]
    NoCountedRound,
    /// The empty units' dump counted no unit.
    #[error("the empty units' dump counted no unit")]
    NoEmptyUnit,
    /// A round without units or iterations: nothing to divide its total by.
    #[error("a round counted {units} units of {iterations} iterations: nothing to divide by")]
    NothingToDivide {
        /// Its units.
        units: u64,
        /// Its iterations per unit.
        iterations: u64,
    },
}
