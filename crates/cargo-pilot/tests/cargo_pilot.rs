//! End-to-end tests of `cargo pilot bench`, `compare` and `list`: the real binary on the fixture
//! workspace `tests/fixture-bench`, whose bench cost is set by `PILOT_FIXTURE_COST`.
//!
//! One test walks through a team's use in order (save a baseline, compare, catch a slowdown,
//! see benches come and go, survive broken files, run twice at once), because every step needs
//! the fixture built and the results of the steps before it. The fixture builds into its own
//! target directory under cargo's `CARGO_TARGET_TMPDIR`, so the outer `cargo test` does not
//! hold its lock.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

mod common;

fn manifest() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixture-bench/Cargo.toml")
}

fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixture-bench")
}

/// `cargo pilot ARGS` on the fixture, with the fixture's cost, its results in the test's
/// target directory and its build in the fixtures' shared one; no `PILOT_` setting of the
/// caller's reaches it.
fn command(args: &[&str], cost: &str) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cargo-pilot"));
    cmd.arg("pilot")
        .args(args)
        .arg("--manifest-path")
        .arg(manifest())
        .env("CARGO_TARGET_DIR", target_dir())
        .env("CARGO_BUILD_BUILD_DIR", common::fixture_build_dir())
        .env("CI", "1");
    for (k, _) in std::env::vars() {
        if k.starts_with("PILOT_") {
            cmd.env_remove(k);
        }
    }
    cmd.env("PILOT_FIXTURE_COST", cost);
    cmd
}

