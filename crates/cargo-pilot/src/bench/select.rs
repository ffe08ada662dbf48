//! Which benches a run measures: the targets whose benches the filters select, and with
//! `--partition` the share of the suite each target is given.

use crate::args::BenchArgs;
use crate::cargo;
use crate::exit::Failure;
use crate::partition::{Partition, bench_key};

/// The targets to run: with filters (or `--compare-across`), each target lists what it
/// selects first, reading the filters in its own front end's syntax (libtest's substrings, or
/// criterion's regular expressions), and those that select nothing are not run. A target that
/// refuses them (an invalid regular expression) is a usage error, and so are filters that
/// select no bench of any target, both before anything is measured.
pub(super) fn select_targets<'a>(
    args: &BenchArgs,
    exes: Vec<&'a cargo::BenchExe>,
) -> Result<Vec<&'a cargo::BenchExe>, Failure> {
    let across = args.settings.raw("compare_across");
    if args.filters.is_empty() && across.is_none() {
        return Ok(exes);
    }
    let extra: Vec<std::ffi::OsString> = across
        .map(|p| vec!["--compare-across".into(), p.into()])
        .unwrap_or_default();
    let mut chosen = Vec::new();
    let mut selected = 0;
    for exe in exes {
        let names = selected_names(args, exe, &extra)?;
        if !names.is_empty() || args.filters.is_empty() {
            selected += names.len();
            chosen.push(exe);
        }
    }
    match nothing_matched(args, selected) {
        Some(e) => Err(Failure::Usage(e)),
        None => Ok(chosen),
    }
}

/// The benches of `exe` that `args`' filters select (with `extra` flags for the listing); a
/// filter the binary refuses is a usage error.
fn selected_names(
    args: &BenchArgs,
    exe: &cargo::BenchExe,
    extra: &[std::ffi::OsString],
) -> Result<Vec<String>, Failure> {
    cargo::list_selected(exe, &args.filters, args.exact, &args.skip, extra).map_err(|e| {
        match e.downcast::<cargo::Refused>() {
            Ok(refused) => Failure::Usage(refused.into()),
            Err(e) => {
                Failure::Error(e.context(format!("failed to list the benches of `{}`", exe.target)))
            }
        }
    })
}

/// The targets to run with `--partition`, each with its benches of the share: every target
/// lists what the filters select, the suite is all of them (`target/name`, the target as
/// `Cargo.toml` names it), and the share's benches of each target are given to it by name.
/// `None` when the share holds no bench: that is said, and is no error (a suite smaller than
/// N leaves some runners nothing to do).
#[allow(clippy::type_complexity)]
pub(super) fn partition_targets<'a>(
    args: &BenchArgs,
    partition: Partition,
    exes: Vec<&'a cargo::BenchExe>,
) -> Result<Option<Vec<(&'a cargo::BenchExe, Option<Vec<String>>)>>, Failure> {
    let extra: Vec<std::ffi::OsString> = args
        .settings
        .raw("compare_across")
        .map(|p| vec!["--compare-across".into(), p.into()])
        .unwrap_or_default();
    let mut listed = Vec::new();
    for exe in exes {
        let names = selected_names(args, exe, &extra)?;
        listed.push((exe, names));
    }
    let total: usize = listed.iter().map(|(_, names)| names.len()).sum();
    if let Some(e) = nothing_matched(args, total) {
        return Err(Failure::Usage(e));
    }
    let suite: Vec<String> = listed
        .iter()
        .flat_map(|(exe, names)| names.iter().map(|n| bench_key(&exe.target, n)))
        .collect();
    let share: std::collections::HashSet<&String> = partition.select(&suite).into_iter().collect();
    let mut chosen = Vec::new();
    for (exe, names) in listed {
        let mine: Vec<String> = names
            .into_iter()
            .filter(|n| share.contains(&bench_key(&exe.target, n)))
            .collect();
        if !mine.is_empty() {
            chosen.push((exe, Some(mine)));
        }
    }
    if share.is_empty() {
        pilot_engine::outln!(
            "partition {partition}: no bench of the {} selected falls in this share; nothing \
             to run",
            total
        );
        return Ok(None);
    }
    pilot_engine::outln!(
        "partition {partition}: {} of the {} benches selected",
        share.len(),
        total
    );
    Ok(Some(chosen))
}

/// The usage error of filters that selected no bench in any target. Each binary accepts a
/// filter that matches none of its own benches (as libtest does), since cargo gives every
/// target the same filters; only across all of them is a filter that matches nothing a
/// mistake.
pub(super) fn nothing_matched(args: &BenchArgs, selected: usize) -> Option<anyhow::Error> {
    if args.filters.is_empty() || selected > 0 {
        return None;
    }
    let filters: Vec<String> = args
        .filters
        .iter()
        .map(|f| format!("`{}`", pilot_engine::fmt::terminal(f)))
        .collect();
    Some(anyhow::anyhow!(
        "no bench of any bench target matches {}{}",
        filters.join(", "),
        if args.exact { " exactly" } else { "" }
    ))
}
