//! The TSC timer end to end (`--timer tsc`, issue 31), and settings given to a bench binary as
//! flags reaching the processes it starts: `tests/bench-binary/src/bin/demo_counting.rs` started as a
//! process, its results read back.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The demo bench binary with `args`, its results under `dir`, no `PILOT_*` setting from the
/// test's own environment.
fn demo(args: &[&str], dir: &Path) -> Output {
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
    command.output().unwrap()
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pilot-timer-{}-{test}", std::process::id()));
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

fn result(dir: &Path, name: &str) -> Value {
    let path = dir
        .join("pilot/results/demo_counting")
        .join(format!("{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// Whether the kernel found an invariant TSC: Linux sets `nonstop_tsc` from the same CPUID bit
/// (leaf 0x8000_0007, EDX bit 8) pilot reads, so this is an independent answer. `None` where
/// there is no /proc/cpuinfo to ask.
fn kernel_says_invariant() -> Option<bool> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let flags = info.lines().find(|l| l.starts_with("flags"))?;
    Some(cfg!(target_arch = "x86_64") && flags.split_whitespace().any(|f| f == "nonstop_tsc"))
}

#[test]
fn the_tsc_times_units_where_it_is_invariant_and_is_refused_elsewhere() {
    let Some(invariant) = kernel_says_invariant() else {
        return;
    };
    let dir = scratch("tsc");
    let o = demo(
        &[
            "--bench",
            "--timer",
            "tsc",
            "--processes",
            "2",
            "--max-time",
            "1",
            "--verbose",
            "--exact",
            "three_allocations",
        ],
        &dir,
    );
    let out = text(&o);
    if !invariant {
        assert_eq!(o.status.code(), Some(1), "{out}");
        assert!(out.contains("cannot be used on this machine"), "{out}");
        assert!(!dir.join("pilot/results").exists());
        return;
    }
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("clock: TSC at "), "{out}");
    let r = result(&dir, "three_allocations");
    assert_eq!(r["clock"]["timer"], "tsc", "{}", r["clock"]);
    let ghz = r["clock"]["tsc_ghz"].as_f64().unwrap();
    assert!((0.05..=20.0).contains(&ghz), "{ghz}");
    let time = &r["pis"][0];
    assert!(time["mean"].as_f64().unwrap() > 0.0, "{time}");
    // The environment variable says the same as the flag.
    let o = Command::new(env!("CARGO_BIN_EXE_demo_counting"))
        .args([
            "--bench",
            "--processes",
            "1",
            "--max-time",
            "0.3",
            "--exact",
            "no_allocation",
        ])
        .env("CARGO_TARGET_DIR", &dir)
        .env("PILOT_TIMER", "tsc")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(result(&dir, "no_allocation")["clock"]["timer"], "tsc");
}

#[test]
fn instant_stays_the_default_and_an_unknown_timer_is_a_usage_error() {
    let dir = scratch("instant");
    let o = demo(
        &[
            "--bench",
            "--processes",
            "1",
            "--max-time",
            "0.3",
            "--exact",
            "no_allocation",
        ],
        &dir,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let clock = &result(&dir, "no_allocation")["clock"];
    assert!(clock.get("timer").is_none(), "{clock}");
    let o = demo(&["--bench", "--timer", "hpet"], &dir);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--timer"), "{}", text(&o));
}

#[test]
fn flags_reach_the_processes_a_bench_runs_in() {
    // The recording overhead is measured in each process of a full-form bench: with
    // `--no-overhead-check` given to the parent as a flag, none of them measures it.
    let dir = scratch("inherit");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "--bench",
            "--processes",
            "2",
            // A second a process: time for the overhead's blocks (a sixth of a session at
            // most) however a busy machine slows the rounds.
            "--max-time",
            "2",
            "--exact",
            "three_allocations",
        ];
        args.extend(extra);
        let o = demo(&args, &dir);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        result(&dir, "three_allocations")
    };
    let measured = run(&[]);
    assert!(measured["processes"]["count"].as_u64().unwrap() >= 2);
    assert!(
        measured["overhead"]["blocks"].as_u64().unwrap() > 0,
        "{measured}"
    );
    let skipped = run(&["--no-overhead-check"]);
    assert!(skipped.get("overhead").is_none(), "{}", skipped["overhead"]);
}
