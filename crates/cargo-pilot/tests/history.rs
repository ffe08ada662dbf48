//! End-to-end tests of the history: `cargo pilot history`, `history add`, `changes`, `bench`
//! and `run` appending, `bisect`, on both backends, with the refusals and the bad inputs
//! (a newer schema, a database of something else, an unreachable server, a rewritten branch,
//! two machines).
//!
//! Every test runs on SQLite. With `PILOT_TEST_POSTGRES=postgres://…` (CI starts a server and
//! sets it), the backend tests run on PostgreSQL too, each in a database of its own; a server
//! that cannot be reached is then a failure, never a skip. `PILOT_REQUIRE_POSTGRES=1` (CI sets
//! it too) makes a missing `PILOT_TEST_POSTGRES` a failure.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

mod common;
use common::{git, text};

#[path = "history/faults.rs"]
mod faults;

#[path = "history/partition.rs"]
mod partition;

fn tmp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("history")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The target directory of the tests' bisects, held by one test at a time (the lock's guard):
/// it outlives a run, so that bisect's build of pilot and its dependencies (in
/// `pilot/bisect/target`) is made once for every test and run, but not its checkout
/// (`pilot/bisect/worktree`), which belonged to another test's repository. Its checkout is
/// always at the same place, so the builds of the fixture's copies are taken for one another,
/// as bisect's own builds of two commits are, and rebuilt.
fn bisect_target() -> (std::sync::MutexGuard<'static, ()>, PathBuf) {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("history-bisect-target");
    let _ = std::fs::remove_dir_all(dir.join("pilot/bisect/worktree"));
    (guard, dir)
}

/// A repository at `dir` on branch `main` with `n` empty commits, a second apart, subjects
/// `commit 1` … `commit n`; their hashes, oldest first.
fn repo(dir: &Path, n: usize) -> Vec<String> {
    git(dir, &["init", "--quiet", "--initial-branch=main"]);
    (1..=n).map(|i| commit(dir, i)).collect()
}

fn commit(dir: &Path, i: usize) -> String {
    let date = format!("{} +0000", 1_700_000_000 + i as u64);
    let o = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=pilot",
            "-c",
            "user.email=pilot@example.com",
        ])
        .args([
            "commit",
            "--quiet",
            "--allow-empty",
            "-m",
            &format!("commit {i}"),
        ])
        .env("GIT_COMMITTER_DATE", &date)
        .env("GIT_AUTHOR_DATE", &date)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    git(dir, &["rev-parse", "HEAD"])
}

/// Which database a test writes its history to.
#[derive(Clone, Debug)]
enum Backend {
    Sqlite(PathBuf),
    Postgres(String),
}

impl Backend {
    fn flag(&self) -> String {
        match self {
            Backend::Sqlite(p) => p.display().to_string(),
            Backend::Postgres(url) => url.clone(),
        }
    }
}

static DATABASES: AtomicUsize = AtomicUsize::new(0);

/// The backends a test runs on: SQLite in `dir`, and a new PostgreSQL database when
/// `PILOT_TEST_POSTGRES` names a server.
fn backends(dir: &Path, name: &str) -> Vec<Backend> {
    let mut out = vec![Backend::Sqlite(dir.join("history.sqlite"))];
    match std::env::var("PILOT_TEST_POSTGRES")
        .ok()
        .filter(|v| !v.is_empty())
    {
        Some(server) => {
            let db = format!(
                "pilot_{name}_{}_{}",
                std::process::id(),
                DATABASES.fetch_add(1, Ordering::SeqCst)
            );
            let mut client =
                postgres::Client::connect(&server, postgres::NoTls).unwrap_or_else(|e| {
                    panic!("PILOT_TEST_POSTGRES is set but `{server}` cannot be reached: {e}")
                });
            client
                .batch_execute(&format!("CREATE DATABASE {db}"))
                .unwrap();
            let (base, _) = server.rsplit_once('/').expect("a URL ending in /DATABASE");
            out.push(Backend::Postgres(format!("{base}/{db}")));
        }
        None => assert!(
            std::env::var("PILOT_REQUIRE_POSTGRES").as_deref() != Ok("1"),
            "PILOT_REQUIRE_POSTGRES=1 but PILOT_TEST_POSTGRES names no server"
        ),
    }
    out
}

