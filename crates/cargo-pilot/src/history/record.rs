//! What one run adds to the history, built from its result documents: where it ran (the
//! machine's identity and record), on what (commit, dirty tree, branch), and each bench's
//! estimate, interval, processes and status.

use pilot_format::{MachineDoc, ResultDoc};

/// One run, ready to append.
#[derive(Debug, Clone)]
pub struct RunRecord {
    /// What measured it: `bench`, `run`, `bisect` or `add`.
    pub source: &'static str,
    /// The commit measured, when the tree was a git repository.
    pub commit: Option<String>,
    /// Whether tracked files had uncommitted changes.
    pub dirty: Option<bool>,
    /// The branch it was recorded on.
    pub branch: Option<String>,
    /// The machine's record at this run.
    pub machine: MachineDoc,
    /// The machine's name (`PILOT_MACHINE`, else the host name).
    pub machine_name: String,
    /// When the run started (RFC 3339).
    pub started: String,
    /// The share of the suite it measured (`--partition count:1/3`), when it was one.
    pub partition: Option<String>,
    /// Its benches' results.
    pub results: Vec<ResultRecord>,
}

/// One bench's result in a run.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultRecord {
    /// The bench target and the bench's name.
    pub target: String,
    pub bench: String,
    /// When its session started (RFC 3339): with the bench and the machine, it tells a result
    /// already in the history (`history add` twice adds nothing the second time).
    pub started: String,
    /// How the session ended.
    pub status: String,
    /// The time's unit (`ns`), `None` without an estimate.
    pub unit: Option<String>,
    /// The time per unit and its interval; `None` without an estimate.
    pub estimate: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub confidence: Option<f64>,
    /// `trimmed` or `mean`.
    pub estimator: Option<String>,
    /// Each process's estimate, when there were several.
    pub processes: Vec<f64>,
    /// The speed probe's time (ns) and the 1-minute load average as the bench's run started,
    /// from the result's machine record: the machine's state, which `changes` weighs against
    /// the code's.
    pub probe_ns: Option<f64>,
    pub load: Option<f64>,
    /// The whole result document (JSON), from which `history:REV` rebuilds the run of a commit.
    pub document: Option<String>,
}

impl ResultRecord {
    /// The record of a result document.
    pub fn of(doc: &ResultDoc) -> ResultRecord {
        let time = doc.pis.iter().find(|p| p.name == "time");
        let finite = |x: Option<f64>| x.filter(|v| v.is_finite());
        ResultRecord {
            target: doc.target.clone(),
            bench: doc.name.clone(),
            started: doc.started.clone(),
            status: doc.status.clone(),
            unit: time.map(|t| t.unit.clone()),
            estimate: finite(time.and_then(|t| t.mean)),
            // This run's interval (an older document's widened `ci` holds it apart).
            low: finite(time.and_then(|t| t.run_ci().low)),
            high: finite(time.and_then(|t| t.run_ci().high)),
            confidence: time.map(|t| t.ci.confidence),
            estimator: time.and_then(|t| t.estimator.clone()),
            processes: doc
                .processes
                .means
                .iter()
                .copied()
                .filter(|m| m.is_finite())
                .collect(),
            probe_ns: doc
                .machine
                .as_ref()
                .and_then(|m| m.speed.as_ref())
                .map(|s| s.probe_ns)
                .filter(|p| p.is_finite() && *p > 0.0),
            load: finite(doc.machine.as_ref().and_then(|m| m.load)),
            document: serde_json::to_string(doc).ok(),
        }
    }
}

/// The name this machine is recorded under: `PILOT_MACHINE` (a CI runner pool names itself
/// so), else the host name.
pub fn machine_name() -> String {
    if let Some(name) = std::env::var("PILOT_MACHINE")
        .ok()
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
    {
        return name;
    }
    host_name().unwrap_or_else(|| "unknown".to_string())
}

fn host_name() -> Option<String> {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length, and gethostname writes at most that much.
    let r = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if r != 0 {
        return None;
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    let name = String::from_utf8_lossy(&buf[..end]).trim().to_string();
    (!name.is_empty()).then_some(name)
}

/// The identity of a machine: its name and what makes its timings comparable (CPU model,
/// cores, operating system, architecture). Two machines differing in any of them never share a
/// series, whatever their names.
pub fn identity(name: &str, m: &MachineDoc) -> String {
    format!(
        "{name}|{}|{}|{}|{}",
        m.cpu.as_deref().unwrap_or("?"),
        m.cores.map_or("?".to_string(), |c| c.to_string()),
        m.os,
        m.arch
    )
}

/// The runs of `docs` (results of one source), one per commit, dirtiness and machine found in
/// their records; `fallback` is the machine for documents without one.
pub fn runs_of(
    docs: &[ResultDoc],
    source: &'static str,
    branch: Option<String>,
    fallback: &MachineDoc,
) -> Vec<RunRecord> {
    let name = machine_name();
    let mut runs: Vec<RunRecord> = Vec::new();
    for doc in docs {
        let machine = doc.machine.clone().unwrap_or_else(|| fallback.clone());
        let commit = machine.git_commit.clone();
        let dirty = machine.git_dirty;
        let key = identity(&name, &machine);
        let at = runs.iter().position(|r| {
            r.commit == commit && r.dirty == dirty && identity(&name, &r.machine) == key
        });
        let record = ResultRecord::of(doc);
        match at {
            Some(i) => {
                let r = &mut runs[i];
                if !doc.started.is_empty() && (r.started.is_empty() || doc.started < r.started) {
                    r.started = doc.started.clone();
                }
                r.results.push(record);
            }
            None => runs.push(RunRecord {
                source,
                commit,
                dirty,
                branch: branch.clone(),
                machine,
                machine_name: name.clone(),
                started: doc.started.clone(),
                partition: None,
                results: vec![record],
            }),
        }
    }
    for r in &mut runs {
        if r.started.is_empty() {
            r.started = pilot_engine::runner::now();
        }
        // The speed probe of one run is no part of the machine's identity or record here.
        r.machine.speed = None;
    }
    runs
}
