//! `cargo pilot export --format bmf|github|csv|md [SOURCE] [--out FILE]`: saved results in the
//! formats dashboards and CI bots read. One file per format; this one reads the results and
//! writes the output.
//!
//! A bench is named as `cargo pilot bench`'s table names it: `<bench target>/<bench name>`
//! (`sort/sort_10k`, `groups/iterate/vec/100`), or the bench name alone where the document
//! has no target.

mod bmf;
mod csv;
mod github;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, anyhow};
use pilot_engine::files::Existing;
use pilot_engine::fmt::terminal;
use pilot_format::{PiDoc, ResultDoc};

use crate::args::{HistoryArg, Workspace};
use crate::exit::Failure;

/// Export saved results for dashboards and CI bots.
///
/// SOURCE is a baseline name (saved with `--save-baseline`), a result file (`pilot.result/1`,
/// or a `pilot.run/1` document), a folder of them, or `history:REV` (the run of commit REV in
/// the history, the union of its partitions); default: the latest results
/// (`target/pilot/results`). Output goes to standard output, or to `--out FILE` (a new or
/// regular file atomically; a device, FIFO or symlink in place).
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// Output format
    #[arg(long, value_enum)]
    pub format: Format,
    /// Baseline name, result file or folder, or `history:REV` [default: the latest results]
    #[arg(value_name = "SOURCE")]
    pub source: Option<String>,
    /// Write to FILE instead of standard output
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Replace `--out FILE` if it exists (without it, an existing file is an error)
    #[arg(long, requires = "out")]
    pub force: bool,
    /// The history that `history:REV` reads
    #[command(flatten)]
    pub history: HistoryArg,
    #[command(flatten)]
    pub workspace: Workspace,
}

/// What `export` writes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Bencher Metric Format JSON, for `bencher run --adapter json`
    Bmf,
    /// github-action-benchmark's `customSmallerIsBetter` JSON array
    Github,
    /// One CSV row per bench and performance index, with Getstats' columns
    Csv,
    /// The results table in Markdown
    Md,
}

/// Runs `cargo pilot export`.
pub fn run(args: &ExportArgs) -> Result<ExitCode, Failure> {
    let (documents, source) = load(args)?;
    let text = match args.format {
        Format::Md => pilot_engine::report::results_markdown(&documents),
        format => {
            let measured = with_estimates(&documents, &source)?;
            match format {
                Format::Bmf => bmf::render(&measured),
                Format::Github => github::render(&measured),
                _ => csv::render(&measured)?,
            }
        }
    };
    match &args.out {
        None => pilot_engine::out!("{text}"),
        Some(path) => write_out(path, text.as_bytes(), args.force)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The documents to export and a description of where they came from (for messages).
fn load(args: &ExportArgs) -> Result<(Vec<ResultDoc>, String), Failure> {
    let target_dir = || args.workspace.target_dir();
    if let Some(rev) = args.source.as_deref().and_then(history_rev) {
        let location = crate::history::location(args.history.history.as_deref(), &target_dir()?)?;
        let m = crate::history::of_commit::read_alone(location.as_ref(), rev)?;
        for note in &m.notes {
            say!("note: {note}");
        }
        let dir = pilot_engine::store::results_dir(m.dir.path());
        let documents =
            pilot_engine::store::read_documents_in(&dir).map_err(anyhow::Error::from)?;
        return Ok((
            documents,
            format!("the run of `{}` in the history", m.commit),
        ));
    }
    let (dir, source) = match &args.source {
        Some(arg) if Path::new(arg).exists() => (PathBuf::from(arg), format!("`{arg}`")),
        Some(arg) => {
            if arg.contains('/') || arg.ends_with(".json") {
                return Err(anyhow!("`{arg}` does not exist").into());
            }
            let baselines = pilot_engine::store::baselines_dir(&target_dir()?);
            let dir =
                pilot_engine::store::baseline(&baselines, arg).map_err(anyhow::Error::from)?;
            (
                dir.clone(),
                format!("baseline `{arg}` (`{}`)", dir.display()),
            )
        }
        None => {
            let dir = pilot_engine::store::results_dir(&target_dir()?);
            if !dir.is_dir() {
                return Err(anyhow!(
                    "no results in `{}`: run the benches first (`cargo pilot bench`)",
                    dir.display()
                )
                .into());
            }
            let source = format!("`{}`", dir.display());
            (dir, source)
        }
    };
    let documents = pilot_engine::store::read_documents_in(&dir).map_err(anyhow::Error::from)?;
    if documents.is_empty() {
        return Err(anyhow!("{source} holds no results").into());
    }
    Ok((documents, source))
}

/// The revision of `history:REV`, unless a file of that name exists (a path is read as one).
fn history_rev(source: &str) -> Option<&str> {
    if Path::new(source).exists() {
        return None;
    }
    crate::history::of_commit::rev_of(source)
}

/// The documents that have an estimate of their time or counts (`--instructions` counts a
/// bench whose time found none); the others (failed, unresolved) are named on standard error,
/// and so are those exported with their counts alone. None at all is an error: a dashboard
/// fed an empty file would show nothing, silently.
fn with_estimates<'a>(
    documents: &'a [ResultDoc],
    source: &str,
) -> Result<Vec<&'a ResultDoc>, Failure> {
    let counted = |d: &ResultDoc| count(d, pilot_format::INSTRUCTIONS_PI).is_some();
    let (measured, left_out): (Vec<&ResultDoc>, Vec<&ResultDoc>) = documents
        .iter()
        .partition(|d| time(d).is_some() || counted(d));
    for d in &measured {
        if time(d).is_none() {
            say!(
                "warning: `{}` has no time estimate (status `{}`): its counts only",
                terminal(&bench_name(d)),
                terminal(&d.status)
            );
        }
    }
    for d in &left_out {
        say!(
            "warning: `{}` has no estimate (status `{}`): left out",
            terminal(&bench_name(d)),
            terminal(&d.status)
        );
    }
    if measured.is_empty() {
        return Err(anyhow!("no result in {source} has an estimate").into());
    }
    Ok(measured)
}

