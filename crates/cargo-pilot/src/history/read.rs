//! Reading the history back: each bench's series over commits, one per machine, ordered by
//! commit (committer time, then depth on the first-parent line, then the run's start).

use std::collections::{BTreeMap, HashSet};

use super::History;
use super::db::{Cell, Value};

/// Which series to read.
#[derive(Debug, Clone, Default)]
pub struct Query {
    /// Bench names containing one of these (exactly equal with `exact`); every bench when
    /// empty.
    pub filters: Vec<String>,
    /// Match the filters exactly.
    pub exact: bool,
    /// The runs recorded on this branch (and still on it); with neither it nor `line`, every
    /// branch.
    pub branch: Option<String>,
    /// The runs of the commits on this first-parent line, whichever branch (or none: a run at
    /// a detached HEAD) they were recorded on.
    pub line: Option<Line>,
    /// Only machines whose name contains this.
    pub machine: Option<String>,
    /// Runs no longer on their branch (rewritten away) too.
    pub all: bool,
}

/// The commits on a first-parent line of git's history.
#[derive(Debug, Clone, Default)]
pub struct Line {
    /// Where it starts, as the user named it: `HEAD` or a branch.
    pub tip: String,
    /// Its commits.
    pub commits: HashSet<String>,
}

impl Line {
    /// Whether `commit` is on it.
    pub fn holds(&self, commit: Option<&str>) -> bool {
        commit.is_some_and(|c| self.commits.contains(c))
    }
}

impl Query {
    /// Whether the run of `p` is selected: a run of a commit on the line, or one recorded on the
    /// branch and still on it (in a shallow clone, git has no line to follow back).
    pub fn selects(&self, p: &Point) -> bool {
        if self.all {
            return self
                .branch
                .as_ref()
                .is_none_or(|b| p.branch.as_deref() == Some(b.as_str()));
        }
        let on_line = self
            .line
            .as_ref()
            .is_some_and(|l| l.holds(p.commit.as_deref()));
        let recorded = match &self.branch {
            Some(b) => p.branch.as_deref() == Some(b.as_str()) && p.on_branch,
            None => self.line.is_none() && p.on_branch,
        };
        on_line || recorded
    }

    /// What was asked for, in words, for a selection that matched nothing: ` the filter `x`,
    /// the runs …`.
    pub fn describe(&self) -> String {
        let code = |s: &str| format!("`{}`", pilot_engine::fmt::terminal(s));
        let mut parts = Vec::new();
        if !self.filters.is_empty() {
            let f: Vec<String> = self.filters.iter().map(|f| code(f)).collect();
            parts.push(format!(" the filter {}", f.join(", ")));
        }
        let runs = match (&self.branch, &self.line) {
            _ if self.all => Some(" any run (--all)".to_string()),
            (Some(b), Some(l)) => Some(format!(
                " the runs recorded on branch {} or of the {} on {}'s first-parent line",
                code(b),
                pilot_engine::fmt::counted(l.commits.len(), "commit", "commits"),
                code(&l.tip)
            )),
            (None, Some(l)) => Some(format!(
                " the runs of the {} on {}'s first-parent line",
                pilot_engine::fmt::counted(l.commits.len(), "commit", "commits"),
                code(&l.tip)
            )),
            (Some(b), None) => Some(format!(" the runs recorded on branch {}", code(b))),
            (None, None) => None,
        };
        parts.extend(runs);
        if let Some(m) = &self.machine {
            parts.push(format!(" on machine {}", code(m)));
        }
        parts.join(",")
    }
}

/// The runs the history holds, by the branch they were recorded on (`None`: a detached HEAD
/// with no branch named), for a selection that matched nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holding {
    pub branch: Option<String>,
    /// Its runs, and their distinct commits.
    pub runs: usize,
    pub commits: usize,
    /// How many of those commits are on the query's line.
    pub on_line: usize,
}

/// One run of one bench.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// The run's id in the history.
    pub run_id: i64,
    /// The commit measured, its subject, committer time (Unix seconds) and first-parent depth.
    pub commit: Option<String>,
    pub subject: Option<String>,
    pub committed_at: Option<i64>,
    pub position: Option<i64>,
    /// Whether tracked files had uncommitted changes.
    pub dirty: Option<bool>,
    /// The branch it was recorded on.
    pub branch: Option<String>,
    /// False once a rebase or force-push took the commit off its branch (and the commit is not
    /// on the line a selection follows).
    pub on_branch: bool,
    /// When the run started (RFC 3339), and what made it (`bench`, `run`, `bisect`, `add`).
    pub started: String,
    pub source: String,
    /// The result's status, and the time per unit with its interval (ns) and confidence.
    pub status: String,
    pub unit: Option<String>,
    pub estimate: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub confidence: Option<f64>,
    /// Each process's estimate.
    pub processes: Vec<f64>,
    /// The speed probe's time (ns) and the load average as the run started, when recorded.
    pub probe_ns: Option<f64>,
    pub load: Option<f64>,
    /// The digest of the bench executable that measured it, when recorded (`cargo pilot
    /// bench`): two runs with one digest ran the same code.
    pub executable: Option<String>,
}

