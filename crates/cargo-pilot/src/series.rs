//! `cargo pilot history`: each bench's series over commits, per machine, as a table, Markdown
//! or JSON, with its change points; and `cargo pilot history add`, which fills the history
//! from results on disk (the latest, baselines, run documents).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, anyhow};
use pilot_engine::fmt::{columns, format_ns, markdown_code, terminal};
use pilot_format::{RUN_SCHEMA, ResultDoc, RunDoc};
use pilot_stats::p_clause;
use serde_json::{Value as Json, json};

use crate::args::{HistoryArg, SeriesArgs, SeriesFormat, Workspace};
use crate::exit::Failure;
use crate::history::{self, FoundChange, Git, History, Point, Series};

/// Show each bench's results over commits, per machine, with the changes found in them; or add
/// saved results to the history (`add`).
///
/// Reads the history every `cargo pilot bench` and `cargo pilot run` appends to (`--history`,
/// `PILOT_HISTORY`, default `target/pilot/history.sqlite`). A series holds one machine's runs of
/// one bench on one branch, ordered by commit; runs of a dirty tree are shown but count for no
/// change.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct HistoryArgs {
    #[command(subcommand)]
    pub action: Option<Action>,
    #[command(flatten)]
    pub series: SeriesArgs,
}

/// What `cargo pilot history` does besides showing.
#[derive(clap::Subcommand, Debug)]
pub enum Action {
    Add(AddArgs),
}

/// Add saved results to the history: the latest results (default), baselines, or run
/// documents. A result already in the history (same bench, start and machine) is not added
/// again, so a run whose append failed is added whole once the history can be reached.
#[derive(clap::Args, Debug)]
pub struct AddArgs {
    /// The results saved as baseline NAME (also `cargo pilot import … --baseline NAME`);
    /// repeatable
    #[arg(long, value_name = "NAME")]
    pub baseline: Vec<String>,
    /// A `pilot.run/1` document (`--json FILE`, `target/pilot/last-run.json`); repeatable
    #[arg(long = "run", value_name = "FILE")]
    pub runs: Vec<PathBuf>,
    /// The branch to record the results on [default: the branch checked out]
    #[arg(long, value_name = "NAME")]
    pub branch: Option<String>,
    #[command(flatten)]
    pub history: HistoryArg,
    #[command(flatten)]
    pub workspace: Workspace,
}

/// Runs `cargo pilot history`.
pub fn run(args: &HistoryArgs) -> Result<ExitCode, Failure> {
    if let Some(Action::Add(add)) = &args.action {
        return run_add(add);
    }
    let target_dir = args.series.workspace.target_dir()?;
    let mut sel = history::select(&args.series, &target_dir)?;
    let all = sel.all_series()?;
    // The code's changes: the machine's are `cargo pilot changes`'s to show.
    let found: Vec<Vec<FoundChange>> = history::analyse(&all, &sel.options).named;
    match args.series.format {
        SeriesFormat::Table => {
            pilot_engine::out!("{}", table(&all, &found, sel.query.branch.as_deref()))
        }
        SeriesFormat::Md => pilot_engine::out!("{}", markdown(&all, &found)),
        SeriesFormat::Json => pilot_engine::outln!(
            "{}",
            serde_json::to_string_pretty(&document(&all, &found)).expect("JSON values serialise")
        ),
    }
    Ok(ExitCode::SUCCESS)
}

/// A point's time and interval, as shown.
fn time_of(p: &Point) -> (String, String) {
    match (p.estimate, p.low, p.high) {
        (Some(e), Some(lo), Some(hi)) => (
            format_ns(e),
            format!("[{}, {}]", format_ns(lo), format_ns(hi)),
        ),
        (Some(e), _, _) => (format_ns(e), String::new()),
        _ => ("-".into(), String::new()),
    }
}

/// What a point's row says besides its numbers: a change starting there, a dirty tree, a
/// commit no longer on its branch, a run too imprecise to count for changes (`left_out`).
fn marks(i: usize, p: &Point, found: &[FoundChange], left_out: bool) -> String {
    let mut m = Vec::new();
    if let Some(c) = found.iter().find(|c| c.point == i) {
        m.push(format!(
            "{} {}, {}",
            c.verdict(),
            c.text(),
            p_clause(c.p_adjusted)
        ));
    }
    if p.dirty == Some(true) {
        m.push("dirty tree".into());
    }
    if !p.on_branch {
        m.push("no longer on its branch".into());
    }
    if left_out {
        m.push("too imprecise to count for changes".into());
    }
    m.join("; ")
}

fn heading(s: &Series, branch: Option<&str>) -> String {
    let commits: std::collections::BTreeSet<Option<&str>> =
        s.points.iter().map(|p| p.commit.as_deref()).collect();
    format!(
        "== {} ({}) on {} ({}){}: {}, {}",
        s.bench,
        s.target,
        s.machine,
        s.machine_detail,
        branch.map_or(String::new(), |b| format!(", branch {b}")),
        pilot_engine::fmt::counted(commits.len(), "commit", "commits"),
        pilot_engine::fmt::counted(s.points.len(), "run", "runs")
    )
}

