//! A whole run's documents: the run (`pilot.run/1`) with its groups' rankings, a bench
//! binary's progress (`pilot.progress/1`), and `cargo pilot bench`'s progress across targets
//! (`pilot.cargo-progress/1`).

use serde::{Deserialize, Serialize};

use crate::{CompareDoc, MachineDoc, RangeDoc, ResultDoc};

/// Schema name of a whole run's document (`--json FILE`).
pub const RUN_SCHEMA: &str = "pilot.run/1";

/// Schema name of a bench binary's run progress (`target/pilot/runs/<target>.json`).
pub const PROGRESS_SCHEMA: &str = "pilot.progress/1";

/// Schema name of `cargo pilot bench`'s progress across targets.
pub const CARGO_PROGRESS_SCHEMA: &str = "pilot.cargo-progress/1";

/// Schema name of a bench target's saved rankings (`target/pilot/rankings/<target>.json`).
pub const RANKINGS_SCHEMA: &str = "pilot.rankings/1";

/// The latest ranking of each group of one bench target (`pilot.rankings/1`), kept for `cargo
/// pilot report`: a run that ranks a group replaces that group's ranking and keeps the
/// others', as a run replaces its own benches' results and keeps the rest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankingsDoc {
    /// Always [`RANKINGS_SCHEMA`].
    pub schema: String,
    /// The bench target.
    pub target: String,
    /// When the last run that ranked a group of it ended.
    pub updated: String,
    /// Each group instance's latest ranking, in the order they were first ranked.
    pub groups: Vec<GroupDoc>,
}

/// A whole run (`pilot.run/1`): a bench binary's `--json FILE`, or `cargo pilot bench --json`
/// (which has only `results` and `comparison`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunDoc {
    /// Always [`RUN_SCHEMA`].
    pub schema: String,
    /// The bench target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// When the run started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<String>,
    /// The machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<MachineDoc>,
    /// The benches the run selected, run or not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub benches: Option<Vec<String>>,
    /// The results of the benches that ran.
    pub results: Vec<ResultDoc>,
    /// The comparison with `--baseline`, else `null`.
    #[serde(default)]
    pub comparison: Option<CompareDoc>,
    /// The groups measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub groups: Option<Vec<GroupDoc>>,
}

/// A group's ranking in a run document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupDoc {
    /// The group instance, e.g. `maps/100`.
    pub name: String,
    /// Member names, fastest first.
    pub ranking: Vec<String>,
    /// Adjacent pairs of the ranking.
    pub pairs: Vec<PairDoc>,
    /// Members with an estimate, in ranking order.
    pub members: Vec<MemberDoc>,
    /// `settled`, `time cap`, or `most runs` (every member ran its most runs first).
    pub status: String,
    /// Whether the members ran interleaved.
    pub interleaved: bool,
    /// Cycles run.
    pub cycles: usize,
    /// Wall time, seconds.
    pub elapsed_s: f64,
    /// When the ranking was settled, seconds; `null` if never.
    pub ranking_settled_s: Option<f64>,
}

/// One adjacent pair of a group's ranking: `b` over `a`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairDoc {
    /// The faster member.
    pub a: String,
    /// The slower member.
    pub b: String,
    /// Time of `b` over time of `a`.
    pub ratio: f64,
    /// Its interval.
    pub ratio_ci: RangeDoc,
    /// Welch's p; `null` when not computed.
    pub p: Option<f64>,
    /// `faster` (`a` is faster than `b`), `equivalent` or `undecided`.
    pub verdict: String,
    /// What to bear in mind beside the verdict: [`FEW_ROUNDS`] when a member had fewer analysed
    /// rounds than the usual rule needs, so that the verdict came from a wider interval.
    /// Absent when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caveat: Option<String>,
}

/// The caveat of a pair a member of which had fewer analysed rounds than the usual rule needs.
pub const FEW_ROUNDS: &str = "few analysed rounds";

impl PairDoc {
    /// The verdict as the row of `b` shows it (see [`row_verdict`]).
    pub fn row_verdict(&self) -> String {
        row_verdict(&self.verdict, self.caveat.as_deref())
    }
}

/// A pair's verdict as the row of its slower member shows it, read against the member ranked
/// before it: `slower` for the pair's `faster` (the row's bench is the slower one),
/// `equivalent` or `undecided` as they are, with the caveat beside it in parentheses.
pub fn row_verdict(verdict: &str, caveat: Option<&str>) -> String {
    let word = if verdict == "faster" {
        "slower"
    } else {
        verdict
    };
    match caveat {
        Some(c) => format!("{word} ({c})"),
        None => word.to_string(),
    }
}

/// A group member's time per unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemberDoc {
    /// Bench name.
    pub name: String,
    /// Mean time per unit, ns.
    pub mean: f64,
    /// Its interval.
    pub ci: RangeDoc,
}

/// A bench binary's run progress (`pilot.progress/1`), rewritten after each bench.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProgressDoc {
    /// Always [`PROGRESS_SCHEMA`].
    pub schema: String,
    /// When the run started.
    pub started: String,
    /// Whether the run finished (nothing is left to resume).
    pub finished: bool,
    /// Benches finished so far.
    pub done: Vec<String>,
}

/// `cargo pilot bench`'s progress across bench targets (`pilot.cargo-progress/1`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CargoProgressDoc {
    /// Always [`CARGO_PROGRESS_SCHEMA`].
    pub schema: String,
    /// Whether the run finished.
    pub finished: bool,
    /// The target being measured, when one was.
    pub running: Option<RunningDoc>,
    /// Targets finished.
    pub done: Vec<FinishedTargetDoc>,
}

/// The bench target a `cargo pilot bench` run was measuring.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunningDoc {
    /// Its package.
    pub package: String,
    /// Its name in cargo's metadata.
    pub target: String,
}

/// A bench target a `cargo pilot bench` run finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FinishedTargetDoc {
    /// Its package.
    pub package: String,
    /// Its name in cargo's metadata.
    pub target: String,
    /// The name its binary keeps results under.
    pub results_target: String,
    /// The benches the binary selected.
    pub benches: Vec<String>,
}
