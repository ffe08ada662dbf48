//! End-to-end tests of a pilot bench binary (`tests/bench-binary/src/bin/demo_benches.rs`): started as a
//! process, the way cargo, cargo-nextest and users start it.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

// The helpers the end-to-end tests of cargo-pilot share.
#[path = "../../../crates/cargo-pilot/tests/common/mod.rs"]
mod common;

fn demo(args: &[&str], target_dir: &PathBuf) -> Output {
    run(env!("CARGO_BIN_EXE_demo_benches"), args, target_dir)
}

/// The bench binary `exe` with `args`, its results under `target_dir`, no `PILOT_*` setting
/// from the environment of the test.
fn run(exe: &str, args: &[&str], target_dir: &PathBuf) -> Output {
    command(exe.as_ref(), args, target_dir).output().unwrap()
}

/// The command [`run`] runs.
fn command(exe: &std::path::Path, args: &[&str], target_dir: &PathBuf) -> Command {
    let mut cmd = Command::new(exe);
    cmd.args(args)
        .env("CARGO_TARGET_DIR", target_dir)
        .env_remove("PILOT_CI")
        .env_remove("PILOT_MAX_TIME")
        .env_remove("PILOT_PROCESSES");
    cmd
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pilot-demo-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn lists_benches_the_way_nextest_reads_them() {
    let dir = scratch("list");
    let o = demo(&["--list", "--format", "terse"], &dir);
    assert_eq!(o.status.code(), Some(0));
    // In source order; the ignored bench is listed only with --ignored.
    assert_eq!(
        text(&o.stdout),
        "add: benchmark\nsum_1k: benchmark\nfold: benchmark\n"
    );
    let o = demo(&["--list", "--format", "terse", "--ignored"], &dir);
    assert_eq!(text(&o.stdout), "panics: benchmark\n");
}

#[test]
fn test_mode_runs_each_bench_once_and_reports_like_libtest() {
    let dir = scratch("test-mode");
    let o = demo(&["--nocapture", "--color", "never"], &dir);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    for name in ["add", "fold", "sum_1k"] {
        assert!(out.contains(&format!("test {name} ... ok")), "{out}");
    }
    assert!(out.contains("test panics ... ignored"), "{out}");
    assert!(
        out.contains("test result: ok. 3 passed; 0 failed; 1 ignored"),
        "{out}"
    );
    // Test mode saves nothing.
    assert!(!dir.join("pilot").exists());

    let o = demo(&["--ignored"], &dir);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("test panics ... FAILED"), "{out}");
    assert!(out.contains("this bench fails on purpose"), "{out}");
}

