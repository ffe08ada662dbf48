//! What a hostile sweep of the history found (issue 40), each a real `cargo pilot` process: a
//! server that takes the connection and never answers, and one at work on a lock; a location
//! that cannot be a history (empty, an unknown scheme, a device, a folder, a malformed URL),
//! refused before anything is measured; a password in every form libpq takes, never shown; a
//! database of something else, left as it was; and Ctrl-C during `bisect`'s build, which
//! leaves no compiler or build script behind.
//!
//! The waits are bounded far above what a run needs, so that only a hang reaches a bound.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::*;

/// `cargo pilot ARGS` in `dir`, started with its output piped, no `PILOT_*` of the outer
/// environment but `env`.
fn spawn(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Child {
    let mut cmd = common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"));
    cmd.args(args)
        .current_dir(dir)
        .env_remove("CI")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.spawn().unwrap()
}

/// `child`'s output once it ends; a child still running after `limit` (a bound far above
/// what it needs: only a hang reaches it) is killed, and the test fails.
fn finish_within(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let o = child.wait_with_output().unwrap();
            panic!("still running after {limit:?}:\n{}", text(&o));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// Sends `signal` (`INT`, `TERM`) to process `pid` alone.
fn signal(pid: u32, signal: &str) {
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

/// Waits until `path` exists, up to `limit`.
fn wait_for(path: &Path, limit: Duration) {
    let start = Instant::now();
    while !path.exists() {
        assert!(
            start.elapsed() < limit,
            "`{}` never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `cargo pilot run` of `true` with its results under `out`, into the history `location`.
fn run_args<'a>(out: &'a Path, location: &'a str) -> Vec<&'a str> {
    let mut args = run_without_flag(out);
    args.splice(1..1, ["--history", location]);
    args
}

/// `cargo pilot run` of `true` with its results under `out`, the history left to
/// `PILOT_HISTORY` and the default.
fn run_without_flag(out: &Path) -> Vec<&str> {
    vec![
        "run",
        "--max-time",
        "0.3",
        "--out",
        out.to_str().unwrap(),
        // `true` run directly: through a shell it is shorter than the shell's start-up.
        "-N",
        "-n",
        "nothing",
        "true",
    ]
}

/// Where `cargo pilot run -n nothing --out out` saves its result.
fn saved(out: &Path) -> PathBuf {
    out.join("pilot/results/run.programs/nothing.json")
}

/// A server on the loopback that takes connections and never answers, as a stopped
/// PostgreSQL server or a stuck proxy does. With `start`, it first answers each connection's
/// start-up and its first query (`SELECT pg_backend_pid()`) as PostgreSQL would, so that the
/// statement after it is the one never answered. Its port, and a receiver told of each
/// connection.
fn frozen_server(start: bool) -> (u16, mpsc::Receiver<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let _ = tx.send(());
            std::thread::spawn(move || hold(stream, start));
        }
    });
    (port, rx)
}

/// Takes what the client sends, answering nothing (but the start-up, with `start`), until it
/// goes.
fn hold(mut s: TcpStream, start: bool) {
    if start && answer_start(&mut s).is_err() {
        return;
    }
    let mut sink = [0u8; 4096];
    while matches!(s.read(&mut sink), Ok(n) if n > 0) {}
}

/// One message of PostgreSQL's protocol: its type, length and body.
fn message(kind: u8, body: &[u8]) -> Vec<u8> {
    let mut m = vec![kind];
    m.extend(u32::try_from(body.len() + 4).unwrap().to_be_bytes());
    m.extend(body);
    m
}

/// Reads a message's length and body (its type byte read already, or none: the start-up).
fn read_body(s: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let mut len = [0u8; 4];
    s.read_exact(&mut len)?;
    let mut body = vec![0u8; (u32::from_be_bytes(len) as usize).saturating_sub(4)];
    s.read_exact(&mut body)?;
    Ok(body)
}

/// Answers the start-up (authenticated, ready) and the first simple query with one row,
/// `4242`, as PostgreSQL answers `SELECT pg_backend_pid()`.
fn answer_start(s: &mut TcpStream) -> std::io::Result<()> {
    read_body(s)?;
    s.write_all(&[message(b'R', &0u32.to_be_bytes()), message(b'Z', b"I")].concat())?;
    let mut kind = [0u8; 1];
    s.read_exact(&mut kind)?;
    read_body(s)?;
    let mut field = b"pg_backend_pid\0".to_vec();
    field.extend(0u32.to_be_bytes()); // no table
    field.extend(0u16.to_be_bytes()); // no column
    field.extend(23u32.to_be_bytes()); // int4
    field.extend(4i16.to_be_bytes());
    field.extend((-1i32).to_be_bytes());
    field.extend(0u16.to_be_bytes()); // text
    let columns = [1u16.to_be_bytes().to_vec(), field].concat();
    let row = [
        1u16.to_be_bytes().to_vec(),
        4u32.to_be_bytes().to_vec(),
        b"4242".to_vec(),
    ]
    .concat();
    s.write_all(
        &[
            message(b'T', &columns),
            message(b'D', &row),
            message(b'C', b"SELECT 1\0"),
            message(b'Z', b"I"),
        ]
        .concat(),
    )
}

/// `cargo pilot history --all --format json` of the history at `location`, parsed.
fn all_runs(dir: &Path, location: &str) -> Value {
    json_of(&pilot(
        dir,
        &[
            "history",
            "--all",
            "--format",
            "json",
            "--history",
            location,
        ],
        &[],
    ))
}

/// A server that never answers the connection, or answers it and then never a statement, is
/// given up within twice its `connect_timeout`; the run's results are on disk, with the
/// `history add` hint.
#[test]
fn a_frozen_server_is_given_up() {
    let dir = tmp("frozen");
    // The answered start-up has a limit a busy machine meets, so that the statement is the
    // one given up.
    for (start, limit, says) in [
        (false, 1, "no answer from the history database"),
        (
            true,
            3,
            "has not answered a statement in 3 s, nor a new connection in 3 s more",
        ),
    ] {
        let out = dir.join(format!("results-{start}"));
        let (port, _) = frozen_server(start);
        let url = format!("postgres://pilot@127.0.0.1:{port}/pilot?connect_timeout={limit}");
        let o = finish_within(
            spawn(&dir, &run_args(&out, &url), &[]),
            Duration::from_secs(60),
        );
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{err}");
        assert!(err.contains("cargo pilot history add"), "{err}");
        assert!(saved(&out).is_file(), "{}", text(&o));
    }
}

/// One SIGINT or SIGTERM ends a wait for a frozen server (while connecting, and while a
/// statement waits), whatever its limit: exit 130, the results on disk, the hint said.
#[test]
fn one_signal_ends_a_wait_for_the_history() {
    let dir = tmp("frozen-signal");
    for start in [false, true] {
        for sig in ["INT", "TERM"] {
            let out = dir.join(format!("results-{start}-{sig}"));
            let (port, connected) = frozen_server(start);
            // The default limit, far longer than this test waits.
            let url = format!("postgres://pilot:hunter2@127.0.0.1:{port}/pilot");
            let child = spawn(&dir, &run_args(&out, &url), &[]);
            connected
                .recv_timeout(Duration::from_secs(120))
                .expect("the run reached the history");
            std::thread::sleep(Duration::from_millis(300));
            signal(child.id(), sig);
            let o = finish_within(child, Duration::from_secs(20));
            assert_eq!(o.status.code(), Some(130), "{sig}: {}", text(&o));
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(
                err.contains("interrupted while") && err.contains("cargo pilot history add"),
                "{err}"
            );
            assert!(!err.contains("hunter2"), "{err}");
            assert!(saved(&out).is_file(), "{}", text(&o));
        }
    }
}

/// A live database that takes long (another session holds the lock pilot's statement
/// needs) is waited for past the connection's limit, and the run is added once the lock
/// goes; while it waits, one signal ends the command.
#[test]
fn a_database_at_work_is_waited_for() {
    let dir = tmp("at-work");
    for b in backends(&dir, "at_work") {
        // The history made, then locked by another session.
        add(&dir, &b, "c0", &[("parse", 1000.0)], 0, &[]);
        let hold = || -> Box<dyn FnOnce()> {
            match &b {
                Backend::Sqlite(p) => {
                    let c = rusqlite::Connection::open(p).unwrap();
                    c.execute_batch("BEGIN IMMEDIATE").unwrap();
                    Box::new(move || c.execute_batch("COMMIT").unwrap())
                }
                Backend::Postgres(url) => {
                    let mut c = postgres::Client::connect(url, postgres::NoTls).unwrap();
                    c.batch_execute("BEGIN; LOCK TABLE runs IN ACCESS EXCLUSIVE MODE")
                        .unwrap();
                    Box::new(move || c.batch_execute("COMMIT").unwrap())
                }
            }
        };
        // PostgreSQL's limit short, so that the wait outlasts it twice (each time, the look at
        // the server's state on a new connection has the limit too: a busy machine meets it).
        let (location, wait) = match &b {
            Backend::Sqlite(p) => (p.display().to_string(), 2),
            Backend::Postgres(url) => (format!("{url}?connect_timeout=5"), 12),
        };
        for interrupt in [false, true] {
            let out = dir.join(format!("results-{interrupt}"));
            let _ = std::fs::remove_dir_all(&out);
            let release = hold();
            let child = spawn(&dir, &run_args(&out, &location), &[]);
            wait_for(&saved(&out), Duration::from_secs(120));
            std::thread::sleep(Duration::from_secs(wait));
            if interrupt {
                signal(child.id(), "INT");
                let o = finish_within(child, Duration::from_secs(20));
                release();
                assert_eq!(o.status.code(), Some(130), "{b:?}: {}", text(&o));
                let err = String::from_utf8_lossy(&o.stderr);
                assert!(err.contains("cargo pilot history add"), "{err}");
            } else {
                release();
                let o = finish_within(child, Duration::from_secs(60));
                assert_eq!(o.status.code(), Some(0), "{b:?}: {}", text(&o));
                let err = String::from_utf8_lossy(&o.stderr);
                assert!(err.contains("history: 1 result added"), "{err}");
                if matches!(b, Backend::Postgres(_)) {
                    assert!(
                        err.contains("has not answered in 5 s, but it is alive"),
                        "{err}"
                    );
                }
            }
        }
        let h = all_runs(&dir, &b.flag());
        let of = |name: &str| {
            h["series"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|s| s["bench"] == name)
                .map(|s| s["points"].as_array().unwrap().len())
                .sum::<usize>()
        };
        assert_eq!((of("parse"), of("nothing")), (1, 1), "{b:?}: {h}");
    }
}

/// Every location that cannot be a history is a usage error, for the flag and the variable,
/// said before anything is measured and with nothing made: an empty flag (SQLite would open a
/// temporary database and lose the run), an unknown scheme (made into folders), a device, a
/// folder, a FIFO, links to them, a malformed PostgreSQL URL. A scheme's case does not matter,
/// and an empty variable counts as unset.
#[cfg(unix)]
#[test]
fn a_location_that_cannot_be_a_history_is_refused_before_the_run() {
    let dir = tmp("refused-locations");
    let fifo = dir.join("fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let folder = dir.join("folder");
    std::fs::create_dir(&folder).unwrap();
    std::os::unix::fs::symlink("/dev/null", dir.join("to-null")).unwrap();
    std::os::unix::fs::symlink(dir.join("nowhere"), dir.join("dangling")).unwrap();
    let journal_before = Path::new("/dev/null-journal").exists();
    let out = dir.join("results");
    for (location, says) in [
        ("", "--history is empty"),
        ("  ", "--history is empty"),
        ("postgress://pilot@127.0.0.1:1/x", "scheme `postgress`"),
        ("sqlite:///tmp/h.sqlite", "given by its path"),
        ("POSTGRES:/127.0.0.1:1/x", "starts `postgres://`"),
        ("/dev/null", "`/dev/null` is a device"),
        (folder.to_str().unwrap(), "is a folder"),
        (fifo.to_str().unwrap(), "is a FIFO"),
        (
            "to-null",
            "`to-null` is a symbolic link to `/dev/null`, which is a device",
        ),
        ("dangling", "`dangling` is a symbolic link"),
        (
            "postgres://pilot@127.0.0.1:99999/x",
            "invalid value for option `port`",
        ),
        ("postgres:///x", "names no host"),
    ] {
        let o = pilot(&dir, &run_args(&out, location), &[]);
        assert_eq!(o.status.code(), Some(2), "`{location}`: {}", text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "`{location}`: {err}");
        assert!(!out.exists(), "`{location}`: measured before refusing");
    }
    // Nothing was made: no folders of a URL's parts, no journal beside a device.
    let mut made: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    made.sort();
    assert_eq!(made, ["dangling", "fifo", "folder", "to-null"]);
    assert!(std::fs::read_dir(&folder).unwrap().next().is_none());
    let journal = Path::new("/dev/null-journal");
    if journal.exists() && !journal_before {
        let _ = std::fs::remove_file(journal);
        panic!("a journal was made beside /dev/null");
    }
    // The variable: named in the message; empty, it is unset and the default keeps the run.
    let o = pilot(
        &dir,
        &run_without_flag(&out),
        &[("PILOT_HISTORY", "postgress://127.0.0.1:1/x")],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("PILOT_HISTORY `postgress://"),
        "{}",
        text(&o)
    );
    let o = pilot(&dir, &run_without_flag(&out), &[("PILOT_HISTORY", "")]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(out.join("pilot/history.sqlite").is_file(), "{}", text(&o));
    // A scheme in capitals is PostgreSQL's (refused here for its closed port), not a path.
    let o = pilot(&dir, &run_args(&out, "POSTGRES://pilot@127.0.0.1:1/x"), &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("cannot connect to the history database `POSTGRES://pilot@127.0.0.1:1/x`"),
        "{}",
        text(&o)
    );
    assert!(!dir.join("POSTGRES:").exists());
    // A link to a regular file is followed: the history is the file's.
    let real = dir.join("real.sqlite");
    std::os::unix::fs::symlink(&real, dir.join("link.sqlite")).unwrap();
    add(
        &dir,
        &Backend::Sqlite(real.clone()),
        "c0",
        &[("parse", 1.0)],
        0,
        &[],
    );
    add(
        &dir,
        &Backend::Sqlite(dir.join("link.sqlite")),
        "c0",
        &[("sort", 1.0)],
        1,
        &[],
    );
    let h = all_runs(&dir, real.to_str().unwrap());
    assert_eq!(h["series"].as_array().unwrap().len(), 2, "{h}");
    assert!(
        std::fs::symlink_metadata(dir.join("link.sqlite"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    // Every command reads the location alike.
    for args in [
        vec!["history", "--history", ""],
        vec!["changes", "--history", ""],
        vec!["history", "add", "--history", "", "--target-dir", "target"],
        vec![
            "report",
            "--results",
            out.to_str().unwrap(),
            "--history",
            "",
        ],
    ] {
        let o = pilot(&dir, &args, &[]);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("--history is empty"),
            "{args:?}: {}",
            text(&o)
        );
    }
}

/// No message holds a password, in any form libpq takes it: the URL's user information, a
/// query parameter (its key percent-encoded too), a `key=value` word quoted or not; from
/// every command that names the history, whether it cannot be reached or cannot be read.
#[test]
fn no_message_holds_a_password() {
    let dir = tmp("passwords");
    let out = dir.join("results");
    // Results to add and to report.
    let o = pilot(&dir, &run_args(&out, "off"), &[]);
    assert!(o.status.success(), "{}", text(&o));
    let leaked = |o: &Output| {
        let all = text(o);
        all.contains("hunter") || all.contains("hun%74er")
    };
    for location in [
        "postgres://pilot:hunter2@127.0.0.1:1/pilot",
        "postgres://pilot:hun%74er2@127.0.0.1:1/pilot",
        "postgresql://127.0.0.1:1/x?user=pilot&password=hunter2",
        "postgresql://127.0.0.1:1/x?user=pilot&pass%77ord=hunter2",
        "host=127.0.0.1 port=1 user=pilot password=hunter2",
        "host=127.0.0.1 port=1 user=pilot password='hunter 2'",
    ] {
        // Cannot be reached: each command says so, naming the history.
        for args in [
            run_args(&out, location),
            vec!["history", "--history", location],
            vec!["changes", "--history", location],
            vec![
                "history",
                "add",
                "--history",
                location,
                "--target-dir",
                out.to_str().unwrap(),
            ],
            vec![
                "report",
                "--results",
                out.to_str().unwrap(),
                "--history",
                location,
            ],
        ] {
            let o = pilot(&dir, &args, &[]);
            assert!(!leaked(&o), "{args:?}: {}", text(&o));
            assert!(
                String::from_utf8_lossy(&o.stderr)
                    .contains("cannot connect to the history database"),
                "{args:?}: {}",
                text(&o)
            );
        }
    }
    // Malformed: a usage error, the password hidden all the same.
    for location in [
        "postgres://pilot:hunter2@127.0.0.1:99999/pilot",
        "postgresql://127.0.0.1:1/x?password=hunter2&nope=1",
        "host=127.0.0.1 password='hunter2",
        "postgress://pilot:hunter2@127.0.0.1/x",
    ] {
        let o = pilot(&dir, &run_args(&out, location), &[]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(!leaked(&o), "{}", text(&o));
    }
}

/// A SQLite database of another application is refused unchanged: its bytes, its journal
/// mode (rollback or WAL), and no `-wal`, `-shm` or `-journal` file left beside it.
#[test]
fn a_foreign_sqlite_database_is_left_as_it_was() {
    let dir = tmp("foreign");
    let run = dir.join("run.json");
    let doc = json!({"schema": "pilot.run/1", "results": [
        result("parse", "c0", 1000.0, "2026-01-01T00:00:00Z")]});
    std::fs::write(&run, serde_json::to_vec(&doc).unwrap()).unwrap();
    for mode in ["delete", "wal"] {
        let db = dir.join(format!("{mode}.sqlite"));
        {
            let c = rusqlite::Connection::open(&db).unwrap();
            c.pragma_update(None, "journal_mode", mode).unwrap();
            c.execute_batch(
                "CREATE TABLE customers (id INTEGER); INSERT INTO customers VALUES (1)",
            )
            .unwrap();
        }
        let before = std::fs::read(&db).unwrap();
        let flag = db.to_str().unwrap();
        for args in [
            vec![
                "history",
                "add",
                "--run",
                run.to_str().unwrap(),
                "--history",
                flag,
                "--target-dir",
                "target",
            ],
            vec!["history", "--history", flag],
            vec!["changes", "--history", flag],
        ] {
            let o = pilot(&dir, &args, &[]);
            assert_eq!(o.status.code(), Some(1), "{args:?}: {}", text(&o));
            assert!(
                String::from_utf8_lossy(&o.stderr).contains("something other than a pilot history"),
                "{}",
                text(&o)
            );
        }
        assert!(
            std::fs::read(&db).unwrap() == before,
            "{mode}: its bytes changed"
        );
        for beside in ["-wal", "-shm", "-journal"] {
            let f = dir.join(format!("{mode}.sqlite{beside}"));
            assert!(!f.exists(), "`{}` was left", f.display());
        }
        let c = rusqlite::Connection::open(&db).unwrap();
        let now: String = c
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(now, mode);
    }
}

/// SIGINT to `cargo pilot bisect` alone while cargo builds (a build script running) ends the
/// command with 130, and no process of the build outlives it: cargo runs in a group of its
/// own, which the interrupt reaches whole.
#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_bisect_build_leaves_no_process() {
    let dir = tmp("bisect-sigint");
    let repo_dir = dir.join("repo");
    copy_fixture(&repo_dir);
    // A build script that says its process id and then takes long.
    std::fs::write(
        repo_dir.join("build.rs"),
        "fn main() {\n    if let Some(f) = std::env::var_os(\"FIXTURE_BUILD_PID\") {\n        \
         std::fs::write(f, std::process::id().to_string()).unwrap();\n        \
         std::thread::sleep(std::time::Duration::from_secs(300));\n    }\n}\n",
    )
    .unwrap();
    edit(
        &repo_dir.join("Cargo.toml"),
        "edition = \"2024\"",
        "edition = \"2024\"\nbuild = \"build.rs\"",
    );
    git(&repo_dir, &["init", "--quiet", "--initial-branch=main"]);
    git(&repo_dir, &["add", "-A"]);
    git(&repo_dir, &["commit", "--quiet", "-m", "base"]);
    let good = git(&repo_dir, &["rev-parse", "HEAD"]);
    git(
        &repo_dir,
        &["commit", "--quiet", "--allow-empty", "-m", "next"],
    );
    let pid_file = dir.join("build-script.pid");
    // pilot and its dependencies built by an earlier bisect: the fixture's build script runs
    // soon.
    let (_one_bisect, target) = bisect_target();
    let child = spawn(
        &repo_dir,
        &["bisect", &good, "HEAD", "--history", "off"],
        &[
            ("CARGO_TARGET_DIR", target.to_str().unwrap()),
            ("FIXTURE_BUILD_PID", pid_file.to_str().unwrap()),
        ],
    );
    wait_for(&pid_file, Duration::from_secs(300));
    let script: u32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    signal(child.id(), "INT");
    let o = finish_within(child, Duration::from_secs(60));
    // Alive: there, and not a zombie waiting to be reaped.
    let alive = std::fs::read_to_string(format!("/proc/{script}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit_once(')')
                .map(|(_, rest)| rest.trim_start().chars().next())
        })
        .flatten()
        .is_some_and(|state| state != 'Z' && state != 'X');
    if alive {
        let _ = Command::new("kill")
            .args(["-KILL", &script.to_string()])
            .status();
    }
    assert!(
        !alive,
        "the build script outlived the command: {}",
        text(&o)
    );
    assert_eq!(o.status.code(), Some(130), "{}", text(&o));
}
