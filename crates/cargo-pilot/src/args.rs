//! The command-line arguments several commands share: what cargo builds ([`CargoOptions`]),
//! where the results are ([`Workspace`]), `cargo pilot bench`'s flags ([`BenchArgs`], which
//! `--against` reads too), baselines and their thresholds, and how a comparison prints.
//!
//! A leaf: it holds clap types and nothing that runs, so every command can take them without
//! depending on another command's module.

use std::path::PathBuf;

use pilot_engine::compare::CompareOptions;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::str::FromStr;

use clap::{Arg, ArgAction, ArgMatches};
use pilot_engine::settings::{BaselineName, Fraction, Noise, SuiteRule};
use pilot_settings::{Kind, SETTINGS, Scope, Setting};

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

/// Where the history of results over commits is kept (`cargo pilot bench`, `run`, `history`,
/// `changes`, `bisect`, `report`, and `compare` and `export` for `history:REV`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct HistoryArg {
    /// The history of results over commits: a SQLite file, a `postgres://` URL, or `off`
    /// [default: `target/pilot/history.sqlite`] [PILOT_HISTORY]
    // The brackets are clap's help text, as its own `[default: …]` and `[env: …]`, not links.
    #[allow(rustdoc::broken_intra_doc_links)]
    #[arg(long = "history", value_name = "LOCATION")]
    pub history: Option<String>,
}

/// Which series of the history `cargo pilot history` and `cargo pilot changes` read, and how
/// they print.
#[derive(clap::Args, Debug, Clone)]
pub struct SeriesArgs {
    /// Benches whose names contain one of these (exactly equal with --exact); every bench
    /// when none is given
    #[arg(value_name = "FILTER")]
    pub filters: Vec<String>,
    /// Match FILTER exactly
    #[arg(long)]
    pub exact: bool,
    /// Runs recorded on this branch, and runs of the commits on its first-parent line, whatever
    /// branch (or detached HEAD) they ran on [default: `PILOT_BRANCH`, else the branch checked
    /// out, and HEAD's line]
    #[arg(long, value_name = "NAME")]
    pub branch: Option<String>,
    /// Machines whose name (`PILOT_MACHINE`, else the host name) contains NAME
    #[arg(long, value_name = "NAME")]
    pub machine: Option<String>,
    /// Every branch, and runs of commits a rebase or force-push took off their branch
    #[arg(long)]
    pub all: bool,
    /// How the output prints
    #[arg(long, value_enum, default_value_t = SeriesFormat::Table)]
    pub format: SeriesFormat,
    /// The chance of naming a commit where no code changed, over each machine's series: a
    /// change needs its p (counted over the splits searched), Holm-adjusted over them, below this
    #[arg(
        long,
        value_name = "P",
        default_value = "0.01",
        allow_negative_numbers = true
    )]
    pub max_p: Fraction,
    /// A change needs to be larger than this (0.01 is 1%)
    #[arg(
        long,
        value_name = "X",
        default_value = pilot_settings::default_of("noise"),
        allow_negative_numbers = true
    )]
    pub noise: Noise,
    #[command(flatten)]
    pub history: HistoryArg,
    #[command(flatten)]
    pub workspace: Workspace,
}

/// The cargo options that choose what to build, passed through to `cargo bench --no-run`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct CargoOptions {
    /// Package to benchmark (repeatable); default: every workspace member that uses pilot (or
    /// pilot-criterion, or pilot-divan)
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
    /// cargo's build directory for this build alone (not a flag): a checkout's build (the
    /// base of `--against`, a commit of `bisect`) keeps its intermediate files apart from
    /// the working tree's, as a `build-dir` they shared would let one build's bench
    /// executables overwrite the other's.
    #[arg(skip)]
    pub build_dir: Option<PathBuf>,
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
    /// The settings passed on to every bench binary (`--ci`, `--max-time`, …), from the
    /// table of settings.
    #[command(flatten)]
    pub settings: Settings,
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
    /// Run one share of the selected benches, across every bench target: `count:K/N` (every
    /// N-th bench, sorted by `target/name`, from the K-th) or `hash:K/N` (by a stable hash of
    /// `target/name`); the N shares are disjoint and cover the suite, so N runners each run
    /// one and their results together make the run of the commit in the history
    #[arg(long, value_name = "SPEC", conflicts_with = "against")]
    pub partition: Option<crate::partition::Partition>,
    #[command(flatten)]
    pub history: HistoryArg,
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
    #[arg(
        long,
        value_name = "P",
        default_value = pilot_settings::default_of("alpha"),
        allow_negative_numbers = true
    )]
    pub alpha: Fraction,
    /// Noise threshold: a change needs to be larger than this (0.01 is 1%)
    #[arg(
        long,
        value_name = "X",
        default_value = pilot_settings::default_of("noise"),
        allow_negative_numbers = true
    )]
    pub noise: Noise,
    /// How each bench's p is adjusted for the benches the run tested: holm (unchanged code
    /// fails a run with probability at most --alpha), bh (at most --alpha of the benches
    /// flagged are false alarms), none (each bench alone)
    #[arg(
        long,
        value_name = "holm|bh|none",
        default_value = pilot_settings::default_of("correction")
    )]
    pub correction: SuiteRule,
}