impl Point {
    /// The point of a row of [`History::series`]' query, from the run's id on.
    fn of_row(r: &[Cell]) -> Point {
        Point {
            run_id: r[0].int().unwrap_or(0),
            commit: r[1].text(),
            subject: r[2].text(),
            committed_at: r[3].int(),
            position: r[4].int(),
            dirty: r[5].bool(),
            branch: r[6].text(),
            on_branch: r[7].bool().unwrap_or(true),
            started: r[8].text().unwrap_or_default(),
            source: r[9].text().unwrap_or_default(),
            status: r[10].text().unwrap_or_default(),
            unit: r[11].text(),
            estimate: r[12].real(),
            low: r[13].real(),
            high: r[14].real(),
            confidence: r[15].real(),
            processes: r[16]
                .text()
                .and_then(|t| serde_json::from_str(&t).ok())
                .unwrap_or_default(),
            probe_ns: r[17].real(),
            load: r[18].real(),
            executable: r[19].text(),
        }
    }

    /// The commit's first 12 hex digits, or `-` outside git.
    pub fn short(&self) -> String {
        self.commit
            .as_deref()
            .map_or("-".to_string(), |c| c[..12.min(c.len())].to_string())
    }

    /// The key the series is ordered by.
    pub fn order(&self) -> (i64, i64, String) {
        let started = parse_time(&self.started).unwrap_or(0);
        (
            self.committed_at.unwrap_or(started),
            self.position.unwrap_or(0),
            self.started.clone(),
        )
    }
}

/// RFC 3339 as Unix seconds.
fn parse_time(s: &str) -> Option<i64> {
    humantime::parse_rfc3339_weak(s)
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()
        .map(|d| d.as_secs() as i64)
}

/// One bench's series on one machine.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The bench target and the bench.
    pub target: String,
    pub bench: String,
    /// The machine's name, and its CPU and cores as recorded.
    pub machine: String,
    pub machine_detail: String,
    /// Its runs, oldest commit first.
    pub points: Vec<Point>,
}

impl History {
    /// The benches in the history, by (target, name), that `query` selects.
    pub fn benches(&mut self, query: &Query) -> anyhow::Result<Vec<(i64, String, String)>> {
        let mut out: Vec<(i64, String, String)> = self
            .db
            .query("SELECT id, target, name FROM benches", &[])?
            .into_iter()
            .filter_map(|r| Some((r[0].int()?, r[1].text()?, r[2].text()?)))
            .filter(|(_, _, name)| {
                query.filters.is_empty()
                    || query.filters.iter().any(|f| {
                        if query.exact {
                            name == f
                        } else {
                            name.contains(f.as_str())
                        }
                    })
            })
            .collect();
        out.sort_by(|a, b| (&a.1, &a.2).cmp(&(&b.1, &b.2)));
        Ok(out)
    }

    /// The series of bench `bench_id` (`target`, `name`), one per machine, as `query` selects.
    pub fn series(
        &mut self,
        (bench_id, target, name): &(i64, String, String),
        query: &Query,
    ) -> anyhow::Result<Vec<Series>> {
        // The machines once (their records are long), the runs without them.
        let machines: Vec<(i64, String, Option<String>)> = self
            .db
            .query("SELECT id, name, record FROM machines", &[])?
            .into_iter()
            .filter_map(|r| Some((r[0].int()?, r[1].text()?, r[2].text())))
            .collect();
        let rows = self.db.query(
            "SELECT u.machine_id, u.id, u.commit_hash, c.subject, c.committed_at, \
             c.position, u.dirty, u.branch, u.on_branch, u.started, u.source, r.status, r.unit, \
             r.estimate, r.low, r.high, r.confidence, r.processes, r.probe_ns, r.load, \
             r.executable \
             FROM results r JOIN runs u ON u.id = r.run_id \
             LEFT JOIN commits c ON c.hash = u.commit_hash WHERE r.bench_id = ?",
            &[Value::Int(Some(*bench_id))],
        )?;
        let mut series: Vec<(i64, Series)> = Vec::new();
        for r in rows {
            let machine_id = r[0].int().unwrap_or(0);
            let Some((_, machine_name, record)) = machines.iter().find(|m| m.0 == machine_id)
            else {
                continue;
            };
            if let Some(m) = &query.machine
                && !machine_name.contains(m.as_str())
            {
                continue;
            }
            let point = Point::of_row(&r[1..]);
            if !query.selects(&point) {
                continue;
            }
            let mut point = point;
            if query
                .line
                .as_ref()
                .is_some_and(|l| l.holds(point.commit.as_deref()))
            {
                point.on_branch = true;
            }
            match series.iter_mut().find(|(id, _)| *id == machine_id) {
                Some((_, s)) => s.points.push(point),
                None => {
                    let record: pilot_format::MachineDoc = record
                        .as_deref()
                        .and_then(|t| serde_json::from_str(t).ok())
                        .unwrap_or_default();
                    let detail = format!(
                        "{}, {} cores",
                        record.cpu.as_deref().unwrap_or("unknown CPU"),
                        record.cores.map_or("?".to_string(), |c| c.to_string())
                    );
                    series.push((
                        machine_id,
                        Series {
                            target: target.clone(),
                            bench: name.clone(),
                            machine: machine_name.clone(),
                            machine_detail: detail,
                            points: vec![point],
                        },
                    ));
                }
            }
        }
        let mut out: Vec<Series> = series.into_iter().map(|(_, s)| s).collect();
        for s in &mut out {
            s.points.sort_by_cached_key(Point::order);
        }
        out.sort_by(|a, b| a.machine.cmp(&b.machine));
        Ok(out)
    }

