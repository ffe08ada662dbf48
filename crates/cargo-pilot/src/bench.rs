//! `cargo pilot bench`: build every pilot bench target of the workspace, run each, print one
//! summary across them, and compare with a baseline when asked.

use std::path::Path;
use std::process::{Command, ExitCode};

use anyhow::Context;
use pilot_engine::compare::{CompareOptions, Comparison};
use pilot_engine::files::Existing;
use pilot_engine::settings::{BaselineName, Cap, Count, MinTime};
use pilot_engine::store::SavedResult;
use pilot_format::{CompareDoc, GroupDoc, RUN_SCHEMA, ResultDoc, RunDoc};

use crate::args::BenchArgs;
use crate::cargo;
use crate::exit::{self, Failure, comparison_exit};
use crate::interrupt;
use crate::resume::{FinishedTarget, RunLog};

mod select;
use select::{partition_targets, select_targets};

/// The flags passed on to every bench binary (`--resume` only to the target an interrupted
/// run was measuring).
/// `only`, a partition's share of this binary, replaces the filters: its names, exactly.
fn binary_args(
    args: &BenchArgs,
    json: &Path,
    resume: bool,
    only: Option<&[String]>,
) -> Vec<std::ffi::OsString> {
    let mut out: Vec<std::ffi::OsString> = vec!["--bench".into()];
    if resume {
        out.push("--resume".into());
    }
    match only {
        Some(names) => {
            out.extend(names.iter().map(Into::into));
            out.push("--exact".into());
        }
        None => {
            out.extend(args.filters.iter().map(Into::into));
            if args.exact {
                out.push("--exact".into());
            }
            for s in &args.skip {
                out.extend(["--skip".into(), s.into()]);
            }
        }
    }
    if let Some(name) = &args.baselines.save_baseline {
        out.extend(["--save-baseline".into(), name.0.clone().into()]);
    }
    // Every forwarded setting as given, from the table of settings. The comparison happens
    // here, across targets; the binaries only need to know that the run is compared, for their
    // default process count.
    let processes = args.settings.get::<Count>("processes").map(|n| n.0).or(args
        .baselines
        .baseline
        .as_ref()
        .map(|_| pilot_settings::PROCESSES.baseline));
    out.extend(args.settings.forward(&["processes"]));
    if let Some(n) = processes {
        out.extend(["--processes".into(), n.to_string().into()]);
    }
    out.extend(["--json".into(), json.as_os_str().to_owned()]);
    out
}

/// Checks what clap's value types cannot: the flags together. A bad combination is one usage
/// error (exit 2), found before anything is built; so is a missing Valgrind for
/// `--instructions` (an error, exit 1).
fn check(args: &BenchArgs) -> Result<(), Failure> {
    args.settings.check_together().map_err(Failure::Usage)?;
    // Counting needs Valgrind: said before anything is built, not by each binary after.
    if args.settings.on("instructions") {
        pilot_engine::runner::counting::Valgrind::find()
            .map_err(|e| Failure::Error(anyhow::anyhow!(e)))?;
    }
    let min = args.settings.get::<MinTime>("min_time");
    let max = args.settings.get::<Cap>("max_time");
    if let (Some(min), Some(max)) = (min, max)
        && min.0 > max.0
    {
        return Err(Failure::Usage(anyhow::anyhow!(
            "--min-time ({} s) is above --max-time ({} s)",
            min.0.as_secs_f64(),
            max.0.as_secs_f64()
        )));
    }
    Ok(())
}

/// What the targets of one `cargo pilot bench` have reported so far.
#[derive(Default)]
struct Gathered {
    documents: Vec<ResultDoc>,
    /// (target, bench) of every bench the binaries selected, run or not (`--fail-fast`).
    selected: Vec<(String, String)>,
    /// The groups' rankings the binaries reported.
    groups: Vec<GroupDoc>,
    /// Each executable run, by the target its results name: the history keeps its digest
    /// (read once the run is over, and only for a history), so that `changes` knows two runs
    /// of the same code.
    executables: crate::history::Executables,
    failed: bool,
}

