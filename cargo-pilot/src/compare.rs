//! `cargo pilot compare BASE [NEW]`: compare saved results, as a table, Markdown or JSON.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::anyhow;
use pilot_engine::compare::Verdict;
use pilot_engine::store::SavedResult;

use crate::args::{Format, Thresholds, Workspace};
use crate::exit::{Failure, comparison_exit};

/// Compare saved results with a baseline.
///
/// BASE and NEW are baseline names (saved with `--save-baseline`) or result files or folders
/// (`*.json` of `pilot.result/1` or `pilot.run/1` documents). NEW defaults to the latest
/// results (`target/pilot/results`). Exit codes: 0 no regression, 1 error, 2 usage, 3 a
/// regression.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// Baseline name, or a result file or folder
    #[arg(value_name = "BASE")]
    pub base: String,
    /// Baseline name, or a result file or folder [default: the latest results]
    #[arg(value_name = "NEW")]
    pub new: Option<String>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    #[command(flatten)]
    pub thresholds: Thresholds,
    #[command(flatten)]
    pub workspace: Workspace,
}

/// Reads a side of the comparison: a path that exists, else a baseline name.
fn side(
    arg: &str,
    target_dir: &dyn Fn() -> anyhow::Result<PathBuf>,
) -> Result<Vec<SavedResult>, Failure> {
    let path = Path::new(arg);
    if path.exists() {
        return Ok(pilot_engine::store::read_path(path).map_err(anyhow::Error::from)?);
    }
    let looks_like_path = arg.contains('/') || arg.ends_with(".json");
    let baselines = pilot_engine::store::baselines_dir(&target_dir()?);
    match pilot_engine::store::baseline(&baselines, arg) {
        Ok(dir) => Ok(pilot_engine::store::read_dir(&dir).map_err(anyhow::Error::from)?),
        Err(_) if looks_like_path => Err(Failure::Error(anyhow!("`{arg}` does not exist"))),
        Err(e) => Err(Failure::Error(e.into())),
    }
}

/// Runs `cargo pilot compare`.
pub fn run(args: &CompareArgs) -> Result<ExitCode, Failure> {
    let options = args.thresholds.options();
    // Asked of cargo only when a baseline name or the latest results need it.
    let target_dir = || args.workspace.target_dir();
    let base = side(&args.base, &target_dir)?;
    let new = match &args.new {
        Some(arg) => side(arg, &target_dir)?,
        None => {
            let dir = pilot_engine::store::results_dir(&target_dir()?);
            if !dir.is_dir() {
                return Err(Failure::Error(anyhow!(
                    "no results in `{}`: run the benches first (`cargo pilot bench`)",
                    dir.display()
                )));
            }
            pilot_engine::store::read_dir(&dir).map_err(anyhow::Error::from)?
        }
    };
    if base.is_empty() {
        return Err(Failure::Error(anyhow!("`{}` holds no results", args.base)));
    }
    for w in pilot_engine::compare::machine_mismatch(&base, &new) {
        eprintln!("warning: {}", pilot_engine::fmt::terminal(&w));
    }
    // Two single results are compared with each other whatever their names.
    let comparisons = if base.len() == 1 && new.len() == 1 {
        vec![pilot_engine::compare::compare_pair(
            Some(&base[0]),
            Some(&new[0]),
            &options,
        )]
    } else {
        pilot_engine::compare::compare(&base, &new, &options)
    };
    match args.format {
        Format::Table => pilot_engine::out!(
            "{}",
            pilot_engine::report::comparison_table(&comparisons, &options)
        ),
        Format::Md => pilot_engine::out!(
            "{}",
            pilot_engine::report::comparison_markdown(&comparisons, &options)
        ),
        Format::Json => pilot_engine::outln!(
            "{}",
            serde_json::to_string_pretty(&pilot_engine::report::comparison_doc(
                &comparisons,
                &options
            ))
            .expect("JSON values serialise")
        ),
    }
    // As `cargo pilot bench --baseline` decides: a bench the new results have no estimate for
    // failed, which no verdict can hide. A baseline without one (a short run that found no
    // steady state) cannot be compared with; its row says so, and the new run has not failed.
    let failed = comparisons
        .iter()
        .any(|c| c.verdict == Verdict::Failed && c.new.is_none());
    Ok(comparison_exit(failed, &comparisons))
}