impl Thresholds {
    /// The comparison options.
    pub fn options(&self) -> CompareOptions {
        CompareOptions {
            alpha: self.alpha.0,
            noise: self.noise.0,
            rule: self.correction,
            confidence: None,
            ..Default::default()
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

/// How `cargo pilot history` and `cargo pilot changes` print.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeriesFormat {
    /// Aligned columns for a terminal
    Table,
    /// Markdown tables, for a pull-request comment or a wiki
    Md,
    /// A `pilot.history/1` (history) or `pilot.changes/1` (changes) document
    Json,
}

/// The settings `cargo pilot bench` takes and passes on to every bench binary: each row of the
/// table of settings (`pilot_settings::SETTINGS`) whose scope is [`Scope::Forwarded`] is a flag
/// here, with the row's value name, help and bounds. A row added to the table is a flag of
/// `cargo pilot bench`, forwarded, with no edit here.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// The settings given, by name: the raw value as checked (`1` for a switch that is on).
    given: BTreeMap<&'static str, String>,
    /// Their flags, in the table's order.
    flags: Vec<(&'static Setting, String)>,
}

impl Settings {
    /// The rows of `table` that `cargo pilot bench` forwards, as clap arguments.
    pub fn args_for(table: &'static [Setting]) -> Vec<Arg> {
        forwarded(table).map(arg).collect()
    }

    /// The settings of `table` given in `matches`.
    pub fn from_matches_with(table: &'static [Setting], matches: &ArgMatches) -> Settings {
        let mut out = Settings::default();
        for s in forwarded(table) {
            let raw = if s.kind.takes_value() {
                matches.get_one::<String>(s.name).cloned()
            } else {
                matches.get_flag(s.name).then(|| "1".to_string())
            };
            if let Some(raw) = raw {
                out.given.insert(s.name, raw.clone());
                out.flags.push((s, raw));
            }
        }
        out
    }

    /// The setting called `name` as a `T`, when it was given.
    ///
    /// Panics when the table has no forwarded setting called `name`: that is a typo in
    /// cargo-pilot, not the user's input (which clap checked against the row's bounds).
    pub fn get<T: FromStr<Err = String>>(&self, name: &str) -> Option<T> {
        assert!(
            forwarded(SETTINGS).any(|s| s.name == name),
            "no forwarded setting `{name}`"
        );
        self.given
            .get(name)
            .map(|raw| raw.parse().unwrap_or_else(|e| panic!("{name}: {e}")))
    }

    /// The raw value of the setting called `name`, when it was given (a pattern, a path).
    ///
    /// Panics when the table has no forwarded setting called `name`, as [`get`](Self::get).
    pub fn raw(&self, name: &str) -> Option<&str> {
        assert!(
            forwarded(SETTINGS).any(|s| s.name == name),
            "no forwarded setting `{name}`"
        );
        self.given.get(name).map(String::as_str)
    }

    /// Colours for standard output, as `--color` (forwarded to the bench binaries too) asks.
    pub fn paint(&self) -> pilot_engine::fmt::Paint {
        self.get::<pilot_engine::fmt::ColorChoice>("color")
            .unwrap_or_default()
            .for_stdout()
    }

    /// Whether the switch called `name` is on.
    pub fn on(&self, name: &str) -> bool {
        assert!(
            forwarded(SETTINGS).any(|s| s.name == name),
            "no forwarded setting `{name}`"
        );
        self.given.contains_key(name)
    }

    /// Refuses settings that mean nothing without another (`--cache-sim` without
    /// `--instructions`, see [`pilot_engine::cli::check_together`]), given as flags here or as
    /// the variables the bench binaries inherit: a usage error naming both, before anything is
    /// built.
    pub fn check_together(&self) -> anyhow::Result<()> {
        let source = |name: &str| -> Option<String> {
            let s = forwarded(SETTINGS).find(|s| s.name == name)?;
            if self.given.contains_key(name) {
                return Some(s.flag.to_string());
            }
            std::env::var(s.env)
                .ok()
                .filter(|raw| pilot_settings::switch(raw).unwrap_or(false))
                .map(|_| s.env.to_string())
        };
        pilot_engine::cli::check_together(source).map_err(anyhow::Error::msg)
    }

    /// The flags that pass the given settings on to a bench binary, as given, except those in
    /// `except` (the caller passes its own value for them).
    pub fn forward(&self, except: &[&str]) -> Vec<OsString> {
        let mut out = Vec::new();
        for (s, raw) in &self.flags {
            if except.contains(&s.name) {
                continue;
            }
            out.push(s.flag.into());
            if s.kind.takes_value() {
                out.push(raw.into());
            }
        }
        out
    }
}

fn forwarded(table: &'static [Setting]) -> impl Iterator<Item = &'static Setting> {
    table.iter().filter(|s| s.scope == Scope::Forwarded)
}

/// One setting as a clap argument: its long flag, value name, help (with the default and the
/// variable the bench binaries read, since they inherit cargo pilot's environment) and bounds,
/// checked as the bench binary checks them.
fn arg(s: &'static Setting) -> Arg {
    let mut chars = s.help.chars();
    let mut help: String = chars
        .next()
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_default();
    help.push_str(chars.as_str());
    if !s.default.is_empty() {
        help.push_str(&format!(" (default {})", s.default));
    }
    help.push_str(&format!(" [{}]", s.env));
    let arg = Arg::new(s.name)
        .long(s.flag.trim_start_matches("--"))
        .help(help);
    if s.kind.takes_value() {
        let kind: Kind = s.kind;
        // A negative number is a value, so pilot's own bound check says what is wrong with
        // it; clap would take `-1` for a flag.
        arg.value_name(s.value_name)
            .action(ArgAction::Set)
            .allow_negative_numbers(true)
            .value_parser(move |raw: &str| {
                pilot_engine::settings::check(kind, raw).map(|()| raw.to_string())
            })
    } else {
        arg.action(ArgAction::SetTrue)
    }
}

impl clap::FromArgMatches for Settings {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        Ok(Settings::from_matches_with(SETTINGS, matches))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Settings::from_matches_with(SETTINGS, matches);
        Ok(())
    }
}

impl clap::Args for Settings {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.args(Settings::args_for(SETTINGS))
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Settings::augment_args(cmd)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(subcommand)]
        command: Sub,
    }

