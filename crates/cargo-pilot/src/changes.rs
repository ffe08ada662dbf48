//! `cargo pilot changes`: the commits where a bench's series moved to a new level, newest
//! first, and exit 3 when the newest commit made a slowdown known (CI on main fails once, on
//! the run that found it).

use std::process::ExitCode;

use pilot_engine::fmt::{columns, markdown_code, terminal};
use pilot_stats::format_p;
use serde_json::json;

use crate::args::{SeriesArgs, SeriesFormat};
use crate::exit::{Exit, Failure};
use crate::history::{self, FoundChange, Series};

/// List the changes in each bench's history, newest first.
///
/// A change is a commit where a bench's series (one machine, one branch) moves to a new level
/// and stays: E-Divisive means proposes where, Student's t-test on the commits either side
/// keeps it when p < --max-p and the change is larger than --noise, with at least 3 commits
/// on each side, so one or two odd runs are never a change. Exit codes: 0 ok, 1 error, 2 usage,
/// 3 the newest commit made a slowdown known (the change itself may be a commit or two
/// before it).
#[derive(clap::Args, Debug)]
pub struct ChangesArgs {
    #[command(flatten)]
    pub series: SeriesArgs,
}

/// One change with its series.
struct Listed<'a> {
    series: &'a Series,
    change: FoundChange,
    /// When it was the newest commit's regression.
    new: bool,
}

/// Runs `cargo pilot changes`.
pub fn run(args: &ChangesArgs) -> Result<ExitCode, Failure> {
    let target_dir = args.series.workspace.target_dir()?;
    let mut sel = history::select(&args.series, &target_dir)?;
    let all = sel.all_series(" the selection")?;
    let mut listed: Vec<Listed> = Vec::new();
    for s in &all {
        let new = history::newly_regressed(s, &sel.options);
        for c in history::changes_of(s, &sel.options) {
            let is_new = new.as_ref().is_some_and(|n| n.point == c.point);
            listed.push(Listed {
                series: s,
                change: c,
                new: is_new,
            });
        }
    }
    // Newest first: by the commit's place in its series, from the end.
    listed.sort_by_key(|l| {
        let p = &l.series.points[l.change.point];
        std::cmp::Reverse((p.committed_at, p.position, p.started.clone()))
    });
    match args.series.format {
        SeriesFormat::Table => pilot_engine::out!("{}", table(&listed, &all, &sel.options)),
        SeriesFormat::Md => pilot_engine::out!("{}", markdown(&listed)),
        SeriesFormat::Json => pilot_engine::outln!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "schema": "pilot.changes/1",
                "max_p": sel.options.max_p,
                "noise": sel.options.noise,
                "changes": listed.iter().map(|l| {
                    let mut c = l.change.to_json();
                    c["target"] = json!(l.series.target);
                    c["bench"] = json!(l.series.bench);
                    c["machine"] = json!(l.series.machine);
                    c["new_regression"] = json!(l.new);
                    c
                }).collect::<Vec<_>>(),
            }))
            .expect("JSON values serialise")
        ),
    }
    let new: Vec<&Listed> = listed.iter().filter(|l| l.new).collect();
    for l in &new {
        eprintln!(
            "regression: `{}` ({}) on {} is {:+.2}% slower from commit {}{}, found with the newest \
             commit's run",
            terminal(&l.series.bench),
            terminal(&l.series.target),
            terminal(&l.series.machine),
            100.0 * l.change.change,
            short(&l.change.commit),
            l.change
                .subject
                .as_deref()
                .map_or(String::new(), |s| format!(" ({})", terminal(s)))
        );
    }
    Ok(if new.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(Exit::Regression)
    })
}

fn short(c: &Option<String>) -> String {
    c.as_deref()
        .map_or("-".into(), |c| c[..12.min(c.len())].to_string())
}

fn table(listed: &[Listed], all: &[Series], options: &history::ChangeOptions) -> String {
    let head = format!(
        "changes in {} (p < {}, larger than ±{}%, at least {} commits each side), newest first:\n",
        pilot_engine::fmt::counted(all.len(), "series", "series"),
        options.max_p,
        100.0 * options.noise,
        history::MIN_SEGMENT
    );
    if listed.is_empty() {
        return format!("{head}  none\n");
    }
    let header: Vec<String> = [
        "commit", "bench", "machine", "change", "p", "commits", "verdict", "subject",
    ]
    .map(String::from)
    .to_vec();
    let rows: Vec<Vec<String>> = listed
        .iter()
        .map(|l| {
            let c = &l.change;
            vec![
                short(&c.commit),
                format!("{} ({})", l.series.bench, l.series.target),
                l.series.machine.clone(),
                c.text(),
                format_p(c.p),
                format!("{} | {}", c.before, c.after),
                format!("{}{}", c.verdict(), if l.new { " (new)" } else { "" }),
                c.subject.clone().unwrap_or_default(),
            ]
        })
        .collect();
    format!(
        "{head}{}",
        columns(&header, &rows, &[0, 1, 2, 3, 6, 7], "  ")
    )
}

fn markdown(listed: &[Listed]) -> String {
    let mut out = String::from(
        "| commit | bench | machine | change | p | commits before, after | verdict | subject |\n\
         |---|---|---|---|---:|---|---|---|\n",
    );
    for l in listed {
        let c = &l.change;
        out.push_str(&format!(
            "| {} | {} ({}) | {} | {} | {} | {}, {} | {} | {} |\n",
            markdown_code(&short(&c.commit)),
            markdown_code(&l.series.bench),
            markdown_code(&l.series.target),
            markdown_code(&l.series.machine),
            c.text(),
            format_p(c.p),
            c.before,
            c.after,
            c.verdict(),
            c.subject.as_deref().map(markdown_code).unwrap_or_default()
        ));
    }
    out
}
