//! `cargo pilot compare BASE [NEW]`: compare saved results, as a table, Markdown or JSON.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::anyhow;
use pilot_engine::compare::{CompareOptions, Comparison, LeftOut, Verdict};
use pilot_engine::store::SavedResult;

use crate::args::{Format, HistoryArg, Thresholds, Workspace};
use crate::exit::{Failure, comparison_exit};
use crate::history::of_commit::{self, Materialised};

/// Compare saved results with a baseline.
///
/// BASE and NEW are baseline names (saved with `--save-baseline`), result files or folders
/// (`*.json` of `pilot.result/1` or `pilot.run/1` documents), or `history:REV`: the run of
/// commit REV in the history, the union of its partitions (`cargo pilot bench --partition`).
/// NEW defaults to the latest results (`target/pilot/results`). Exit codes: 0 no regression,
/// 1 error, 2 usage, 3 a regression.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// Baseline name, result file or folder, or `history:REV`
    #[arg(value_name = "BASE")]
    pub base: String,
    /// Baseline name, result file or folder, or `history:REV` [default: the latest results]
    #[arg(value_name = "NEW")]
    pub new: Option<String>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    #[command(flatten)]
    pub thresholds: Thresholds,
    /// The history that `history:REV` reads
    #[command(flatten)]
    pub history: HistoryArg,
    #[command(flatten)]
    pub workspace: Workspace,
}

/// The sides read from the history (`history:REV`): each bench on a machine kind both sides
/// have when both are, else one result per bench; written as saved results, which the
/// comparison then reads as any other. The notes say what choosing them found.
#[allow(clippy::type_complexity)]
fn history_sides(
    args: &CompareArgs,
    target_dir: &dyn Fn() -> anyhow::Result<PathBuf>,
) -> Result<(Option<Materialised>, Option<Materialised>), Failure> {
    let base_rev = of_commit::rev_of(&args.base);
    let new_rev = args.new.as_deref().and_then(of_commit::rev_of);
    if base_rev.is_none() && new_rev.is_none() {
        return Ok((None, None));
    }
    let location = crate::history::location(args.history.history.as_deref(), &target_dir()?)?;
    let location = location.as_ref();
    Ok(match (base_rev, new_rev) {
        (Some(b), Some(n)) => {
            let (bc, base, base_notes) = of_commit::read_run(location, b)?;
            let (nc, new, new_notes) = of_commit::read_run(location, n)?;
            let mut notes: Vec<of_commit::Note> = base_notes
                .into_iter()
                .map(|n| n.side("base"))
                .chain(new_notes.into_iter().map(|n| n.side("new")))
                .collect();
            let (base, new, paired) = of_commit::paired_by_kind(base, new);
            notes.extend(paired);
            let base = of_commit::materialise(bc, base, notes)?;
            let new = of_commit::materialise(nc, new, Vec::new())?;
            (Some(base), Some(new))
        }
        (b, n) => {
            let read = |rev: Option<&str>, side: &str| -> anyhow::Result<Option<Materialised>> {
                let Some(rev) = rev else { return Ok(None) };
                let mut m = of_commit::read_alone(location, rev)?;
                m.notes = std::mem::take(&mut m.notes)
                    .into_iter()
                    .map(|n| n.side(side))
                    .collect();
                Ok(Some(m))
            };
            (read(b, "base")?, read(n, "new")?)
        }
    })
}

