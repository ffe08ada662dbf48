//! End-to-end tests of `cargo pilot run`, the real binary measuring real programs: a ranking
//! of three commands given in the wrong order, a failing command, a `{work}` fit, readings
//! printed by the program, each child's own peak memory, exports read back, bad input and
//! Ctrl-C. The repeated bars, side by side with hyperfine, are `lab/run-against-hyperfine.sh`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

mod common;
use common::text;

fn cargo_pilot() -> Command {
    common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"))
}

/// `cargo pilot run ARGS --out DIR`.
fn pilot_run(dir: &Path, args: &[&str]) -> Output {
    cargo_pilot()
        .arg("run")
        .args(args)
        .arg("--out")
        .arg(dir)
        .output()
        .unwrap()
}

/// `cargo pilot run ARGS --out DIR` with the three exports in hyperfine's shapes, into
/// `DIR/ex.json`, `DIR/ex.csv` and `DIR/ex.md`: its output and the three paths.
fn pilot_run_exports(dir: &Path, args: &[&str]) -> (Output, PathBuf, PathBuf, PathBuf) {
    let (j, c, m) = (dir.join("ex.json"), dir.join("ex.csv"), dir.join("ex.md"));
    let mut all = args.to_vec();
    all.extend([
        "--export-json",
        j.to_str().unwrap(),
        "--export-csv",
        c.to_str().unwrap(),
        "--export-markdown",
        m.to_str().unwrap(),
    ]);
    (pilot_run(dir, &all), j, c, m)
}

fn read(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn pi<'a>(result: &'a Value, name: &str) -> &'a Value {
    result["pis"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no `{name}` in {result}"))
}

