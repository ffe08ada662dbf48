//! End-to-end tests of the accuracy checks: `cargo pilot bench` on the fixture's `checks`
//! target (`tests/fixture-bench/benches/checks.rs`), whose benches leak, or do the same work
//! without leaking, or get four times slower over their session, or leave a buffer's first
//! touch to each round's first unit, or time one input a unit, and the same bench while this
//! test keeps two cores busy.
//!
//! Each cause is injected far beyond what a busy machine can add or hide, and the test asserts
//! only that its check is named: the figures of a check and the decisions behind it (the
//! trend's test, who is blamed for a drift, the thresholds) are tested on scripted readings and
//! injected machine samples in the engine (`session::tests::checks`, `checks::memory`,
//! `session::coldstart`, `checks::sampler::judge`, `checks::tests`). How often each check
//! fires on a real machine is measured by `lab/accuracy-checks-firing.sh`.
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::Value;

mod common;

fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixture-checks")
}

/// `cargo pilot bench --features checks --bench checks NAME --exact ARGS`, no `PILOT_*`
/// setting of the outer environment; returns the output and the bench's result document.
fn bench(name: &str, args: &[&str], envs: &[(&str, &str)]) -> (Output, Value) {
    let manifest =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixture-bench/Cargo.toml");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cargo-pilot"));
    cmd.args([
        "pilot",
        "bench",
        "--features",
        "checks",
        "--bench",
        "checks",
        name,
    ])
    .args(["--exact"])
    .args(args)
    .arg("--manifest-path")
    .arg(manifest)
    .env("CARGO_TARGET_DIR", target_dir())
    .env("CARGO_BUILD_BUILD_DIR", common::fixture_build_dir())
    .env("CI", "1");
    for (k, _) in std::env::vars() {
        if k.starts_with("PILOT_") {
            cmd.env_remove(k);
        }
    }
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let path = target_dir().join(format!("pilot/results/checks/{name}.json"));
    let doc: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    (out, doc)
}

fn text(o: &Output) -> String {
    format!(
        "{}\n--- stderr ---\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn kinds(doc: &Value) -> Vec<String> {
    doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].as_str().unwrap().to_string())
        .collect()
}

fn check<'a>(doc: &'a Value, kind: &str) -> &'a Value {
    doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == kind)
        .unwrap_or_else(|| panic!("no `{kind}` check in {:#}", doc["checks"]))
}