/// `cargo pilot ARGS` in `dir`, no `PILOT_*` of the outer environment but `env`, and none of
/// the branch names a CI service sets (a run's branch is what the test's repository says).
fn pilot(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"));
    cmd.args(args).current_dir(dir).env_remove("CI");
    for k in ["GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME"] {
        cmd.env_remove(k);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// A result document of bench `name` (target `t`) measured at `commit`, time `ns`.
fn result(name: &str, commit: &str, ns: f64, started: &str) -> Value {
    json!({
        "schema": "pilot.result/1",
        "name": name,
        "target": "t",
        "status": "ok",
        "pis": [{"name": "time", "unit": "ns", "mean": ns,
                 "ci": {"low": ns * 0.995, "high": ns * 1.005, "confidence": 0.95}}],
        "processes": {"count": 3, "means": [ns * 0.999, ns, ns * 1.001]},
        "machine": {"cpu": "Test CPU", "cores": 4, "os": "linux", "arch": "x86_64",
                    "pilot": "0.1.0", "git_commit": commit, "git_dirty": false},
        "started": started,
    })
}

/// Adds a run of the benches `(name, ns)` at `commit` to the history of `b`.
fn add(
    dir: &Path,
    b: &Backend,
    commit: &str,
    benches: &[(&str, f64)],
    i: usize,
    env: &[(&str, &str)],
) {
    let started = format!("2026-01-01T00:{:02}:{:02}Z", i / 60, i % 60);
    let results: Vec<Value> = benches
        .iter()
        .map(|(n, ns)| result(n, commit, *ns, &started))
        .collect();
    add_run(dir, b, results, &format!("run-{i}.json"), env);
}

/// Adds a run of the result documents `results` (written to `file` in `dir`) to the history
/// of `b` with `cargo pilot history add`.
fn add_run(dir: &Path, b: &Backend, results: Vec<Value>, file: &str, env: &[(&str, &str)]) {
    let run = json!({"schema": "pilot.run/1", "results": results});
    let file = dir.join(file);
    std::fs::write(&file, serde_json::to_vec(&run).unwrap()).unwrap();
    let o = pilot(
        dir,
        &[
            "history",
            "add",
            "--run",
            file.to_str().unwrap(),
            "--history",
            &b.flag(),
            "--target-dir",
            "target",
        ],
        env,
    );
    assert!(o.status.success(), "{}", text(&o));
}

/// A deterministic wiggle of ±0.4%.
fn wiggle(i: usize) -> f64 {
    1.0 + 0.004 * (((i * 7919) % 11) as f64 / 5.0 - 1.0)
}

fn json_of(o: &Output) -> Value {
    assert!(o.status.success(), "{}", text(o));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(o)))
}