    #[derive(clap::Subcommand)]
    enum Sub {
        Bench(BenchArgs),
    }

    /// `cargo pilot bench`'s arguments from `args`.
    pub(crate) fn bench(args: &[&str]) -> Result<BenchArgs, clap::Error> {
        let argv = ["cargo-pilot", "bench"].iter().chain(args);
        Cli::try_parse_from(argv).map(|c| match c.command {
            Sub::Bench(b) => b,
        })
    }

    #[test]
    fn forwarded_settings_pass_on_as_given_in_the_tables_order() {
        let b = bench(&[
            "--max-time",
            "2",
            "--quick",
            "--ci=0.02",
            "--estimator",
            "mean",
        ])
        .unwrap();
        let flags: Vec<String> = b
            .settings
            .forward(&[])
            .into_iter()
            .map(|f| f.into_string().unwrap())
            .collect();
        assert_eq!(
            flags,
            [
                "--ci",
                "0.02",
                "--estimator",
                "mean",
                "--max-time",
                "2",
                "--quick"
            ]
        );
        assert!(b.settings.on("quick"));
        assert!(!b.settings.on("no_sampling"));
        assert_eq!(b.settings.get::<Fraction>("ci"), Some(Fraction(0.02)));
        assert!(b.settings.forward(&["ci", "max_time"]).len() == 3);
    }

    #[test]
    fn forwarded_settings_are_bounded_as_the_bench_binary_bounds_them() {
        let e = bench(&["--ci", "1.5"]).unwrap_err().to_string();
        assert!(e.contains("`1.5` must be strictly between 0 and 1"), "{e}");
        let e = bench(&["--confidence", "0.9999999999999999"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("too close to 1"), "{e}");
        // A negative number reaches the bound check rather than being taken for a flag.
        let e = bench(&["--max-time", "-1"]).unwrap_err().to_string();
        assert!(e.contains("`-1` must be above 0 seconds"), "{e}");
        // A setting only the bench binary takes is not a flag of `cargo pilot bench`.
        assert!(bench(&["--output-format", "bencher"]).is_err());
    }

    #[test]
    fn a_setting_added_to_the_table_is_a_flag_of_cargo_pilot_bench_and_forwarded() {
        let mut table = SETTINGS.to_vec();
        table.push(Setting {
            name: "example_knob",
            flag: "--example-knob",
            env: "PILOT_EXAMPLE_KNOB",
            kind: Kind::Count,
            value_name: "N",
            default: "2",
            help: "a knob added to the table",
            attribute: None,
            scope: Scope::Forwarded,
        });
        let table: &'static [Setting] = Box::leak(table.into_boxed_slice());
        let cmd = clap::Command::new("bench").args(Settings::args_for(table));
        let help = cmd.clone().render_long_help().to_string();
        assert!(
            help.contains("--example-knob <N>")
                && help.contains("A knob added to the table (default 2) [PILOT_EXAMPLE_KNOB]"),
            "{help}"
        );
        let m = cmd
            .clone()
            .try_get_matches_from(["bench", "--example-knob", "3", "--quick"])
            .unwrap();
        let s = Settings::from_matches_with(table, &m);
        let flags: Vec<OsString> = s.forward(&[]);
        assert_eq!(
            flags,
            ["--quick", "--example-knob", "3"].map(OsString::from)
        );
        let e = cmd
            .try_get_matches_from(["bench", "--example-knob", "0"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("`0` must be a whole number, 1 or more"), "{e}");
    }
}
