//! `cargo pilot report`: one HTML page with plots of the latest results, written to
//! `target/pilot/report/index.html`.
//!
//! The page is self-contained: its SVG plots (drawn by plotters) are inline and it loads no
//! script, font or style from anywhere, so it works offline and can be attached to a CI run as
//! one file. Sections: the comparison with a baseline, the groups (their latest rankings, as
//! the bench binaries saved them under `target/pilot/rankings`; a group swept over a
//! parameter as one chart with a line per alternative, any other as bars), the parameter
//! sweeps outside groups, then each bench (its readings over the session, or its WPS fit, with
//! checks and warnings). Benches are named as `cargo pilot compare` names them.

mod page;
mod plot;
mod sections;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use anyhow::{Context, anyhow};
use pilot_engine::files::Existing;
use pilot_format::{CompareDoc, GroupDoc, RUN_SCHEMA, ResultDoc, RunDoc};

use crate::args::{HistoryArg, Thresholds, Workspace};
use crate::exit::Failure;

/// Write an HTML page with plots of the latest results.
///
/// Reads the results under `target/pilot/results` (benches and `cargo pilot run` programs; or
/// under `--results DIR`, such as `cargo pilot run`'s `./pilot-results` outside a cargo
/// project), the groups' latest rankings under `target/pilot/rankings` and the comparison of
/// the last `cargo pilot bench` (or the groups and comparison of the run documents given with
/// `--run`), and writes `target/pilot/report/index.html`: one file, plots inline, nothing
/// loaded from the network.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// Compare the latest results with baseline NAME (instead of the last run's comparison)
    #[arg(long, value_name = "NAME")]
    pub baseline: Option<String>,
    /// A `pilot.run/1` document (`--json FILE` of a bench binary, `cargo pilot bench` or
    /// `cargo pilot run`) to take groups and a comparison from; repeatable [default: the
    /// rankings the bench binaries saved, and the last `cargo pilot bench`'s comparison]
    #[arg(long = "run", value_name = "FILE")]
    pub runs: Vec<PathBuf>,
    /// Folder to write `index.html` into [default: `target/pilot/report`]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Folder holding the results to report, in place of the workspace's target directory: one
    /// with `pilot/results` inside (`cargo pilot run`'s `./pilot-results`), or that
    /// `pilot/results` folder itself; no Cargo.toml needed. Or `history:REV`: the run of commit
    /// REV in the history, the union of its partitions (`cargo pilot bench --partition`)
    #[arg(long, value_name = "DIR", conflicts_with_all = ["manifest_path", "target_dir"])]
    pub results: Option<PathBuf>,
    /// Open the page in the browser when it is written
    #[arg(long)]
    pub open: bool,
    #[command(flatten)]
    pub thresholds: Thresholds,
    /// The history whose series are drawn (the branch checked out; `off` draws none)
    #[command(flatten)]
    pub history: HistoryArg,
    #[command(flatten)]
    pub workspace: Workspace,
}

/// Everything the page shows, read and checked before anything is written.
pub struct Inputs {
    /// Every latest result, sorted by (target, name).
    pub results: Vec<ResultDoc>,
    /// Where the results were read from.
    pub results_dir: PathBuf,
    /// The groups' rankings.
    pub groups: Vec<GroupDoc>,
    /// The comparison with a baseline, and what it is against.
    pub comparison: Option<(CompareDoc, String)>,
    /// Each bench's series in the history, with its changes.
    pub history: Vec<(crate::history::Series, Vec<crate::history::FoundChange>)>,
    /// Where the history was read from.
    pub history_from: String,
}