#[test]
fn series_and_changes_over_commits_on_each_backend() {
    let dir = tmp("series");
    let commits = repo(&dir, 30);
    for b in backends(&dir, "series") {
        // `parse` is 8% slower from commit 17, `sort` 5% faster from commit 24; the third
        // bench's name is hostile to every format.
        for (i, c) in commits.iter().enumerate() {
            let n = i + 1;
            let parse = 1000.0 * wiggle(n) * if n >= 17 { 1.08 } else { 1.0 };
            let sort = 500.0 * wiggle(n + 3) * if n >= 24 { 0.95 } else { 1.0 };
            add(
                &dir,
                &b,
                c,
                &[
                    ("parse", parse),
                    ("sort", sort),
                    ("a|b <i>`x`", 10.0 * wiggle(n)),
                ],
                n,
                &[],
            );
        }
        let flag = b.flag();
        let h = json_of(&pilot(
            &dir,
            &["history", "--format", "json", "--history", &flag],
            &[],
        ));
        let series = h["series"].as_array().unwrap();
        assert_eq!(series.len(), 3, "{h}");
        let of = |name: &str| series.iter().find(|s| s["bench"] == name).unwrap();
        assert_eq!(of("parse")["points"].as_array().unwrap().len(), 30);
        let changes = |name: &str| -> Vec<String> {
            of(name)["changes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["commit"].as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(changes("parse"), [commits[16].clone()], "{b:?}");
        assert_eq!(changes("sort"), [commits[23].clone()], "{b:?}");
        assert!(changes("a|b <i>`x`").is_empty());
        let c = &of("parse")["changes"][0];
        let (lo, hi) = (
            c["change_ci"]["low"].as_f64().unwrap(),
            c["change_ci"]["high"].as_f64().unwrap(),
        );
        assert!(
            lo < 0.08 && 0.08 < hi && c["p"].as_f64().unwrap() < 0.001,
            "{c}"
        );
        // The p the suite decided on: the change's own, adjusted over the three series.
        let adjusted = c["p_adjusted"].as_f64().unwrap();
        assert!(
            c["p"].as_f64().unwrap() <= adjusted && adjusted < 0.01,
            "{c}"
        );

        // `changes`: newest first; found long ago, so no exit 3.
        let o = pilot(&dir, &["changes", "--history", &flag], &[]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let out = String::from_utf8_lossy(&o.stdout);
        let (p24, p17) = (
            out.find(&commits[23][..12]).unwrap(),
            out.find(&commits[16][..12]).unwrap(),
        );
        assert!(p24 < p17, "{out}");
        assert!(
            out.contains("slower") && out.contains("faster") && out.contains("commit 17"),
            "{out}"
        );
        // The rule is said with the verdict, in the table and the document.
        assert!(out.contains("Holm's adjusted p < 0.01"), "{out}");
        let j = json_of(&pilot(
            &dir,
            &["changes", "--format", "json", "--history", &flag],
            &[],
        ));
        assert_eq!(j["adjustment"], "holm", "{j}");
        let md = pilot(
            &dir,
            &["changes", "--format", "md", "--history", &flag],
            &[],
        );
        let md = String::from_utf8_lossy(&md.stdout);
        assert!(md.contains("Holm's adjusted p < 0.01"), "{md}");
        assert!(
            j["changes"]
                .as_array()
                .unwrap()
                .iter()
                .all(|c| c["p"].as_f64() <= c["p_adjusted"].as_f64()),
            "{j}"
        );

        // Markdown: names as code spans, `|` escaped, nothing of the name read as markup.
        let o = pilot(
            &dir,
            &["history", "a|b", "--format", "md", "--history", &flag],
            &[],
        );
        let md = String::from_utf8_lossy(&o.stdout);
        assert!(md.contains(r"`` a\|b <i>`x` ``"), "{md}");

        // A filter that matches nothing is an error naming it.
        let o = pilot(
            &dir,
            &["history", "nothing-like-it", "--history", &flag],
            &[],
        );
        assert_eq!(o.status.code(), Some(1));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("`nothing-like-it`"),
            "{}",
            text(&o)
        );
    }
}

#[test]
fn the_newest_commit_that_makes_a_slowdown_known_exits_3_once() {
    let dir = tmp("exit3");
    let mut commits = repo(&dir, 20);
    for b in backends(&dir, "exit3") {
        let flag = b.flag();
        for (i, c) in commits.iter().enumerate() {
            add(&dir, &b, c, &[("parse", 1000.0 * wiggle(i))], i, &[]);
        }
        let code = |dir: &Path| {
            pilot(dir, &["changes", "--history", &flag], &[])
                .status
                .code()
        };
        assert_eq!(code(&dir), Some(0));
        // Commits 21, 22, 23 are 10% slower: a change needs three commits at the new level.
        for n in 21..=23 {
            let c = commit(&dir, n);
            commits.push(c.clone());
            add(&dir, &b, &c, &[("parse", 1100.0 * wiggle(n))], n, &[]);
            let o = pilot(&dir, &["changes", "--history", &flag], &[]);
            let expected = if n < 23 { 0 } else { 3 };
            assert_eq!(o.status.code(), Some(expected), "commit {n}: {}", text(&o));
        }
        let o = pilot(&dir, &["changes", "--history", &flag], &[]);
        assert!(
            String::from_utf8_lossy(&o.stderr)
                .contains(&format!("from commit {}", &commits[20][..12])),
            "{}",
            text(&o)
        );
        // The next commit at the new level: known already, no exit 3 again.
        let c = commit(&dir, 24);
        add(&dir, &b, &c, &[("parse", 1100.0 * wiggle(24))], 24, &[]);
        assert_eq!(code(&dir), Some(0));
        // Two commits back at the old level (a fix): too few for a level of their own, so the
        // change stays named, with a note that the newest commits read back near the level
        // before it.
        for n in 25..=26 {
            let c = commit(&dir, n);
            commits.push(c.clone());
            add(&dir, &b, &c, &[("parse", 1000.0 * wiggle(n))], n, &[]);
        }
        let o = pilot(&dir, &["changes", "--history", &flag], &[]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let out = String::from_utf8_lossy(&o.stdout);
        let note = format!(
            "parse (t) slower at {}: its newest 2 commits read",
            &commits[20][..12]
        );
        assert!(out.contains(&note), "{out}");
        assert!(out.contains("back near the level before it"), "{out}");
        let j = json_of(&pilot(
            &dir,
            &["changes", "--format", "json", "--history", &flag],
            &[],
        ));
        let back = &j["changes"][0]["newest_receded"];
        assert_eq!(back["commits"], 2, "{j}");
        assert!(back["change"].as_f64().unwrap() < -0.08, "{j}");
        // Reset for the next backend.
        git(&dir, &["reset", "--quiet", "--hard", &commits[19]]);
        commits.truncate(20);
    }
}

#[test]
fn runs_at_a_detached_head_count_for_the_commits_line() {
    let dir = tmp("detached");
    let commits = repo(&dir, 12);
    for b in backends(&dir, "detached") {
        let flag = b.flag();
        // A history back-filled as a user does: each commit checked out, then measured.
        // `parse` is 8% slower from commit 7.
        for (i, c) in commits.iter().enumerate() {
            git(&dir, &["checkout", "--quiet", "--detach", c]);
            let n = i + 1;
            let ns = 1000.0 * wiggle(n) * if n >= 7 { 1.08 } else { 1.0 };
            add(&dir, &b, c, &[("parse", ns)], n, &[]);
        }
        git(&dir, &["checkout", "--quiet", "main"]);
        let h = json_of(&pilot(
            &dir,
            &["history", "--all", "--format", "json", "--history", &flag],
            &[],
        ));
        let points = h["series"][0]["points"].as_array().unwrap();
        assert!(points.iter().all(|p| p["branch"].is_null()), "{h}");

        // At main's tip, the runs of main's commits count, whatever branch they were on.
        let changes_at = |args: &[&str]| -> Vec<String> {
            let mut all = vec!["changes", "--format", "json", "--history", &flag];
            all.extend(args);
            json_of(&pilot(&dir, &all, &[]))["changes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["commit"].as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(changes_at(&[]), [commits[6].clone()]);
        let h = json_of(&pilot(
            &dir,
            &["history", "--format", "json", "--history", &flag],
            &[],
        ));
        assert_eq!(h["series"][0]["points"].as_array().unwrap().len(), 12);

        // A branch that holds none of those commits: the selection is empty, and says why and
        // what selects them.
        git(&dir, &["checkout", "--quiet", "--orphan", "other"]);
        git(&dir, &["commit", "--quiet", "--allow-empty", "-m", "other"]);
        let o = pilot(&dir, &["changes", "--history", &flag], &[]);
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        for said in [
            "no run in the history",
            "the runs recorded on branch `other` or of the 1 commit on `HEAD`'s first-parent line",
            "12 runs of 12 commits on no branch (made at a detached HEAD",
            "none on `HEAD`'s first-parent line",
            "--branch NAME",
            "--all",
        ] {
            assert!(err.contains(said), "`{said}` not in: {err}");
        }
        // From there, `--branch main` follows main's line.
        assert_eq!(changes_at(&["--branch", "main"]), [commits[6].clone()]);
        git(&dir, &["checkout", "--quiet", "main"]);
        git(&dir, &["branch", "--quiet", "-D", "other"]);
    }
}

/// A run of the benches `(name, ns)` at `commit` whose machine record holds the speed probe's
/// time `probe_ns` and the load average `load`, added to the history of `b`.
fn add_with_machine(
    dir: &Path,
    b: &Backend,
    commit: &str,
    benches: &[(&str, f64)],
    (probe_ns, load): (f64, f64),
    i: usize,
) {
    let started = format!("2026-01-01T01:{:02}:{:02}Z", i / 60, i % 60);
    let results: Vec<Value> = benches
        .iter()
        .map(|(n, ns)| {
            let mut doc = result(n, commit, *ns, &started);
            doc["machine"]["speed"] = json!({"probe_ns": probe_ns, "run_to_run": null, "runs": 1});
            doc["machine"]["load"] = json!(load);
            doc
        })
        .collect();
    add_run(dir, b, results, &format!("machine-run-{i}.json"), &[]);
}

#[test]
fn a_machine_that_became_slower_is_the_machines_change_not_a_commits() {
    let dir = tmp("machine-shift");
    let commits = repo(&dir, 30);
    let names = ["parse", "sort", "hash", "lex", "fmt", "walk"];
    for b in backends(&dir, "machine_shift") {
        let flag = b.flag();
        // `parse` is 5% faster from commit 8 (its code); from commit 28 on, the machine is
        // busier: every bench 4 to 9% slower, and the speed probe 6%.
        for (i, c) in commits.iter().enumerate() {
            let n = i + 1;
            let busy = n >= 28;
            let benches: Vec<(&str, f64)> = names
                .iter()
                .enumerate()
                .map(|(k, name)| {
                    let code = if k == 0 && n >= 8 { 0.95 } else { 1.0 };
                    let machine = if busy { 1.04 + 0.01 * k as f64 } else { 1.0 };
                    (
                        *name,
                        100.0 * (k + 1) as f64 * code * machine * wiggle(n + 5 * k),
                    )
                })
                .collect();
            let probe = 1e6 * if busy { 1.06 } else { 1.0 } * wiggle(n + 1);
            add_with_machine(
                &dir,
                &b,
                c,
                &benches,
                (probe, if busy { 2.0 } else { 0.2 }),
                n,
            );
        }
        let o = pilot(
            &dir,
            &["changes", "--format", "json", "--history", &flag],
            &[],
        );
        // The slowdown the newest commits show is the machine's: no exit 3.
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let doc = json_of(&o);
        let named: Vec<(&str, &str)> = doc["changes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c["bench"].as_str().unwrap(), c["commit"].as_str().unwrap()))
            .collect();
        assert_eq!(named, [("parse", commits[7].as_str())], "{doc}");
        let machine = doc["machine_changes"].as_array().unwrap();
        assert_eq!(machine.len(), 1, "{doc}");
        let m = &machine[0];
        let at = commits
            .iter()
            .position(|c| m["commit"] == c.as_str())
            .unwrap();
        assert!(at.abs_diff(27) <= 1, "{m}");
        assert!(m["change"].as_f64().unwrap() > 0.0 && m["probe_change"].as_f64().unwrap() > 0.0);
        let o = pilot(&dir, &["changes", "--history", &flag], &[]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.contains("the machine's changes, not a commit's") && out.contains("machine slower"),
            "{out}"
        );
    }
}

/// Gives the results of each commit's runs in the history of `b` the executable digest
/// `digest(i)` (`i` the commit's index in `commits`), as `cargo pilot bench` records it.
fn set_executables(b: &Backend, commits: &[String], digest: impl Fn(usize) -> String) {
    let sql = "UPDATE results SET executable = {d} WHERE run_id IN \
               (SELECT id FROM runs WHERE commit_hash = {c})";
    for (i, c) in commits.iter().enumerate() {
        let d = digest(i);
        match b {
            Backend::Sqlite(p) => {
                let q = sql.replace("{d}", "?1").replace("{c}", "?2");
                rusqlite::Connection::open(p)
                    .unwrap()
                    .execute(&q, [&d, c])
                    .unwrap();
            }
            Backend::Postgres(url) => {
                let q = sql.replace("{d}", "$1").replace("{c}", "$2");
                let mut client = postgres::Client::connect(url, postgres::NoTls).unwrap();
                client.execute(&q, &[&d, c]).unwrap();
            }
        };
    }
}

#[test]
fn a_level_between_runs_of_one_executable_is_the_machines() {
    let dir = tmp("same-executable");
    let commits = repo(&dir, 20);
    let names = ["parse", "sort", "hash", "lex", "fmt", "walk"];
    // `parse` read 3% slower at commits 10 to 13 and back at 14, its runs as precise as ever,
    // while the other benches did not move: what a code change reverted four commits later
    // looks like, and what a host state that held one workload does.
    let held = 9..13;
    for b in backends(&dir, "same_executable") {
        let flag = b.flag();
        for (i, c) in commits.iter().enumerate() {
            let benches: Vec<(&str, f64)> = names
                .iter()
                .enumerate()
                .map(|(k, name)| {
                    let state = if k == 0 && held.contains(&i) {
                        1.03
                    } else {
                        1.0
                    };
                    (*name, 100.0 * (k + 1) as f64 * state * wiggle(i + 5 * k))
                })
                .collect();
            add(&dir, &b, c, &benches, i, &[]);
        }
        let changes = |args: &[&str]| {
            let mut all = vec!["changes", "--history", &flag];
            all.extend_from_slice(args);
            pilot(&dir, &all, &[])
        };
        let named = |o: &Output| -> Vec<String> {
            json_of(o)["changes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["commit"].as_str().unwrap().to_string())
                .collect()
        };
        // The machine's changes: (commit, what saw it), newest first.
        let seen = |o: &Output| -> Vec<(String, String)> {
            json_of(o)["machine_changes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    let field = |k: &str| m[k].as_str().unwrap().to_string();
                    (field("commit"), field("seen_by"))
                })
                .collect()
        };
        // The held level's two ends, newest first.
        let ends = [commits[13].as_str(), commits[9].as_str()];
        // No executable recorded (`history add`): read alone, two commits are named.
        let o = changes(&["--format", "json"]);
        assert_eq!(named(&o), ends, "{}", text(&o));
        // One executable ran every commit (the commits changed nothing it is built from):
        // both ends are the machine's, and the output says why.
        set_executables(&b, &commits, |_| "sha256:aa".into());
        let o = changes(&["--format", "json"]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        assert!(named(&o).is_empty(), "{}", text(&o));
        // Newest first, as the changes.
        let both = vec![
            (commits[13].clone(), "executable".to_string()),
            (commits[9].clone(), "executable".to_string()),
        ];
        assert_eq!(seen(&o), both);
        let o = changes(&[]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.contains("the bench's executable is the same on both sides")
                && out.contains("explains")
                && out.contains("parse (t) +2."),
            "{out}"
        );
        // A new executable at commit 10: the level's start may be its code, but the level
        // came back at 14 with no new executable, so neither end is a commit's.
        set_executables(&b, &commits, |i| {
            if i < 9 { "sha256:aa" } else { "sha256:bb" }.into()
        });
        let o = changes(&["--format", "json"]);
        assert!(named(&o).is_empty(), "{}", text(&o));
        let kinds: Vec<String> = seen(&o).into_iter().map(|s| s.1).collect();
        assert_eq!(kinds, ["executable", "return"], "{}", text(&o));
        // A new executable at 10 and another at 14 (a change and its revert): the code's.
        set_executables(&b, &commits, |i| {
            if (9..13).contains(&i) {
                "sha256:bb"
            } else {
                "sha256:aa"
            }
            .into()
        });
        let o = changes(&["--format", "json"]);
        assert_eq!(named(&o), ends, "{}", text(&o));
    }
}

#[test]
fn machines_never_share_a_series() {
    let dir = tmp("machines");
    let commits = repo(&dir, 6);
    for b in backends(&dir, "machines") {
        for (i, c) in commits.iter().enumerate() {
            add(
                &dir,
                &b,
                c,
                &[("parse", 1000.0)],
                i,
                &[("PILOT_MACHINE", "laptop")],
            );
            add(
                &dir,
                &b,
                c,
                &[("parse", 2000.0)],
                100 + i,
                &[("PILOT_MACHINE", "ci-runner")],
            );
        }
        let h = json_of(&pilot(
            &dir,
            &["history", "--format", "json", "--history", &b.flag()],
            &[],
        ));
        let machines: Vec<&str> = h["series"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["machine"].as_str().unwrap())
            .collect();
        assert_eq!(machines, ["ci-runner", "laptop"]);
        for s in h["series"].as_array().unwrap() {
            let values: Vec<f64> = s["points"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["estimate"].as_f64().unwrap())
                .collect();
            assert!(values.windows(2).all(|w| w[0] == w[1]), "{values:?}");
        }
        let h = json_of(&pilot(
            &dir,
            &[
                "history",
                "--machine",
                "lap",
                "--format",
                "json",
                "--history",
                &b.flag(),
            ],
            &[],
        ));
        assert_eq!(h["series"].as_array().unwrap().len(), 1);
    }
}

#[test]
fn runs_of_a_dirty_tree_are_shown_and_count_for_no_change() {
    let dir = tmp("dirty");
    let commits = repo(&dir, 9);
    for b in backends(&dir, "dirty") {
        for (i, c) in commits.iter().enumerate() {
            let started = format!("2026-01-01T00:00:{i:02}Z");
            let mut doc = result("parse", c, 1000.0 * wiggle(i), &started);
            // The last three commits were measured with uncommitted changes that made them
            // 50% slower: not what the commits hold.
            if i >= 6 {
                doc["pis"][0]["mean"] = json!(1500.0 * wiggle(i));
                doc["machine"]["git_dirty"] = json!(true);
            }
            add_run(&dir, &b, vec![doc], &format!("dirty-{i}.json"), &[]);
        }
        let h = json_of(&pilot(
            &dir,
            &["history", "--format", "json", "--history", &b.flag()],
            &[],
        ));
        let s = &h["series"][0];
        let dirty: Vec<bool> = s["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["dirty"].as_bool().unwrap())
            .collect();
        assert_eq!(
            dirty,
            [false, false, false, false, false, false, true, true, true]
        );
        assert!(s["changes"].as_array().unwrap().is_empty(), "{s}");
        let o = pilot(&dir, &["history", "--history", &b.flag()], &[]);
        assert!(
            String::from_utf8_lossy(&o.stdout).contains("dirty tree"),
            "{}",
            text(&o)
        );
        assert_eq!(
            pilot(&dir, &["changes", "--history", &b.flag()], &[])
                .status
                .code(),
            Some(0)
        );
    }
}

#[test]
fn runs_too_imprecise_to_count_are_listed_and_name_no_change() {
    let dir = tmp("imprecise");
    let commits = repo(&dir, 20);
    // Commits 10 to 13 were measured while a neighbour disturbed the runs: 40% slow, each
    // session stopped by its time cap at ±40%. Read as precise as the others, four commits at
    // +40% and back are two changes; weighed by their precision they count for none.
    let disturbed = 10..14;
    let history = |name: &str, width: f64| {
        // A new history each time: the SQLite file anew, a new PostgreSQL database.
        let _ = std::fs::remove_file(dir.join("history.sqlite"));
        let mut out = Vec::new();
        for b in backends(&dir, name) {
            for (i, c) in commits.iter().enumerate() {
                let started = format!("2026-01-01T00:00:{i:02}Z");
                let mut doc = result("parse", c, 1000.0 * wiggle(i), &started);
                if disturbed.contains(&i) {
                    let ns = 1400.0 * wiggle(i);
                    doc["pis"][0]["mean"] = json!(ns);
                    doc["pis"][0]["ci"]["low"] = json!(ns * (1.0 - width));
                    doc["pis"][0]["ci"]["high"] = json!(ns * (1.0 + width));
                }
                add_run(&dir, &b, vec![doc], &format!("{name}-{i}.json"), &[]);
            }
            out.push(b);
        }
        out
    };
    for b in history("imprecise", 0.4) {
        let flag = b.flag();
        let changes = json_of(&pilot(
            &dir,
            &["changes", "--format", "json", "--history", &flag],
            &[],
        ));
        assert!(
            changes["changes"].as_array().unwrap().is_empty(),
            "{changes}"
        );
        let left: Vec<&str> = changes["imprecise_runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["commit"].as_str().unwrap())
            .collect();
        let want: Vec<&str> = commits[disturbed.clone()]
            .iter()
            .map(String::as_str)
            .collect();
        assert_eq!(left, want, "{changes}");
        let o = pilot(&dir, &["changes", "--history", &flag], &[]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.contains("left out of the changes, too imprecise")
                && out.contains("parse (t) on ")
                && out.contains(&format!("4 runs, at {} (±40.0%)", &commits[10][..12])),
            "{}",
            text(&o)
        );
        let h = json_of(&pilot(
            &dir,
            &["history", "--format", "json", "--history", &flag],
            &[],
        ));
        let marked: Vec<bool> = h["series"][0]["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["imprecise"].as_bool().unwrap())
            .collect();
        let expected: Vec<bool> = (0..commits.len()).map(|i| disturbed.contains(&i)).collect();
        assert_eq!(marked, expected);
        let o = pilot(&dir, &["history", "--history", &flag], &[]);
        assert!(
            String::from_utf8_lossy(&o.stdout).contains("too imprecise to count for changes"),
            "{}",
            text(&o)
        );
    }
    // The same runs with intervals as narrow as the others': both ends are changes.
    for b in history("precise", 0.005) {
        let changes = json_of(&pilot(
            &dir,
            &["changes", "--format", "json", "--history", &b.flag()],
            &[],
        ));
        let at: Vec<&str> = changes["changes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["commit"].as_str().unwrap())
            .collect();
        assert_eq!(
            at,
            [commits[14].as_str(), commits[10].as_str()],
            "{changes}"
        );
        assert!(changes["imprecise_runs"].as_array().unwrap().is_empty());
    }
}

#[test]
fn a_rewritten_branch_keeps_its_old_runs_marked() {
    let dir = tmp("rewritten");
    let commits = repo(&dir, 4);
    for b in backends(&dir, "rewritten") {
        let flag = b.flag();
        git(&dir, &["reset", "--quiet", "--hard", &commits[3]]);
        for (i, c) in commits.iter().enumerate() {
            add(&dir, &b, c, &[("parse", 1000.0)], i, &[]);
        }
        // A force-push: commits 3 and 4 replaced by another commit.
        git(&dir, &["reset", "--quiet", "--hard", &commits[1]]);
        let new = commit(&dir, 5);
        add(&dir, &b, &new, &[("parse", 1000.0)], 10, &[]);
        let shown = |all: bool| -> Vec<(String, bool)> {
            let mut args = vec!["history", "--format", "json", "--history", &flag];
            if all {
                args.push("--all");
            }
            let h = json_of(&pilot(&dir, &args, &[]));
            h["series"][0]["points"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    (
                        p["commit"].as_str().unwrap().to_string(),
                        p["on_branch"].as_bool().unwrap(),
                    )
                })
                .collect()
        };
        assert_eq!(
            shown(false),
            [
                (commits[0].clone(), true),
                (commits[1].clone(), true),
                (new.clone(), true)
            ]
        );
        let all = shown(true);
        assert_eq!(all.len(), 5);
        assert!(
            all.contains(&(commits[2].clone(), false))
                && all.contains(&(commits[3].clone(), false)),
            "{all:?}"
        );
        git(&dir, &["reset", "--quiet", "--hard", &commits[3]]);
    }
}

#[test]
fn a_newer_schema_and_a_foreign_database_are_refused() {
    let dir = tmp("refused");
    let commits = repo(&dir, 1);
    for b in backends(&dir, "refused") {
        add(&dir, &b, &commits[0], &[("parse", 1000.0)], 0, &[]);
        let set_version = |v: i64| match &b {
            Backend::Sqlite(p) => {
                let c = rusqlite::Connection::open(p).unwrap();
                c.execute("UPDATE pilot_schema SET version = ?1", [v])
                    .unwrap();
            }
            Backend::Postgres(url) => {
                let mut c = postgres::Client::connect(url, postgres::NoTls).unwrap();
                c.execute("UPDATE pilot_schema SET version = $1", &[&v])
                    .unwrap();
            }
        };
        set_version(5);
        for args in [vec!["history"], vec!["changes"]] {
            let mut args = args;
            let flag = b.flag();
            args.extend(["--history", &flag]);
            let o = pilot(&dir, &args, &[]);
            assert_eq!(o.status.code(), Some(1), "{}", text(&o));
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(
                err.contains("schema version 5, newer than this cargo-pilot knows (4)"),
                "{err}"
            );
        }
        let run = dir.join("run-0.json");
        let o = pilot(
            &dir,
            &[
                "history",
                "add",
                "--run",
                run.to_str().unwrap(),
                "--history",
                &b.flag(),
                "--target-dir",
                "target",
            ],
            &[],
        );
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        set_version(4);
        let h = json_of(&pilot(
            &dir,
            &["history", "--format", "json", "--history", &b.flag()],
            &[],
        ));
        assert_eq!(
            h["series"][0]["points"].as_array().unwrap().len(),
            1,
            "nothing was written"
        );
    }
    // A SQLite file of something else, and a file that is no database at all.
    let other = dir.join("other.sqlite");
    rusqlite::Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE customers (id INTEGER)")
        .unwrap();
    let garbage = dir.join("garbage.sqlite");
    std::fs::write(
        &garbage,
        b"this is not a database, it is a shopping list\n".repeat(20),
    )
    .unwrap();
    for (file, says) in [
        (&other, "something other than a pilot history"),
        (&garbage, "not a SQLite database"),
    ] {
        let o = pilot(&dir, &["history", "--history", file.to_str().unwrap()], &[]);
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(says),
            "{}",
            text(&o)
        );
    }
    let kept = std::fs::read(&garbage).unwrap();
    assert!(kept.starts_with(b"this is not a database"));
}

#[test]
fn an_unreachable_database_loses_nothing_of_the_run() {
    let dir = tmp("unreachable");
    let out = dir.join("results");
    // Nothing listens on port 1 of the loopback: refused at once, not after the limit (a bound
    // far above the run, far below the limit).
    let url = "postgres://pilot@127.0.0.1:1/pilot?connect_timeout=120";
    let start = std::time::Instant::now();
    let o = pilot(
        &dir,
        &[
            "run",
            "--max-time",
            "0.3",
            "--out",
            out.to_str().unwrap(),
            "--history",
            url,
            // `true` run directly: through a shell it is shorter than the shell's start-up,
            // which on a busy machine leaves a time of 0 that no result document holds.
            "-N",
            "-n",
            "nothing",
            "true",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(start.elapsed().as_secs() < 60, "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "cannot connect to the history database \
             `postgres://pilot@127.0.0.1:1/pilot?connect_timeout=120`"
        ),
        "{err}"
    );
    assert!(err.contains("cargo pilot history add"), "{err}");
    let saved = out
        .join("pilot")
        .join("results")
        .join(pilot_format::PROGRAM_TARGET)
        .join("nothing.json");
    assert!(saved.is_file(), "{}", text(&o));
    // Once a history can be reached, `history add` adds the run, once.
    for b in backends(&dir, "unreachable") {
        let add = |dir: &Path| {
            pilot(
                dir,
                &[
                    "history",
                    "add",
                    "--target-dir",
                    out.to_str().unwrap(),
                    "--history",
                    &b.flag(),
                ],
                &[],
            )
        };
        let o = add(&dir);
        assert!(
            String::from_utf8_lossy(&o.stdout).contains("1 result of 1 added"),
            "{}",
            text(&o)
        );
        let o = add(&dir);
        assert!(
            String::from_utf8_lossy(&o.stdout).contains("0 results of 1 added"),
            "{}",
            text(&o)
        );
        // A second run, and the report draws the series.
        let o = pilot(
            &dir,
            &[
                "run",
                "--max-time",
                "0.3",
                "--out",
                out.to_str().unwrap(),
                "--history",
                &b.flag(),
                "-N",
                "-n",
                "nothing",
                "true",
            ],
            &[],
        );
        assert!(o.status.success(), "{}", text(&o));
        let page = dir.join("page");
        let o = pilot(
            &dir,
            &[
                "report",
                "--results",
                out.to_str().unwrap(),
                "--out",
                page.to_str().unwrap(),
                "--history",
                &b.flag(),
            ],
            &[],
        );
        assert!(o.status.success(), "{}", text(&o));
        let html = std::fs::read_to_string(page.join("index.html")).unwrap();
        let at = html
            .find("<section id=\"history\">")
            .expect("a history section");
        let section = &html[at..];
        assert!(
            section.contains("<h3>nothing (run.programs) on ") && section.contains("<svg"),
            "{section}"
        );
    }
    // PILOT_HISTORY=off keeps none.
    let o = pilot(
        &dir,
        &[
            "run",
            "--max-time",
            "0.3",
            "--out",
            out.to_str().unwrap(),
            "-N",
            "-n",
            "nothing",
            "true",
        ],
        &[("PILOT_HISTORY", "off")],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("history:"),
        "{}",
        text(&o)
    );
}

/// The fixture's files copied to `dir`, its pilot dependency pointed at this checkout's.
fn copy_fixture(dir: &Path) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixture-bench");
    let pilot = std::fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join("..")).unwrap();
    std::fs::create_dir_all(dir.join("benches")).unwrap();
    let manifest = std::fs::read_to_string(src.join("Cargo.toml"))
        .unwrap()
        .replace(
            "path = \"../../crates",
            &format!("path = \"{}", pilot.display()),
        );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::copy(src.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    // Every bench file: the manifest names each of them.
    for entry in std::fs::read_dir(src.join("benches")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            std::fs::copy(&path, dir.join("benches").join(path.file_name().unwrap())).unwrap();
        }
    }
    std::fs::write(dir.join(".gitignore"), "target\n").unwrap();
}

fn edit(file: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains(from), "`{from}` not in {}", file.display());
    std::fs::write(file, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn bisect_names_the_commit_that_made_a_bench_slower() {
    let dir = tmp("bisect");
    let repo_dir = dir.join("repo");
    copy_fixture(&repo_dir);
    let (_one_bisect, target) = bisect_target();
    git(&repo_dir, &["init", "--quiet", "--initial-branch=main"]);
    git(&repo_dir, &["add", "-A"]);
    git(&repo_dir, &["commit", "--quiet", "-m", "base"]);
    let good = git(&repo_dir, &["rev-parse", "HEAD"]);
    let source = repo_dir.join("benches/cost.rs");
    let mut culprit = String::new();
    for i in 1..=5 {
        if i == 3 {
            edit(
                &source,
                "const SOURCE_COST: f64 = 1.0;",
                "const SOURCE_COST: f64 = 2.0;",
            );
        } else {
            let text = std::fs::read_to_string(&source).unwrap();
            std::fs::write(&source, format!("{text}// edit {i}\n")).unwrap();
        }
        git(
            &repo_dir,
            &["commit", "--quiet", "-am", &format!("step {i}")],
        );
        if i == 3 {
            culprit = git(&repo_dir, &["rev-parse", "HEAD"]);
        }
    }
    let head = git(&repo_dir, &["rev-parse", "HEAD"]);
    let history = dir.join("history.sqlite");
    let env = [("CARGO_TARGET_DIR", target.to_str().unwrap())];

    let o = pilot(
        &repo_dir,
        &[
            "bisect",
            &good,
            "HEAD",
            "spin",
            "--exact",
            "--max-time",
            "2",
            // Twice the work at the culprit, none elsewhere: a noise threshold far below the
            // one and far above what a busy machine makes of the same code in two builds.
            "--noise",
            "0.2",
            "--history",
            history.to_str().unwrap(),
        ],
        &env,
    );
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains(&format!("first slower commit: {culprit} step 3")),
        "{}",
        text(&o)
    );
    let steps: usize = out
        .lines()
        .find_map(|l| {
            l.split_once(" steps; measuring")
                .map(|(n, _)| n.parse().unwrap())
        })
        .unwrap_or_else(|| panic!("{}", text(&o)));
    assert!(steps <= 4, "{}", text(&o));
    assert!(out.contains("error rate"), "{out}");
    // The user's tree is untouched.
    assert_eq!(git(&repo_dir, &["rev-parse", "HEAD"]), head);
    assert_eq!(git(&repo_dir, &["status", "--porcelain"]), "");
    // Every measured commit is in the history.
    let h = json_of(&pilot(
        &repo_dir,
        &[
            "history",
            "--all",
            "--format",
            "json",
            "--history",
            history.to_str().unwrap(),
        ],
        &env,
    ));
    let points = h["series"][0]["points"].as_array().unwrap();
    let sources: Vec<&str> = points
        .iter()
        .map(|p| p["source"].as_str().unwrap())
        .collect();
    assert!(
        sources.iter().all(|s| *s == "bisect") && sources.len() >= 2 * steps,
        "{sources:?}"
    );
    assert!(points.iter().any(|p| p["commit"] == culprit.as_str()));
}

#[test]
fn writers_at_once_lose_no_rows() {
    let dir = tmp("writers");
    let commits = repo(&dir, 8);
    for b in backends(&dir, "writers") {
        // Eight writers on a new history at once: they race to create it, then to append.
        let children: Vec<std::process::Child> = commits
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let started = format!("2026-01-01T00:00:{i:02}Z");
                let run = json!({"schema": "pilot.run/1", "results": [
                    result("parse", c, 1000.0, &started), result("sort", c, 500.0, &started)]});
                let file = dir.join(format!("writer-{i}.json"));
                std::fs::write(&file, serde_json::to_vec(&run).unwrap()).unwrap();
                let mut cmd = common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"));
                cmd.args([
                    "history",
                    "add",
                    "--run",
                    file.to_str().unwrap(),
                    "--history",
                ])
                .arg(b.flag())
                .args(["--target-dir", "target"])
                .current_dir(&dir)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped());
                cmd.spawn().unwrap()
            })
            .collect();
        for child in children {
            let o = child.wait_with_output().unwrap();
            assert!(o.status.success(), "{}", text(&o));
        }
        let h = json_of(&pilot(
            &dir,
            &["history", "--format", "json", "--history", &b.flag()],
            &[],
        ));
        for s in h["series"].as_array().unwrap() {
            assert_eq!(s["points"].as_array().unwrap().len(), 8, "{b:?}: {s}");
        }
        assert_eq!(h["series"].as_array().unwrap().len(), 2);
    }
}
