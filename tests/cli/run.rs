//! End-to-end tests of `cargo pilot run`, the real binary measuring real programs: a ranking
//! of three commands given in the wrong order, a failing command, a `{work}` fit, readings
//! printed by the program, each child's own peak memory, exports read back, bad input and
//! Ctrl-C. The repeated bars, side by side with hyperfine, are `tests/run_bars.sh`.

use std::path::Path;
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
    // Each run is one reading of wall time less the shell's start-up: sleep 0.03 is ≥ 30 ms.
    let slow = doc["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "slow")
        .unwrap();
    let mean = pi(slow, "time")["mean"].as_f64().unwrap();
    assert!(
        (30e6..40e6).contains(&mean),
        "sleep 0.03 measured {mean} ns"
    );
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
    assert!(dir.path().join("pilot/results/run/slow.json").is_file());
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
    let (j, c, m) = (
        dir.path().join("h.json"),
        dir.path().join("h.csv"),
        dir.path().join("h.md"),
    );
    let out = pilot_run(
        dir.path(),
        &[
            "-L",
            "t",
            "0.002,0.004",
            "--max-time",
            "3",
            "sleep {t}",
            "--export-json",
            j.to_str().unwrap(),
            "--export-csv",
            c.to_str().unwrap(),
            "--export-markdown",
            m.to_str().unwrap(),
        ],
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

#[test]
fn bad_input_is_refused_with_a_clear_error() {
    let dir = tmp();
    for (args, says) in [
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
    }
}

#[test]
fn ctrl_c_stops_the_run_with_130_keeping_what_finished() {
    let dir = tmp();
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
}
