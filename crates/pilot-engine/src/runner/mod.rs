//! The bench binary's `main`: which benches to run, in which mode, and what to do with their
//! results.

//!
//! One file per concern: [`registry`] (the registered benches, expanded per argument and thread
//! count), [`selection`] (which of them the command line selects, its filters read in the front
//! end's [`FilterSyntax`]), [`across`] (`--compare-across`'s comparisons), [`config`] (settings
//! merged), [`workload`] (a bench as the session sees it), [`test_mode`], [`bench_mode`] (the
//! benchmark loop), [`group`] (interleaved groups), [`threads`], [`driven`] (benches announced at
//! run time, for pilot-criterion), [`listed`] (benches listed at run time before any runs, for
//! pilot-divan), [`processes`] (several process executions), [`counting`] (instruction counts under
//! callgrind), [`resume`] (the run's progress on disk) and [`interrupt`] (Ctrl-C).

use std::process::ExitCode;

use crate::cli::{self, Mode};

mod across;
mod bench_mode;
mod config;
pub mod counting;
pub mod driven;
mod group;
mod interrupt;
pub mod listed;
mod machine_speed;
mod overhead_probe;
mod panics;
pub(crate) mod processes;
mod registry;
mod resume;
mod selection;
mod test_mode;
mod threads;
mod workload;

#[cfg(test)]
mod snapshots;

use registry::{Bench, registered};

pub use crate::cli::FilterSyntax;
pub use bench_mode::{
    LineStyle, Saved, compare_with_baseline, line, load_baseline, print_outcome, row, save_result,
};
pub use group::{
    MEMBER_MAX_ROUND, few_rounds_note, group_config, group_doc, group_report, rank_sessions,
    render_report,
};
pub use interrupt::install as interrupt_install;
pub use machine_speed::MachineSpeed;
pub use processes::{ChildFailure, ChildReport, WarmUp, combine_children, fresh_copy};
pub(crate) use selection::Selection;

/// The current time as an RFC 3339 timestamp (UTC, seconds), for result documents.
pub fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// The body of the `main` that `pilot::main!()` generates; `debug_build` is
/// `cfg!(debug_assertions)` in the bench target's crate. Filters are libtest's substrings.
pub fn main(debug_build: bool) -> ExitCode {
    main_with(debug_build, FilterSyntax::Substring)
}

/// [`main`] for a front end whose benches are registered before `main` runs and whose filters
/// read in `syntax` (a front end for divan's API passes [`FilterSyntax::Regex`], as divan reads
/// its filters).
pub(crate) fn main_with(debug_build: bool, syntax: FilterSyntax) -> ExitCode {
    // `cargo pilot` asks each bench executable whether it is a pilot binary (criterion's and
    // libtest's are not): say so, run nothing.
    // `PILOT_PROBE=groups` also lists the group members, one `group\tINSTANCE\tBENCH` line
    // each (`cargo pilot bench --against` ranks a group's members from their own processes).
    if let Some(probe) = std::env::var_os("PILOT_PROBE") {
        return answer_probe(&probe);
    }
    let args = match cli::parse(std::env::args_os().skip(1), |k| std::env::var(k).ok()) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {}", crate::fmt::terminal_lines(&e.to_string()));
            return ExitCode::from(2);
        }
    };
    if args.mode == Mode::Help {
        crate::out!("{}", cli::help(pilot_settings::SETTINGS, syntax));
        return ExitCode::SUCCESS;
    }
    let selection = match Selection::new(&args, syntax) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {}", crate::fmt::terminal_lines(&e.to_string()));
            return ExitCode::from(2);
        }
    };
    let benches = registered();
    let selected: Vec<usize> = (0..benches.len())
        .filter(|&i| selection.selects(&benches[i].name, benches[i].def.options.ignore))
        .collect();
    run(&args, &selection, &benches, &selected, debug_build)
}

/// Runs the benches at `selected` (indices into `benches`, in order, as `selection` chose
/// them) as `args` ask: checks the names and settings, says when the filters matched nothing,
/// then lists, tests or measures them.
fn run(
    args: &cli::Args,
    selection: &Selection,
    benches: &[Bench],
    selected: &[usize],
    debug_build: bool,
) -> ExitCode {
    if let Err(code) = check_names(benches) {
        return code;
    }
    let total = benches.len();
    let selected: Vec<&Bench> = selected.iter().map(|&i| &benches[i]).collect();
    if selected.is_empty() && selection.by_name() {
        // Exit code 0 all the same: cargo gives every bench target the same filters, and one
        // target without a match is no mistake (`cargo pilot bench`, which sees them all,
        // makes a filter that matches in none a usage error).
        eprintln!("pilot: {}", selection.no_match());
    }
    for b in &selected {
        if let Err(e) = config::check_session_config(args, b.def) {
            eprintln!(
                "error: bench `{}`: {}",
                crate::fmt::terminal(&b.name),
                crate::fmt::terminal_lines(&e.to_string())
            );
            return ExitCode::from(2);
        }
    }
    let filtered_out = total - selected.len();
    match args.mode {
        Mode::List | Mode::ListTerse => list(args, &selected),
        Mode::Bench => bench_mode::bench_mode(args, &selected, filtered_out, debug_build),
        Mode::Child => processes::child_mode(args, &selected),
        Mode::Test | Mode::Help => {
            test_mode::test_mode(args, selection, benches, &selected, filtered_out)
        }
    }
}

/// Answers `cargo pilot`'s question whether this is a pilot binary (`PILOT_PROBE` set): its
/// version, and with `PILOT_PROBE=groups` the group members too.
fn answer_probe(probe: &std::ffi::OsStr) -> ExitCode {
    crate::outln!("pilot-harness {}", env!("CARGO_PKG_VERSION"));
    if probe == "groups" {
        for b in registered() {
            if let Some(group) = &b.group {
                crate::outln!("group\t{group}\t{}", b.name);
            }
        }
    }
    ExitCode::SUCCESS
}

/// Checks that no two of `benches` share a name and that every name can be stored;
/// the exit code of a usage error, said on standard error, when not.
fn check_names(benches: &[Bench]) -> Result<(), ExitCode> {
    let mut by_name: std::collections::HashMap<&str, &Bench> = std::collections::HashMap::new();
    for b in benches {
        if let Some(first) = by_name.insert(&b.name, b) {
            eprintln!(
                "error: two benches are named `{}` ({}:{} and {}:{}); rename one with \
                 #[pilot::bench(name = \"...\")]",
                crate::fmt::terminal(&b.name),
                crate::fmt::terminal(first.def.file),
                first.def.line,
                crate::fmt::terminal(b.def.file),
                b.def.line
            );
            return Err(ExitCode::from(2));
        }
    }
    if let Err(e) = crate::store::check_names(benches.iter().map(|b| b.name.as_str())) {
        eprintln!("error: {}", crate::fmt::terminal_lines(&e.to_string()));
        return Err(ExitCode::from(2));
    }
    Ok(())
}

/// `--list`: the selected benches, one line each, with their count unless `--format terse`.
fn list(args: &cli::Args, selected: &[&Bench]) -> ExitCode {
    for b in selected {
        crate::outln!("{}: benchmark", crate::fmt::terminal(&b.name));
    }
    if args.mode == Mode::List {
        crate::outln!(
            "\n{}",
            crate::fmt::counted(selected.len(), "benchmark", "benchmarks")
        );
    }
    ExitCode::SUCCESS
}