/// The time's mean of a 2-second `cargo pilot run ARGS` of one program, from its `--json`.
fn time_mean(dir: &Path, args: &[&str]) -> f64 {
    let json = dir.join("run.json");
    let mut all = args.to_vec();
    all.extend(["--max-time", "2", "--json", json.to_str().unwrap()]);
    let out = pilot_run(dir, &all);
    assert!(out.status.success(), "{}", text(&out));
    pi(&read(&json)["results"][0], "time")["mean"]
        .as_f64()
        .unwrap()
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

#[test]
fn three_commands_in_the_wrong_order_are_ranked() {
    let dir = tmp();
    let json = dir.path().join("run.json");
    let out = pilot_run(
        dir.path(),
        &[
            "-n",
            "slow",
            "sleep 0.03",
            "-n",
            "fast",
            "sleep 0.005",
            "-n",
            "middle",
            "sleep 0.015",
            "--max-time",
            "8",
            "--json",
            json.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let doc = read(&json);
    assert_eq!(doc["schema"], "pilot.run/1");
    let group = &doc["groups"][0];
    assert_eq!(
        group["ranking"],
        serde_json::json!(["fast", "middle", "slow"]),
        "{}",
        text(&out)
    );
    assert_eq!(group["interleaved"], true);
    for pair in group["pairs"].as_array().unwrap() {
        assert_eq!(pair["verdict"], "faster", "{pair}");
    }
    // Each run is one reading of wall time less the shell's start-up, which is measured apart
    // and may differ by a few milliseconds from a run's on a busy machine: sleep 0.03 is about
    // 30 ms, never a few (nothing ran) or seconds (another unit).
    let slow = doc["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "slow")
        .unwrap();
    let mean = pi(slow, "time")["mean"].as_f64().unwrap();
    assert!((15e6..1e9).contains(&mean), "sleep 0.03 measured {mean} ns");
    for name in ["user_time", "system_time"] {
        let p = pi(slow, name);
        assert!(
            p["ci"]["low"].as_f64().unwrap() <= p["mean"].as_f64().unwrap(),
            "{p}"
        );
    }
    // `sleep` peaks below pilot's own size, which a child inherits: not measured, and said.
    assert!(
        slow["pis"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["name"] != "peak_memory")
    );
    assert!(
        slow["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w.as_str().unwrap().starts_with("peak memory not measured")),
        "{slow}"
    );
    assert!(
        text(&out).contains("shell: `sh -c` starts in"),
        "{}",
        text(&out)
    );
    // Saved where results go, under the `run` target.
    assert!(
        dir.path()
            .join("pilot/results/run.programs/slow.json")
            .is_file()
    );
}

#[test]
fn a_failing_command_stops_everything_before_anything_is_measured() {
    let dir = tmp();
    let out = pilot_run(
        dir.path(),
        &[
            "-n",
            "ok",
            "true",
            "-n",
            "bad",
            "echo 'no such table' >&2; exit 3",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`bad` failed with exit code 3"), "{err}");
    assert!(err.contains("no such table"), "{err}");
    assert!(err.contains("nothing was measured"), "{err}");
    assert!(!dir.path().join("pilot/results").exists());
    // -i measures the failing runs, and says so.
    let out = pilot_run(dir.path(), &["-i", "--max-time", "1", "exit 3"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("exited non-zero and were measured anyway"),
        "{}",
        text(&out)
    );
    // A program that cannot start.
    let out = pilot_run(dir.path(), &["-N", "/no/such/program"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("failed to start `/no/such/program`"));
}

#[test]
fn work_amounts_are_fitted_with_start_up_and_speed() {
    let dir = tmp();
    let json = dir.path().join("run.json");
    let out = pilot_run(
        dir.path(),
        &[
            "-n",
            "gzip",
            "--work",
            "200000..4000000",
            "--max-time",
            "4",
            "head -c {work} /dev/zero | gzip -1 > /dev/null",
            "--json",
            json.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let r = &read(&json)["results"][0];
    assert_eq!(r["form"], "readings-only");
    let a = pi(r, "startup");
    let (low, high) = (
        a["ci"]["low"].as_f64().unwrap(),
        a["ci"]["high"].as_f64().unwrap(),
    );
    assert!(low < high, "{a}");
    // gzip -1 of zeros runs at tens to thousands of MB/s on any machine.
    let v = pi(r, "throughput")["mean"].as_f64().unwrap();
    assert!((1e7..1e10).contains(&v), "speed {v} work/s");
    assert!(text(&out).contains("start-up α ="), "{}", text(&out));
}

#[test]
fn readings_printed_by_the_program_are_its_unit_readings() {
    let dir = tmp();
    // Every run prints 1, 2 and 3 ms: the mean of the readings is 2 ms exactly.
    let mean = time_mean(
        dir.path(),
        &[
            "--readings",
            "--readings-unit",
            "ms",
            "printf '1\\n2\\n3\\n'",
        ],
    );
    assert!((mean - 2e6).abs() < 1e3, "mean {mean}");
    // CSV with a header, read by --pi NAME,UNIT,COLUMN.
    let mean = time_mean(
        dir.path(),
        &[
            "--readings",
            "--pi",
            "latency,us,2",
            "printf 'name,latency\\na,10\\nb,30\\n'",
        ],
    );
    assert!((mean - 20e3).abs() < 1.0, "mean {mean}");
    // Output that is not a number: the line and its text.
    let out = pilot_run(dir.path(), &["--readings", "printf '1\\nfast\\n'"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 2 of the output is not a reading") && err.contains("`fast`"),
        "{err}"
    );
}

#[test]
fn each_run_reports_its_own_peak_memory() {
    let dir = tmp();
    let json = dir.path().join("run.json");
    // The big command first: the small one's peak must not be the big one's high-water mark.
    let out = pilot_run(
        dir.path(),
        &[
            "--sequential",
            "--max-time",
            "2",
            "-n",
            "big",
            "python3 -c 'bytearray(120_000_000)'",
            "-n",
            "small",
            "python3 -c 'bytearray(10_000_000)'",
            "--json",
            json.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let doc = read(&json);
    let peak = |name: &str| {
        let r = doc["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .unwrap();
        pi(r, "peak_memory")["mean"].as_f64().unwrap()
    };
    assert!(peak("big") > 120e6, "big {}", peak("big"));
    assert!(
        peak("small") < 60e6,
        "small {} after big {}",
        peak("small"),
        peak("big")
    );
}

#[test]
fn exports_in_hyperfines_shapes_read_back() {
    let dir = tmp();
    let (out, j, c, m) = pilot_run_exports(
        dir.path(),
        &["-L", "t", "0.002,0.004", "--max-time", "3", "sleep {t}"],
    );
    assert!(out.status.success(), "{}", text(&out));
    let doc = read(&j);
    let results = doc["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert_eq!(results[0]["command"], "sleep 0.002");
    assert_eq!(results[1]["parameters"]["t"], "0.004");
    for r in results {
        let mean = r["mean"].as_f64().unwrap();
        assert!(r["ci_low"].as_f64().unwrap() <= mean && mean <= r["ci_high"].as_f64().unwrap());
        let times = r["times"].as_array().unwrap();
        assert!(!times.is_empty());
        assert_eq!(times.len(), r["exit_codes"].as_array().unwrap().len());
        assert!(r["min"].as_f64().unwrap() <= r["median"].as_f64().unwrap());
    }
    let csv = std::fs::read_to_string(&c).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "command,mean,stddev,median,user,system,min,max,parameter_t"
    );
    assert!(
        lines[2].starts_with("sleep 0.004,") && lines[2].ends_with(",0.004"),
        "{csv}"
    );
    let md = std::fs::read_to_string(&m).unwrap();
    assert!(md.starts_with("| Command | Mean [ms] |"), "{md}");
    assert!(md.contains("| `sleep 0.002` |"), "{md}");
}

/// `-n` names are what the exports call the programs, as hyperfine writes them (`command`),
/// and pilot's own import of its JSON gives the same benches back. Two programs of one
/// command line named apart were once both exported as `sleep 0.001`.
#[test]
fn exports_name_programs_by_their_n_names_and_import_back() {
    let dir = tmp();
    let (out, j, c, m) = pilot_run_exports(
        dir.path(),
        &[
            "--max-time",
            "0.3",
            "-N",
            "-n",
            "A",
            "sleep 0.001",
            "-n",
            "B",
            "sleep 0.001",
            "--history",
            "off",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let doc = read(&j);
    let commands: Vec<&str> = doc["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["command"].as_str().unwrap())
        .collect();
    assert_eq!(commands, ["A", "B"], "{doc}");
    let csv = std::fs::read_to_string(&c).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).map(|l| &l[..2]).collect();
    assert_eq!(rows, ["A,", "B,"], "{csv}");
    let md = std::fs::read_to_string(&m).unwrap();
    assert!(md.contains("| `A` |") && md.contains("| `B` |"), "{md}");
    let o = cargo_pilot()
        .args(["import", "hyperfine", "--baseline", "hf", "--target-dir"])
        .arg(dir.path())
        .arg(&j)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let saved = dir.path().join("pilot/baselines/hf/run.programs");
    let mut names: Vec<String> = std::fs::read_dir(&saved)
        .unwrap()
        .map(|e| {
            read(&e.unwrap().path())["name"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    names.sort();
    assert_eq!(names, ["A", "B"]);
}

/// A program without a time (`below shell resolution`) is left out of the exports in
/// hyperfine's shapes, with a warning naming it, and what is exported imports. It was once
/// exported with a mean of 0 and runs of 0 s, which pilot's own import refused.
#[cfg(unix)]
#[test]
fn a_program_without_a_time_is_left_out_of_the_exports() {
    let dir = tmp();
    // `-c ''` takes 50 ms, a command starts at once: `true` is within the start-up.
    let shell = script(
        dir.path(),
        "slow-start.sh",
        "[ -z \"$2\" ] && sleep 0.05\nexec /bin/sh -c \"$2\"",
    );
    let (out, j, c, m) = pilot_run_exports(
        dir.path(),
        &[
            "--shell",
            shell.to_str().unwrap(),
            "--max-time",
            "0.6",
            "-n",
            "fast",
            "true",
            "-n",
            "slow",
            "sleep 0.08",
            "--history",
            "off",
        ],
    );
    let all = text(&out);
    assert!(out.status.success(), "{all}");
    assert!(
        all.contains("fast") && all.contains("below shell resolution"),
        "{all}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "warning: --export-json, --export-csv, --export-markdown leave out `fast` (below \
             shell resolution)"
        ),
        "{err}"
    );
    let doc = read(&j);
    let results = doc["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{doc}");
    assert_eq!(results[0]["command"], "slow");
    assert!(results[0]["mean"].as_f64().unwrap() > 0.0, "{doc}");
    let csv = std::fs::read_to_string(&c).unwrap();
    assert_eq!(csv.lines().count(), 2, "{csv}");
    assert!(!csv.contains("fast"), "{csv}");
    let md = std::fs::read_to_string(&m).unwrap();
    assert!(md.contains("| `slow` |") && !md.contains("fast"), "{md}");
    let o = cargo_pilot()
        .args(["import", "hyperfine", "--baseline", "hf", "--target-dir"])
        .arg(dir.path())
        .arg(&j)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn bad_input_is_refused_with_a_clear_error() {
    let dir = tmp();
    let same = dir.path().join("same.json");
    let same = same.to_str().unwrap();
    let dotted = format!("{}/./same.json", dir.path().display());
    for (args, says) in [
        (
            &["-n", "", "sleep 0.001"][..],
            "the name (-n) of COMMAND 1 is empty",
        ),
        (
            &["-n", "a", "-n", " ", "x", "y"][..],
            "of COMMAND 2 is empty",
        ),
        (&["", "true"][..], "COMMAND 1 is empty"),
        (&["-n", "a", "x", "y"][..], "1 name (-n) for 2 commands"),
        (
            &["--export-json", same, "--json", same, "true"][..],
            "--json and --export-json both name `",
        ),
        (
            &[
                "--export-csv",
                same,
                "--export-markdown",
                dotted.as_str(),
                "true",
            ][..],
            "--export-csv and --export-markdown both name `",
        ),
        (
            &["--output", same, "--history", same, "true"][..],
            "--output and the history (--history) both name `",
        ),
        (&["head -c {work} /dev/zero"][..], "needs --work A..B"),
        (
            &["--work", "5..1", "head -c {work} /dev/zero"][..],
            "1 ≤ A < B",
        ),
        (&["-P", "n", "3", "1", "echo {n}"][..], "has no values"),
        (
            &["--input", "/no/such/file", "cat"][..],
            "is not a readable file",
        ),
    ] {
        let out = pilot_run(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        // Refused before anything is measured, or written.
        assert!(out.stdout.is_empty(), "{args:?}: {}", text(&out));
        assert!(!Path::new(same).exists(), "{args:?}");
    }
}

/// A user's bench target named `run` keeps its results apart from `cargo pilot run`'s: a
/// program of the same name as one of its benches neither replaces its result nor is compared
/// with it (before, the program's 16 ms replaced the bench's 0.6 ns, and `compare` called it a
/// regression).
#[test]
fn a_bench_target_named_run_keeps_its_results_apart_from_programs() {
    let dir = tmp();
    let bench = dir.path().join("pilot/results/run/same.json");
    std::fs::create_dir_all(bench.parent().unwrap()).unwrap();
    let doc = r#"{"schema": "pilot.result/1", "name": "same", "target": "run", "status": "ok",
        "pis": [{"name": "time", "unit": "ns", "mean": 0.6,
                 "ci": {"low": 0.59, "high": 0.61, "confidence": 0.95}}]}"#;
    std::fs::write(&bench, doc).unwrap();
    let out = pilot_run(
        dir.path(),
        &["-N", "-n", "same", "true", "--max-time", "0.2"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(std::fs::read_to_string(&bench).unwrap(), doc);
    let program = read(&dir.path().join("pilot/results/run.programs/same.json"));
    assert_eq!(program["target"], "run.programs");
}

#[test]
fn ctrl_c_stops_the_run_with_130_keeping_what_finished() {
    let dir = tmp();
    // An earlier run's result of `first`: the interrupted session must leave it as it was.
    let earlier = cargo_pilot()
        .args(["run", "-n", "first", "sleep 0.01", "--max-time", "0.3"])
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(earlier.status.code(), Some(0), "{}", text(&earlier));
    let saved = dir.path().join("pilot/results/run.programs/first.json");
    let before = std::fs::read_to_string(&saved).unwrap();
    let child = cargo_pilot()
        .args(["run", "--sequential", "-n", "first", "sleep 0.01"])
        .args([
            "-n",
            "second",
            "sleep 0.01",
            "--max-time",
            "20",
            "--min-runs",
            "100000",
        ])
        .arg("--out")
        .arg(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // 100 000 runs cannot finish in 3 s: the first program is still running then.
    std::thread::sleep(std::time::Duration::from_secs(3));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("interrupted"),
        "{}",
        text(&out)
    );
    // Nothing of the interrupted program is saved: not a `failed` result in its place.
    let after = std::fs::read_to_string(&saved).unwrap();
    let status = |t: &str| serde_json::from_str::<serde_json::Value>(t).unwrap()["status"].clone();
    assert!(
        after == before,
        "the earlier result was replaced: status {} where it was {}",
        status(&after),
        status(&before)
    );
}

/// An executable shell script `name` in `dir` with the body `body`.
fn script(dir: &Path, name: &str, body: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// `cargo pilot run ARGS --out DIR` in a process group of its own, waited for with `wait4`:
/// its output, how long it took and its own peak resident memory (bytes). One still running
/// after `limit` is killed with its group (what it started too) and the test fails.
#[cfg(unix)]
fn pilot_run_bounded(
    dir: &Path,
    args: &[&str],
    limit: std::time::Duration,
) -> (Output, std::time::Duration, f64) {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    let (out, err) = (dir.join("stdout.txt"), dir.join("stderr.txt"));
    let start = std::time::Instant::now();
    // Reaped with `wait4` below (std's `wait` would not give its resource use).
    let pid = cargo_pilot()
        .arg("run")
        .args(args)
        .arg("--out")
        .arg(dir)
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .process_group(0)
        .spawn()
        .unwrap()
        .id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `pid` is our own child, reaped only here; the pointers are valid for writes.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break;
        }
        if start.elapsed() > limit {
            // SAFETY: kill has no memory effects; `-pid` is the group the child leads.
            unsafe { libc::kill(-pid, libc::SIGKILL) };
            // SAFETY: as above.
            unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
            panic!(
                "`cargo pilot run {}` still ran after {limit:?}: killed\n{}",
                args.join(" "),
                std::fs::read_to_string(&out).unwrap()
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let took = start.elapsed();
    let output = Output {
        status: std::process::ExitStatus::from_raw(status),
        stdout: std::fs::read(&out).unwrap(),
        stderr: std::fs::read(&err).unwrap(),
    };
    // Linux gives ru_maxrss in KiB, macOS in bytes.
    let unit = if cfg!(target_os = "macos") {
        1.0
    } else {
        1024.0
    };
    (output, took, usage.ru_maxrss as f64 * unit)
}

/// Whether process `pid` is gone (or a zombie nobody reaps, which holds nothing).
fn gone(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |s| {
        s.rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z'))
    })
}

#[test]
fn max_runs_in_a_group_bounds_each_programs_runs_and_keeps_their_time() {
    let dir = tmp();
    let log = dir.path().join("runs.log");
    let prog = script(dir.path(), "log.sh", "echo \"$1\" >> \"$2\"");
    let command = format!("{} {{x}} {}", prog.display(), log.display());
    let json = dir.path().join("run.json");
    let means = |extra: &[&str]| -> Vec<f64> {
        // With -M, a cap far beyond the runs it allows, so that -M ends the session however
        // slowly a busy machine runs them.
        let cap = if extra.is_empty() { "1" } else { "30" };
        let mut args = vec!["-N", "--max-time", cap, "-L", "x", "a,b", &command];
        args.extend(extra);
        args.extend(["--json", json.to_str().unwrap()]);
        let out = pilot_run(dir.path(), &args);
        assert!(out.status.success(), "{}", text(&out));
        let doc = read(&json);
        if !extra.is_empty() {
            // Stopped by -M, not by the cap, and the ranking is not called settled before
            // both members had an estimate to rank.
            let header = text(&out);
            let header = header.lines().find(|l| l.starts_with("group ")).unwrap();
            assert!(!header.contains("time cap"), "{header}");
            assert!(!header.contains("settled at"), "{header}");
            let status = doc["groups"][0]["status"].as_str().unwrap_or_default();
            assert!(
                ["most runs", "settled"].contains(&status),
                "{status}: {header}"
            );
        }
        (0..2)
            .map(|i| pi(&doc["results"][i], "time")["mean"].as_f64().unwrap())
            .collect()
    };
    for mean in means(&[]) {
        assert!(mean > 0.0);
    }
    // Each session stops after its few runs, with a time for each program (how near it is to
    // the time without -M is for `lab/` to measure: a busy machine moves both).
    std::fs::remove_file(&log).unwrap();
    for mean in means(&["-M", "10"]) {
        assert!(mean > 0.0);
    }
    // hyperfine's --max-runs: at most 10 measured runs of each, beside the checked run.
    let runs = std::fs::read_to_string(&log).unwrap();
    for x in ["a", "b"] {
        let n = runs.lines().filter(|l| *l == x).count();
        assert!((5..=11).contains(&n), "{n} runs of x={x} with -M 10");
    }
}

#[test]
fn a_value_of_a_parameter_is_one_argument_without_a_shell() {
    let dir = tmp();
    let prog = script(
        dir.path(),
        "argc.sh",
        "echo \"$# $1\" >> \"$(dirname \"$0\")/argc.log\"; [ $# -eq 1 ] || exit 9",
    );
    let command = format!("{} {{x}}", prog.display());
    let out = pilot_run(dir.path(), &["-N", "-M", "3", "-L", "x", "b c,d", &command]);
    assert!(out.status.success(), "{}", text(&out));
    let log = std::fs::read_to_string(dir.path().join("argc.log")).unwrap();
    assert!(log.lines().any(|l| l == "1 b c"), "{log}");
    assert!(log.lines().all(|l| l == "1 b c" || l == "1 d"), "{log}");
}

#[cfg(unix)]
#[test]
fn output_through_a_pipe_is_read_and_discarded_in_little_memory() {
    let dir = tmp();
    let (out, _, peak) = pilot_run_bounded(
        dir.path(),
        &[
            "-N",
            "--output",
            "pipe",
            "-M",
            "2",
            "--max-time",
            "2",
            "head -c 200000000 /dev/zero",
        ],
        std::time::Duration::from_secs(60),
    );
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        peak < 64e6,
        "cargo pilot peaked at {peak} bytes for 200 MB of output"
    );
}

#[cfg(unix)]
#[test]
fn a_command_that_never_exits_is_killed_at_the_time_cap() {
    let dir = tmp();
    let limit = std::time::Duration::from_secs(30);
    // No run completes: an error naming the command, exit 1, at about the cap.
    let (out, took, _) = pilot_run_bounded(dir.path(), &["--max-time", "0.5", "sleep 1000"], limit);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("a run of `sleep 1000` was killed after") && err.contains("--max-time 0.5"),
        "{err}"
    );
    assert!(took.as_secs_f64() < 10.0, "took {took:?}");
    // The sixth run stalls, with a child of its own: both are killed at the cap, and the
    // runs before it are the result, its status saying it was cut. (Five runs of a short
    // script fit the cap on any machine.)
    let pid = dir.path().join("pid");
    let count = dir.path().join("count");
    let prog = script(
        dir.path(),
        "stall.sh",
        "n=$(cat \"$1\" 2>/dev/null || echo 0); n=$((n+1)); echo $n > \"$1\"\n\
         [ $n -lt 6 ] && exit 0\n\
         sleep 1000 & echo $! > \"$2\"; wait",
    );
    let command = format!("{} {} {}", prog.display(), count.display(), pid.display());
    let json = dir.path().join("run.json");
    let (out, took, _) = pilot_run_bounded(
        dir.path(),
        &[
            "-N",
            "--max-time",
            "2",
            &command,
            "--json",
            json.to_str().unwrap(),
        ],
        limit,
    );
    assert!(out.status.success(), "{}", text(&out));
    assert!(took.as_secs_f64() < 15.0, "took {took:?}");
    let r = &read(&json)["results"][0];
    assert_eq!(r["status"], "time cap", "{r}");
    let detail = r["status_detail"].as_str().unwrap();
    assert!(
        detail.starts_with("a run of `") && detail.contains("killed after"),
        "{detail}"
    );
    assert!(pi(r, "time")["mean"].as_f64().unwrap() > 0.0);
    assert!(text(&out).contains("the result is from the runs completed before"));
    let grandchild = std::fs::read_to_string(&pid).unwrap();
    assert!(
        gone(grandchild.trim()),
        "the stalled run's child {grandchild} still runs"
    );
    // A stalled --setup, --prepare or --cleanup is bounded likewise.
    for (flag, code) in [("--setup", 1), ("--prepare", 1), ("--cleanup", 0)] {
        let (out, took, _) = pilot_run_bounded(
            dir.path(),
            &["-N", "--max-time", "0.3", flag, "sleep 1000", "true"],
            limit,
        );
        assert_eq!(out.status.code(), Some(code), "{flag}: {}", text(&out));
        let what = format!("the {} command of `true` was killed after", &flag[2..]);
        assert!(text(&out).contains(&what), "{flag}: {}", text(&out));
        assert!(took.as_secs_f64() < 10.0, "{flag} took {took:?}");
    }
}

/// The history's results rows at `path`: each bench's status and estimate.
fn history_rows(path: &Path) -> Vec<(String, Option<f64>)> {
    let c = rusqlite::Connection::open(path).unwrap();
    let mut q = c.prepare("SELECT status, estimate FROM results").unwrap();
    q.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// A command shorter than the shell's start-up that is subtracted from each run: its status
/// says so with the resolution, the result is saved as such (no time, and no interval around
/// 0), the history holds that, and nothing claims a bug. With every run of it 0 after the
/// subtraction, its mean was once 0 ns: a document that could not be saved, announced as saved
/// and added to the history all the same.
#[cfg(unix)]
#[test]
fn a_command_within_the_shells_start_up_is_below_its_resolution() {
    let dir = tmp();
    // A shell whose `-c ''` takes 50 ms and that runs a command at once: every run of the
    // command is shorter than the start-up subtracted from it, on any machine.
    let shell = script(
        dir.path(),
        "slow-start.sh",
        "[ -z \"$2\" ] && sleep 0.05\nexit 0",
    );
    let shell = shell.to_str().unwrap();
    let history = dir.path().join("history.sqlite");
    for (i, extra) in [&[][..], &["--max-runs", "2"]].into_iter().enumerate() {
        let json = dir.path().join(format!("run{i}.json"));
        let mut args = vec![
            "--shell",
            shell,
            "--max-time",
            "1",
            "--history",
            history.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
            "true",
        ];
        args.extend_from_slice(extra);
        let o = pilot_run(dir.path(), &args);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {out}");
        assert!(!out.contains("a bug in pilot"), "{extra:?}: {out}");
        assert!(out.contains("  below shell resolution"), "{extra:?}: {out}");
        assert!(
            out.contains("(the resolution through the shell) cannot be told from 0"),
            "{extra:?}: {out}"
        );
        let results = dir.path().join("pilot/results/run.programs");
        assert!(
            out.contains(&format!("results: {}", results.display())),
            "{out}"
        );
        for doc in [
            read(&results.join("true.json")),
            read(&json)["results"][0].clone(),
        ] {
            assert_eq!(doc["status"], "below shell resolution", "{doc}");
            assert!(doc["pis"].as_array().unwrap().is_empty(), "{doc}");
            let detail = doc["status_detail"].as_str().unwrap();
            assert!(
                detail.starts_with(&format!("`{shell} -c ''` starts in ")),
                "{detail}"
            );
        }
    }
    // The history holds the two results the folder held, without a time.
    assert_eq!(
        history_rows(&history),
        vec![("below shell resolution".to_string(), None); 2]
    );
    // Every reader takes the status: a comparison names it, the export's table shows it, and
    // so does the report's page, with the resolution.
    let results = dir.path().join("pilot/results/run.programs");
    let o = cargo_pilot()
        .args(["compare", "--format", "json"])
        .args([&results, &results])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        doc["benches"][0]["method"]
            .as_str()
            .unwrap()
            .ends_with("(status below shell resolution)"),
        "{doc}"
    );
    let o = cargo_pilot()
        .args(["export", "--format", "md"])
        .arg(&results)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("| below shell resolution |"),
        "{}",
        text(&o)
    );
    let o = cargo_pilot()
        .arg("report")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CARGO_TARGET_DIR", dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let page = std::fs::read_to_string(dir.path().join("pilot/report/index.html")).unwrap();
    assert!(
        page.contains("status <b>below shell resolution</b> (<code>"),
        "the report shows the status and its detail"
    );

    // A result that could not be written is not announced, and the history does not get it.
    let blocked = dir.path().join("blocked");
    std::fs::create_dir_all(blocked.join("pilot/results")).unwrap();
    std::fs::write(blocked.join("pilot/results/run.programs"), "in the way").unwrap();
    let history = dir.path().join("blocked.sqlite");
    let o = cargo_pilot()
        .args(["run", "-N", "--max-time", "0.3", "true", "--out"])
        .arg(&blocked)
        .arg("--history")
        .arg(&history)
        .output()
        .unwrap();
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("error: failed to write the result of `true`"),
        "{out}"
    );
    assert!(!out.contains("results: "), "{out}");
    assert!(!out.contains("history: "), "{out}");
    assert!(!history.exists() || history_rows(&history).is_empty());
}
