//! `cargo pilot run`: command-line programs measured the way pilot measures benches (the Pilot
//! paper's third kind of workload), with hyperfine's options under hyperfine's names.
//!
//! This module turns the flags into a [`Plan`]: commands split or wrapped in the shell,
//! parameter scans expanded (cartesian when repeated), names given, the work range and the
//! readings' column parsed; the measuring is [`program`](crate::program)'s.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

mod outputs;
mod programs;

use crate::program::{Mode, Output, Plan, run as run_plan};
use anyhow::{anyhow, bail};
use pilot_engine::settings::{Cap, Confidence, Fraction};

use crate::args::{Baselines, CargoOptions, HistoryArg};
use crate::cargo;
use crate::exit::Failure;
use programs::{argv, programs};

/// Benchmark command-line programs: each COMMAND runs until its interval is as narrow as
/// asked, the first slower runs cut off by change-point detection; several COMMANDs run
/// interleaved and are ranked.
///
/// Exit codes: 0 ok, 1 a command failed or an error, 2 usage, 3 a regression against
/// `--baseline`, 130 interrupted (what finished is kept).
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The commands to measure, each one string (run through the shell unless -N)
    #[arg(value_name = "COMMAND", required = true)]
    pub commands: Vec<String>,
    /// The shell each COMMAND runs through; its start-up time is measured and subtracted
    #[arg(long, short = 'S', value_name = "SHELL", default_value = "sh")]
    pub shell: String,
    /// Run each COMMAND directly, split into words as a shell would, without a shell (a
    /// parameter's value is then one word)
    #[arg(long, short = 'N')]
    pub no_shell: bool,
    /// Names of the commands, in order (else the command itself)
    #[arg(long, short = 'n', value_name = "NAME")]
    pub name: Vec<String>,
    /// Target relative CI half-width of the time (e.g. 0.01 for ±1%)
    #[arg(
        long,
        value_name = "X",
        default_value = pilot_settings::default_of("ci"),
        allow_negative_numbers = true
    )]
    pub ci: Fraction,
    /// Confidence level of the intervals
    #[arg(
        long,
        value_name = "X",
        default_value = pilot_settings::default_of("confidence"),
        allow_negative_numbers = true
    )]
    pub confidence: Confidence,
    /// Time cap in seconds per command (for all of them together when interleaved); a command
    /// still running a tenth past it is killed, with what it started
    #[arg(
        long,
        value_name = "SECONDS",
        default_value = pilot_settings::default_of("max_time"),
        allow_negative_numbers = true
    )]
    pub max_time: Cap,
    /// Least runs of each command before it may stop short of the cap
    #[arg(long, short = 'm', value_name = "N", allow_negative_numbers = true)]
    pub min_runs: Option<u64>,
    /// Most runs of each command (interleaved or not), besides the checked and warm-up runs
    #[arg(long, short = 'M', value_name = "N", allow_negative_numbers = true)]
    pub max_runs: Option<u64>,
    /// Runs of each command discarded before its session (beyond one checked run)
    #[arg(
        long,
        short = 'w',
        value_name = "N",
        default_value = "0",
        allow_negative_numbers = true
    )]
    pub warmup: u64,
    /// Work amounts A..B for `{work}` in COMMAND: one run per round, fitted as
    /// t = α + w/v (start-up α and speed v, each with its interval)
    #[arg(long, value_name = "A..B")]
    pub work: Option<String>,
    /// Read unit readings from each run's standard output (one number a line, or CSV with
    /// --column): each run is a round
    #[arg(long)]
    pub readings: bool,
    /// With --readings: the CSV column (1-based) that holds the readings
    #[arg(
        long,
        value_name = "N",
        requires = "readings",
        allow_negative_numbers = true
    )]
    pub column: Option<usize>,
    /// With --readings: a performance index as Pilot names it, NAME,UNIT,COLUMN (UNIT one of
    /// ns, us, ms, s)
    #[arg(
        long,
        value_name = "NAME,UNIT,COLUMN",
        requires = "readings",
        conflicts_with = "column"
    )]
    pub pi: Option<String>,
    /// With --readings: the unit of the printed numbers
    #[arg(long, value_name = "UNIT", default_value = "s", value_parser = ["ns", "us", "ms", "s"])]
    pub readings_unit: String,
    /// Run the commands one after another instead of interleaved
    #[arg(long)]
    pub sequential: bool,
    /// A command run before each run (not timed)
    #[arg(long, short = 'p', value_name = "CMD")]
    pub prepare: Option<String>,
    /// A command run after each run (not timed)
    #[arg(long, short = 'C', value_name = "CMD")]
    pub conclude: Option<String>,
    /// A command run once before each COMMAND's first run
    #[arg(long, short = 's', value_name = "CMD")]
    pub setup: Option<String>,
    /// A command run once for each COMMAND after the measurements
    #[arg(long, short = 'c', value_name = "CMD")]
    pub cleanup: Option<String>,
    /// Scan a parameter: VAR from MIN to MAX (step -D, default 1); `{VAR}` in COMMAND
    #[arg(long, short = 'P', num_args = 3, value_names = ["VAR", "MIN", "MAX"], action = clap::ArgAction::Append)]
    pub parameter_scan: Vec<String>,
    /// The step of each --parameter-scan
    #[arg(long, short = 'D', value_name = "STEP")]
    pub parameter_step_size: Vec<i64>,
    /// A parameter's values: VAR a,b,c; `{VAR}` in COMMAND
    #[arg(long, short = 'L', num_args = 2, value_names = ["VAR", "VALUES"], action = clap::ArgAction::Append)]
    pub parameter_list: Vec<String>,
    /// Measure runs that exit non-zero instead of stopping
    #[arg(long, short = 'i')]
    pub ignore_failure: bool,
    /// A file each run reads as its standard input
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Where each run's standard output goes: null, pipe, inherit, or a FILE
    #[arg(long, value_name = "WHERE", default_value = "null")]
    pub output: String,
    /// Show the commands' standard error and output
    #[arg(long)]
    pub show_output: bool,
    /// Export the results as hyperfine's JSON to FILE
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,
    /// Export the results as hyperfine's CSV to FILE
    #[arg(long, value_name = "FILE")]
    pub export_csv: Option<PathBuf>,
    /// Export the results as a Markdown table to FILE
    #[arg(long, value_name = "FILE")]
    pub export_markdown: Option<PathBuf>,
    /// Write every result as a `pilot.run/1` document to FILE
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    #[command(flatten)]
    pub baselines: Baselines,
    #[command(flatten)]
    pub history: HistoryArg,
    /// Where results go outside a cargo project [default: ./pilot-results]; inside one they go
    /// under its target directory
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// `A..B` (also `A..=B`), with A ≥ 1 and A < B.
fn work_range(s: &str) -> anyhow::Result<(u64, u64)> {
    let (a, b) = s
        .split_once("..")
        .ok_or_else(|| anyhow!("--work `{s}`: expected A..B, e.g. 1000..64000"))?;
    let b = b.strip_prefix('=').unwrap_or(b);
    let parse = |x: &str| -> anyhow::Result<u64> {
        x.trim()
            .replace('_', "")
            .parse()
            .map_err(|_| anyhow!("--work `{s}`: `{x}` is not a whole number"))
    };
    let (a, b) = (parse(a)?, parse(b)?);
    if a == 0 || a >= b {
        bail!("--work `{s}`: needs 1 ≤ A < B, so that the runs' work differs");
    }
    Ok((a, b))
}

