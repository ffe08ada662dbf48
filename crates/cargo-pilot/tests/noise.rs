//! End-to-end tests of `cargo pilot noise`, the real binary running its plain program in fresh
//! processes for a couple of seconds: the table's, the Markdown's and the document's
//! structure (never their figures: the machine is busy with other builds), bad input, and
//! SIGTERM leaving no process behind.

use std::process::{Command, Output};

use serde_json::Value;

mod common;
use common::text;

fn cargo_pilot() -> Command {
    common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"))
}

/// `cargo pilot noise ARGS`, waited for.
fn noise(args: &[&str]) -> Output {
    cargo_pilot().arg("noise").args(args).output().unwrap()
}

#[test]
fn the_document_has_every_field_for_each_workload() {
    let o = noise(&["--time", "2", "--format", "json"]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(doc["schema"], "pilot.noise/1", "{out}");
    let positive = |v: &Value| v.as_f64().is_some_and(|x| x.is_finite() && x > 0.0);
    let at_least_0 = |v: &Value| v.as_f64().is_some_and(|x| x.is_finite() && x >= 0.0);
    for key in ["elapsed_s", "spacing_s", "process_s", "against_pair_s"] {
        assert!(positive(&doc[key]), "{key}: {out}");
    }
    assert_eq!(doc["calls"], 200);
    assert_eq!(doc["confidence"], 0.95);
    assert_eq!(doc["alpha"], 0.01);
    assert_eq!(doc["power"], 0.8);
    assert_eq!(doc["against_time_s"], 20.0);
    assert!(
        doc["against_pairs"].as_u64().is_some_and(|n| n >= 1),
        "{out}"
    );
    assert!(
        doc["machine"]["cores"].as_u64().is_some_and(|c| c >= 1),
        "{out}"
    );
    // Five rounds at least, each of two processes with a median per workload.
    let rounds = doc["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 5, "{out}");
    for r in rounds {
        assert!(at_least_0(&r["at_s"]), "{r}");
        for p in 0..2 {
            assert!(positive(&r["process_s"][p]), "{r}");
            let medians = r["medians_ns"][p].as_array().unwrap();
            assert_eq!(medians.len(), 2, "{r}");
            assert!(medians.iter().all(positive), "{r}");
        }
    }
    let workloads = doc["workloads"].as_array().unwrap();
    let names: Vec<&str> = workloads
        .iter()
        .map(|w| w["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["compute", "sort"]);
    for w in workloads {
        assert!(!w["what"].as_str().unwrap().is_empty());
        for key in ["level_ns", "min_ns", "median_ns", "max_ns", "fastest_ns"] {
            assert!(positive(&w[key]), "{key}: {w}");
        }
        assert!(w["min_ns"].as_f64() <= w["median_ns"].as_f64(), "{w}");
        assert!(w["median_ns"].as_f64() <= w["max_ns"].as_f64(), "{w}");
        assert!(w["fastest_ns"].as_f64() <= w["min_ns"].as_f64(), "{w}");
        assert_eq!(w["rounds"], 5);
        for key in [
            "spread",
            "next_run",
            "run_to_run",
            "same_code",
            "baseline_detectable",
            "pair_spread",
            "pair_winsorized_sd",
            "against_detectable",
        ] {
            assert!(at_least_0(&w[key]), "{key}: {w}");
        }
        // The band is the prediction band: wider than pilot's t · sd by √(1 + 1/5).
        let ratio = w["next_run"].as_f64().unwrap() / w["run_to_run"].as_f64().unwrap();
        if ratio.is_finite() {
            assert!((ratio - 1.2f64.sqrt()).abs() < 1e-9, "{w}");
        }
        // A change a baseline detects 80 times in 100 is larger than what same code drifts by.
        assert!(
            w["baseline_detectable"].as_f64() >= w["same_code"].as_f64(),
            "{w}"
        );
    }
    let busy = &doc["busy"];
    if cfg!(target_os = "linux") {
        for key in [
            "cores",
            "others_cores",
            "others_cores_rounds",
            "others_cores_max",
            "steal",
        ] {
            assert!(at_least_0(&busy[key]), "{key}: {busy}");
        }
    }
    let advice = &doc["advice"];
    assert!(
        advice["noise"].as_f64().is_some_and(|x| x > 0.0),
        "{advice}"
    );
    assert!(advice["prefer_against"].is_boolean());
    let lines = advice["lines"].as_array().unwrap();
    // Five rounds are few, whatever else it says.
    assert!(
        lines
            .last()
            .unwrap()
            .as_str()
            .unwrap()
            .starts_with("5 rounds are few"),
        "{advice}"
    );
    // Progress goes to standard error, so standard output is the document alone.
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("cargo pilot noise: 5 rounds of two fresh processes"),
        "{out}"
    );
}

#[test]
fn the_table_and_the_markdown_say_what_each_figure_means() {
    let o = noise(&["--time", "2", "--against-time", "30"]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let stdout = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with(
            "a plain program (no harness) in 10 fresh processes: two back to back every "
        ),
        "{out}"
    );
    assert!(lines[1].starts_with("machine: "), "{out}");
    assert!(lines[2].starts_with("other processes: "), "{out}");
    let head = lines
        .iter()
        .position(|l| l.starts_with("workload"))
        .expect(&out);
    for column in [
        "level",
        "spread",
        "min … max",
        "next run",
        "same code",
        "baseline detects",
        "--against detects in 30 s",
    ] {
        assert!(lines[head].contains(column), "{column}: {out}");
    }
    assert!(
        lines[head + 1].starts_with("compute ") && lines[head + 2].starts_with("sort "),
        "{out}"
    );
    assert!(
        lines[head + 1].contains('±') && lines[head + 1].contains("pairs)"),
        "{out}"
    );
    for meaning in [
        "spread: ",
        "next run: ",
        "same code: ",
        "baseline detects: ",
        "--against detects: ",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(meaning)),
            "{meaning}: {out}"
        );
    }
    assert!(
        stdout.contains("√(1 + 1/5)") && stdout.contains("20%-trimmed mean"),
        "{out}"
    );
    let what = lines.iter().position(|l| *l == "what to do:").expect(&out);
    assert!(lines[what + 1].starts_with("- "), "{out}");

    let o = noise(&["--time", "2", "--format", "md"]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(
        md.starts_with("### How noisy is this machine?\n\n"),
        "{out}"
    );
    assert!(md.contains("\n| workload | level | spread |"), "{out}");
    assert!(md.contains("\n| --- | ---: |"), "{out}");
    assert!(
        md.contains("\n| compute | ") && md.contains("\n| sort | "),
        "{out}"
    );
    assert!(md.contains("\n**What to do:**\n\n- "), "{out}");
    assert!(md.contains("machine: `"), "{out}");
}

#[test]
fn bad_times_are_usage_errors_that_name_the_flag() {
    for (args, says) in [
        (
            &["--time", "0"][..],
            "invalid value '0' for '--time <SECS>': `0` must be above 0 seconds",
        ),
        (&["--time", "nan"], "for '--time <SECS>': `nan`"),
        (&["--time", "-1"], "`-1` must be above 0 seconds"),
        (&["--time", "soon"], "for '--time <SECS>': `soon`"),
        (
            &["--against-time", "0"],
            "for '--against-time <SECS>': `0` must be above 0 seconds",
        ),
        (
            &["--alpha", "1.5"],
            "for '--alpha <P>': `1.5` must be strictly between 0 and 1",
        ),
        (
            &["--format", "csv"],
            "invalid value 'csv' for '--format <FORMAT>'",
        ),
    ] {
        let o = noise(args);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {out}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(says),
            "{args:?}: {out}"
        );
        assert!(o.stdout.is_empty(), "{args:?}: {out}");
    }
}

/// SIGTERM while noise runs (a job runner stopping it): it ends with 130, saying nothing is
/// reported, and no process of its plain program is left running.
#[cfg(target_os = "linux")]
#[test]
fn sigterm_leaves_no_process_behind() {
    // The processes of this test carry a tag in their environment, which their children
    // inherit: other tests' processes (run beside this one) do not have it.
    let tag = format!("PILOT_TEST_NOISE_TAG={}", std::process::id());
    let (name, value) = tag.split_once('=').unwrap();
    let child = cargo_pilot()
        .args(["noise", "--time", "20"])
        .env(name, value)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let parent = child.id();
    // Wait until one of its processes runs, to stop it in the middle of one (or, if that one
    // ends first, between two: either way nothing may stay behind).
    let start = std::time::Instant::now();
    while children_of(parent).is_empty() {
        assert!(start.elapsed().as_secs() < 30, "no noise process started");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    // SAFETY: kill has no memory effects; `parent` is our own child, not yet waited for.
    unsafe { libc::kill(parent as libc::pid_t, libc::SIGTERM) };
    let o = child.wait_with_output().unwrap();
    let out = text(&o);
    assert_eq!(o.status.code(), Some(130), "{out}");
    assert!(out.contains("cargo pilot: interrupted "), "{out}");
    assert!(out.contains("nothing is reported"), "{out}");
    assert!(o.stdout.is_empty(), "{out}");
    assert_eq!(tagged(&tag), Vec::<u32>::new(), "processes left behind");
}

/// The processes whose parent is `pid`.
#[cfg(target_os = "linux")]
fn children_of(pid: u32) -> Vec<u32> {
    processes()
        .filter(|&p| {
            std::fs::read_to_string(format!("/proc/{p}/stat")).is_ok_and(|s| {
                s.rsplit_once(") ")
                    .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok())
                    == Some(pid)
            })
        })
        .collect()
}

/// The live processes (not zombies) whose environment holds `tag`.
#[cfg(target_os = "linux")]
fn tagged(tag: &str) -> Vec<u32> {
    processes()
        .filter(|&p| {
            let live = std::fs::read_to_string(format!("/proc/{p}/stat")).is_ok_and(|s| {
                s.rsplit_once(") ")
                    .is_some_and(|(_, r)| !r.starts_with('Z'))
            });
            let env = std::fs::read(format!("/proc/{p}/environ")).unwrap_or_default();
            live && env.split(|&b| b == 0).any(|v| v == tag.as_bytes())
        })
        .collect()
}

#[cfg(target_os = "linux")]
fn processes() -> impl Iterator<Item = u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
}