// One function: its steps share the fixture's build and results, and the busy step's spinning
// threads must not run beside the others.
#[test]
fn a_leak_a_slowdown_a_cold_start_and_a_busy_machine_are_named() {
    // One process, so that one session holds the dozens of rounds the leak's test wants
    // (several short processes would each see a few).
    let (out, leak) = bench("leak", &["--max-time", "3", "--processes", "1"], &[]);
    let c = check(&leak, "leak");
    let per_round = c["bytes_per_round"].as_f64().unwrap();
    // 64 KiB per round, give or take the allocator's rounding and pilot's own share: memory,
    // which the machine's load does not move.
    assert!((48e3..100e3).contains(&per_round), "{c:#}");
    assert!(
        c["message"]
            .as_str()
            .unwrap()
            .contains("memory grew by about"),
        "{c:#}"
    );
    // Explained once in the summary, and marked on the bench's line.
    assert!(text(&out).contains("check: leak"), "{}", text(&out));
    assert!(leak["rounds"][0]["rss_bytes"].as_u64().unwrap() > 0);

    let (_, no_leak) = bench("no_leak", &["--max-time", "2"], &[]);
    assert!(
        !kinds(&no_leak).contains(&"leak".to_string()),
        "{:#}",
        no_leak["checks"]
    );
    assert!(no_leak["warm_up"].is_string());
    assert!(no_leak["outliers"]["readings"].as_u64().unwrap() > 0);

    // Four times the work by the end of the session: a drift no neighbour hides. Whose it is
    // (the workload's `slowdown`, or the machine's when the speed probe or the load sampled
    // during the rounds moved with it) is the blame's decision, tested on injected samples.
    // One process: the fixture slows down over its process's first 5 s.
    let (out, slow) = bench(
        "slowdown",
        &["--min-time", "5", "--max-time", "5", "--processes", "1"],
        &[
            ("PILOT_FIXTURE_SLOWDOWN_S", "5"),
            ("PILOT_FIXTURE_SLOWDOWN_GROWTH", "3"),
        ],
    );
    let drift = slow["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "slowdown" || c["kind"] == "machine_drift")
        .unwrap_or_else(|| panic!("no drift named: {:#}\n{}", slow["checks"], text(&out)));
    assert!(drift["relative"].as_f64().unwrap() > 0.0, "{drift:#}");
    assert!(
        drift["message"]
            .as_str()
            .unwrap()
            .contains("got slower from round to round"),
        "{drift:#}"
    );

    // Each round's first unit maps a 32 MiB buffer that the setup allocated, several times a
    // unit's one write of it: named with its share of the mean. The leak-free bench's first
    // units are not. One process, as for the slowdown: a cold start is judged from a
    // process's own rounds.
    let (out, touch) = bench("first_touch", &["--max-time", "2", "--processes", "1"], &[]);
    let c = check(&touch, "cold_start");
    assert!(
        c["message"]
            .as_str()
            .unwrap()
            .contains("first unit of a round took"),
        "{c:#}"
    );
    assert!(text(&out).contains("check: cold start"), "{}", text(&out));
    assert!(
        !kinds(&no_leak).contains(&"cold_start".to_string()),
        "{:#}",
        no_leak["checks"]
    );

    // One input a unit: each reading of about 50 ns of work carries two clock reads, which
    // cost tens of times the 1% the check fires at (load makes no clock read cheaper).
    let (_, one) = bench("per_iteration_50ns", &["--max-time", "1"], &[]);
    assert_eq!(one["iterations_per_unit"], 1, "{one:#}");
    // Its short first rounds fill the early readings the warm-up class is judged from (a few
    // hundred KiB): pilot's own memory, which must not read as a leak of the bench.
    assert!(
        one["checks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["kind"] != "leak"),
        "{:#}",
        one["checks"]
    );
    let c = check(&one, "clock_overhead");
    assert!(c["share"].as_f64().unwrap() > 0.01, "{c:#}");
    assert!(
        c["message"]
            .as_str()
            .unwrap()
            .contains("BatchSize::SmallInput"),
        "{c:#}"
    );

    let stop = Arc::new(AtomicBool::new(false));
    // Two spinning threads of this test process: other processes, to the bench.
    let hogs: Vec<_> = (0..2)
        .map(|_| {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_add(1));
                }
            })
        })
        .collect();
    let (out, doc) = bench("no_leak", &["--max-time", "2"], &[]);
    stop.store(true, Ordering::Relaxed);
    for h in hogs {
        h.join().unwrap();
    }
    let c = check(&doc, "busy_machine");
    assert!(c["mean"].as_f64().unwrap() >= 0.25, "{c:#}");
    let marked = doc["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            r["marks"]
                .as_array()
                .is_some_and(|m| m.contains(&"busy_machine".into()))
        })
        .count();
    assert!(
        marked * 4 >= doc["rounds"].as_array().unwrap().len(),
        "{:#}",
        doc["rounds"]
    );
    assert!(text(&out).contains("check: busy machine"), "{}", text(&out));
    // The check of the set-up is printed once, before the bench, and is in the result too.
    let machine = &doc["machine"];
    assert!(machine["memory_bytes"].as_u64().unwrap() > 0, "{machine:#}");
    assert!(
        machine["rustc"].as_str().unwrap().starts_with("rustc "),
        "{machine:#}"
    );
}
