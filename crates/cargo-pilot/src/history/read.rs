//! Reading the history back: each bench's series over commits, one per machine, ordered by
//! commit (committer time, then depth on the first-parent line, then the run's start).

use super::History;
use super::db::Value;

/// Which series to read.
#[derive(Debug, Clone, Default)]
pub struct Query {
    /// Bench names containing one of these (exactly equal with `exact`); every bench when
    /// empty.
    pub filters: Vec<String>,
    /// Match the filters exactly.
    pub exact: bool,
    /// Only this branch's runs; every branch when `None`.
    pub branch: Option<String>,
    /// Only machines whose name contains this.
    pub machine: Option<String>,
    /// Runs no longer on their branch (rewritten away) too.
    pub all: bool,
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
    /// False once a rebase or force-push took the commit off its branch.
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
}

impl Point {
    /// The commit's first 12 hex digits, or `-` outside git.
    pub fn short(&self) -> String {
        self.commit
            .as_deref()
            .map_or("-".to_string(), |c| c[..12.min(c.len())].to_string())
    }

    /// The key the series is ordered by.
    fn order(&self) -> (i64, i64, String) {
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
             r.estimate, r.low, r.high, r.confidence, r.processes \
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
            let r = &r[1..];
            let point = Point {
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
            };
            if let Some(b) = &query.branch
                && point.branch.as_deref() != Some(b.as_str())
            {
                continue;
            }
            if !query.all && !point.on_branch {
                continue;
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

    /// Every series `query` selects, bench by bench.
    pub fn all_series(&mut self, query: &Query) -> anyhow::Result<Vec<Series>> {
        let mut out = Vec::new();
        for b in self.benches(query)? {
            out.extend(self.series(&b, query)?);
        }
        Ok(out)
    }
}