/// Runs `cargo pilot report`.
pub fn run(args: &ReportArgs) -> Result<ExitCode, Failure> {
    if let Some(out) = args.out.as_ref().filter(|o| o.exists() && !o.is_dir()) {
        return Err(Failure::Usage(anyhow!(
            "--out `{}` is not a folder: the report is written into it as `index.html`",
            out.display()
        )));
    }
    let rev = args
        .results
        .as_deref()
        .filter(|p| !p.exists())
        .and_then(Path::to_str)
        .and_then(crate::history::of_commit::rev_of);
    // With `history:REV`, the results are the history's, written to a folder of their own;
    // the history's place and the page's stay the workspace's.
    let (target_dir, home, _from_history) = match (rev, &args.results) {
        (Some(rev), _) => {
            let home = args.workspace.target_dir()?;
            let location = crate::history::location(args.history.history.as_deref(), &home)?;
            let m = crate::history::of_commit::read_alone(location.as_ref(), rev)?;
            for note in &m.notes {
                say!("note: {note}");
            }
            (m.dir.path().to_path_buf(), home, Some(m))
        }
        (None, Some(dir)) => (results_root(dir), results_root(dir), None),
        (None, None) => {
            let dir = args.workspace.target_dir()?;
            (dir.clone(), dir, None)
        }
    };
    let inputs = gather(args, (&target_dir, &home))?;
    let html = page::render(&inputs).map_err(|e| anyhow!("failed to draw a plot: {e}"))?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| home.join("pilot").join("report"));
    let index = out.join("index.html");
    pilot_engine::files::write_output(&index, html.as_bytes(), Existing::Replace)
        .with_context(|| format!("failed to write `{}`", index.display()))?;
    pilot_engine::outln!(
        "report: {} ({}, {} kB)",
        pilot_engine::fmt::terminal_path(&index),
        pilot_engine::fmt::counted(inputs.results.len(), "bench", "benches"),
        html.len().div_ceil(1024)
    );
    if args.open {
        open(&index);
    }
    Ok(ExitCode::SUCCESS)
}

/// The folder that stands for the target directory when `--results DIR` is given: DIR when it
/// holds `pilot/results` (as `cargo pilot run --out DIR` leaves it), or the folder above
/// `pilot/results` when DIR is that folder itself. Its `pilot/` also holds the last run's
/// document and the baselines, and the page goes to its `pilot/report` by default.
fn results_root(dir: &Path) -> PathBuf {
    if !dir.join("pilot").join("results").is_dir()
        && dir.ends_with("pilot/results")
        && let Some(root) = dir.parent().and_then(Path::parent)
    {
        return if root.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            root.to_path_buf()
        };
    }
    dir.to_path_buf()
}

/// Reads the results, the run documents and the baseline. Any file that cannot be read is an
/// error naming it; nothing is written then.
/// The results are under `target_dir`, the history's default place under `home`.
fn gather(args: &ReportArgs, (target_dir, home): (&Path, &Path)) -> Result<Inputs, Failure> {
    let results_dir = pilot_engine::store::results_dir(target_dir);
    let none = || {
        Failure::Error(anyhow!(
            "no results under `{}`: run `cargo pilot bench` first",
            results_dir.display()
        ))
    };
    if !results_dir.is_dir() {
        return Err(none());
    }
    let saved = pilot_engine::store::read_dir(&results_dir).map_err(anyhow::Error::from)?;
    if saved.is_empty() {
        return Err(none());
    }
    let results = saved
        .iter()
        .map(|r| pilot_engine::store::read_result(&r.path))
        .collect::<Result<Vec<_>, _>>()
        .map_err(anyhow::Error::from)?;
    let last = pilot_engine::store::last_run_path(target_dir);
    let run_files: Vec<PathBuf> = if args.runs.is_empty() {
        [last].into_iter().filter(|p| p.is_file()).collect()
    } else {
        args.runs.clone()
    };
    // The rankings the bench binaries saved, however they were run (`cargo bench`, `cargo
    // pilot bench`); with `--run FILE`, those files' groups instead.
    let mut groups: Vec<GroupDoc> = if args.runs.is_empty() {
        pilot_engine::store::read_rankings(target_dir)
            .map_err(anyhow::Error::from)?
            .into_iter()
            .flat_map(|d| d.groups)
            .collect()
    } else {
        Vec::new()
    };
    let saved_groups = groups.len();
    let mut comparison = None;
    for path in &run_files {
        let run = read_run(path)?;
        for g in run.groups.unwrap_or_default() {
            // The last run's own copy of a ranking the binaries saved (perhaps older) is not
            // shown twice.
            if !groups[..saved_groups].iter().any(|s| s.name == g.name) {
                groups.push(g);
            }
        }
        if let Some(c) = run.comparison {
            let against = compared_with(&c, path);
            comparison = Some((c, against));
        }
    }
    if let Some(name) = &args.baseline {
        let options = args.thresholds.options();
        let dir =
            pilot_engine::store::baseline(&pilot_engine::store::baselines_dir(target_dir), name)
                .map_err(anyhow::Error::from)?;
        let base = pilot_engine::store::read_dir(&dir).map_err(anyhow::Error::from)?;
        let comparisons = pilot_engine::compare::compare(&base, &saved, &options);
        let mut doc = pilot_engine::report::comparison_doc(&comparisons, &options);
        crate::explain::attach(&mut doc, &|is_base, target, name| {
            if is_base {
                let b = base.iter().find(|r| r.target == target && r.name == name)?;
                crate::explain::profile(&pilot_engine::store::read_result(&b.path).ok()?)
            } else {
                let r = results
                    .iter()
                    .find(|r| r.target == target && r.name == name)?;
                crate::explain::profile(r)
            }
        });
        comparison = Some((doc, format!("baseline `{name}`")));
    }
    // A location that cannot be a history is the flag's mistake (exit 2); one that cannot be
    // read is a warning.
    let location = crate::history::location(args.history.history.as_deref(), home)?;
    let (history, history_from) = read_history(args, location.as_ref());
    Ok(Inputs {
        results,
        results_dir,
        groups,
        comparison,
        history,
        history_from,
    })
}