#[test]
fn usage_errors_exit_with_2() {
    let dir = scratch("usage");
    let o = demo(&["--bench", "--ci", "7"], &dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--ci: `7` must be strictly between 0 and 1"));
    // A setting that means nothing without another is refused, not ignored, before anything
    // is measured: no result is saved.
    for args in [&["--bench", "--cache-sim"][..], &["--list", "--cache-sim"]] {
        let o = demo(args, &dir);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            text(&o.stderr).contains("error: --cache-sim needs --instructions"),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
    let o = Command::new(env!("CARGO_BIN_EXE_demo_benches"))
        .arg("--bench")
        .env("CARGO_TARGET_DIR", &dir)
        .env("PILOT_CACHE_SIM", "1")
        .env_remove("PILOT_INSTRUCTIONS")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("error: PILOT_CACHE_SIM needs --instructions"));
    assert!(!dir.join("pilot/results").exists());
}

fn result(dir: &std::path::Path, name: &str) -> Value {
    result_of(dir, "demo_benches", name)
}

/// The latest result document of bench `name` of bench target `target`.
fn result_of(dir: &std::path::Path, target: &str, name: &str) -> Value {
    let path = dir
        .join("pilot/results")
        .join(target)
        .join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

#[test]
fn bench_mode_measures_in_several_processes_and_saves_results() {
    let dir = scratch("bench");
    let run = dir.join("run.json");
    let o = demo(
        &[
            "--bench",
            "--processes",
            "3",
            "--max-time",
            "1.5",
            "--ci",
            "0.05",
            "--json",
            run.to_str().unwrap(),
            "add",
        ],
        &dir,
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    let out = text(&o.stdout);
    // One bench: its line says it all, and no table repeats it.
    assert!(out.lines().any(|l| l.starts_with("add ")), "{out}");
    assert!(!out.contains("(95% CI, this run)"), "{out}");
    let r = result(&dir, "add");
    assert_eq!(r["schema"], "pilot.result/1");
    assert_eq!(r["name"], "add");
    assert_eq!(r["form"], "micro");
    // How the session ended (its interval met, its cap, or out of reach when its processes
    // disagree more than the target allows) is the machine's to decide; that it ended with an
    // estimate is not.
    assert_ne!(r["status"], "failed", "{r}");
    let pi = &r["pis"][0];
    assert_eq!(pi["name"], "time");
    // `modes` where the processes split into speeds and the interval spans them (the
    // machine's doing too).
    assert!(
        ["processes", "readings", "modes"].contains(&pi["interval_from"].as_str().unwrap_or("")),
        "{pi}"
    );
    let (mean, low, high) = (
        pi["mean"].as_f64().unwrap(),
        pi["ci"]["low"].as_f64().unwrap(),
        pi["ci"]["high"].as_f64().unwrap(),
    );
    assert!(
        low <= mean && mean <= high && mean > 0.0 && mean < 100.0,
        "{pi}"
    );
    let processes = r["processes"]["count"].as_u64().unwrap();
    // Several processes: the three asked for when each starts within its share of the cap,
    // more while the interval is too wide and time remains, two when a busy machine slows
    // their start-up (the cap ends the bench after the process it is in).
    assert!(processes >= 2, "{}", r["processes"]);
    assert_eq!(
        r["processes"]["means"].as_array().unwrap().len() as u64,
        processes
    );
    assert!(r["iterations_per_unit"].as_u64().unwrap() > 1);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&run).unwrap()).unwrap();
    assert_eq!(doc["schema"], "pilot.run/1");
    assert_eq!(doc["results"][0]["name"], "add");
}

/// `--min-time` holds for a bench whose target is out of reach too: it measures at least that
/// long before it gives up, as it does before it stops converged.
#[test]
fn a_bench_out_of_reach_still_measures_its_least_time() {
    let dir = scratch("min-time");
    let o = demo(
        &[
            "--bench",
            "--min-time",
            "1.2",
            "--max-time",
            "2",
            "--ci",
            "0.00001",
            "add",
        ],
        &dir,
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    let r = result(&dir, "add");
    // A ±0.001% target is out of reach on any machine; before, the bench gave up as soon as
    // its first processes said so, whatever --min-time asked.
    assert!(
        ["out of reach", "time cap"].contains(&r["status"].as_str().unwrap_or("")),
        "{}",
        r["status"]
    );
    assert!(
        r["elapsed_s"].as_f64().unwrap() >= 1.2,
        "{}",
        r["elapsed_s"]
    );
}

/// Each process of a bench runs a fresh copy of the bench executable, made beside it and
/// removed after: where the kernel put a file's code is then drawn per process, as it is per
/// build, and is in the processes' spread (`pilot_engine::runner::fresh_copy`).
#[test]
fn each_process_runs_a_fresh_copy_of_the_executable_removed_after() {
    let dir = scratch("copies");
    // The executable in a folder of its own, so that whatever appears beside it is this run's.
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let exe = bin.join("demo_exe");
    std::fs::copy(env!("CARGO_BIN_EXE_demo_exe"), &exe).unwrap();
    let log = dir.join("exe.log");
    let args: Vec<&str> = "--bench --processes 3 --max-time 1.5 --ci 0.05"
        .split(' ')
        .collect();
    let o = command(&exe, &args, &dir.join("target"))
        .env("DEMO_EXE_LOG", &log)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", common::text(&o));
    let ran: std::collections::BTreeSet<PathBuf> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(PathBuf::from)
        .collect();
    // Every process ran from a copy of its own beside the executable, none from the file itself.
    assert!(ran.len() >= 2, "{ran:?}");
    for path in &ran {
        assert_eq!(path.parent(), Some(bin.as_path()), "{ran:?}");
        let name = path.file_name().unwrap().to_string_lossy();
        assert!(name.starts_with(".demo_exe.pilot-"), "{ran:?}");
    }
    // And every copy is gone.
    let left: Vec<_> = std::fs::read_dir(&bin)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["demo_exe"], "{left:?}");
}

#[test]
fn one_process_sessions_of_every_form_with_processes_1() {
    // Several processes are the default from a 1 s cap; `--processes 1` keeps one, as
    // test mode does.
    let dir = scratch("single");
    let o = demo(
        &[
            "--bench",
            "--max-time",
            "1",
            "--ci",
            "0.05",
            "--processes",
            "1",
        ],
        &dir,
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    let full = result(&dir, "sum_1k");
    assert_eq!(full["form"], "full");
    assert_eq!(full["pis"][1]["name"], "throughput");
    assert_eq!(full["pis"][1]["unit"], "KiB/s");
    assert_eq!(full["processes"]["count"], 1);
    let wps = result(&dir, "fold");
    assert_eq!(wps["form"], "readings-only");
    assert_eq!(wps["pis"][0]["interval_from"], "regression");
    assert!(
        wps["pis"][0]["mean"].as_f64().unwrap() > 0.0,
        "{}",
        wps["pis"][0]
    );
    // Every round is on record, analysed or not.
    assert!(wps["rounds"].as_array().unwrap().len() >= 3);
}

/// `n` with `,` between groups of three digits, written out here from libtest's and
/// criterion's rule rather than taken from pilot.
fn with_commas(n: u64) -> String {
    let s = n.to_string();
    let mut groups: Vec<&str> = Vec::new();
    let mut end = s.len();
    while end > 3 {
        groups.push(&s[end - 3..end]);
        end -= 3;
    }
    groups.push(&s[..end]);
    groups.reverse();
    groups.join(",")
}

#[test]
fn output_format_bencher_prints_libtests_line_per_bench() {
    let dir = scratch("bencher");
    let o = demo(
        &[
            "--bench",
            "--max-time",
            "0.5",
            "--ci",
            "0.05",
            "--output-format",
            "bencher",
        ],
        &dir,
    );
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", text(&o.stderr));
    for name in ["add", "fold", "sum_1k"] {
        let r = result(&dir, name);
        let pi = &r["pis"][0];
        let (mean, low, high) = (
            pi["mean"].as_f64().unwrap(),
            pi["ci"]["low"].as_f64().unwrap(),
            pi["ci"]["high"].as_f64().unwrap(),
        );
        // criterion's BencherReport: `test {id} ... ` then `bench: {:>11} {unit}/iter (+/- {})`.
        let value = with_commas(mean.round() as u64);
        let line = format!(
            "test {name} ... bench: {}{value} ns/iter (+/- {})",
            " ".repeat(11usize.saturating_sub(value.len())),
            with_commas(((high - low) / 2.0).round() as u64)
        );
        assert!(out.lines().any(|l| l == line), "no `{line}` in:\n{out}");
    }
    assert_eq!(with_commas(37_174), "37,174");
    assert_eq!(with_commas(1_234_567), "1,234,567");
    // Without the flag there is no such line.
    let o = demo(&["--bench", "add", "--exact", "--max-time", "0.2"], &dir);
    assert!(!text(&o.stdout).contains("ns/iter (+/-"));
}

#[test]
fn baselines_under_cargo_bench_are_saved_compared_and_checked() {
    let dir = scratch("baseline");
    // A baseline that was never saved: an error naming it, before anything runs.
    let o = demo(&["--bench", "add", "--exact", "--baseline", "main"], &dir);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("no baseline `main`"), "{err}");
    assert!(err.contains("no baselines are saved"), "{err}");

    let quick = ["--max-time", "1.0", "--ci", "0.05", "--processes", "2"];
    let mut save = vec!["--bench", "add", "--exact", "--save-baseline", "main"];
    save.extend(quick);
    let o = demo(&save, &dir);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    assert!(
        dir.join("pilot/baselines/main/demo_benches/add.json")
            .is_file()
    );

    // Compared with itself: a verdict and how it was reached, in the output and the JSON.
    let run = dir.join("run.json");
    // --verbose: the full comparison (both estimates, p, how), not only the change column.
    let mut compare = vec![
        "--bench",
        "add",
        "--exact",
        "--baseline",
        "main",
        "--verbose",
    ];
    compare.extend(quick);
    compare.extend(["--json", run.to_str().unwrap()]);
    let o = demo(&compare, &dir);
    let out = text(&o.stdout);
    assert!(matches!(o.status.code(), Some(0 | 3)), "{out}");
    assert!(out.contains("compared with baseline `main`"), "{out}");
    assert!(common::welch_over_processes(&out, 2), "{out}");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&run).unwrap()).unwrap();
    let c = &doc["comparison"];
    assert_eq!(c["schema"], "pilot.compare/1");
    assert_eq!(c["benches"][0]["name"], "add");
    let verdict = c["benches"][0]["verdict"].as_str().unwrap();
    assert!(
        ["no change", "undecided", "regressed", "improved"].contains(&verdict),
        "{verdict}"
    );
    assert_eq!(o.status.code() == Some(3), verdict == "regressed");
}