/// The results of a side: a history's, when it was read from one, else [`side`]'s.
fn side_of(
    arg: &str,
    from_history: Option<&Materialised>,
    target_dir: &dyn Fn() -> anyhow::Result<PathBuf>,
) -> Result<Vec<SavedResult>, Failure> {
    match from_history {
        Some(m) => {
            let dir = pilot_engine::store::results_dir(m.dir.path());
            Ok(pilot_engine::store::read_dir(&dir).map_err(anyhow::Error::from)?)
        }
        None => side(arg, target_dir),
    }
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

/// Warns of two sides measured on different machines or toolchains.
fn warn_machines(base: &[SavedResult], new: &[SavedResult]) {
    for w in pilot_engine::compare::machine_mismatch(base, new) {
        say!("warning: {}", pilot_engine::fmt::terminal(&w));
    }
}

/// Compares two sides named on the command line: two single results with each other whatever
/// their names, else bench by bench.
fn compared(
    base: &[SavedResult],
    new: &[SavedResult],
    options: &CompareOptions,
) -> Vec<Comparison> {
    if base.len() == 1 && new.len() == 1 {
        let mut one = vec![pilot_engine::compare::compare_pair(
            Some(&base[0]),
            Some(&new[0]),
            options,
        )];
        pilot_engine::compare::judge_suite(&mut one, options);
        one
    } else {
        pilot_engine::compare::compare(base, new, options)
    }
}

/// The lines that say which latest results were left out of a comparison with `base`, and
/// why.
fn left_out_notes(left_out: &LeftOut, base: &str, code: fn(&str) -> String) -> Vec<String> {
    let base = code(base);
    let quoted = |names: &[String]| -> String {
        names.iter().map(|n| code(n)).collect::<Vec<_>>().join(", ")
    };
    let mut out = Vec::new();
    if !left_out.not_rerun.is_empty() {
        out.push(format!(
            "not measured since {base} was saved, so not compared: {}",
            quoted(&left_out.not_rerun)
        ));
    }
    if !left_out.other_targets.is_empty() {
        out.push(format!(
            "targets not in {base}, so not compared: {}",
            quoted(&left_out.other_targets)
        ));
    }
    out
}

/// Fills in which functions each changed bench's instructions changed in, from the profiles
/// its result documents on both sides hold (two single results: each other's, whatever their
/// names). A document that cannot be read again explains nothing.
fn explain_changes(
    doc: &mut pilot_format::CompareDoc,
    (base, new): (&[SavedResult], &[SavedResult]),
) {
    let single = base.len() == 1 && new.len() == 1;
    crate::explain::attach(doc, &|is_base, target, name| {
        let side = if is_base { base } else { new };
        let saved = if single {
            side.first()
        } else {
            side.iter().find(|r| r.target == target && r.name == name)
        }?;
        let read = pilot_engine::store::read_result(&saved.path).ok()?;
        crate::explain::profile(&read)
    });
}

/// Runs `cargo pilot compare`.
pub fn run(args: &CompareArgs) -> Result<ExitCode, Failure> {
    let options = args.thresholds.options();
    // Asked of cargo only when a baseline name or the latest results need it.
    let target_dir = || args.workspace.target_dir();
    let (base_history, new_history) = history_sides(args, &target_dir)?;
    let base = side_of(&args.base, base_history.as_ref(), &target_dir)?;
    if base.is_empty() {
        return Err(Failure::Error(anyhow!("`{}` holds no results", args.base)));
    }
    let (comparisons, left_out, new) = match &args.new {
        Some(arg) => {
            let new = side_of(arg, new_history.as_ref(), &target_dir)?;
            warn_machines(&base, &new);
            (compared(&base, &new, &options), LeftOut::default(), new)
        }
        None => {
            let dir = pilot_engine::store::results_dir(&target_dir()?);
            if !dir.is_dir() {
                return Err(Failure::Error(anyhow!(
                    "no results in `{}`: run the benches first (`cargo pilot bench`)",
                    dir.display()
                )));
            }
            let latest = pilot_engine::store::read_dir(&dir).map_err(anyhow::Error::from)?;
            warn_machines(&base, &latest);
            let (comparisons, left_out) =
                pilot_engine::compare::against_latest(&base, &latest, &options);
            (comparisons, left_out, latest)
        }
    };
    let mut doc = pilot_engine::report::comparison_doc(&comparisons, &options);
    explain_changes(&mut doc, (&base, &new));
    // Names are code spans: a terminal's escaped text, or Markdown's span that nothing in a
    // name can close.
    let terminal_code = |n: &str| format!("`{}`", pilot_engine::fmt::terminal(n));
    let code: fn(&str) -> String = match args.format {
        Format::Md => pilot_engine::fmt::markdown_code,
        _ => terminal_code,
    };
    let mut notes = left_out_notes(&left_out, &args.base, code);
    // What reading the history's runs found: a bench recorded twice, partitions on other
    // machine kinds, a bench with no kind in common.
    for m in [&base_history, &new_history].into_iter().flatten() {
        notes.extend(m.notes.iter().map(|n| n.render(&code)));
    }
    match args.format {
        Format::Table => {
            pilot_engine::out!(
                "{}{}",
                pilot_engine::report::comparison_table(&comparisons, &options),
                crate::explain::terminal(&doc)
            );
            for note in &notes {
                pilot_engine::outln!("{note}");
            }
        }
        Format::Md => {
            pilot_engine::out!(
                "{}{}",
                pilot_engine::report::comparison_markdown(&comparisons, &options),
                crate::explain::markdown(&doc)
            );
            for note in &notes {
                pilot_engine::outln!("{}{}.", note[..1].to_uppercase(), &note[1..]);
            }
        }
        Format::Json => {
            pilot_engine::outln!(
                "{}",
                serde_json::to_string_pretty(&doc).expect("JSON values serialise")
            );
            for note in &notes {
                say!("note: {note}");
            }
        }
    }
    // As `cargo pilot bench --baseline` decides: a bench the new results have no estimate for
    // failed, which no verdict can hide. A baseline without one (a short run that found no
    // steady state) cannot be compared with; its row says so, and the new run has not failed.
    let failed = comparisons
        .iter()
        .any(|c| c.verdict == Verdict::Failed && c.new.is_none());
    Ok(comparison_exit(failed, &comparisons))
}
