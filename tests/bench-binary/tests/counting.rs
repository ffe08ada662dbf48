//! Allocation counts end to end (issue 31): a bench binary whose global allocator is
//! `pilot::CountingAlloc` (`tests/bench-binary/src/bin/demo_counting.rs`), started as a process, its
//! results read back. Counts are deterministic, so these are exact.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The counting bench binary with `args` and `env`, its results under `dir`, no `PILOT_*`
/// setting from the test's own environment.
fn counting(args: &[&str], env: &[(&str, &str)], dir: &Path) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_demo_counting"));
    command
        .args(args)
        .env("CARGO_TARGET_DIR", dir)
        .env("PILOT_COLOR", "never");
    for (key, _) in std::env::vars() {
        if key.starts_with("PILOT_") {
            command.env_remove(key);
        }
    }
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().unwrap()
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pilot-counting-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Bench `name`'s latest result.
fn result(dir: &Path, name: &str) -> Value {
    let path = dir
        .join("pilot/results/demo_counting")
        .join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// The PI `name` of result `r`: `(mean, low, high)`, or `None` when it has none.
fn pi(r: &Value, name: &str) -> Option<(f64, f64, f64)> {
    let pi = r["pis"].as_array()?.iter().find(|p| p["name"] == name)?;
    Some((
        pi["mean"].as_f64()?,
        pi["ci"]["low"].as_f64()?,
        pi["ci"]["high"].as_f64()?,
    ))
}

#[test]
fn three_allocations_a_unit_are_exactly_3_and_4220_bytes_and_none_is_0() {
    let dir = scratch("exact");
    let o = counting(
        &[
            "--bench",
            "--processes",
            "1",
            "--max-time",
            "0.5",
            "--verbose",
            "three_allocations",
            "no_allocation",
        ],
        &[],
        &dir,
    );
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    for name in ["three_allocations", "three_allocations_micro"] {
        let r = result(&dir, name);
        // Exact: the interval has no width.
        assert_eq!(pi(&r, "allocations"), Some((3.0, 3.0, 3.0)), "{name}: {r}");
        assert_eq!(
            pi(&r, "allocated_bytes"),
            Some((4220.0, 4220.0, 4220.0)),
            "{name}"
        );
        let units = r["pis"].as_array().unwrap();
        let allocs = units.iter().find(|p| p["name"] == "allocations").unwrap();
        assert_eq!(allocs["unit"], "allocs");
        // Each unit frees what it allocated; nothing grows in place.
        let section = &r["allocations"];
        assert_eq!(section["deallocations"], 3.0, "{section}");
        assert_eq!(section["reallocations"], 0.0, "{section}");
        assert!(section["cost_ns"].as_f64().unwrap() > 0.0, "{section}");
        let share = section["share_of_unit"].as_f64().unwrap();
        assert!(share > 0.0 && share < 1.0, "{section}");
    }
    let r = result(&dir, "no_allocation");
    assert_eq!(pi(&r, "allocations"), Some((0.0, 0.0, 0.0)));
    assert_eq!(pi(&r, "allocated_bytes"), Some((0.0, 0.0, 0.0)));
    // The line and the table show them; --verbose says what counting cost.
    assert!(
        out.lines()
            .any(|l| l.starts_with("three_allocations ") && l.contains("3 allocs, 4,220 B")),
        "{out}"
    );
    assert!(out.contains("0 allocs, 0 B"), "{out}");
    assert!(
        out.contains("allocations: counted by pilot::CountingAlloc"),
        "{out}"
    );
    assert!(
        out.contains("allocations per unit: 3 (4,220 B), 0 reallocations among them, 3 deallocations; counting costs"),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("bench") && l.contains("allocations")),
        "{out}"
    );
}

#[test]
fn several_processes_agree_exactly() {
    let dir = scratch("processes");
    let o = counting(
        &[
            "--bench",
            "--processes",
            "3",
            "--max-time",
            "4",
            "--exact",
            "three_allocations",
        ],
        &[],
        &dir,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let r = result(&dir, "three_allocations");
    // Three asked for; a loaded machine may leave time for two only (at 1.5 s, a machine
    // busy with 10 runnable processes on 2 cores left time for one).
    assert!(
        r["processes"]["count"].as_u64().unwrap() >= 2,
        "{}",
        r["processes"]
    );
    assert_eq!(pi(&r, "allocations"), Some((3.0, 3.0, 3.0)));
    assert_eq!(pi(&r, "allocated_bytes"), Some((4220.0, 4220.0, 4220.0)));
}

#[test]
fn threads_the_unit_starts_are_not_counted_nor_routines_that_time_themselves() {
    let dir = scratch("threads");
    let o = counting(
        &[
            "--bench",
            "--processes",
            "1",
            "--max-time",
            "0.5",
            "thread_",
            "custom_timing",
        ],
        &[],
        &dir,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let busy = pi(&result(&dir, "thread_that_allocates"), "allocations").unwrap();
    let idle = pi(
        &result(&dir, "thread_that_does_not_allocate"),
        "allocations",
    )
    .unwrap();
    // Starting a thread allocates on the unit's thread; the three blocks the started thread
    // allocates are not counted.
    assert!(busy.0 > 0.0, "{busy:?}");
    assert!(
        (busy.0 - idle.0).abs() < 0.5 && busy.1 <= idle.2 && idle.1 <= busy.2,
        "{busy:?} {idle:?}"
    );
    let r = result(&dir, "custom_timing");
    assert_eq!(pi(&r, "allocations"), None, "{r}");
    assert!(r.get("allocations").is_none(), "{r}");
}

#[test]
fn a_baseline_flags_one_more_allocation_a_unit() {
    let dir = scratch("baseline");
    let args = |flag: &'static str| {
        vec![
            "--bench",
            "--processes",
            "1",
            "--max-time",
            "0.5",
            flag,
            "base",
            "--exact",
            "three_allocations",
        ]
    };
    let o = counting(&args("--save-baseline"), &[], &dir);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let run = dir.join("run.json");
    let mut same = args("--baseline");
    same.extend(["--json", run.to_str().unwrap()]);
    let o = counting(&same, &[], &dir);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&run).unwrap()).unwrap();
    let bench = &doc["comparison"]["benches"][0];
    for p in bench["pis"].as_array().unwrap() {
        assert_eq!(p["verdict"], "no change", "{}", text(&o));
        assert_eq!(p["change"], 0.0);
    }
    let o = counting(
        &args("--baseline"),
        &[("PILOT_DEMO_MORE_ALLOCATIONS", "1")],
        &dir,
    );
    let out = text(&o);
    // 3 to 4 allocations a unit, exactly: +33.3%, a regression whatever the time did.
    assert_eq!(o.status.code(), Some(3), "{out}");
    assert!(out.contains("allocations +33.3% regressed"), "{out}");
}