/// The readings' mode from `--readings`, `--column`, `--pi` and `--readings-unit`.
fn readings_mode(args: &RunArgs) -> anyhow::Result<Mode> {
    let unit_ns = |u: &str| -> anyhow::Result<f64> {
        Ok(match u {
            "ns" => 1.0,
            "us" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            other => bail!("unknown unit `{other}` of the readings: ns, us, ms or s"),
        })
    };
    let column = |c: usize| -> anyhow::Result<usize> {
        c.checked_sub(1)
            .ok_or_else(|| anyhow!("columns count from 1, not 0"))
    };
    if let Some(pi) = &args.pi {
        let parts: Vec<&str> = pi.split(',').map(str::trim).collect();
        let [_, unit, col] = parts[..] else {
            bail!("--pi `{pi}`: expected NAME,UNIT,COLUMN, e.g. latency,ms,2");
        };
        let col: usize = col
            .parse()
            .map_err(|_| anyhow!("--pi `{pi}`: the column `{col}` is not a number"))?;
        return Ok(Mode::Readings {
            column: Some(column(col)?),
            unit_ns: unit_ns(unit)?,
        });
    }
    Ok(Mode::Readings {
        column: args.column.map(column).transpose()?,
        unit_ns: unit_ns(&args.readings_unit)?,
    })
}

