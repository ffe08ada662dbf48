//! End-to-end tests of the accuracy checks: `cargo pilot bench` on the fixture's `checks`
//! target (`tests/fixture-bench/benches/checks.rs`), whose benches leak, or do the same work
//! without leaking, or get 20% slower over their session, or leave a buffer's first touch to
//! each round's first unit, or time one input a unit, and the same
//! bench while this test keeps two cores busy. Each asserts what one run of a bench must show; the repeated bars are
//! `tests/fixture-bench/checks_bars.sh`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::Value;

fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixture-checks")
}

/// `cargo pilot bench --features checks --bench checks NAME --exact ARGS`, no `PILOT_*`
/// setting of the outer environment; returns the output and the bench's result document.
fn bench(name: &str, args: &[&str], envs: &[(&str, &str)]) -> (Output, Value) {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixture-bench/Cargo.toml");
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
fn a_leak_a_slowdown_and_a_busy_machine_are_named_with_their_figures() {
    let (out, leak) = bench("leak", &["--max-time", "2"], &[]);
    let c = check(&leak, "leak");
    let per_round = c["bytes_per_round"].as_f64().unwrap();
    // 64 KiB per round, give or take the allocator's rounding and pilot's own share.
    assert!((48e3..100e3).contains(&per_round), "{c:#}");
    assert!(c["p"].as_f64().unwrap() < 1e-3, "{c:#}");
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

    let (_, slow) = bench(
        "slowdown",
        // One process: the fixture slows down over its process's first 5 s, which several
        // short processes would each see only the start of. 5 s rather than 3: about 18
        // rounds, so that one noisy round cannot hide the trend from the drift's test (at 3 s,
        // 11 rounds sometimes left p above 0.001 on a quiet machine).
        &["--min-time", "5", "--max-time", "5", "--processes", "1"],
        &[("PILOT_FIXTURE_SLOWDOWN_S", "5")],
    );
    let c = check(&slow, "slowdown");
    let relative = c["relative"].as_f64().unwrap();
    assert!((0.1..0.3).contains(&relative), "{c:#}");

    // Each round's first unit maps a 32 MiB buffer that the setup allocated: far slower than
    // the rest, and named with its share of the mean. The leak-free bench's first units are not.
    // One process, as for the slowdown: a cold start is judged from a process's own rounds
    // (at least 3), which a 2 s cap shared by several processes leaves too few of.
    let (out, touch) = bench("first_touch", &["--max-time", "2", "--processes", "1"], &[]);
    let c = check(&touch, "cold_start");
    assert!(c["ratio"].as_f64().unwrap() > 1.5, "{c:#}");
    assert!(c["effect_on_mean"].as_f64().unwrap() > 0.01, "{c:#}");
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

    // One input a unit: each reading of about 50 ns of work carries two clock reads.
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
