//! The history store's speed (issue 30's bars), measured with pilot: appending one run of 100
//! benches to a SQLite history of 10 000 runs × 100 benches (the bar: under 1 s), and reading
//! one bench's series of 10 000 runs (under 0.2 s).
//!
//!   cargo bench -p cargo-pilot --bench history
//!
//! The history is built once (under a minute) under cargo's `CARGO_TARGET_TMPDIR` and reused;
//! each append adds a run, so the history grows by 100 results per unit (0.01% each). An
//! append includes what git is asked (the commit's time and subject, the branch's commits),
//! as in every `cargo pilot bench`.
//! cargo-pilot is a binary: its `history` module (and the `args`, `exit`, `interrupt` and
//! `partition` it reads) are compiled in here from their source files.

#[allow(unused_macros)]
#[macro_use]
#[path = "../src/say.rs"]
mod say;

#[allow(dead_code, unused_imports)]
#[path = "../src/args.rs"]
mod args;
#[allow(dead_code)]
#[path = "../src/exit.rs"]
mod exit;
#[allow(dead_code, unused_imports)]
#[path = "../src/history/mod.rs"]
mod history;
#[allow(dead_code)]
#[path = "../src/interrupt.rs"]
mod interrupt;
#[allow(dead_code)]
#[path = "../src/partition.rs"]
mod partition;

use std::path::PathBuf;

use history::{Git, History, Location, Query, RunRecord};
use pilot::Bencher;
use pilot_format::MachineDoc;

const BENCHES: usize = 100;

/// Whether this is a measurement (`cargo bench` passes `--bench`), not a test run (`cargo test
/// --benches`), which checks the benches on a history of 100 runs.
fn measuring() -> bool {
    std::env::args().any(|a| a == "--bench")
}

/// Runs in the history: 10 000 when measuring.
fn runs() -> usize {
    if measuring() { 10_000 } else { 100 }
}

/// The history of `runs()` runs that the listing reads and never writes.
fn pristine() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("history-bench-{}.sqlite", runs()))
}

/// The copy of it that the appends grow, copied again once it holds 5% more runs.
fn appended() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("history-bench-{}-append.sqlite", runs()))
}

fn machine() -> MachineDoc {
    MachineDoc {
        cpu: Some("Bench CPU".into()),
        cores: Some(2),
        os: "linux".into(),
        arch: "x86_64".into(),
        pilot: "0.1.0".into(),
        ..MachineDoc::default()
    }
}

/// Run `i`: 100 benches, on branch `main`; with `commit`, a commit of its own (not in any
/// repository: the history asks git about it, as every append does, and records it as given).
/// The history is built without commits: no git to ask, so it is built in seconds.
fn run(i: usize, commit: bool) -> RunRecord {
    let results = (0..BENCHES)
        .map(|b| history::ResultRecord {
            target: "bench".into(),
            bench: format!("group_{}/bench_{b:03}", b % 10),
            started: format!("2026-01-01T00:00:00Z#{i}"),
            status: "ok".into(),
            unit: Some("ns".into()),
            estimate: Some(1000.0 + (i % 7) as f64),
            low: Some(990.0),
            high: Some(1010.0),
            confidence: Some(0.95),
            estimator: Some("trimmed".into()),
            processes: vec![999.0, 1000.0, 1001.0, 1002.0, 998.0],
            probe_ns: Some(1_000_000.0),
            load: Some(0.5),
            document: None,
            // A new executable every fifth run: the changes read the digests too.
            executable: Some(format!("sha256:{:064x}", i / 5)),
        })
        .collect();
    RunRecord {
        source: "bench",
        commit: commit.then(|| format!("{i:040x}")),
        dirty: Some(false),
        branch: commit.then(|| "main".into()),
        machine: machine(),
        machine_name: "bench-machine".into(),
        started: "2026-01-01T00:00:00Z".into(),
        partition: None,
        results,
    }
}

/// A git that knows no commit (a folder outside any repository): the history keeps what it is
/// given, as in a CI job whose clone lacks the older commits.
fn git() -> Git {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("history-bench-no-repo");
    std::fs::create_dir_all(&dir).unwrap();
    Git::at(&dir)
}

/// Runs in a history.
fn count(h: &mut History) -> usize {
    let benches = h.benches(&Query::default()).unwrap();
    match benches.first() {
        Some(b) => h
            .series(b, &Query::default())
            .unwrap()
            .first()
            .map_or(0, |s| s.points.len()),
        None => 0,
    }
}

/// The pristine history of `runs()` runs, built on first use.
fn history() -> History {
    let mut h = History::open(&Location::Sqlite(pristine())).unwrap();
    let have = count(&mut h);
    if have < runs() {
        eprintln!(
            "building the history of {} runs × {BENCHES} benches (once)…",
            runs()
        );
        let git = git();
        for i in have..runs() {
            h.append(&run(i, false), &git, false).unwrap();
        }
    }
    h
}

/// A copy of the pristine history for the appends, fresh once it has grown by 5%.
fn history_to_append() -> History {
    // Closing the pristine history folds its write-ahead log into the file copied.
    drop(history());
    let path = appended();
    if path.exists() {
        let mut h = History::open(&Location::Sqlite(path.clone())).unwrap();
        if count(&mut h) <= runs() * 105 / 100 {
            return h;
        }
    }
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    std::fs::copy(pristine(), &path).unwrap();
    History::open(&Location::Sqlite(path)).unwrap()
}

/// One run of 100 benches appended (one transaction).
#[pilot::bench(max_time = 20)]
fn append_run_to_10k(b: &mut Bencher) {
    let mut h = history_to_append();
    let git = git();
    let mut i = runs() + std::process::id() as usize * 1_000_000;
    b.iter(|| {
        i += 1;
        h.append(&run(i, true), &git, false).unwrap()
    });
}

/// One bench's series of 10 000 runs read back.
#[pilot::bench(max_time = 20)]
fn list_one_series_of_10k(b: &mut Bencher) {
    let mut h = history();
    let benches = h.benches(&Query::default()).unwrap();
    let one = benches[benches.len() / 2].clone();
    b.iter(|| {
        let s = h.series(&one, &Query::default()).unwrap();
        assert_eq!(s[0].points.len(), runs());
        s
    });
}

pilot::main!();