/// The plan of a `cargo pilot run`; usage errors name the flag.
fn plan(args: &RunArgs) -> anyhow::Result<Plan> {
    let programs = programs(args)?;
    let uses_work = programs.iter().any(|p| p.command.contains("{work}"));
    let work = args.work.as_deref().map(work_range).transpose()?;
    let mode = match (work, uses_work, args.readings) {
        (Some(_), _, true) => bail!("--work and --readings cannot be combined"),
        (None, true, _) => bail!("`{{work}}` in a command needs --work A..B for its amounts"),
        (Some(_), false, _) => {
            bail!("--work needs `{{work}}` in each command, where the amount goes")
        }
        (Some(_), true, false) => {
            if let Some(p) = programs.iter().find(|p| !p.command.contains("{work}")) {
                bail!("--work: `{}` has no `{{work}}`", p.command);
            }
            Mode::Work
        }
        (None, false, true) => readings_mode(args)?,
        (None, false, false) => Mode::Runs,
    };
    let side = |c: &Option<String>| c.as_deref().map(|c| argv(args, c, &[])).transpose();
    let output = match args.output.as_str() {
        "null" => Output::Null,
        "pipe" => Output::Pipe,
        "inherit" => Output::Inherit,
        file => Output::File(PathBuf::from(file)),
    };
    if let Some(input) = &args.input
        && !input.is_file()
    {
        bail!("--input `{}` is not a readable file", input.display());
    }
    if let (Some(least), Some(most)) = (args.min_runs, args.max_runs)
        && least > most
    {
        bail!("--min-runs {least} is above --max-runs {most}");
    }
    if args.max_runs == Some(0) {
        bail!("--max-runs must be at least 1");
    }
    let root = match &args.out {
        Some(dir) => dir.clone(),
        None => cargo::target_dir_only(&CargoOptions::default())
            .unwrap_or_else(|_| PathBuf::from("pilot-results")),
    };
    Ok(Plan {
        programs,
        shell: (!args.no_shell).then(|| args.shell.clone()),
        mode,
        work,
        ci: args.ci.0,
        confidence: args.confidence.0,
        max_time: args.max_time.0.max(Duration::from_millis(1)),
        min_runs: args.min_runs.unwrap_or(0),
        max_runs: args.max_runs,
        warmup: args.warmup,
        prepare: side(&args.prepare)?,
        conclude: side(&args.conclude)?,
        setup: side(&args.setup)?,
        cleanup: side(&args.cleanup)?,
        ignore_failure: args.ignore_failure,
        input: args.input.clone(),
        output,
        show_output: args.show_output,
        sequential: args.sequential,
        root,
        json: args.json.clone(),
        export_json: args.export_json.clone(),
        export_csv: args.export_csv.clone(),
        export_markdown: args.export_markdown.clone(),
        save_baseline: args.baselines.save_baseline.as_ref().map(|b| b.0.clone()),
        baseline: args.baselines.baseline.as_ref().map(|b| b.0.clone()),
        alpha: args.baselines.thresholds.alpha.0,
        noise: args.baselines.thresholds.noise.0,
    })
}

