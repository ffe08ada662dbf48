//! End-to-end: a neighbour that starts as a bench's session starts and stops halfway through it
//! makes the first half of its rounds slower; the speed probe, timed before and after the
//! bench, sees a quiet machine both times. The drift must be blamed on the machine from the load sampled
//! during the rounds (`machine_drift`), not on the workload (`slowdown`, `speedup`).
//!
//! Its own test binary: the neighbour (spinning threads of this process) must not slow the
//! other tests' benches, and theirs must not be mistaken for it.
//!
//! Not part of `cargo test`: it needs a machine that is quiet apart from the neighbour it
//! starts (on a busy one the neighbour changes little, and either verdict can be right). The
//! blame itself is decided on injected machine samples in
//! `session::tests::checks::a_neighbour_that_stops_halfway_is_the_machines_drift_not_the_workloads`;
//! `lab/neighbour-blame.sh` runs this test repeatedly and counts how often a real neighbour
//! is blamed on the machine.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

mod common;

fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixture-checks")
}

/// `n` threads spinning until `stop`: other processes' load, to the bench.
fn spin(n: usize, stop: &Arc<AtomicBool>) -> Vec<std::thread::JoinHandle<()>> {
    (0..n)
        .map(|_| {
            let stop = Arc::clone(stop);
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_add(1));
                }
            })
        })
        .collect()
}

#[test]
#[ignore = "a measurement on a quiet machine: lab/neighbour-blame.sh runs it"]
fn a_neighbour_that_stops_halfway_through_a_bench_is_blamed_on_the_machine() {
    let manifest =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixture-bench/Cargo.toml");
    let scratch = tempfile::tempdir().unwrap();
    let started = scratch.path().join("started");
    let mut cmd = common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"));
    cmd.args(["bench", "--features", "checks", "--bench", "checks"])
        .args(["neighbour", "--exact", "--processes", "1"])
        // A target met early: the session runs its least 7 s, and is not cut short (a drift
        // is named when it is over three times the target).
        .args(["--min-time", "7", "--max-time", "8", "--ci", "0.1"])
        .arg("--manifest-path")
        .arg(&manifest)
        .env("CARGO_TARGET_DIR", target_dir())
        .env("CARGO_BUILD_BUILD_DIR", common::fixture_build_dir())
        .env("PILOT_FIXTURE_STARTED", &started)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = cmd.spawn().unwrap();
    // The build may take minutes; the session starts when the file appears.
    let wait = Instant::now();
    while !started.exists() {
        assert!(
            wait.elapsed() < Duration::from_secs(600),
            "the bench never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // A neighbour from the session's start (after the speed probe before the bench) until
    // halfway through its least 7 s: four spinning threads on a machine of few cores. The
    // first half of the rounds is slower; the probe after the bench, like the one before it,
    // sees a quiet machine.
    let stop = Arc::new(AtomicBool::new(false));
    let hogs = spin(4, &stop);
    std::thread::sleep(Duration::from_millis(3_500));
    stop.store(true, Ordering::Relaxed);
    for h in hogs {
        h.join().unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let text = common::text(&out);
    assert!(out.status.success(), "{text}");
    let path = target_dir().join("pilot/results/checks/neighbour.json");
    let doc: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let kinds: Vec<&str> = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["kind"].as_str())
        .collect();
    let rounds = &doc["rounds"];
    assert!(
        !kinds.contains(&"slowdown") && !kinds.contains(&"speedup"),
        "the neighbour was blamed on the workload: {kinds:?}\n{text}\n{rounds:#}"
    );
    // The machine is blamed: for the drift, when the rounds' estimates show one (on a quiet
    // machine they do: the neighbour's half is about twice as slow); on a machine already
    // busy, the estimates may leave the neighbour's interruptions out so well that no drift is
    // left to blame, and the rounds it touched are marked busy.
    let drift = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "machine_drift");
    let Some(drift) = drift else {
        assert!(
            kinds.contains(&"busy_machine"),
            "neither machine_drift nor busy_machine among {kinds:?}\n{text}\n{rounds:#}"
        );
        eprintln!("no drift to blame in this run: {kinds:?}");
        return;
    };
    assert!(
        drift["message"]
            .as_str()
            .unwrap()
            .contains("sampled between the rounds"),
        "{drift:#}"
    );
    // Faster once the neighbour stopped.
    assert!(drift["relative"].as_f64().unwrap() < 0.0, "{drift:#}");
    // The line names it, and the summary explains it.
    assert!(text.contains(" drift"), "{text}");
    assert!(text.contains("check: machine drift"), "{text}");
}