/// Runs `cargo pilot bench`; with `--against`, the `against` module runs it.
pub fn run(args: &BenchArgs) -> Result<ExitCode, Failure> {
    let options = args.baselines.thresholds.options();
    check(args)?;
    if let Some(rev) = &args.against {
        return crate::against::run(args, rev);
    }
    let metadata = cargo::metadata(&args.cargo)?;
    let target_dir = cargo::target_dir(&args.cargo, &metadata);
    // A history that cannot be one is a usage error before anything is built, not after the run.
    let history = crate::history::location(args.history.history.as_deref(), &target_dir)?;
    // A missing or corrupt baseline stops the run before anything is built.
    let base = match &args.baselines.baseline {
        Some(name) => Some(read_baseline(&target_dir, name)?),
        None => None,
    };
    let packages = cargo::pilot_packages(&metadata, &args.cargo)?;
    if packages.is_empty() {
        return Err(Failure::Error(anyhow::anyhow!(
            "no bench target uses pilot in this workspace (a package needs `pilot-bench` or \
             `pilot-criterion` or `pilot-divan` among its dependencies and a `[[bench]]` with `harness = false`)"
        )));
    }
    cargo::check_benches(&metadata, &args.cargo, &packages).map_err(Failure::Usage)?;
    let exes = cargo::build(&args.cargo, &packages).map_err(interrupt::failure)?;
    interrupt::install();
    let mut log = RunLog::start(&target_dir, args.resume)?;
    // The binaries' run documents, removed on every way out of this function.
    let scratch = tempfile::Builder::new()
        .prefix("cargo-pilot-")
        .tempdir()
        .context("failed to create a temporary folder")?;
    let mut pilot_exes = Vec::new();
    for exe in &exes {
        if cargo::is_pilot(&exe.path) {
            pilot_exes.push(exe);
        } else {
            say!(
                "cargo pilot: skipping bench target `{}` of `{}`: not a pilot bench binary",
                pilot_engine::fmt::terminal(&exe.target),
                pilot_engine::fmt::terminal(&exe.package)
            );
        }
    }
    let pilot_exes = match args.partition {
        Some(partition) => match partition_targets(args, partition, pilot_exes)? {
            Some(share) => share,
            None => return Ok(ExitCode::SUCCESS),
        },
        None => select_targets(args, pilot_exes)?
            .into_iter()
            .map(|exe| (exe, None))
            .collect(),
    };
    let mut got = Gathered::default();
    for (exe, only) in pilot_exes {
        pilot_engine::outln!(
            "\n== {} ({})",
            pilot_engine::fmt::terminal(&exe.target),
            pilot_engine::fmt::terminal(&exe.package)
        );
        if let Some(finished) = log.finished(exe) {
            pilot_engine::outln!("finished by the interrupted run, not run again");
            got.documents.extend(finished.results(&target_dir));
            got.selected.extend(finished.selected());
            log.done(finished);
            continue;
        }
        let json = scratch
            .path()
            .join(format!("{}-{}.json", exe.package, exe.target));
        let status = run_target(args, (exe, only.as_deref()), &json, &target_dir, &mut log)?;
        if interrupt::happened() {
            pilot_engine::outln!(
                "\n{}",
                pilot_engine::report::results_table(&got.documents, false, args.settings.paint())
            );
            say!(
                "cargo pilot: interrupted while running `{}`; every bench finished so far is \
                 saved: `cargo pilot bench --resume` with the same arguments measures the rest",
                pilot_engine::fmt::terminal(&exe.target)
            );
            return Ok(ExitCode::from(exit::Exit::Interrupted));
        }
        gather(exe, &json, status, &mut got, &mut log);
        if got.failed && args.settings.on("fail_fast") {
            break;
        }
    }
    log.finish();
    let root = metadata.workspace_root.clone().into_std_path_buf();
    finish(
        args,
        (&target_dir, &root, history.as_ref()),
        got,
        base,
        &options,
    )
}

/// The results saved as baseline `name`.
fn read_baseline(target_dir: &Path, name: &str) -> anyhow::Result<Vec<SavedResult>> {
    let dir = pilot_engine::store::baseline(&pilot_engine::store::baselines_dir(target_dir), name)?;
    Ok(pilot_engine::store::read_dir(&dir)?)
}