/// Runs `cargo pilot run`, and appends its results to the history.
pub fn run(args: &RunArgs) -> Result<ExitCode, Failure> {
    let plan = plan(args).map_err(Failure::Usage)?;
    // A history that cannot be one is a usage error before anything is measured.
    let history = crate::history::location(args.history.history.as_deref(), &plan.root)?;
    outputs::check_apart(&plan, history.as_ref()).map_err(Failure::Usage)?;
    let (code, docs) = run_plan(&plan);
    if code == ExitCode::from(pilot_format::Exit::Interrupted) {
        return Ok(code);
    }
    let here = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    // A command is no executable pilot built: its runs' code is not known by a digest.
    let code_of = crate::history::Executables::new();
    crate::history::append_docs(
        history.as_ref(),
        &plan.root,
        (&docs, &code_of),
        ("run", None),
        &here,
    )?;
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        run: RunArgs,
    }

    /// `cargo pilot run`'s arguments from `argv`.
    pub(crate) fn args(argv: &[&str]) -> RunArgs {
        Cli::try_parse_from(std::iter::once("run").chain(argv.iter().copied()))
            .unwrap()
            .run
    }

    #[test]
    fn negative_numbers_reach_the_bound_checks() {
        let run = |argv: &[&str]| {
            Cli::try_parse_from(std::iter::once("run").chain(argv.iter().copied()))
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        };
        let e = run(&["--max-time", "-1", "true"]);
        assert!(e.contains("`-1` must be above 0 seconds"), "{e}");
        let e = run(&["--ci", "-0.5", "true"]);
        assert!(e.contains("`-0.5` must be strictly between 0 and 1"), "{e}");
        let e = run(&["--warmup", "-2", "true"]);
        assert!(e.contains("invalid value '-2' for '--warmup <N>'"), "{e}");
    }

    #[test]
    fn work_and_readings_are_checked() {
        assert_eq!(work_range("1000..64_000").unwrap(), (1000, 64000));
        assert!(work_range("0..5").is_err());
        assert!(work_range("5..5").is_err());
        let e = plan(&args(&["--out", "/tmp/x", "head -c {work} /dev/zero"])).unwrap_err();
        assert!(e.to_string().contains("needs --work"), "{e}");
        let e = plan(&args(&["--out", "/tmp/x", "--work", "1..9", "true"])).unwrap_err();
        assert!(e.to_string().contains("needs `{work}`"), "{e}");
        let p = plan(&args(&[
            "--out",
            "/tmp/x",
            "--readings",
            "--pi",
            "lat,ms,2",
            "x",
        ]))
        .unwrap();
        assert_eq!(
            p.mode,
            Mode::Readings {
                column: Some(1),
                unit_ns: 1e6
            }
        );
        let e = programs(&args(&["-n", "a", "x", "y"])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "1 name (-n) for 2 commands: give one name per command, or none"
        );
        let e = programs(&args(&["-n", "a", "-n", "b", "x"])).unwrap_err();
        assert!(
            e.to_string().starts_with("2 names (-n) for 1 command:"),
            "{e}"
        );
        let e = programs(&args(&["-n", "", "x"])).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("the name (-n) of COMMAND 1 is empty"),
            "{e}"
        );
        let e = programs(&args(&["x", " "])).unwrap_err();
        assert!(e.to_string().starts_with("COMMAND 2 is empty"), "{e}");
        let e = programs(&args(&["x", "x"])).unwrap_err();
        assert!(e.to_string().contains("both named"), "{e}");
    }
}