/// The name a bench is exported under: `<bench target>/<bench name>`, as `cargo pilot bench`'s
/// table names it.
fn bench_name(d: &ResultDoc) -> String {
    if d.target.is_empty() {
        d.name.clone()
    } else {
        format!("{}/{}", d.target, d.name)
    }
}

/// The time per unit (ns) with the bounds of this run's interval, when the document has an
/// estimate.
fn time(d: &ResultDoc) -> Option<(f64, f64, f64)> {
    let pi = d.time()?;
    let ci = pi.run_ci();
    Some((pi.mean?, ci.low?, ci.high?))
}

/// The throughput performance index (`<unit>/s`), when the bench names a unit.
fn throughput(d: &ResultDoc) -> Option<&PiDoc> {
    d.pis
        .iter()
        .skip(1)
        .find(|pi| pi.name == "throughput" && pi.mean.is_some())
}

/// A count PI (`instructions`, `estimated_cycles`) of `d` with both bounds, when it was
/// counted.
fn count(d: &ResultDoc, name: &str) -> Option<(f64, f64, f64)> {
    let pi = d.pis.iter().find(|pi| pi.name == name)?;
    Some((pi.mean?, pi.ci.low?, pi.ci.high?))
}

/// What one work unit is: the bench's `unit` (from its throughput's `<unit>/s`), `iter` in the
/// micro form, else `unit`.
fn work_unit(d: &ResultDoc) -> String {
    match throughput(d).and_then(|pi| pi.unit.strip_suffix("/s")) {
        Some(unit) => unit.to_string(),
        None if d.form == pilot_format::Form::Micro => "iter".to_string(),
        None => "unit".to_string(),
    }
}

/// `x` with `digits` significant digits, in plain notation (`0.4123`, `12.35`, `348536`).
fn significant(x: f64, digits: i32) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let magnitude = x.abs().log10().floor() as i32;
    let decimals = (digits - 1 - magnitude).max(0) as usize;
    format!("{x:.decimals$}")
}

/// Writes `bytes` to `path` as [`write_output`] does: a new or regular file atomically, a
/// device, FIFO or symlink in place. Without `force` anything already at `path` is refused, and
/// the rename itself refuses a file that appeared meanwhile.
///
/// [`write_output`]: pilot_engine::files::write_output
fn write_out(path: &Path, bytes: &[u8], force: bool) -> Result<(), Failure> {
    let shown = path.display();
    let refused =
        || anyhow!("`{shown}` exists: pass --force to replace it, or choose another --out");
    // A dangling symlink exists too: writing would create the file it points to.
    if !force && std::fs::symlink_metadata(path).is_ok() {
        return Err(refused().into());
    }
    let existing = if force {
        Existing::Replace
    } else {
        Existing::Refuse
    };
    let written = pilot_engine::files::write_output(path, bytes, existing);
    // The file appeared between the check above and the rename.
    if written
        .as_ref()
        .is_err_and(|e| e.kind() == std::io::ErrorKind::AlreadyExists && !force)
    {
        return Err(refused().into());
    }
    written.with_context(|| format!("failed to write `{shown}`"))?;
    Ok(())
}