/// Runs one bench binary in benchmark mode, its whole run reported to `json`.
fn run_target(
    args: &BenchArgs,
    (exe, only): (&cargo::BenchExe, Option<&[String]>),
    json: &Path,
    target_dir: &Path,
    log: &mut RunLog,
) -> Result<std::process::ExitStatus, Failure> {
    let mut child = Command::new(&exe.path)
        .args(binary_args(args, json, log.was_running(exe), only))
        .current_dir(&exe.package_dir)
        .env("CARGO_TARGET_DIR", target_dir)
        .env("PILOT_NO_TABLE", "1")
        .spawn()
        .with_context(|| format!("failed to start `{}`", exe.path.display()))?;
    log.running(exe);
    Ok(interrupt::wait(&mut child)
        .with_context(|| format!("failed to wait for `{}`", exe.path.display()))?)
}

/// Takes what a bench binary reported in its run document at `json` (it exited with
/// `status`): its results, and the benches it selected.
fn gather(
    exe: &cargo::BenchExe,
    json: &Path,
    status: std::process::ExitStatus,
    got: &mut Gathered,
    log: &mut RunLog,
) {
    if !status.success() {
        got.failed = true;
    }
    let text = match std::fs::read_to_string(json) {
        Ok(text) => text,
        Err(_) => {
            // A binary stops there, quietly, when the standard output it shares with this
            // process has lost its reader (`cargo pilot bench | head -1`): so does this one.
            pilot_engine::out::end_if_closed();
            say!(
                "error: bench target `{}` exited with {status} without reporting results",
                pilot_engine::fmt::terminal(&exe.target)
            );
            got.failed = true;
            return;
        }
    };
    let run: RunDoc = match serde_json::from_str(&text) {
        Ok(run) => run,
        Err(e) => {
            say!(
                "error: unreadable results of `{}`: {}",
                pilot_engine::fmt::terminal(&exe.target),
                pilot_engine::fmt::terminal_lines(&format!("{e:#}"))
            );
            got.failed = true;
            return;
        }
    };
    // The target as the binary names it in its results (cargo turns `-` into `_` in
    // executable names).
    let target = run.target.unwrap_or_else(|| exe.target.clone());
    let names = run.benches.unwrap_or_default();
    got.executables.insert(target.clone(), exe.path.clone());
    got.documents.extend(run.results);
    got.groups.extend(run.groups.unwrap_or_default());
    got.selected
        .extend(names.iter().map(|n| (target.clone(), n.clone())));
    log.done(FinishedTarget {
        package: exe.package.clone(),
        target: exe.target.clone(),
        results_target: target,
        benches: names,
    });
}

/// The end of a run across targets: one table, the comparison with the baseline, the run
/// document, and the exit code.
fn finish(
    args: &BenchArgs,
    (target_dir, root, history): (&Path, &Path, Option<&crate::history::Location>),
    got: Gathered,
    base: Option<Vec<SavedResult>>,
    options: &CompareOptions,
) -> Result<ExitCode, Failure> {
    let verbose = args.settings.on("verbose");
    pilot_engine::outln!(
        "\n{}",
        pilot_engine::report::results_table(&got.documents, verbose, args.settings.paint())
            .trim_end()
    );
    let context = |d: &ResultDoc| pilot_engine::report::context_of(d, &got.groups, false);
    let summary = pilot_engine::report::summary(
        &got.documents,
        &context,
        &mut Default::default(),
        args.settings.paint(),
    );
    if !summary.is_empty() {
        pilot_engine::out!("\n{summary}");
    }
    pilot_engine::outln!(
        "results: {}; {}",
        pilot_engine::fmt::terminal_path(&pilot_engine::store::results_dir(target_dir)),
        pilot_engine::report::reproducibility_note(&got.documents)
    );
    if let Some(name) = &args.baselines.save_baseline {
        say_saved_baseline(name, target_dir, &got);
    }
    let comparisons = match &base {
        Some(base) => compare_with_baseline(args, target_dir, &got, base, options),
        None => Vec::new(),
    };
    let comparison = base.is_some().then(|| CompareDoc {
        against: args.baselines.baseline.as_ref().map(|n| n.0.clone()),
        ..pilot_engine::report::comparison_doc(&comparisons, options)
    });
    let failed = got.failed;
    // The results are on disk already: a history that cannot take them loses nothing, and
    // the run ends with the error after its run document is written.
    let partition = args.partition.map(|p| p.to_string());
    let recorded = crate::history::append_docs(
        history,
        target_dir,
        (&got.documents, &got.executables),
        ("bench", partition.as_deref()),
        root,
    );
    write_run(args, target_dir, got, comparison)?;
    recorded?;
    Ok(comparison_exit(failed, &comparisons))
}

