//! `cargo pilot`: the command-line side of the pilot benchmark harness.
//!
//! Cargo runs an external subcommand `cargo pilot ARGS` as `cargo-pilot pilot ARGS`, so the
//! first argument is the subcommand's own name and is skipped.
//!
//! Exit codes: 0 success, 1 an error in the data or the run (or a failed bench), 2 a usage
//! error, 3 a regression found against a baseline, 130 interrupted by Ctrl-C.

mod against;
mod analyze;
mod bench;
mod cargo;
mod compare;
mod export;
mod import;
mod interrupt;
mod list;
mod report;
mod resume;
mod run;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit code for errors in the data or the run.
const EXIT_ERROR: u8 = 1;
/// Exit code for usage errors (bad flags, missing arguments).
const EXIT_USAGE: u8 = 2;
/// Exit code for a regression found against a baseline.
const EXIT_REGRESSION: u8 = 3;

#[derive(Parser)]
#[command(name = "cargo", bin_name = "cargo")]
enum Cargo {
    /// pilot: benchmarks with honest confidence intervals
    Pilot(PilotCli),
}

#[derive(clap::Args)]
#[command(version, about, long_about = None)]
struct PilotCli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Bench(Box<bench::BenchArgs>),
    Compare(compare::CompareArgs),
    List(list::ListArgs),
    Analyze(analyze::AnalyzeArgs),
    Run(Box<run::RunArgs>),
    Export(export::ExportArgs),
    Report(Box<report::ReportArgs>),
    Import(import::ImportArgs),
}

/// The exit code of a command that compared: 1 when a bench failed (no verdict can hide
/// that), 3 when one regressed, else 0.
pub fn comparison_exit(
    failed: bool,
    comparisons: &[pilot::cargo_api::compare::Comparison],
) -> ExitCode {
    if failed {
        ExitCode::from(EXIT_ERROR)
    } else if pilot::cargo_api::compare::any_regressed(comparisons) {
        ExitCode::from(EXIT_REGRESSION)
    } else {
        ExitCode::SUCCESS
    }
}

/// A failed command: either the user asked for something malformed (exit 2) or the data or the
/// run went wrong (exit 1).
#[derive(Debug)]
pub enum Failure {
    /// Bad flags or arguments; the message names the flag.
    Usage(anyhow::Error),
    /// Bad data or a failed step.
    Error(anyhow::Error),
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure::Error(e)
    }
}

fn main() -> ExitCode {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // Started directly as `cargo-pilot ARGS` rather than through cargo: accept that too.
    if args.get(1).is_none_or(|a| a != "pilot") {
        args.insert(1, "pilot".into());
    }
    let Cargo::Pilot(cli) = match Cargo::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Bench(args) => bench::run(&args),
        Command::Compare(args) => compare::run(&args),
        Command::List(args) => list::run(&args),
        Command::Analyze(args) => analyze::run(&args),
        Command::Run(args) => run::run(&args),
        Command::Export(args) => export::run(&args),
        Command::Report(args) => report::run(&args),
        Command::Import(args) => import::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(Failure::Usage(e)) => {
            eprintln!("error: {e:#}");
            ExitCode::from(EXIT_USAGE)
        }
        Err(Failure::Error(e)) => {
            eprintln!("error: {e:#}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}