fn demo_groups(args: &[&str], target_dir: &PathBuf) -> Output {
    Command::new(env!("CARGO_BIN_EXE_demo_groups"))
        .args(args)
        .env("CARGO_TARGET_DIR", target_dir)
        .env_remove("PILOT_CI")
        .env_remove("PILOT_MAX_TIME")
        .env_remove("PILOT_PROCESSES")
        .env_remove("PILOT_SEQUENTIAL")
        .output()
        .unwrap()
}

#[test]
fn sweeps_and_thread_counts_expand_into_named_benches() {
    let dir = scratch("groups-list");
    let o = demo_groups(&["--list", "--format", "terse"], &dir);
    assert_eq!(
        text(&o.stdout),
        "short_sum/10: benchmark\ndouble_sum/10: benchmark\nshort_sum/1000: benchmark\n\
         double_sum/1000: benchmark\nthreaded/threads=1: benchmark\n\
         threaded/threads=2: benchmark\n"
    );
    let o = demo_groups(&[], &dir);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("test threaded/threads=2 ... ok"), "{out}");
    assert!(out.contains("6 passed"), "{out}");
}

#[test]
fn a_group_runs_interleaved_and_reports_its_ranking() {
    let dir = scratch("groups-bench");
    let json = dir.join("run.json");
    let o = demo_groups(
        &[
            "--bench",
            "--max-time",
            "0.3",
            "--json",
            json.to_str().unwrap(),
            "sum/1000",
        ],
        &dir,
    );
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("group sum/1000 ("), "{out}");
    let run: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let groups = run["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{run}");
    let g = &groups[0];
    assert_eq!(g["name"], "sum/1000");
    assert_eq!(g["ranking"].as_array().unwrap().len(), 2, "{g}");
    let pair = &g["pairs"][0];
    for key in ["a", "b", "ratio", "ratio_ci", "p", "verdict"] {
        assert!(pair.get(key).is_some(), "{key} missing in {pair}");
    }
    assert!(
        pair["ratio_ci"]["low"].as_f64().unwrap() <= pair["ratio_ci"]["high"].as_f64().unwrap()
    );
    assert!(["faster", "equivalent", "undecided"].contains(&pair["verdict"].as_str().unwrap()));
    // Both members' results are saved as usual; the group's cap is the sum of theirs.
    for name in ["short_sum/1000", "double_sum/1000"] {
        let path = dir
            .join("pilot/results/demo_groups")
            .join(format!("{name}.json"));
        assert!(path.exists(), "{path:?}");
    }
    // The group's cap is kept (by the rule of `session::group_session`'s tests); this bound only
    // catches a group that ran on without one.
    assert!(g["elapsed_s"].as_f64().unwrap() < 10.0, "{g}");
}

