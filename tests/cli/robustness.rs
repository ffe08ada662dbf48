//! pilot under hostile conditions, driving the real `cargo pilot`: corrupt, truncated, foreign
//! and hand-edited result files, a failed bench in a comparison, and runs killed at random
//! moments. What must hold: a clear error naming the file and the key, the documented exit
//! code, and no result file ever half-written or silently wrong. (The bench binary's own cases
//! are in `bench_binary.rs`: Ctrl-C between rounds, a file in the way of a result, hostile
//! names, bad flags.)

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

mod common;
use common::text;

fn cargo_pilot(args: &[&str]) -> Output {
    common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"))
        .args(args)
        .env("CI", "1")
        .output()
        .unwrap()
}

fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("robustness-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A valid result of bench `name` at `mean` ns ± 1%.
fn result(name: &str, mean: f64) -> Value {
    json!({
        "schema": "pilot.result/1", "name": name, "target": "t", "status": "ok",
        "pis": [{"name": "time", "unit": "ns", "mean": mean,
                 "ci": {"low": 0.99 * mean, "high": 1.01 * mean, "confidence": 0.95},
                 "n": 4000, "subsession_size": 1, "autocorrelation": 0.0,
                 "interval_from": "readings"}],
        "subsession": {"count": 400, "mean": mean, "variance": (0.05 * mean) * (0.05 * mean),
                       "variance_inflation": 1.0},
        "processes": {"count": 1, "means": []},
    })
}

fn write(path: &Path, doc: &Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_string_pretty(doc).unwrap()).unwrap();
}

#[test]
fn a_failed_bench_in_a_comparison_is_exit_1_and_said() {
    let dir = scratch("failed");
    write(&dir.join("base/sort.json"), &result("sort", 100.0));
    write(&dir.join("base/hash.json"), &result("hash", 50.0));
    let mut failed = result("sort", 100.0);
    failed["status"] = json!("failed");
    failed["status_detail"] = json!("panicked: index out of bounds");
    failed["pis"] = json!([]);
    failed["subsession"] = Value::Null;
    write(&dir.join("new/sort.json"), &failed);
    write(&dir.join("new/hash.json"), &result("hash", 50.0));
    let (base, new) = (dir.join("base"), dir.join("new"));
    let o = cargo_pilot(&[
        "compare",
        base.to_str().unwrap(),
        new.to_str().unwrap(),
        "--format",
        "md",
    ]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("2 benches, 0 regressed, 0 improved, 1 failed"),
        "{out}"
    );
    assert!(out.contains("**failed**"), "{out}");

    // The same bench without an estimate in the baseline instead (a short baseline run that
    // found no steady state): the row says so, but the new run did not fail, and the exit code
    // is the new run's, as `cargo pilot bench --baseline` decides.
    let mut unsettled = failed.clone();
    unsettled["status"] = json!("no steady state");
    write(&dir.join("base2/sort.json"), &unsettled);
    write(&dir.join("base2/hash.json"), &result("hash", 50.0));
    write(&dir.join("new2/sort.json"), &result("sort", 100.0));
    write(&dir.join("new2/hash.json"), &result("hash", 50.0));
    let (base, new) = (dir.join("base2"), dir.join("new2"));
    let o = cargo_pilot(&[
        "compare",
        base.to_str().unwrap(),
        new.to_str().unwrap(),
        "--format",
        "md",
    ]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("**failed**"), "{out}");
}

#[test]
fn corrupt_and_foreign_result_files_are_errors_naming_file_and_key() {
    let dir = scratch("corrupt");
    let good = dir.join("good.json");
    write(&good, &result("sort", 100.0));
    let text_of_good = std::fs::read_to_string(&good).unwrap();
    let cases: Vec<(&str, String, &str)> = vec![
        ("empty.json", String::new(), "the file is empty"),
        (
            "cut.json",
            text_of_good[..text_of_good.len() / 2].to_string(),
            "truncated",
        ),
        ("garbage.json", "not json at all".into(), "malformed JSON"),
        ("foreign.json", r#"{"hello": 1}"#.into(), "no `schema` key"),
        (
            "newer.json",
            text_of_good.replace("pilot.result/1", "pilot.result/9"),
            "newer pilot",
        ),
        (
            "mean.json",
            text_of_good.replace("\"mean\": 100.0", "\"mean\": \"fast\""),
            "`pis[0].mean`",
        ),
        (
            "empty-pis.json",
            serde_json::to_string(&{
                let mut d = result("sort", 100.0);
                d["pis"] = json!([]);
                d
            })
            .unwrap(),
            "`pis` is empty but `status` is `ok`",
        ),
        (
            "low.json",
            text_of_good.replace("\"low\": 99.0", "\"low\": 120.0"),
            "`pis[0].ci.low` (120) is above the mean (100)",
        ),
    ];
    for (file, contents, expected) in cases {
        let path = dir.join(file);
        std::fs::write(&path, contents).unwrap();
        let o = cargo_pilot(&["compare", good.to_str().unwrap(), path.to_str().unwrap()]);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(1), "{file}: {out}");
        assert!(
            out.contains(file),
            "{file}: the error names the file: {out}"
        );
        assert!(
            out.contains(expected),
            "{file}: expected `{expected}` in {out}"
        );
        assert!(!out.contains("panicked"), "{file}: {out}");
    }
}

/// `cargo pilot bench` killed with SIGKILL at moments spread over a run: whatever it and its
/// bench binary had written is whole (every result file reads back), and the next run works.
#[cfg(unix)]
#[test]
fn runs_killed_at_any_moment_leave_only_whole_files() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixture-bench/Cargo.toml");
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixture-bench-robustness");
    let run = |extra: &[&str]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_cargo-pilot"));
        cmd.args(["pilot", "bench", "--max-time", "0.4", "--ci", "0.05"])
            .args(extra)
            .arg("--manifest-path")
            .arg(&manifest)
            .env("CARGO_TARGET_DIR", &target)
            .env("CI", "1")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        cmd
    };
    // Built once, outside the killing.
    assert!(run(&["--save-baseline", "k"]).status().unwrap().success());
    for delay_ms in [150, 400, 700, 1000, 1300] {
        let mut child = run(&["--save-baseline", "k"]).spawn().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        // Its bench binary may outlive it by a round; let it finish or die.
        std::thread::sleep(std::time::Duration::from_millis(300));
        for dir in ["pilot/results", "pilot/baselines/k"] {
            let read = pilot::cargo_api::store::read_dir(&target.join(dir));
            assert!(
                read.is_ok(),
                "after a kill at {delay_ms} ms: {:?}",
                read.err()
            );
        }
    }
    let o = run(&["--baseline", "k", "--noise", "0.5"])
        .output()
        .unwrap();
    assert!(
        matches!(o.status.code(), Some(0 | 3)),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