/// Says whether the run's results make baseline `name` whole, or only in part.
fn say_saved_baseline(name: &BaselineName, target_dir: &Path, got: &Gathered) {
    let dir = pilot_engine::store::baselines_dir(target_dir).join(name);
    if got.failed {
        // Each bench's result was saved as it finished, or not: never claim the whole.
        say!(
            "baseline `{}` is incomplete: a bench failed or its result could not be written \
             ({})",
            pilot_engine::fmt::terminal(name),
            pilot_engine::fmt::terminal_path(&dir)
        );
    } else {
        pilot_engine::outln!(
            "saved as baseline `{}`: {}",
            pilot_engine::fmt::terminal(name),
            pilot_engine::fmt::terminal_path(&dir)
        );
        if let Some(w) = pilot_engine::report::weak_baseline(&got.documents, name) {
            pilot_engine::outln!("warning: {}", pilot_engine::fmt::terminal(&w));
        }
    }
}

/// Compares the run's results with the baseline `base` and prints the table.
fn compare_with_baseline(
    args: &BenchArgs,
    target_dir: &Path,
    got: &Gathered,
    base: &[SavedResult],
    options: &CompareOptions,
) -> Vec<Comparison> {
    let new: Vec<SavedResult> = got
        .documents
        .iter()
        .filter_map(|d| {
            let path = pilot_engine::store::latest_path(target_dir, &d.target, &d.name);
            pilot_engine::store::from_document(d, &path).ok()
        })
        .collect();
    // Only benches this run selected count as missing, as the binaries chose them
    // (filters, `--skip`, ignored benches).
    let selected: Vec<SavedResult> = base
        .iter()
        .filter(|r| got.selected.contains(&(r.target.clone(), r.name.clone())))
        .cloned()
        .collect();
    let comparisons = pilot_engine::compare::compare(&selected, &new, options);
    pilot_engine::outln!(
        "\ncompared with baseline `{}`:\n{}",
        pilot_engine::fmt::terminal(args.baselines.baseline.as_deref().unwrap_or("")),
        pilot_engine::report::comparison_table(&comparisons, options)
    );
    comparisons
}

/// Writes the run document: always as the last run (`cargo pilot report` reads the groups and
/// the comparison from it), and to `--json FILE` when asked.
fn write_run(
    args: &BenchArgs,
    target_dir: &Path,
    got: Gathered,
    comparison: Option<CompareDoc>,
) -> Result<(), Failure> {
    let run = RunDoc {
        schema: RUN_SCHEMA.to_string(),
        target: None,
        started: None,
        machine: None,
        benches: None,
        results: got.documents,
        comparison,
        groups: (!got.groups.is_empty()).then_some(got.groups),
    };
    let bytes = serde_json::to_vec_pretty(&run).expect("documents serialise");
    // The groups and the comparison live only in this document: `cargo pilot report` reads
    // the last one.
    let last = pilot_engine::store::last_run_path(target_dir);
    if let Err(e) = pilot_engine::files::write_atomic(&last, &bytes) {
        say!(
            "warning: failed to write `{}`: {e}",
            pilot_engine::fmt::terminal_path(&last)
        );
    }
    if let Some(path) = &args.json {
        pilot_engine::files::write_output(path, &bytes, Existing::Replace)
            .with_context(|| format!("failed to write `{}`", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::select::nothing_matched;
    use crate::args::tests::bench;

    #[test]
    fn a_filter_is_a_mistake_only_when_no_target_matched_it() {
        let args = bench(&["sort", "hash"]).unwrap();
        // One target's match is enough: the others' empty selections are no mistake.
        assert!(nothing_matched(&args, 1).is_none());
        let e = nothing_matched(&args, 0).unwrap();
        assert_eq!(
            e.to_string(),
            "no bench of any bench target matches `sort`, `hash`"
        );
        let exact = bench(&["--exact", "sort"]).unwrap();
        let e = nothing_matched(&exact, 0).unwrap();
        assert_eq!(
            e.to_string(),
            "no bench of any bench target matches `sort` exactly"
        );
        // Without a filter, a workspace without benches is not this mistake.
        assert!(nothing_matched(&bench(&[]).unwrap(), 0).is_none());
    }
}