#[test]
fn threads_report_per_thread_and_aggregate_throughput() {
    let dir = scratch("groups-threads");
    let json = dir.join("run.json");
    let o = demo_groups(
        &[
            "--bench",
            "--max-time",
            "0.3",
            "--json",
            json.to_str().unwrap(),
            "--exact",
            "threaded/threads=2",
        ],
        &dir,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    let run: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let threads = &run["results"][0]["threads"];
    assert_eq!(threads["count"], 2, "{run}");
    let per = threads["per_thread"]["mean"].as_f64().unwrap();
    let all = threads["aggregate"]["mean"].as_f64().unwrap();
    assert!((all - 2.0 * per).abs() < 1e-6 * all, "{threads}");
}

#[test]
fn resume_skips_what_an_interrupted_run_finished() {
    let dir = scratch("resume");
    let quick = ["--max-time", "0.3", "--ci", "0.2"];
    let progress = dir.join("pilot/runs/demo_benches.json");
    let mut first = vec!["--bench", "add", "--exact"];
    first.extend(quick);
    assert_eq!(demo(&first, &dir).status.code(), Some(0));
    let log: Value = serde_json::from_str(&std::fs::read_to_string(&progress).unwrap()).unwrap();
    assert_eq!(
        (&log["finished"], &log["done"][0]),
        (&Value::Bool(true), &Value::from("add"))
    );

    // The last run finished: nothing to resume, everything runs.
    let mut again = vec!["--bench", "--resume", "add", "--exact"];
    again.extend(quick);
    let out = text(&demo(&again, &dir).stdout);
    assert!(out.contains("nothing to resume"), "{out}");

    // A run interrupted after `add`: resuming measures only `fold`, and reports both.
    std::fs::write(
        &progress,
        r#"{"schema": "pilot.progress/1", "started": "x", "finished": false, "done": ["add"]}"#,
    )
    .unwrap();
    let run = dir.join("run.json");
    let mut resume = vec!["--bench", "--resume", "--exact", "add", "fold"];
    resume.extend(quick);
    resume.extend(["--json", run.to_str().unwrap()]);
    let o = demo(&resume, &dir);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("resuming the run started x: 1 bench already done"),
        "{out}"
    );
    assert!(
        out.contains("add: finished by the interrupted run"),
        "{out}"
    );
    assert!(out.lines().any(|l| l.starts_with("fold ")), "{out}");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&run).unwrap()).unwrap();
    let names: Vec<&str> = doc["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["add", "fold"]);
    let log: Value = serde_json::from_str(&std::fs::read_to_string(&progress).unwrap()).unwrap();
    assert_eq!(log["finished"], true);
    assert_eq!(log["done"], serde_json::json!(["add", "fold"]));

    // Resumed with other settings: `add`'s result was taken under the old ones, so it is
    // measured again, and the user is told.
    std::fs::write(
        &progress,
        r#"{"schema": "pilot.progress/1", "started": "x", "finished": false, "done": ["add"]}"#,
    )
    .unwrap();
    let o = demo(
        &[
            "--bench",
            "--resume",
            "--exact",
            "add",
            "--max-time",
            "0.3",
            "--ci",
            "0.3",
        ],
        &dir,
    );
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("add: finished by the interrupted run under other settings"),
        "{out}"
    );
    // A progress file that cannot be read is an error, not "the last run finished".
    std::fs::write(&progress, "{ not json").unwrap();
    let o = demo(&["--bench", "--resume", "--exact", "add"], &dir);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("cannot resume"),
        "{}",
        text(&o.stderr)
    );
}

/// Ctrl-C while a bench runs: the round in progress ends normally (the workload's cleanup runs,
/// its scratch file is gone), nothing of the interrupted bench is saved, and the binary exits
/// 130 saying how to resume. No thread of pilot's shares the process with the workload.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_between_rounds_and_the_workload_cleans_up() {
    let dir = scratch("interrupt");
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_demo_interrupt"))
        .args(["--bench", "--max-time", "60", "--ci", "0.000001"])
        .env("CARGO_TARGET_DIR", &dir)
        .env("PILOT_DEMO_DIR", &work)
        .env_remove("PILOT_CI")
        .env_remove("PILOT_MAX_TIME")
        .env_remove("PILOT_PROCESSES")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the bench has run a round or two.
    let threads = work.join("threads");
    let start = std::time::Instant::now();
    while !threads.exists() && start.elapsed() < std::time::Duration::from_secs(30) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let o = child.wait_with_output().unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}{}", text(&o.stdout));
    assert!(
        err.contains("interrupted: the benches finished so far"),
        "{err}"
    );
    let left: Vec<_> = std::fs::read_dir(&work)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("round-"))
        .collect();
    assert!(
        left.is_empty(),
        "the workload's scratch files were left: {left:?}"
    );
    if cfg!(target_os = "linux") {
        let n = std::fs::read_to_string(&threads).unwrap();
        assert_eq!(
            n, "1",
            "threads in the bench's process while it was measured"
        );
    }
    // Nothing of the interrupted bench was saved.
    let results = dir.join("pilot/results/demo_interrupt");
    assert!(
        !results.join("scratch_file.json").exists(),
        "an interrupted bench's result was saved"
    );
}

