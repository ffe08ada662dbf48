//! `cargo pilot changes`: the commits where a bench's series moved to a new level, newest
//! first, and exit 3 when the newest commit made a slowdown known (CI on main fails once, on
//! the run that found it).

use std::process::ExitCode;

use pilot_engine::fmt::{columns, markdown_code, terminal};
use pilot_stats::format_p;
use serde_json::json;

use crate::args::{SeriesArgs, SeriesFormat};
use crate::exit::{Exit, Failure};
use crate::history::{self, FoundChange, MachineChange, Series};

/// List the changes in each bench's history, newest first.
///
/// A change is a commit where a bench's series (one machine, one branch) moves to a new level:
/// E-Divisive means proposes where (and where a level that came back ends), Student's t-test on
/// the commits either side tests it, its p counted over every split searched, and Holm's
/// step-down over the machine's series keeps it when its adjusted p < --max-p (the chance of
/// naming any commit where no code changed) and the change is larger than --noise, with at
/// least 3 commits on each side, so one or two odd runs are never a change; where the history
/// knows each run's code (`cargo pilot bench` records a digest of it), each place the code
/// changed between two runs of one digest is tested too. A change the machine made (every
/// bench of the same runs moved, the speed probe did, or the bench's code was the same on both
/// sides) is listed as the machine's, not a commit's. Exit codes: 0 ok, 1 error, 2 usage, 3 the
/// newest commit made a slowdown known (the change itself may be a commit or two before it).
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
    let all = sel.all_series()?;
    let analysis = history::analyse(&all, &sel.options);
    let new = history::newly_regressed(&all, &analysis, &sel.options);
    let mut listed: Vec<Listed> = Vec::new();
    for (i, s) in all.iter().enumerate() {
        for c in &analysis.named[i] {
            let is_new = new[i].as_ref().is_some_and(|n| n.point == c.point);
            listed.push(Listed {
                series: s,
                change: c.clone(),
                new: is_new,
            });
        }
    }
    // Newest first: by the commit's place in its series, from the end.
    listed.sort_by_key(|l| {
        let p = &l.series.points[l.change.point];
        std::cmp::Reverse((p.committed_at, p.position, p.started.clone()))
    });
    let machine: Vec<&MachineChange> = analysis.machine.iter().rev().collect();
    let left: Vec<LeftOut> = left_out(&all);
    match args.series.format {
        SeriesFormat::Table => pilot_engine::out!(
            "{}{}{}",
            table(&listed, &all, &sel.options),
            machine_table(&machine, &all),
            left_out_text(&left, false)
        ),
        SeriesFormat::Md => {
            pilot_engine::out!(
                "{}{}{}",
                markdown(&listed, &sel.options),
                machine_markdown(&machine, &all),
                left_out_text(&left, true)
            )
        }
        SeriesFormat::Json => pilot_engine::outln!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "schema": "pilot.changes/1",
                "max_p": sel.options.max_p,
                "adjustment": "holm",
                "noise": sel.options.noise,
                "changes": listed.iter().map(|l| {
                    let mut c = l.change.to_json();
                    c["target"] = json!(l.series.target);
                    c["bench"] = json!(l.series.bench);
                    c["machine"] = json!(l.series.machine);
                    c["new_regression"] = json!(l.new);
                    c
                }).collect::<Vec<_>>(),
                "machine_changes": machine.iter().map(|m| m.to_json(&all)).collect::<Vec<_>>(),
                "imprecise_runs": left.iter().flat_map(|l| l.points.iter().map(|&i| {
                    let p = &l.series.points[i];
                    json!({
                        "target": l.series.target,
                        "bench": l.series.bench,
                        "machine": l.series.machine,
                        "commit": p.commit,
                        "started": p.started,
                        "estimate": p.estimate,
                        "low": p.low,
                        "high": p.high,
                    })
                })).collect::<Vec<_>>(),
            }))
            .expect("JSON values serialise")
        ),
    }
    let new: Vec<&Listed> = listed.iter().filter(|l| l.new).collect();
    for l in &new {
        say!(
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

/// A series' runs left out of its changes as too imprecise to count.
struct LeftOut<'a> {
    series: &'a Series,
    /// The indices of its points left out.
    points: Vec<usize>,
}

fn left_out(all: &[Series]) -> Vec<LeftOut<'_>> {
    all.iter()
        .filter_map(|s| {
            let points: Vec<usize> = history::imprecise(&s.points)
                .iter()
                .enumerate()
                .filter_map(|(i, out)| out.then_some(i))
                .collect();
            (!points.is_empty()).then_some(LeftOut { series: s, points })
        })
        .collect()
}

