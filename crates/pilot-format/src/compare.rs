//! The comparison document (`pilot.compare/1`): each bench's change against a baseline, with
//! its interval and verdict.

use serde::{Deserialize, Serialize};

/// Schema name of a comparison document (`--format json`).
pub const COMPARE_SCHEMA: &str = "pilot.compare/1";

/// An interval without a stated confidence.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RangeDoc {
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
}

/// A comparison with a baseline (`pilot.compare/1`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareDoc {
    /// Always [`COMPARE_SCHEMA`].
    pub schema: String,
    /// Significance level of a verdict: the bound on the suite's error rate its `correction`
    /// states.
    pub alpha: f64,
    /// Noise threshold of a verdict (relative).
    pub noise: f64,
    /// Confidence level of the changes' intervals.
    pub confidence: f64,
    /// How each bench's `p` was adjusted for the benches the comparison tested before its
    /// verdict: `holm` (Holm's rule: unchanged code flags any bench with probability at most
    /// `alpha`), `bh` (Benjamini–Hochberg's: at most `alpha` of the flagged are expected to be
    /// false) or `none` (each bench alone); absent in documents of pilot before it adjusted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correction: Option<String>,
    /// `paired` when the two sides were measured in interleaved pairs of processes (`cargo
    /// pilot bench --against`); absent for a comparison of saved results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// What the new results were compared with, when the run that compared them knew: the
    /// baseline's name (`--baseline`), or the base revision (`cargo pilot bench --against`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub against: Option<String>,
    /// One entry per bench.
    pub benches: Vec<CompareBenchDoc>,
}

/// One bench's comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareBenchDoc {
    /// Bench name.
    pub name: String,
    /// Bench target.
    pub target: String,
    /// The baseline's mean time per unit, ns; `null` when absent.
    pub base: Option<f64>,
    /// The new mean time per unit, ns; `null` when absent.
    pub new: Option<f64>,
    /// `new / base − 1`: +0.05 is 5% slower.
    pub change: Option<f64>,
    /// The change's interval; `null` when unbounded.
    pub change_ci: Option<RangeDoc>,
    /// Two-sided p of "equal means", this bench's own.
    pub p: Option<f64>,
    /// `p` adjusted for the benches tested by the document's `correction`: the p the verdict
    /// was taken on; absent where no test was made (and in documents of pilot before it
    /// adjusted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p_adjusted: Option<f64>,
    /// `improved`, `regressed`, `environment` (time moved beyond the noise while the
    /// instruction counts did not: the machine or the code's layout, not the code's work),
    /// `no change`, `undecided`, `new`, `missing` or `failed`.
    pub verdict: String,
    /// How the verdict was reached.
    pub method: String,
    /// The pairs of processes behind a paired comparison; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairs: Option<usize>,
    /// Why a paired comparison is `undecided` before its test was allowed a verdict (too few
    /// pairs in the time given); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The counts per unit both sides have (`allocations`, `allocated_bytes`), each compared
    /// with its own verdict; absent when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pis: Vec<ComparePiDoc>,
    /// The instruction counts compared, when both sides were counted; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<CompareCountDoc>,
    /// What the two verdicts say changed: `code` (instructions moved), `environment` (time
    /// alone moved) or `nothing`; absent without counts on both sides or a decided verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changed: Option<String>,
    /// Where the instructions changed, when the time or the instructions changed beyond
    /// their noise and both sides' counts hold a profile; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explained: Option<ExplainedDoc>,
}

/// Which functions a bench's change is in: the functions whose instructions per unit changed
/// beyond the spread of their counting processes, both sides' call stacks (for a differential
/// flame graph), and the call sites whose allocations per unit changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExplainedDoc {
    /// The functions whose instructions changed, the largest change of their own
    /// instructions first; empty when no function's did (the same code: a change of time is
    /// then the machine's, or the code's layout).
    pub functions: Vec<FunctionChangeDoc>,
    /// The base's call stacks.
    pub base_stacks: Vec<crate::StackDoc>,
    /// The new side's call stacks.
    pub new_stacks: Vec<crate::StackDoc>,
    /// The call sites whose allocations per unit changed beyond the spread of their counting
    /// processes, the largest change first; empty when no site's did. Absent unless both
    /// sides' profiles hold allocation sites (both builds install pilot's `CountingAlloc`),
    /// and in documents written before pilot 0.2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allocation_sites: Option<Vec<AllocationSiteChangeDoc>>,
}

/// One call site's allocations per unit on both sides (means over the counting processes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AllocationSiteChangeDoc {
    /// The calling function's name, demangled.
    pub name: String,
    /// Its allocations per unit in the base (0 where the base has no such site).
    pub base: f64,
    /// The new side's.
    pub new: f64,
}

/// One function's instructions per unit on both sides (means over the counting processes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionChangeDoc {
    /// The function's name, demangled.
    pub name: String,
    /// Its own instructions in the base, and in the new side.
    pub base_self: f64,
    /// The new side's.
    pub new_self: f64,
    /// Its inclusive instructions (with its callees') in the base.
    pub base_inclusive: f64,
    /// The new side's.
    pub new_inclusive: f64,
}

/// A count per unit compared: both sides' means, the change and its verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComparePiDoc {
    /// The PI's name.
    pub name: String,
    /// Its unit.
    pub unit: String,
    /// The baseline's mean.
    pub base: f64,
    /// The new mean.
    pub new: f64,
    /// `new / base − 1`; `null` from a base of 0.
    pub change: Option<f64>,
    /// The change's interval; `null` when unbounded or from a base of 0.
    pub change_ci: Option<RangeDoc>,
    /// Two-sided p of "equal means"; `null` where no test was made.
    pub p: Option<f64>,
    /// `improved`, `regressed`, `no change` or `undecided`.
    pub verdict: String,
    /// How the verdict was reached.
    pub method: String,
}

/// One bench's instruction counts compared.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareCountDoc {
    /// The base's instructions per unit.
    pub base: f64,
    /// The new instructions per unit.
    pub new: f64,
    /// `new / base − 1`.
    pub change: f64,
    /// The change's interval; `null` when unbounded.
    pub change_ci: Option<RangeDoc>,
    /// Two-sided p of "equal counts".
    pub p: f64,
    /// `improved`, `regressed`, `no change` or `undecided`.
    pub verdict: String,
    /// How the verdict was reached.
    pub method: String,
}