/// `cargo pilot ARGS` on the fixture, with the fixture's cost, run to its end.
fn pilot(args: &[&str], cost: &str, envs: &[(&str, &str)]) -> Output {
    let mut cmd = command(args, cost);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// Short sessions: three processes of a capped session each (two when a busy machine slows
/// their start-up past the cap).
const QUICK: &[&str] = &["--max-time", "1.5", "--ci", "0.05", "--processes", "3"];

fn bench(extra: &[&str], cost: &str) -> Output {
    let mut args = vec!["bench"];
    args.extend_from_slice(extra);
    args.extend_from_slice(QUICK);
    pilot(&args, cost, &[])
}

fn text(o: &Output) -> String {
    format!(
        "{}\n--- stderr ---\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn baseline_file(name: &str, bench: &str) -> PathBuf {
    target_dir()
        .join("pilot/baselines")
        .join(name)
        .join("cost")
        .join(format!("{bench}.json"))
}

fn compare_json(args: &[&str]) -> (Option<i32>, Value, String) {
    let mut all = vec!["compare"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let o = pilot(&all, "1", &[]);
    let doc = serde_json::from_slice(&o.stdout).unwrap_or(Value::Null);
    (o.status.code(), doc, text(&o))
}

fn verdicts(doc: &Value) -> Vec<(String, String)> {
    doc["benches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["name"].as_str().unwrap().to_string(),
                b["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The history keeps the digest of the code the executable that ran the benches loads: what
/// `tests/fixtures/loaded_digest.py`, written apart from cargo-pilot, computes for a `cost`
/// bench executable cargo built.
fn assert_executable_recorded() {
    let history = target_dir().join("pilot/history.sqlite");
    let c = rusqlite::Connection::open(&history).unwrap();
    let mut q = c
        .prepare("SELECT DISTINCT executable FROM results")
        .unwrap();
    let recorded: Vec<Option<String>> = q
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(
        recorded.len(),
        1,
        "one executable ran both benches: {recorded:?}"
    );
    let recorded = recorded[0].clone().expect("a digest");
    let mut built = Vec::new();
    let mut dirs = vec![common::fixture_build_dir()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().map(Result::unwrap) {
            let (path, name) = (e.path(), e.file_name().to_string_lossy().into_owned());
            if e.file_type().unwrap().is_dir() {
                dirs.push(path);
            } else if name.starts_with("cost-") && !name.contains('.') {
                let script =
                    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/loaded_digest.py");
                let o = Command::new("python3")
                    .arg(script)
                    .arg(&path)
                    .output()
                    .unwrap();
                assert!(o.status.success(), "{}", text(&o));
                built.push(String::from_utf8_lossy(&o.stdout).trim().to_string());
            }
        }
    }
    assert!(built.contains(&recorded), "{recorded} not in {built:?}");
}

// One long function on purpose: its numbered steps are one team's story on one fixture
// workspace, each step starting from what the last left on disk (baselines, results, progress).
#[test]
fn a_team_keeps_baselines_and_catches_regressions() {
    let _ = std::fs::remove_dir_all(target_dir().join("pilot"));

    // 1. Save a baseline: both benches run, one table across targets, files on disk.
    let o = bench(&["--save-baseline", "base"], "1");
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("cost/spin") && out.contains("cost/units"),
        "{out}"
    );
    assert!(out.contains("saved as baseline `base`"), "{out}");
    // Every run goes into the history (target/pilot/history.sqlite by default).
    assert!(out.contains("history: 2 results added to `"), "{out}");
    assert_executable_recorded();
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(baseline_file("base", "spin")).unwrap())
            .unwrap();
    assert_eq!(saved["schema"], "pilot.result/1");
    assert!(saved["processes"]["count"].as_u64().unwrap() >= 2);

    // 2. Four times the work. Whether three processes a side make it significant on a busy
    //    machine is the machine's to decide (the verdict's rule is tested on fixed estimates
    //    in the engine's `compare` tests and against scipy); what any run shows is a
    //    comparison that says how it was made, verdicts that point the right way (four times
    //    the work is far beyond what a neighbour moves), and an exit code that follows them.
    let o = bench(&["--baseline", "base", "--save-baseline", "slow"], "4");
    let out = text(&o);
    assert!(out.contains("compared with baseline `base`"), "{out}");
    assert!(common::welch_over_processes(&out, 2), "{out}");
    let bench_code = o.status.code();
    assert!([Some(0), Some(3)].contains(&bench_code), "{out}");

    // 3. `compare` on saved baselines: JSON, Markdown and the exit code, both ways round.
    let (code, doc, out) = compare_json(&["base", "slow"]);
    assert_eq!(doc["schema"], "pilot.compare/1");
    let forward = verdicts(&doc);
    assert_eq!(forward.len(), 2, "{out}");
    for b in doc["benches"].as_array().unwrap() {
        let verdict = b["verdict"].as_str().unwrap();
        assert!(["regressed", "undecided"].contains(&verdict), "{out}");
        let change = b["change"].as_f64().unwrap();
        assert!(change > 0.0, "four times the work is slower: {out}");
        if let Some(ci) = b["change_ci"].as_object() {
            assert!(ci["low"].as_f64().unwrap() <= change);
            assert!(change <= ci["high"].as_f64().unwrap());
        }
        let p = b["p"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p), "{out}");
        // The suite's rule decides on the adjusted p; a change it finds significant may still
        // be undecided when a side's processes split into speeds, and the method says why.
        let adjusted = b["p_adjusted"].as_f64().unwrap_or(p);
        if verdict == "regressed" {
            assert!(adjusted < 0.01, "{out}");
        } else {
            let method = b["method"].as_str().unwrap();
            assert!(adjusted >= 0.01 || method.contains("undecided: "), "{out}");
        }
    }
    let any_regressed = forward.iter().any(|(_, v)| v == "regressed");
    assert_eq!(code, Some(if any_regressed { 3 } else { 0 }), "{out}");
    // The run compared the same two sides as this `compare` does, and ended the same way.
    assert_eq!(bench_code, code, "{out}");
    // The other way round, each regression is an improvement (the test is symmetric), and
    // an improvement is no reason to fail.
    let (code, doc, out) = compare_json(&["slow", "base"]);
    assert_eq!(code, Some(0), "{out}");
    let backward = verdicts(&doc);
    for ((name, there), (back_name, back)) in forward.iter().zip(&backward) {
        assert_eq!(name, back_name, "{out}");
        let mirrored = match there.as_str() {
            "regressed" => "improved",
            other => other,
        };
        assert_eq!(
            back, mirrored,
            "{name}: {there} one way, {back} the other\n{out}"
        );
    }
    let o = pilot(&["compare", "base", "slow", "--format", "md"], "1", &[]);
    let md = text(&o);
    assert!(md.contains("| bench | baseline | new |"), "{md}");
    assert_eq!(md.contains("**regressed**"), any_regressed, "{md}");
    // NEW defaults to the latest results: those of the slow run.
    let (code, doc, out) = compare_json(&["base"]);
    assert_eq!(code, Some(if any_regressed { 3 } else { 0 }), "{out}");
    assert_eq!(verdicts(&doc), forward, "{out}");

    // 4. A bench added (feature `extra`) is "new"; compared the other way round, "missing".
    let o = bench(&["--features", "extra", "--save-baseline", "extra"], "1");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let (_, doc, out) = compare_json(&["base", "extra"]);
    assert!(
        verdicts(&doc).contains(&("extra".into(), "new".into())),
        "{out}"
    );
    let (_, doc, out) = compare_json(&["extra", "base"]);
    assert!(
        verdicts(&doc).contains(&("extra".into(), "missing".into())),
        "{out}"
    );

    // 5. A missing baseline names the ones that exist, and nothing runs.
    let o = pilot(&["bench", "--baseline", "mian"], "1", &[]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("no baseline `mian`"), "{out}");
    assert!(out.contains("saved baselines: base, extra, slow"), "{out}");
    assert!(!out.contains("Compiling"), "nothing is built: {out}");

    // 6. Broken files: truncated, not JSON, a newer schema. Each names the file and the
    //    problem, exits 1, and is left as it was.
    let file = baseline_file("extra", "spin");
    let good = std::fs::read_to_string(&file).unwrap();
    for (broken, expect) in [
        (good[..good.len() / 2].to_string(), "truncated"),
        ("not json".to_string(), "malformed JSON"),
        (
            good.replace("pilot.result/1", "pilot.result/7"),
            "written by a newer pilot",
        ),
    ] {
        std::fs::write(&file, &broken).unwrap();
        let (code, _, out) = compare_json(&["extra", "base"]);
        assert_eq!(code, Some(1), "{out}");
        assert!(out.contains("spin.json") && out.contains(expect), "{out}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), broken);
    }
    std::fs::write(&file, &good).unwrap();

    // 7. A bench that panics fails the run (exit 1); the other bench still runs.
    let o = pilot(
        &["bench", "--max-time", "0.5", "--ci", "0.1"],
        "1",
        &[("PILOT_FIXTURE_PANIC", "1")],
    );
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("FAILED"), "{out}");
    assert!(out.contains("the fixture was asked to fail"), "{out}");
    assert!(out.contains("cost/spin"), "{out}");

    // 8. `list`: every bench with its latest result, and after them the result of `extra`,
    // which is not built without its feature.
    let o = pilot(&["list"], "1", &[]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("cost/spin") && out.contains("cost/units"),
        "{out}"
    );
    let extra = out
        .lines()
        .find(|l| l.starts_with("cost/extra"))
        .unwrap_or_default();
    assert!(extra.contains("(not built now"), "{out}");
    assert!(out.contains("3 benches"), "{out}");
    let o = pilot(&["list", "--features", "extra"], "1", &[]);
    let out = text(&o);
    let extra = out
        .lines()
        .find(|l| l.starts_with("cost/extra"))
        .unwrap_or_default();
    assert!(
        extra.ends_with("pilot-fixture") && !extra.contains("(not built now"),
        "{out}"
    );

    // 9. Usage errors name the flag and exit 2.
    let o = pilot(&["bench", "--noise", "5"], "1", &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--noise"));
    let o = pilot(&["bench", "--ci", "2"], "1", &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("'--ci <X>': `2` must be strictly between 0 and 1"));
    // Bad names and times are refused before anything is built, and nothing claims a save.
    for bad in [
        &["bench", "--save-baseline", "a/b"][..],
        &["bench", "--save-baseline", "../../etc"],
        &["bench", "--baseline", ""],
        &["bench", "--max-time", "1e99"],
        &["bench", "--min-time", "3", "--max-time", "1"],
    ] {
        let o = pilot(bad, "1", &[]);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", text(&o));
        assert!(!text(&o).contains("saved as baseline"), "{}", text(&o));
        assert!(
            !text(&o).contains("Compiling"),
            "{bad:?} built: {}",
            text(&o)
        );
    }

    // 10. Two runs at once on one target directory: both finish, every file is whole.
    let spawn = || {
        let mut args = vec!["bench", "--save-baseline", "twice"];
        args.extend_from_slice(QUICK);
        command(&args, "1")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap()
    };
    let history_runs = || {
        let o = pilot(&["history", "spin", "--all", "--format", "json"], "1", &[]);
        let doc: Value =
            serde_json::from_slice(&o.stdout).unwrap_or_else(|_| panic!("{}", text(&o)));
        doc["series"][0]["points"].as_array().unwrap().len()
    };
    let before = history_runs();
    let (mut a, mut b) = (spawn(), spawn());
    assert!(a.wait().unwrap().success() && b.wait().unwrap().success());
    // Both appended to the history: no run lost to the other's write.
    assert_eq!(history_runs(), before + 2);
    let read =
        |dir: &str| pilot_engine::store::read_dir(&target_dir().join("pilot").join(dir)).unwrap();
    assert_eq!(read("baselines/twice/cost").len(), 2);
    // spin and units, and extra from step 4.
    assert_eq!(read("results/cost").len(), 3);

    // 11. Ctrl-C (SIGINT to cargo pilot alone, as a CI runner cancelling a job sends it) once
    // `spin` is done: exit 130, a message saying how to go on, and `--resume` measures only
    // `units`.
    #[cfg(unix)]
    {
        let progress = target_dir().join("pilot/runs/cost.json");
        let _ = std::fs::remove_file(&progress);
        // Targets too narrow to meet, and a least time of the whole cap: each bench runs its
        // 3 s (out of reach or not), so `units` is still running when the signal comes.
        let long = [
            "--min-time",
            "3",
            "--max-time",
            "3",
            "--ci",
            "0.0001",
            "--processes",
            "1",
        ];
        let child = spawn_bench(&long);
        let spin_done = || {
            std::fs::read_to_string(&progress)
                .ok()
                .and_then(|t| serde_json::from_str::<Value>(&t).ok())
                .is_some_and(|p| {
                    p["done"]
                        .as_array()
                        .is_some_and(|d| d.contains(&"spin".into()))
                })
        };
        let o = signal_when(child, spin_done, "-INT");
        let out = text(&o);
        assert_eq!(o.status.code(), Some(130), "{out}");
        assert!(
            out.contains("interrupted: the benches finished so far are saved"),
            "{out}"
        );
        assert!(out.contains("cargo pilot bench --resume"), "{out}");

        let mut args = vec!["bench", "--resume"];
        args.extend(long);
        let o = pilot(&args, "1", &[]);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(0), "{out}");
        assert!(out.contains("resuming an interrupted run"), "{out}");
        assert!(out.contains("0 targets already done"), "{out}");
        assert!(out.contains("1 bench already done"), "{out}");
        assert!(
            out.contains("spin: finished by the interrupted run"),
            "{out}"
        );
        assert!(
            out.contains("cost/spin") && out.contains("cost/units"),
            "{out}"
        );
        // Resumed once, the run is finished: nothing is left to resume.
        let o = pilot(
            &["bench", "--resume", "--quick", "spin", "--exact"],
            "1",
            &[],
        );
        assert!(text(&o).contains("nothing to resume"), "{}", text(&o));

        // 12. SIGTERM to cargo pilot (a job runner stopping it): passed on like Ctrl-C, so no
        // bench binary is left running as an orphan that goes on measuring and writing.
        #[cfg(target_os = "linux")]
        sigterm_leaves_no_orphan(&long);
    }
}

#[cfg(target_os = "linux")]
fn sigterm_leaves_no_orphan(long: &[&str]) {
    let child = spawn_bench(long);
    let o = signal_when(child, || !bench_processes().is_empty(), "-TERM");
    let out = text(&o);
    assert_eq!(o.status.code(), Some(130), "{out}");
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(
        bench_processes(),
        Vec::<String>::new(),
        "orphaned bench binaries"
    );
}

/// `cargo pilot bench` on the fixture with `args`, started in the background.
#[cfg(unix)]
fn spawn_bench(args: &[&str]) -> std::process::Child {
    let mut all = vec!["bench"];
    all.extend_from_slice(args);
    command(&all, "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Sends `signal` to `child` once `ready` holds (and a moment more), and waits for it.
#[cfg(unix)]
fn signal_when(child: std::process::Child, ready: impl Fn() -> bool, signal: &str) -> Output {
    let start = std::time::Instant::now();
    while !ready() {
        assert!(start.elapsed().as_secs() < 60, "never ready for {signal}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let killed = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    child.wait_with_output().unwrap()
}

/// Processes running a bench binary of the fixture for this test (its results under its target
/// directory).
#[cfg(target_os = "linux")]
fn bench_processes() -> Vec<String> {
    // The fixture's bench binaries run from the build directory the tests share; this test's
    // are the ones whose results go to its target directory.
    let exe = common::fixture_build_dir().display().to_string();
    let ours = format!("CARGO_TARGET_DIR={}", target_dir().display());
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| {
            std::fs::read(e.path().join("environ"))
                .is_ok_and(|env| env.split(|&b| b == 0).any(|v| v == ours.as_bytes()))
        })
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.starts_with(&exe) && c.contains("--bench"))
        .collect()
}

/// `--cache-sim` means nothing without `--instructions`: a usage error naming both, found
/// before anything is built or measured, even where no Valgrind (nor cargo) can be found.
#[test]
fn cache_sim_without_instructions_is_a_usage_error() {
    let nothing = tempfile::tempdir().unwrap();
    let path = nothing.path().to_str().unwrap();
    for args in [
        &["bench", "--cache-sim"][..],
        &["bench", "--cache-sim", "--against", "HEAD~1"],
        &["bisect", "HEAD~2", "HEAD", "--cache-sim"],
    ] {
        let o = pilot(args, "1", &[("PATH", path)]);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("error: --cache-sim needs --instructions"),
            "{args:?}: {}",
            text(&o)
        );
    }
    // The variable the bench binaries inherit counts as the flag, either way round.
    let o = pilot(&["bench"], "1", &[("PATH", path), ("PILOT_CACHE_SIM", "1")]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("PILOT_CACHE_SIM needs --instructions"),
        "{}",
        text(&o)
    );
    let o = pilot(
        &["bench", "--cache-sim"],
        "1",
        &[("PATH", path), ("PILOT_INSTRUCTIONS", "1")],
    );
    assert_ne!(o.status.code(), Some(2), "{}", text(&o));
    assert!(!text(&o).contains("needs --instructions"), "{}", text(&o));
}

/// `--bench NAME` that names no bench target is a usage error listing the targets, before
/// anything is built: cargo's own error read as a failed build (exit 1).
#[test]
fn a_bench_target_that_does_not_exist_is_a_usage_error() {
    let o = pilot(&["bench", "--bench", "nosuch"], "1", &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("error: no bench target named `nosuch` (the bench targets that use pilot: "),
        "{}",
        text(&o)
    );
    assert!(err.contains("cost"), "{}", text(&o));
    assert!(
        !err.contains("building the bench targets failed"),
        "{}",
        text(&o)
    );
}

/// `cargo pilot bench | head -2`: the reader goes once it has its lines, while a bench binary
/// runs. The binary ends quietly at its next print, and so does `cargo pilot`, where it said
/// the binary had reported no results (and once panicked at its own next print): exit code 0,
/// no error.
#[cfg(unix)]
#[test]
fn a_closed_standard_output_ends_cargo_pilot_bench_quietly() {
    use std::io::BufRead;
    // Its results go to a target directory of its own: the team's story runs beside it and
    // reads the latest results of the same benches.
    let own = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixture-bench-closed-stdout");
    let mut child = command(&["bench", "--max-time", "2", "--processes", "1"], "1")
        .env("CARGO_TARGET_DIR", &own)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut lines = String::new();
    // An empty line, then the target's heading, which cargo pilot prints before its binary
    // runs.
    for _ in 0..2 {
        reader.read_line(&mut lines).unwrap();
    }
    drop(reader);
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(lines.contains("== cost"), "{lines}");
    assert_eq!(o.status.code(), Some(0), "{err}");
    // Cargo's own lines name crates such as `errno`: an error is pilot's or cargo's `error:`.
    assert!(
        !err.contains("error:") && !err.contains("panicked"),
        "{err}"
    );
}