/// `coll/x` and `coll_x` once shared one file, and one result was lost: each now has its own,
/// holding its own result.
#[test]
fn names_that_looked_alike_keep_their_own_results() {
    let dir = scratch("names");
    let o = run(
        env!("CARGO_BIN_EXE_demo_names"),
        &["--bench", "--max-time", "0.3", "--ci", "0.2"],
        &dir,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let results = dir.join("pilot/results/demo_names");
    for (name, file) in [("coll/x", "coll/x.json"), ("coll_x", "coll_x.json")] {
        let doc: Value =
            serde_json::from_str(&std::fs::read_to_string(results.join(file)).unwrap()).unwrap();
        assert_eq!(doc["name"], name, "{file}");
    }
}

/// A sweep whose values overflow the argument type fails that bench with the reason; `--list`
/// and the other bench still work, in test and in benchmark mode.
#[test]
fn a_sweep_that_overflows_its_type_fails_alone() {
    let dir = scratch("overflow");
    let run = |args: &[&str]| run(env!("CARGO_BIN_EXE_demo_overflow"), args, &dir);
    let o = run(&["--list", "--format", "terse"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "too_big: benchmark\nfine: benchmark\n");
    let o = run(&[]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("test fine ... ok"), "{out}");
    assert!(out.contains("test too_big ... FAILED"), "{out}");
    assert!(
        out.contains("pilot::range value 256 does not fit in the bench's argument type `u8`"),
        "{out}"
    );
    let o = run(&["--bench", "--max-time", "0.3", "--ci", "0.2"]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let line = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no line of {name} in {out}"))
    };
    assert!(line("too_big").contains("FAILED: "), "{out}");
    assert!(!line("fine").contains("FAILED"), "{out}");
}

/// A batched routine whose every input takes 80 ms to make, beside a routine under a
/// microsecond (divan's searches over a million elements): calibration stops at one input a
/// unit instead of the dozens the unit target asks for, and a 2 s cap, split among processes,
/// still ends with an estimate and its interval. Before, the first process spent its share
/// making the inputs of one unit, and the bench ended with none.
#[test]
fn costly_inputs_still_reach_an_estimate() {
    let dir = scratch("costly-inputs");
    let o = run(
        env!("CARGO_BIN_EXE_demo_costly_inputs"),
        &["--bench", "--max-time", "2"],
        &dir,
    );
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", text(&o.stderr));
    let r = result_of(&dir, "demo_costly_inputs", "search_slow_input");
    assert_eq!(r["iterations_per_unit"], 1, "{r}");
    let time = &r["pis"][0];
    assert_eq!(time["name"], "time", "{r}");
    let (mean, low, high) = (
        time["mean"].as_f64().unwrap(),
        time["ci"]["low"].as_f64().unwrap(),
        time["ci"]["high"].as_f64().unwrap(),
    );
    // A search of 16 levels: between 1 ns and 100 µs on any machine, inside its interval.
    assert!((1.0..100_000.0).contains(&mean), "{r}");
    assert!(low < mean && mean < high, "{r}");
    assert!(r["readings"].as_u64().unwrap() >= 2, "{r}");
}

/// A bench whose first 2 000 calls in each process take ten times as long as the rest is
/// classed `warm-up`, though every process after the first runs that warm-up unmeasured
/// before its session and finds the rest flat: they cannot see the start they skipped, so
/// they do not outvote the process that found it. Before, the flat processes outvoted it. A
/// tenfold warm-up of 2 000 calls is far beyond any noise a busy machine makes, so only the
/// class is asserted.
#[test]
fn a_bench_that_warms_up_in_each_process_is_classed_warm_up() {
    let dir = scratch("warm-up");
    let o = run(
        env!("CARGO_BIN_EXE_demo_warm_up"),
        &["--bench", "--max-time", "2"],
        &dir,
    );
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", text(&o.stderr));
    let r = result_of(&dir, "demo_warm_up", "slow_first_calls");
    assert_eq!(r["warm_up"], "warm-up", "{r}");
}

/// `--help` prints the usage and runs nothing; a misspelt flag is an error, not a filter; a
/// filter that matches nothing says so.
#[test]
fn help_misspelt_flags_and_empty_filters() {
    let dir = scratch("help");
    let o = demo(&["--bench", "--help"], &dir);
    assert_eq!(o.status.code(), Some(0));
    let out = text(&o.stdout);
    assert!(out.contains("Usage: BINARY [OPTIONS] [FILTER]..."), "{out}");
    assert!(out.contains("--max-time SECONDS"), "{out}");
    assert!(!dir.join("pilot").exists(), "--help measured something");
    let o = demo(&["--bench", "--max-tme", "0.5"], &dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("unknown flag `--max-tme`"));
    let o = demo(&["--bench", "--max-time", "1e30"], &dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("--max-time: `1e30` must be"),
        "{}",
        text(&o.stderr)
    );
    let o = demo(&["--list", "--format", "xml"], &dir);
    assert_eq!(o.status.code(), Some(2));
    let o = demo(&["nothing_like_this"], &dir);
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o.stderr).contains("no bench matches `nothing_like_this`"));
}

