//! `cargo pilot`: the command-line side of the pilot benchmark harness.
//!
//! Cargo runs an external subcommand `cargo pilot ARGS` as `cargo-pilot pilot ARGS`, so the
//! first argument is the subcommand's own name and is skipped.
//!
//! Exit codes: 0 success, 1 an error in the data or the run (or a failed bench), 2 a usage
//! error, 3 a regression found against a baseline, 130 interrupted by Ctrl-C.
//!
//! The modules form layers, each importing only modules below it: the table is in the
//! workspace's `ARCHITECTURE.md`, checked by `tests/tests/architecture.rs`. This file only wires
//! the commands.

#[macro_use]
mod say;

mod against;
mod analyze;
mod args;
mod bench;
mod bisect;
mod cargo;
mod changes;
mod compare;
mod exit;
mod explain;
mod export;
mod history;
mod import;
mod interrupt;
mod list;
mod noise;
mod partition;
mod program;
mod report;
mod resume;
mod run;
mod series;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use exit::Failure;

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
    Bench(Box<args::BenchArgs>),
    Compare(compare::CompareArgs),
    List(list::ListArgs),
    Analyze(analyze::AnalyzeArgs),
    Run(Box<run::RunArgs>),
    Export(export::ExportArgs),
    Report(Box<report::ReportArgs>),
    Import(import::ImportArgs),
    History(Box<series::HistoryArgs>),
    Changes(Box<changes::ChangesArgs>),
    Bisect(Box<bisect::BisectArgs>),
    Noise(Box<noise::NoiseArgs>),
    /// One process of `cargo pilot noise`: the plain program, its reading one line of JSON
    #[command(name = "noise-process", hide = true)]
    NoiseProcess,
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
            let code = if e.use_stderr() {
                exit::Exit::Usage.code()
            } else {
                0
            };
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
        Command::History(args) => series::run(&args),
        Command::Changes(args) => changes::run(&args),
        Command::Bisect(args) => bisect::run(&args),
        Command::Noise(args) => noise::run(&args),
        Command::NoiseProcess => noise::run_process(),
    };
    result.unwrap_or_else(|failure| {
        // An interrupt is no error: said as the other interrupted steps say it.
        let lead = match failure {
            Failure::Interrupted(_) => "cargo pilot",
            Failure::Usage(_) | Failure::Error(_) => "error",
        };
        // The chain names paths, benches and commands: shown, never obeyed.
        say!(
            "{lead}: {}",
            pilot_engine::fmt::terminal_lines(&format!("{:#}", failure.error()))
        );
        ExitCode::from(failure.code())
    })
}