/// The runs left out, one line a series, for the terminal or (`markdown`) as a Markdown list:
/// `  sum_256k (cost) on vm: 3 runs, at 4289aaed0cea (±37.5%), …`.
fn left_out_text(left: &[LeftOut], markdown: bool) -> String {
    if left.is_empty() {
        return String::new();
    }
    let escape = |s: &str| shown(s, markdown);
    let why = "out of the changes, too imprecise beside their bench's other runs (each run's \
               own interval far wider than the bench's typical run's: weighed by precision, it \
               would count less than an eighth of one):";
    let mut out = if markdown {
        format!("\nLeft {why}\n\n")
    } else {
        format!("left {why}\n")
    };
    for l in left {
        const SHOWN: usize = 5;
        let at: Vec<String> = l
            .points
            .iter()
            .take(SHOWN)
            .map(|&i| {
                let p = &l.series.points[i];
                let width = match (p.estimate, p.low, p.high) {
                    (Some(e), Some(lo), Some(hi)) => format!(" (±{:.1}%)", 50.0 * (hi - lo) / e),
                    _ => String::new(),
                };
                format!("{}{width}", escape(&p.short()))
            })
            .collect();
        let more = l.points.len().saturating_sub(SHOWN);
        out.push_str(&format!(
            "{}{} ({}) on {}: {}, at {}{}\n",
            if markdown { "- " } else { "  " },
            escape(&l.series.bench),
            escape(&l.series.target),
            escape(&l.series.machine),
            pilot_engine::fmt::counted(l.points.len(), "run", "runs"),
            at.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        ));
    }
    out
}

/// `s` as the output shows it: a Markdown code span, or made safe for a terminal.
fn shown(s: &str, markdown: bool) -> String {
    if markdown {
        markdown_code(s)
    } else {
        terminal(s).into_owned()
    }
}

fn short(c: &Option<String>) -> String {
    c.as_deref()
        .map_or("-".into(), |c| c[..12.min(c.len())].to_string())
}

fn table(listed: &[Listed], all: &[Series], options: &history::ChangeOptions) -> String {
    let head = format!(
        "changes in {} (Holm's adjusted p < {} over each machine's series, each p counted over the \
         splits searched; larger than ±{}%, at least {} commits each side), newest first:\n",
        pilot_engine::fmt::counted(all.len(), "series", "series"),
        options.max_p,
        100.0 * options.noise,
        history::MIN_SEGMENT
    );
    if listed.is_empty() {
        return format!("{head}  none\n");
    }
    let header: Vec<String> = [
        "commit", "bench", "machine", "change", "p (Holm)", "commits", "verdict", "subject",
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
                format_p(c.p_adjusted),
                format!("{} | {}", c.before, c.after),
                format!("{}{}", c.verdict(), if l.new { " (new)" } else { "" }),
                c.subject.clone().unwrap_or_default(),
            ]
        })
        .collect();
    format!(
        "{head}{}{}{}",
        columns(&header, &rows, &[0, 1, 2, 3, 6, 7], "  "),
        earlier_text(listed, false),
        receded_text(listed, false)
    )
}

/// The newest changes whose newest commits read back near the level before them, a line each:
/// a level the code may have left again, which the next runs at the tip will tell.
fn receded_text(listed: &[Listed], markdown: bool) -> String {
    let code = |s: &str| shown(s, markdown);
    let mut out = String::new();
    for l in listed {
        let c = &l.change;
        let Some(r) = c.receded else { continue };
        out.push_str(&format!(
            "{}{} ({}) {} at {}: its newest {} read {:+.2}% from that level, back near the level \
             before it (p = {}): the code may have left the level again; the next runs will tell\n",
            if markdown { "\n" } else { "  " },
            code(&l.series.bench),
            code(&l.series.target),
            c.verdict(),
            code(&short(&c.commit)),
            pilot_engine::fmt::counted(r.commits, "commit", "commits"),
            100.0 * r.change,
            format_p(r.p),
        ));
    }
    out
}