/// The series as aligned columns, one block per series.
fn table(all: &[Series], found: &[Vec<FoundChange>], branch: Option<&str>) -> String {
    let mut out = String::new();
    for (s, f) in all.iter().zip(found) {
        out.push_str(&terminal(&heading(s, branch)));
        out.push('\n');
        let header: Vec<String> = [
            "commit",
            "time",
            "interval",
            "processes",
            "status",
            "change",
            "subject",
        ]
        .map(String::from)
        .to_vec();
        let left = history::imprecise(&s.points);
        let rows: Vec<Vec<String>> = s
            .points
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let (t, ci) = time_of(p);
                vec![
                    p.short(),
                    t,
                    ci,
                    p.processes.len().max(1).to_string(),
                    p.status.clone(),
                    marks(i, p, f, left[i]),
                    p.subject.clone().unwrap_or_default(),
                ]
            })
            .collect();
        out.push_str(&columns(&header, &rows, &[0, 2, 4, 5, 6], "  "));
        out.push('\n');
    }
    out
}

/// The series as Markdown tables, names as code spans.
fn markdown(all: &[Series], found: &[Vec<FoundChange>]) -> String {
    let mut out = String::new();
    for (s, f) in all.iter().zip(found) {
        out.push_str(&format!(
            "### {} ({}) on {}\n\n| commit | time | interval | processes | status | change | subject |\n|---|---:|---|---:|---|---|---|\n",
            markdown_code(&s.bench),
            markdown_code(&s.target),
            markdown_code(&s.machine)
        ));
        let left = history::imprecise(&s.points);
        for (i, p) in s.points.iter().enumerate() {
            let (t, ci) = time_of(p);
            out.push_str(&format!(
                "| {} | {t} | {ci} | {} | {} | {} | {} |\n",
                markdown_code(&p.short()),
                p.processes.len().max(1),
                markdown_code(&p.status),
                marks(i, p, f, left[i]),
                p.subject.as_deref().map(markdown_code).unwrap_or_default()
            ));
        }
        out.push('\n');
    }
    out
}

/// The series as a `pilot.history/1` document.
fn document(all: &[Series], found: &[Vec<FoundChange>]) -> Json {
    let series: Vec<Json> = all
        .iter()
        .zip(found)
        .map(|(s, f)| {
            let left = history::imprecise(&s.points);
            json!({
                "target": s.target,
                "bench": s.bench,
                "machine": s.machine,
                "machine_detail": s.machine_detail,
                "points": s.points.iter().zip(&left).map(|(p, left_out)| json!({
                    "commit": p.commit,
                    "subject": p.subject,
                    "started": p.started,
                    "branch": p.branch,
                    "dirty": p.dirty,
                    "on_branch": p.on_branch,
                    "source": p.source,
                    "status": p.status,
                    "unit": p.unit,
                    "estimate": p.estimate,
                    "low": p.low,
                    "high": p.high,
                    "confidence": p.confidence,
                    "processes": p.processes,
                    "imprecise": left_out,
                })).collect::<Vec<_>>(),
                "changes": f.iter().map(FoundChange::to_json).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({"schema": "pilot.history/1", "series": series})
}

/// Runs `cargo pilot history add`.
fn run_add(args: &AddArgs) -> Result<ExitCode, Failure> {
    let target_dir = args.workspace.target_dir()?;
    let location = history::location(args.history.history.as_deref(), &target_dir)?
        .ok_or_else(|| Failure::Usage(anyhow!("`history add` needs a history, not `off`")))?;
    let docs = gather(args, &target_dir)?;
    if docs.is_empty() {
        return Err(Failure::Error(anyhow!("no results to add")));
    }
    let here = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let git = Git::at(&here);
    let branch = args.branch.clone().or_else(|| history::branch_of_run(&git));
    let runs = history::runs_of(&docs, "add", branch, &pilot_engine::probe::machine());
    let mut h = History::open(&location)?;
    let mut added = 0;
    for run in &runs {
        added += h.append(run, &git, true)?;
    }
    pilot_engine::outln!(
        "history: {} of {} added to `{}` ({} already there)",
        pilot_engine::fmt::counted(added, "result", "results"),
        docs.len(),
        h.shown(),
        docs.len() - added
    );
    Ok(ExitCode::SUCCESS)
}

/// The result documents `args` name: the baselines' and the run documents', else the latest
/// results.
fn gather(args: &AddArgs, target_dir: &Path) -> Result<Vec<ResultDoc>, Failure> {
    let mut docs = Vec::new();
    for name in &args.baseline {
        let dir =
            pilot_engine::store::baseline(&pilot_engine::store::baselines_dir(target_dir), name)
                .map_err(anyhow::Error::from)?;
        docs.extend(read_all(&dir)?);
    }
    for path in &args.runs {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("failed to read `{}`", path.display()))?;
        let run: RunDoc = serde_json::from_str(&text)
            .with_context(|| format!("`{}` is not a `{RUN_SCHEMA}` document", path.display()))?;
        docs.extend(run.results);
    }
    if args.baseline.is_empty() && args.runs.is_empty() {
        let dir = pilot_engine::store::results_dir(target_dir);
        if !dir.is_dir() {
            return Err(Failure::Error(anyhow!(
                "no results under `{}`: run `cargo pilot bench` first",
                dir.display()
            )));
        }
        docs.extend(read_all(&dir)?);
    }
    Ok(docs)
}

fn read_all(dir: &Path) -> Result<Vec<ResultDoc>, Failure> {
    let saved = pilot_engine::store::read_dir(dir).map_err(anyhow::Error::from)?;
    saved
        .iter()
        .map(|r| pilot_engine::store::read_result(&r.path).map_err(|e| Failure::Error(e.into())))
        .collect()
}