/// A result that cannot be written (a file where its folder should be) is an error naming the
/// file, with exit 1; the other bench's result is written, and what was in the way is intact.
#[test]
fn a_result_that_cannot_be_written_is_an_error() {
    let dir = scratch("unwritable");
    let results = dir.join("pilot/results/demo_names");
    std::fs::create_dir_all(&results).unwrap();
    std::fs::write(results.join("coll"), "in the way").unwrap();
    let o = run(
        env!("CARGO_BIN_EXE_demo_names"),
        &["--bench", "--max-time", "0.3", "--ci", "0.2"],
        &dir,
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("error: failed to write the result of `coll/x`") && err.contains("coll"),
        "{err}"
    );
    assert!(results.join("coll_x.json").exists());
    assert_eq!(
        std::fs::read_to_string(results.join("coll")).unwrap(),
        "in the way"
    );
}

/// A full disk (a small tmpfs, where the machine lets the test mount one): writing the results
/// fails, which is an error naming the file with exit 1, and the result already there is left
/// whole, not truncated.
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_an_error_and_the_old_result_stays_whole() {
    let dir = scratch("full-disk");
    let store = dir.join("pilot");
    std::fs::create_dir_all(&store).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=16k", "tmpfs"])
        .arg(&store)
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("skipped: this machine does not let the test mount a tmpfs");
        return;
    }
    let results = store.join("results/demo_names");
    std::fs::create_dir_all(&results).unwrap();
    std::fs::write(results.join("coll_x.json"), "the old result").unwrap();
    // Fill what is left.
    let mut filler = std::fs::File::create(store.join("filler")).unwrap();
    while std::io::Write::write_all(&mut filler, &[0u8; 1024]).is_ok() {}
    drop(filler);
    let o = run(
        env!("CARGO_BIN_EXE_demo_names"),
        &["--bench", "--max-time", "0.3", "--ci", "0.2"],
        &dir,
    );
    let old = std::fs::read_to_string(results.join("coll_x.json"));
    let _ = Command::new("umount").arg(&store).status();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("error: failed to write the result of `coll_x`"),
        "{err}"
    );
    assert_eq!(old.unwrap(), "the old result");
}