/// The changes that may have come earlier than the commit named, a line each: runs left out as
/// too imprecise lie before it.
fn earlier_text(listed: &[Listed], markdown: bool) -> String {
    let code = |s: &str| shown(s, markdown);
    let mut out = String::new();
    for l in listed {
        let c = &l.change;
        if c.earliest.is_none() {
            continue;
        }
        out.push_str(&format!(
            "{}{} ({}) {} at {} may have come as early as {}: the runs between {} and it were \
             left out as too imprecise\n",
            if markdown { "\n" } else { "  " },
            code(&l.series.bench),
            code(&l.series.target),
            c.verdict(),
            code(&short(&c.commit)),
            code(&short(&c.earliest)),
            code(&short(&c.previous)),
        ));
    }
    out
}

fn markdown(listed: &[Listed], options: &history::ChangeOptions) -> String {
    let mut out = format!(
        "Changes with Holm's adjusted p < {} over each machine's series (each p counted over the \
         splits searched), larger than ±{}%, at least {} commits each side, newest first:\n\n",
        options.max_p,
        100.0 * options.noise,
        history::MIN_SEGMENT
    );
    out.push_str(
        "| commit | bench | machine | change | p (Holm) | commits before, after | verdict | subject |\n\
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
            format_p(c.p_adjusted),
            c.before,
            c.after,
            c.verdict(),
            c.subject.as_deref().map(markdown_code).unwrap_or_default()
        ));
    }
    out.push_str(&earlier_text(listed, true));
    out.push_str(&receded_text(listed, true));
    out
}

/// A machine change's size as a signed percentage with its interval.
fn machine_text(m: &MachineChange) -> String {
    let pct = |x: f64| format!("{:+.2}%", 100.0 * x);
    match m.change_ci {
        Some((lo, hi)) => format!("{} [{}, {}]", pct(m.change), pct(lo), pct(hi)),
        None => pct(m.change),
    }
}

/// What saw a machine change, and what else moved with it, in words.
fn machine_evidence(m: &MachineChange) -> String {
    let mut parts = vec![match m.seen_by {
        "probe" => "the speed probe".to_string(),
        "shared" => format!("{} of {} benches moved with it", m.moved.0, m.moved.1),
        "executable" => "the bench's executable is the same on both sides".to_string(),
        "return" => {
            "the other end of a level a change of one executable began or ended".to_string()
        }
        _ => format!("{} of {} benches moved", m.moved.0, m.moved.1),
    }];
    if m.seen_by != "probe"
        && let Some(p) = m.probe
    {
        parts.push(format!("probe {:+.1}%", 100.0 * p));
    }
    if let Some((a, b)) = m.load {
        parts.push(format!("load {a:.1} → {b:.1}"));
    }
    parts.join(", ")
}

/// The bench changes a machine change explains: `spin (cost) +6.70%`, …
fn explained(m: &MachineChange, all: &[Series]) -> String {
    m.explains
        .iter()
        .map(|(i, c)| {
            format!(
                "{} ({}) {:+.2}%",
                all[*i].bench,
                all[*i].target,
                100.0 * c.change
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn machine_table(machine: &[&MachineChange], all: &[Series]) -> String {
    if machine.is_empty() {
        return String::new();
    }
    let header: Vec<String> = [
        "runs from",
        "machine",
        "change",
        "p",
        "verdict",
        "evidence",
        "explains",
    ]
    .map(String::from)
    .to_vec();
    let rows: Vec<Vec<String>> = machine
        .iter()
        .map(|m| {
            vec![
                format!("{} ({})", m.started, short(&m.commit)),
                m.machine.clone(),
                machine_text(m),
                format_p(m.p),
                format!("machine {}", m.verdict()),
                machine_evidence(m),
                explained(m, all),
            ]
        })
        .collect();
    format!(
        "the machine's changes, not a commit's (the benches of the same runs moved together, the \
         speed probe did, or a bench's executable did not change), newest first:\n{}",
        columns(&header, &rows, &[0, 1, 2, 4, 5, 6], "  ")
    )
}

fn machine_markdown(machine: &[&MachineChange], all: &[Series]) -> String {
    if machine.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\nThe machine's changes, not a commit's:\n\n\
         | runs from | machine | change | p | verdict | evidence | explains |\n\
         |---|---|---|---:|---|---|---|\n",
    );
    for m in machine {
        out.push_str(&format!(
            "| {} ({}) | {} | {} | {} | machine {} | {} | {} |\n",
            m.started,
            markdown_code(&short(&m.commit)),
            markdown_code(&m.machine),
            machine_text(m),
            format_p(m.p),
            m.verdict(),
            machine_evidence(m),
            markdown_code(&explained(m, all)),
        ));
    }
    out
}
