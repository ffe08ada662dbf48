//! `cargo pilot list`: the pilot benches of the workspace and their latest results.

use std::process::ExitCode;

use crate::args::CargoOptions;
use crate::cargo;
use crate::exit::Failure;

/// List the pilot benches of the workspace with their latest results.
///
/// Builds the bench targets (as `cargo pilot bench` would) and asks each binary for its
/// benches; the latest result of each comes from `target/pilot/results`. Results there of
/// benches the workspace no longer has (renamed or removed) are listed after them.
#[derive(clap::Args, Debug)]
pub struct ListArgs {
    #[command(flatten)]
    pub cargo: CargoOptions,
}

/// Runs `cargo pilot list`.
pub fn run(args: &ListArgs) -> Result<ExitCode, Failure> {
    let metadata = cargo::metadata(&args.cargo)?;
    let target_dir = cargo::target_dir(&args.cargo, &metadata);
    let packages = cargo::pilot_packages(&metadata, &args.cargo)?;
    let exes = cargo::build(&args.cargo, &packages).map_err(crate::interrupt::failure)?;
    let mut rows: Vec<[String; 4]> = Vec::new();
    let mut problems = Vec::new();
    // Result files accounted for by a bench of the workspace.
    let mut listed = Vec::new();
    let mut listed_names = Vec::new();
    for exe in exes.iter().filter(|e| cargo::is_pilot(&e.path)) {
        let results_target = pilot_engine::store::bench_target_of(&exe.path);
        for name in cargo::list_benches(&exe.path)? {
            let path = pilot_engine::store::latest_path(&target_dir, &results_target, &name);
            let (latest, when) = if !path.exists() {
                ("not run yet".to_string(), String::new())
            } else {
                latest(&path, &mut problems)
            };
            rows.push([
                format!("{}/{name}", exe.target),
                latest,
                when,
                exe.package.clone(),
            ]);
            listed.push(path);
            listed_names.push((results_target.clone(), name));
        }
    }
    let mut gone = Vec::new();
    for path in result_files(&pilot_engine::store::results_dir(&target_dir)) {
        if !listed.contains(&path) {
            let (latest, when) = latest(&path, &mut problems);
            let name = match pilot_engine::store::read_file(&path) {
                // A file an older pilot named differently, of a bench listed above: stale.
                Ok(rs)
                    if rs
                        .iter()
                        .any(|r| listed_names.contains(&(r.target.clone(), r.name.clone()))) =>
                {
                    continue;
                }
                Ok(rs) if !rs.is_empty() => format!("{}/{}", rs[0].target, rs[0].name),
                _ => path.display().to_string(),
            };
            gone.push([
                name,
                latest,
                when,
                "(not built now: renamed, removed, or behind a feature)".into(),
            ]);
        }
    }
    // Only with the workspace's whole set of targets is a result known to be stale.
    if args.cargo.is_whole_workspace() {
        rows.extend(gone);
    }
    let header = ["bench", "latest result", "finished", "package"].map(String::from);
    let lines: Vec<Vec<String>> = rows.iter().map(|r| r.to_vec()).collect();
    pilot_engine::out!(
        "{}",
        pilot_engine::report::columns(&header, &lines, &[0, 1, 2, 3], "")
    );
    pilot_engine::outln!(
        "\n{}",
        pilot_engine::fmt::counted(rows.len(), "bench", "benches")
    );
    for p in &problems {
        say!("warning: {}", pilot_engine::fmt::terminal(p));
    }
    Ok(ExitCode::SUCCESS)
}

/// The description and finishing time of the result file at `path`; a problem reading it is
/// added to `problems`.
fn latest(path: &std::path::Path, problems: &mut Vec<String>) -> (String, String) {
    match pilot_engine::store::read_file(path) {
        Ok(rs) => match rs.first() {
            Some(r) => (describe(r), r.finished.clone().unwrap_or_default()),
            None => ("-".into(), String::new()),
        },
        Err(e) => {
            problems.push(e.to_string());
            ("unreadable result".into(), String::new())
        }
    }
}

/// The `<target>/<bench>.json` files under the results folder (a bench name's `/` is a folder),
/// sorted.
fn result_files(results: &std::path::Path) -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, depth: usize, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            if path.is_dir() {
                if depth > 0 {
                    walk(&path, depth - 1, out);
                }
            } else if depth < 32 && path.extension().is_some_and(|e| e == "json") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(results, 32, &mut files);
    files.sort();
    files
}

/// `84.90 µs ± 0.97% (ok)`.
fn describe(r: &pilot_engine::store::SavedResult) -> String {
    match &r.time {
        Some(t) => format!(
            "{} ({})",
            pilot_engine::report::format_estimate(t.mean, t.low, t.high),
            r.status
        ),
        None => r.status.clone(),
    }
}