/// Nothing of pilot's runs beside the workload: the bench checks that its process has one
/// thread (on Linux), whether it runs in the process pilot was started as (`--processes 1`)
/// or in the child processes pilot starts. A thread of pilot's made an allocating nanosecond
/// bench read about half as slow again in-process (glibc's allocator off its single-thread
/// path); the thread count is the exact check, which no load moves.
#[test]
fn a_bench_runs_alone_in_its_process() {
    let dir = scratch("alone");
    let exe = env!("CARGO_BIN_EXE_demo_alloc");
    for processes in ["1", "3"] {
        let json = dir.join(format!("processes-{processes}.json"));
        let out = run(
            exe,
            &[
                "--bench",
                "--max-time",
                "1",
                "--processes",
                processes,
                "--json",
                json.to_str().unwrap(),
            ],
            &dir,
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let doc: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        let r = &doc["results"][0];
        assert_eq!(r["name"], "encode_3", "{doc}");
        assert_ne!(r["status"], "failed", "{r}");
    }
}

/// The benches of `demo_order`, in the order of its source file: a group's members together
/// per argument value, a sweep's benches in the order of its values.
const SOURCE_ORDER: [&str; 8] = [
    "zeta",
    "second/16",
    "first/16",
    "second/32",
    "first/32",
    "middle/threads=1",
    "middle/threads=2",
    "alpha",
];

fn demo_order(args: &[&str], target_dir: &PathBuf) -> Output {
    Command::new(env!("CARGO_BIN_EXE_demo_order"))
        .args(args)
        .env("CARGO_TARGET_DIR", target_dir)
        .env_remove("PILOT_CI")
        .env_remove("PILOT_MAX_TIME")
        .env_remove("PILOT_PROCESSES")
        // Off a terminal and outside CI: where a stream of progress lines would go to a log.
        .env_remove("CI")
        .output()
        .unwrap()
}

/// Lists, test mode and the end-of-run table follow the source file, not the names' order;
/// in benchmark mode the benches on several threads run last (and the table still lists them
/// in their place).
#[test]
fn benches_run_and_print_in_source_order() {
    let dir = scratch("order");
    let o = demo_order(&["--list", "--format", "terse"], &dir);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let listed: Vec<String> = text(&o.stdout)
        .lines()
        .map(|l| l.trim_end_matches(": benchmark").to_string())
        .collect();
    assert_eq!(listed, SOURCE_ORDER);

    let o = demo_order(&[], &dir);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let tested: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("test ")?.strip_suffix(" ... ok"))
        .collect();
    assert_eq!(tested, SOURCE_ORDER, "{out}");

    let o = demo_order(&["--bench", "--max-time", "0.2", "--ci", "0.5"], &dir);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", text(&o.stderr));
    // The result lines, as the benches ran.
    let ran: Vec<&str> = out
        .lines()
        .filter_map(|l| {
            let (name, rest) = l.split_once(' ')?;
            (SOURCE_ORDER.contains(&name) && !rest.trim().is_empty()).then_some(name)
        })
        // The end table repeats the names, after a blank line.
        .take(SOURCE_ORDER.len())
        .collect();
    assert_eq!(
        ran,
        [
            "zeta",
            "second/16",
            "first/16",
            "second/32",
            "first/32",
            "alpha",
            "middle/threads=1",
            "middle/threads=2"
        ],
        "{out}"
    );
    // The table's rows: after its header, up to the checks summary (or a blank line).
    let rows: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("bench "))
        .skip(1)
        .take_while(|l| !l.is_empty() && !l.starts_with("check: ") && !l.starts_with("results: "))
        .collect();
    let table: Vec<&str> = rows
        .iter()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    // Group members are left to their group's ranking, printed under the table.
    let alone: Vec<&str> = SOURCE_ORDER
        .into_iter()
        .filter(|n| !n.starts_with("first/") && !n.starts_with("second/"))
        .collect();
    assert_eq!(table, alone, "{out}");
    assert!(out.contains("group pair/16"), "{out}");
    // Micro and full forms in one table: the time column says what each time is per.
    let header = out.lines().find(|l| l.starts_with("bench ")).unwrap();
    assert!(header.contains("time (95% CI, this run)  per "), "{header}");
    let row = |name: &str| {
        rows.iter()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap()
            .to_string()
    };
    assert!(row("zeta").contains(" iteration "), "{out}");
    assert!(row("middle/threads=1").contains(" unit "), "{out}");
    // Throughput in the units each bench counts.
    assert!(
        [" B/s", " KiB/s", " MiB/s", " GiB/s"]
            .iter()
            .any(|u| row("zeta").contains(u)),
        "{out}"
    );
    // A group member's throughput is on its line.
    let line = out.lines().find(|l| l.starts_with("first/16 ")).unwrap();
    assert!(line.contains("elem/s"), "{out}");
    // The groups' rankings, each its members together, one per argument value.
    assert!(
        out.contains("group pair/16 ") && out.contains("group pair/32 "),
        "{out}"
    );
    assert!(out.contains("  #  bench      time per iteration"), "{out}");
    // In the documents: bytes per second, by hand from the time per iteration.
    let zeta = result_of(&dir, "demo_order", "zeta");
    assert_eq!(zeta["pis"][1]["unit"], "B/s");
    let per_iteration_ns = zeta["pis"][0]["mean"].as_f64().unwrap();
    let bytes_per_s = zeta["pis"][1]["mean"].as_f64().unwrap();
    assert!(
        (bytes_per_s - 64.0e9 / per_iteration_ns).abs() <= 1e-9 * bytes_per_s,
        "{bytes_per_s} vs 64 B in {per_iteration_ns} ns"
    );
    let first = result_of(&dir, "demo_order", "first/32");
    assert_eq!(first["pis"][1]["unit"], "elem/s");
    let t = first["pis"][0]["mean"].as_f64().unwrap();
    let e = first["pis"][1]["mean"].as_f64().unwrap();
    assert!((e - 32.0e9 / t).abs() <= 1e-9 * e, "{e} vs 32 in {t} ns");
}

/// Off a terminal (here, a pipe) nothing is shown while a bench runs: no progress or ETA lines
/// in a bench of 2.5 s (a plain progress line once came every 2 s), and each line of the run's
/// header and each bench's result line is printed once.
#[test]
fn output_off_a_terminal_has_no_progress_lines_and_no_repeats() {
    let dir = scratch("no-progress");
    let o = demo_order(
        &[
            "--bench",
            "--exact",
            "zeta",
            "--max-time",
            "2.5",
            "--ci",
            "0.00001",
        ],
        &dir,
    );
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    for line in out.lines().chain(err.lines()) {
        assert!(
            !line.contains("ETA") && !line.starts_with("  zeta:") && !line.contains('\r'),
            "a progress line off a terminal: {line:?}\n{out}{err}"
        );
    }
    let count = |prefix: &str| out.lines().filter(|l| l.starts_with(prefix)).count();
    assert_eq!(count("zeta "), 1, "{out}");
    assert_eq!(count("results: "), 1, "{out}");
    // Nothing the run printed appears twice, but for blank lines.
    let mut seen = std::collections::HashSet::new();
    for line in out.lines().filter(|l| !l.trim().is_empty()) {
        assert!(seen.insert(line), "printed twice: {line:?}\n{out}");
    }
}

