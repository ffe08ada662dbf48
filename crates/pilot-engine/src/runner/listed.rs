//! Benches listed at run time, all at once, before any of them runs: the engine of
//! `pilot-divan`, whose attribute macros register entries that become benches (their names,
//! options, argument values and thread counts) only when its `main` reads them.
//!
//! Where [`super::driven`] takes one bench at a time with a closure, a listed bench is a
//! registration like `#[pilot::bench]`'s ([`BenchDef`], whose micro-form body receives the
//! bench's index), so every mode of the bench binary works on it as on a registered bench:
//! the list, test mode, benchmark mode with its processes, `--resume`, baselines. The defining
//! crate says which benches the command line selects ([`Table::selects`]: its own filter
//! semantics over the parsed [`Args`]) and, in benchmark mode only, what each selected bench's
//! iterations process ([`Table::throughput`]), which it may learn by calling the bench.

use std::ffi::OsString;
use std::process::ExitCode;

use super::registry::Bench;
use crate::cli::{self, Args, FilterSyntax, Mode};
use crate::entry::BenchDef;
use crate::store::result::Rate;

/// The variable `cargo pilot` sets when it lists a binary's benches (`--list --format
/// terse`): a front end that prints its own listing instead of the engine's (pilot-divan
/// prints divan's, whose ids leave thread counts out) prints the engine's, pilot's bench names,
/// one per thread count: what `cargo pilot` runs with `--exact` and finds results under.
pub const LIST_NAMES: &str = "PILOT_LIST_NAMES";

/// One bench of the list.
pub struct Listed {
    /// The bench's full name, unique in the binary: its results are saved under it, and a
    /// child process is started with `--exact NAME`.
    pub name: String,
    /// The registration: options, and the body, which receives `arg`.
    pub def: &'static BenchDef,
    /// What the body receives as its first argument (the defining crate's index).
    pub arg: usize,
}

/// What the defining crate decides about its listed benches.
pub trait Table {
    /// Whether the command line `args` selects the bench at `index` of the list (its filters,
    /// `--exact`, `--skip`, `--ignored` and `--include-ignored`).
    fn selects(&self, args: &Args, index: usize) -> bool;

    /// What one iteration of the bench at `index` processes, as a unit (`B`, `elem`, …) and a
    /// count; asked in benchmark mode only, once per selected bench, before any bench runs.
    /// An error is why the bench cannot run: it fails with it, the others run.
    fn throughput(&self, index: usize) -> Result<Option<Rate>, String>;
}

/// The bench binary's `main` over `benches`: answers `cargo pilot`'s probe, reads `argv` (an
/// error is a usage error), then lists, tests or measures the benches `table` selects, as
/// [`super::main`] does for registered benches.
pub fn main(
    debug_build: bool,
    argv: Result<Vec<OsString>, String>,
    benches: Vec<Listed>,
    table: &dyn Table,
) -> ExitCode {
    if std::env::var_os("PILOT_PROBE").is_some() {
        // Listed benches are in none of pilot's groups: `PILOT_PROBE=groups` lists none.
        crate::outln!("pilot-harness {}", env!("CARGO_PKG_VERSION"));
        return ExitCode::SUCCESS;
    }
    let args = match argv
        .and_then(|a| cli::parse(a, |k| std::env::var(k).ok()).map_err(|e| e.to_string()))
    {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {}", crate::fmt::terminal_lines(&e));
            return ExitCode::from(2);
        }
    };
    if args.mode == Mode::Help {
        crate::out!(
            "{}",
            cli::help(pilot_settings::SETTINGS, FilterSyntax::Regex)
        );
        return ExitCode::SUCCESS;
    }
    // The engine reads the filters too (for its messages and test mode's list of ignored
    // benches), as divan does: regular expressions; an invalid one is a usage error here.
    let selection = match super::Selection::new(&args, FilterSyntax::Regex) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {}", crate::fmt::terminal_lines(&e.to_string()));
            return ExitCode::from(2);
        }
    };
    let mut benches: Vec<Bench> = benches
        .into_iter()
        .map(|l| Bench {
            name: l.name,
            def: l.def,
            arg: l.arg,
            threads: 1,
            group: None,
            broken: None,
            rate: None,
        })
        .collect();
    let selected: Vec<usize> = (0..benches.len())
        .filter(|&i| table.selects(&args, i))
        .collect();
    if args.mode == Mode::Bench {
        for &i in &selected {
            match table.throughput(i) {
                Ok(rate) => benches[i].rate = rate,
                Err(msg) => {
                    benches[i].broken = Some(format!("its throughput could not be learnt: {msg}"))
                }
            }
        }
    }
    super::run(&args, &selection, &benches, &selected, debug_build)
}
