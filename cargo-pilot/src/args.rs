//! The command-line arguments several commands share: what cargo builds ([`CargoOptions`]),
//! where the results are ([`Workspace`]), `cargo pilot bench`'s flags ([`BenchArgs`], which
//! `--against` reads too), baselines and their thresholds, and how a comparison prints.
//!
//! A leaf: it holds clap types and nothing that runs, so every command can take them without
//! depending on another command's module.

use std::path::PathBuf;

use pilot_engine::compare::CompareOptions;
use pilot_engine::settings::{BaselineName, Cap, Confidence, Count, Fraction, MinTime, Noise};

/// Where the commands that only read and write pilot's files (`compare`, `export`, `report`,
/// `import`) find `pilot/`: the workspace's target directory, as cargo would choose it.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Workspace {
    /// Path to the workspace's Cargo.toml (to find its target directory)
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
    /// The target directory holding `pilot/` (default: the workspace's)
    #[arg(long, value_name = "DIR")]
    pub target_dir: Option<PathBuf>,
}

/// The cargo options that choose what to build, passed through to `cargo bench --no-run`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct CargoOptions {
    /// Package to benchmark (repeatable); default: every workspace member that uses pilot (or
    /// pilot-criterion)
    #[arg(short = 'p', long = "package", value_name = "SPEC")]
    pub packages: Vec<String>,
    /// Bench target to run (repeatable); default: every bench target of the packages
    #[arg(long = "bench", value_name = "NAME")]
    pub benches: Vec<String>,
    /// Features to activate (comma or space separated, repeatable)
    #[arg(short = 'F', long = "features", value_name = "FEATURES")]
    pub features: Vec<String>,
    /// Activate all available features
    #[arg(long)]
    pub all_features: bool,
    /// Do not activate the `default` feature
    #[arg(long)]
    pub no_default_features: bool,
    /// Build with the given profile (cargo's default for benches: `bench`)
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// Path to the workspace's or package's Cargo.toml
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
    /// Directory for all generated artifacts (default: cargo's, `CARGO_TARGET_DIR` respected)
    #[arg(long, value_name = "DIR")]
    pub target_dir: Option<PathBuf>,
}

impl CargoOptions {
    /// Whether every bench target of the workspace is selected (no `-p`, no `--bench`).
    pub fn is_whole_workspace(&self) -> bool {
        self.packages.is_empty() && self.benches.is_empty()
    }
}

/// Run the pilot benches of a workspace.
///
/// Finds bench targets that use pilot through `cargo metadata`, builds them with `cargo bench
/// --no-run`, runs each in benchmark mode and prints one table across all of them. Exit codes:
/// 0 ok, 1 a bench failed or an error, 2 usage, 3 a regression against `--baseline`, 130
/// interrupted (`--resume` continues).
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    #[command(flatten)]
    pub cargo: CargoOptions,
    /// Run benches whose names contain one of these (exactly equal with --exact)
    #[arg(value_name = "FILTER")]
    pub filters: Vec<String>,
    /// Match FILTER exactly
    #[arg(long)]
    pub exact: bool,
    /// Skip benches whose names contain this (repeatable)
    #[arg(long, value_name = "FILTER")]
    pub skip: Vec<String>,
    #[command(flatten)]
    pub baselines: Baselines,
    /// Target relative CI half-width (e.g. 0.01 for ±1%)
    #[arg(long, value_name = "X")]
    pub ci: Option<Fraction>,
    /// Confidence level of the intervals (e.g. 0.95)
    #[arg(long, value_name = "X")]
    pub confidence: Option<Confidence>,
    /// What the time estimates: `trimmed` (the code's cost, interrupted units left out; the
    /// default) or `mean` (every unit)
    #[arg(long, value_name = "trimmed|mean")]
    pub estimator: Option<pilot_engine::settings::Estimator>,
    /// Time cap per bench in seconds
    #[arg(long, value_name = "SECONDS")]
    pub max_time: Option<Cap>,
    /// Least time per bench in seconds
    #[arg(long, value_name = "SECONDS")]
    pub min_time: Option<MinTime>,
    /// ±5% and a 2 s cap per bench
    #[arg(long)]
    pub quick: bool,
    /// The least process executions per bench; more run while the interval is too wide and
    /// time remains (default 8 when the time cap is at least 2 s, 3 from 1 s, else 1; 8 when
    /// saving or comparing with a baseline; with --against, the
    /// least pairs of processes, default 6)
    #[arg(long, value_name = "N")]
    pub processes: Option<Count>,
    /// Stop at the first failed bench
    #[arg(long)]
    pub fail_fast: bool,
    /// criterion benchmark groups (benches through pilot-criterion): run each group's members
    /// interleaved, one process each in turn, and rank those on the same input
    #[arg(long)]
    pub compare_groups: bool,
    /// Do not sample the machine's state (CPU, steal, throttling, disks, network) between
    /// rounds
    #[arg(long)]
    pub no_sampling: bool,
    /// Do not measure what recording each unit costs (full form)
    #[arg(long)]
    pub no_overhead_check: bool,
    /// Continue an interrupted `cargo pilot bench`: targets it finished are reported from
    /// their saved results, the one it was running measures only the benches it had not
    /// finished, and the rest run
    #[arg(long)]
    pub resume: bool,
    /// Write every result (and the comparison) to FILE as a `pilot.run/1` document
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Compare with git revision REV (branch, tag, commit, `origin/main`, `HEAD~1`) in this
    /// job: REV is built in a worktree under `target/pilot/against/`, and its benches run
    /// alternately with the working tree's, in pairs of processes, until each change is
    /// settled; exit 3 on a regression
    #[arg(long, value_name = "REV", conflicts_with_all = ["baseline", "resume", "save_baseline"])]
    pub against: Option<String>,
    /// With --against: where REV is built [default: `target/pilot/against/target`], e.g. a
    /// folder your CI caches; never the working tree's own target directory
    #[arg(long, value_name = "DIR", requires = "against")]
    pub base_target_dir: Option<PathBuf>,
    /// With --against: how the comparison is printed (progress goes to standard error for
    /// `md` and `json`, so standard output can go straight into a file or a PR comment)
    #[arg(long, value_enum, default_value_t = Format::Table, requires = "against")]
    pub format: Format,
}

/// Saving results as a baseline and comparing them with one: `cargo pilot bench` and
/// `cargo pilot run` take the same flags.
#[derive(clap::Args, Debug)]
pub struct Baselines {
    /// Save the results as baseline NAME
    #[arg(long, value_name = "NAME")]
    pub save_baseline: Option<BaselineName>,
    /// Compare the results with baseline NAME; exit 3 on a regression
    #[arg(long, value_name = "NAME")]
    pub baseline: Option<BaselineName>,
    #[command(flatten)]
    pub thresholds: Thresholds,
}

/// The thresholds of a baseline comparison.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct Thresholds {
    /// Significance level: a change needs p below it
    #[arg(long, value_name = "P", default_value = "0.01")]
    pub alpha: Fraction,
    /// Noise threshold: a change needs to be larger than this (0.01 is 1%)
    #[arg(long, value_name = "X", default_value = "0.01")]
    pub noise: Noise,
}

impl Thresholds {
    /// The comparison options.
    pub fn options(&self) -> CompareOptions {
        CompareOptions {
            alpha: self.alpha.0,
            noise: self.noise.0,
            confidence: None,
        }
    }
}

/// How a comparison prints: `cargo pilot compare --format` and `cargo pilot bench --against`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Aligned columns for a terminal
    Table,
    /// A Markdown table, for a pull-request comment
    Md,
    /// A `pilot.compare/1` document
    Json,
}