/// A bench measured in several processes keeps its throughput in bytes: the amount per
/// iteration is recovered from each child's document, not taken for one work unit.
#[test]
fn throughput_in_bytes_survives_several_processes() {
    let dir = scratch("throughput-processes");
    let o = demo_order(
        &[
            "--bench",
            "--exact",
            "zeta",
            "--processes",
            "2",
            "--max-time",
            "1.5",
            "--ci",
            "0.05",
        ],
        &dir,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    let zeta = result_of(&dir, "demo_order", "zeta");
    // `--processes 2` asks for at least two.
    assert!(zeta["processes"]["count"].as_u64().unwrap() >= 2, "{zeta}");
    assert_eq!(zeta["pis"][1]["unit"], "B/s");
    let t = zeta["pis"][0]["mean"].as_f64().unwrap();
    let b = zeta["pis"][1]["mean"].as_f64().unwrap();
    assert!(
        (b - 64.0e9 / t).abs() <= 1e-9 * b,
        "{b} B/s vs 64 B in {t} ns"
    );
}

/// `--json` to a symlink writes the file it points to and leaves the link; to `/dev/full` it is
/// an error naming the device, which stays a device.
#[cfg(target_os = "linux")]
#[test]
fn json_to_a_symlink_or_a_device_is_written_in_place() {
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch("json-in-place");
    let (real, link) = (dir.join("real.json"), dir.join("link.json"));
    std::fs::write(&real, "an older document").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let bench = |json: &str| {
        demo(
            &[
                "--bench",
                "--max-time",
                "0.3",
                "--ci",
                "0.2",
                "--json",
                json,
                "--exact",
                "add",
            ],
            &dir,
        )
    };
    let o = bench(link.to_str().unwrap());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    let run: Value = serde_json::from_slice(&std::fs::read(&real).unwrap()).unwrap();
    assert_eq!(run["schema"], "pilot.run/1");
    let o = bench("/dev/full");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("error: failed to write `/dev/full`: No space left on device"),
        "{err}"
    );
    let full = std::fs::symlink_metadata("/dev/full").unwrap();
    assert!(full.file_type().is_char_device());
}

/// A closed standard output ends the run quietly, exit code 0, in every mode that prints: no
/// panic, no backtrace, nothing on standard error (`bench | head -1`).
#[cfg(unix)]
#[test]
fn a_closed_standard_output_ends_the_run_quietly() {
    let dir = scratch("closed-stdout");
    for args in [
        &["--list"][..],
        &["--list", "--format", "terse"],
        &["--help"],
        &[],
        &["--bench", "--max-time", "0.3", "--ci", "0.2"],
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_demo_benches"))
            .args(args)
            .env("CARGO_TARGET_DIR", &dir)
            .stdout(common::closed_pipe())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o.stderr));
        assert_eq!(text(&o.stderr), "", "{args:?}");
    }
    // As `| head -1` does it: the first line read, then the pipe closed while the run goes on.
    let mut child = Command::new(env!("CARGO_BIN_EXE_demo_benches"))
        .args(["--bench", "--max-time", "0.3", "--ci", "0.2"])
        .env("CARGO_TARGET_DIR", &dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut first,
    )
    .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(!text(&o.stderr).contains("panicked"), "{}", text(&o.stderr));
}

/// Any other failure to write standard output (a full disk behind a redirect) is an error that
/// says so, exit code 1, not a panic.
#[cfg(target_os = "linux")]
#[test]
fn standard_output_that_cannot_be_written_is_an_error() {
    let dir = scratch("full-stdout");
    let o = Command::new(env!("CARGO_BIN_EXE_demo_benches"))
        .arg("--list")
        .env("CARGO_TARGET_DIR", &dir)
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).starts_with("error: failed to write to standard output: "),
        "{}",
        text(&o.stderr)
    );
}

/// Bench and group names that hold ESC, BEL, a CSI and an OSC reach standard output and error
/// as text in every mode that prints them: the list, test mode, each bench's line, the group's
/// ranking, the table, a comparison with a baseline, libtest's bench lines, the messages.
#[test]
fn names_with_control_sequences_reach_the_terminal_as_text() {
    let dir = scratch("hostile");
    let run = |args: &[&str]| run(env!("CARGO_BIN_EXE_demo_hostile"), args, &dir);
    let quick = [
        "--bench",
        "--max-time",
        "0.3",
        "--ci",
        "0.2",
        "--color",
        "never",
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        quick.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    for args in [
        vec!["--list".to_string()],
        vec!["--list".into(), "--format".into(), "terse".into()],
        vec![],
        vec!["--exact".into(), "\u{1b}[31mnone".into()],
        with(&["--save-baseline", "b"]),
        with(&["--baseline", "b", "--verbose"]),
        with(&["--output-format", "bencher", "--processes", "1"]),
        with(&["--sequential", "--processes", "1"]),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = run(&args);
        assert!(
            matches!(o.status.code(), Some(0 | 3)),
            "{args:?}: {}",
            text(&o.stderr)
        );
        for (stream, bytes) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
            let found = common::control_bytes(bytes);
            assert!(
                found.is_empty(),
                "{args:?}: {found:?} on {stream}:\n{}",
                text(bytes)
            );
        }
    }
    // Shown, not dropped: the escapes are there as text.
    let o = run(&["--list"]);
    assert!(
        text(&o.stdout).contains("\\u{1b}]0;title\\u{7}\\u{1b}[31mred\\u{9b}2J\\u{9d}x: benchmark"),
        "{}",
        text(&o.stdout)
    );
}