/// What a run document's comparison compared with, as the page's heading says it after
/// "Compared with": the baseline or revision the run names, else the baseline of the run
/// whose document `path` is (a document written before runs named it).
fn compared_with(comparison: &CompareDoc, path: &Path) -> String {
    match (&comparison.against, comparison.method.as_deref()) {
        (Some(rev), Some("paired")) => format!("`{rev}`, measured in pairs"),
        (Some(name), _) => format!("baseline `{name}`"),
        (None, _) => format!("the baseline of the run in `{}`", path.display()),
    }
}

/// Every series of the history on the branch checked out, with its changes; none when there
/// is no history. A history that cannot be read is a warning: the page is about the results.
fn read_history(
    args: &ReportArgs,
    location: Option<&crate::history::Location>,
) -> (
    Vec<(crate::history::Series, Vec<crate::history::FoundChange>)>,
    String,
) {
    use crate::history;
    let Some(location) = location else {
        return (Vec::new(), String::new());
    };
    let read = || -> anyhow::Result<Vec<history::Series>> {
        let Some(mut h) = history::History::open_existing(location)? else {
            return Ok(Vec::new());
        };
        let here = std::env::current_dir().unwrap_or_else(|_| ".".into());
        let git = history::Git::at(&here);
        let query = history::Query {
            branch: history::branch_of_run(&git),
            line: history::line_of(&git, None),
            ..history::Query::default()
        };
        h.all_series(&query)
    };
    match read() {
        Ok(series) => {
            let options = history::ChangeOptions {
                noise: args.thresholds.noise.0,
                ..history::ChangeOptions::default()
            };
            let named = history::analyse(&series, &options).named;
            let with = series.into_iter().zip(named).collect();
            (with, location.shown())
        }
        Err(e) => {
            say!(
                "warning: the history is left out of the report: {}",
                pilot_engine::fmt::terminal_lines(&format!("{e:#}"))
            );
            (Vec::new(), String::new())
        }
    }
}

/// A `pilot.run/1` document, or an error naming the file.
fn read_run(path: &Path) -> Result<RunDoc, Failure> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("failed to read `{}`", path.display()))?;
    let run: RunDoc = serde_json::from_str(&text)
        .with_context(|| format!("`{}` is not a `{RUN_SCHEMA}` document", path.display()))?;
    if run.schema != RUN_SCHEMA {
        return Err(Failure::Error(anyhow!(
            "`{}` has schema `{}`, expected `{RUN_SCHEMA}`",
            path.display(),
            run.schema
        )));
    }
    Ok(run)
}

/// Opens `index` with the platform's opener; says where the page is when that fails.
fn open(index: &Path) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let status = Command::new(opener)
        .arg(index)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => say!(
            "could not open the report (`{}` exited with {s}): open `{}` in a browser",
            opener,
            pilot_engine::fmt::terminal_path(index)
        ),
        Err(e) => say!(
            "could not open the report (`{}`: {e}): open `{}` in a browser",
            opener,
            pilot_engine::fmt::terminal_path(index)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_names_what_a_runs_comparison_compared_with() {
        let doc = |against: Option<&str>, method: Option<&str>| CompareDoc {
            schema: pilot_format::COMPARE_SCHEMA.into(),
            alpha: 0.01,
            noise: 0.01,
            confidence: 0.95,
            correction: None,
            method: method.map(String::from),
            against: against.map(String::from),
            benches: Vec::new(),
        };
        let path = Path::new("target/pilot/last-run.json");
        assert_eq!(
            compared_with(&doc(Some("main"), None), path),
            "baseline `main`"
        );
        assert_eq!(
            compared_with(&doc(Some("origin/main"), Some("paired")), path),
            "`origin/main`, measured in pairs"
        );
        // A document written before runs named it: not "the comparison in …".
        assert_eq!(
            compared_with(&doc(None, None), path),
            "the baseline of the run in `target/pilot/last-run.json`"
        );
    }
}