    /// The runs the history holds, by the branch they were recorded on, with how many of
    /// their commits are on `line`; the branches in order, no branch last.
    pub fn holdings(&mut self, line: Option<&Line>) -> anyhow::Result<Vec<Holding>> {
        let rows = self.db.query(
            "SELECT branch, commit_hash, count(*) FROM runs GROUP BY branch, commit_hash",
            &[],
        )?;
        let mut by: BTreeMap<(bool, Option<String>), Holding> = BTreeMap::new();
        for r in rows {
            let branch = r[0].text();
            let commit = r[1].text();
            let runs = usize::try_from(r[2].int().unwrap_or(0)).unwrap_or(0);
            let h = by
                .entry((branch.is_none(), branch.clone()))
                .or_insert(Holding {
                    branch,
                    runs: 0,
                    commits: 0,
                    on_line: 0,
                });
            h.runs += runs;
            if commit.is_some() {
                h.commits += 1;
                if line.is_some_and(|l| l.holds(commit.as_deref())) {
                    h.on_line += 1;
                }
            }
        }
        Ok(by.into_values().collect())
    }

    /// Every series `query` selects, bench by bench.
    pub fn all_series(&mut self, query: &Query) -> anyhow::Result<Vec<Series>> {
        let mut out = Vec::new();
        for b in self.benches(query)? {
            out.extend(self.series(&b, query)?);
        }
        Ok(out)
    }
}

/// What the history holds and what selects it, for a selection that matched nothing.
pub(super) fn explain_empty(holdings: &[Holding], query: &Query) -> String {
    use pilot_engine::fmt::{counted, terminal};
    if holdings.is_empty() {
        return "the history holds no run yet: `cargo pilot bench` and `cargo pilot run` add to \
                it"
        .into();
    }
    let lines: Vec<String> = holdings
        .iter()
        .map(|h| {
            let place = match &h.branch {
                Some(b) => format!("on branch `{}`", terminal(b)),
                // No commit recorded with them: made outside a git repository.
                None if h.commits == 0 => "with no commit (made outside a git repository)".into(),
                None => "on no branch (made at a detached HEAD, as after `git checkout \
                         <commit>`, with no PILOT_BRANCH)"
                    .into(),
            };
            let line = query.line.as_ref().map_or(String::new(), |l| {
                format!(
                    ", {} on `{}`'s first-parent line",
                    if h.on_line == 0 {
                        "none".to_string()
                    } else {
                        h.on_line.to_string()
                    },
                    terminal(&l.tip)
                )
            });
            if h.commits == 0 {
                return format!("  {} {place}{line}", counted(h.runs, "run", "runs"));
            }
            format!(
                "  {} of {} {place}{line}",
                counted(h.runs, "run", "runs"),
                counted(h.commits, "commit", "commits"),
            )
        })
        .collect();
    let mut out = format!("the history holds:\n{}\n", lines.join("\n"));
    out.push_str(
        "--branch NAME selects the runs recorded on branch NAME and the runs of the commits on \
         its first-parent line; --all selects every run",
    );
    if !query.filters.is_empty() || query.machine.is_some() {
        out.push_str("; the bench filter and --machine narrow either");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_with_no_commit_are_said_to_be_made_outside_git_not_at_a_detached_head() {
        let holding = |branch: Option<&str>, runs, commits| Holding {
            branch: branch.map(str::to_string),
            runs,
            commits,
            on_line: 0,
        };
        let query = Query {
            filters: Vec::new(),
            exact: false,
            branch: Some("main".into()),
            line: None,
            machine: None,
            all: false,
        };
        let said = explain_empty(
            &[
                holding(None, 19, 0),
                holding(None, 3, 2),
                holding(Some("dev"), 1, 1),
            ],
            &query,
        );
        assert!(
            said.contains("  19 runs with no commit (made outside a git repository)\n"),
            "{said}"
        );
        assert!(
            said.contains("  3 runs of 2 commits on no branch (made at a detached HEAD"),
            "{said}"
        );
        assert!(
            said.contains("  1 run of 1 commit on branch `dev`"),
            "{said}"
        );
    }
}
