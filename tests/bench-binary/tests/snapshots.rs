//! Snapshots of what a pilot bench binary prints (`tests/bench-binary/src/bin/demo_benches.rs`, started
//! as a process), so that a change to what a user sees reaches its reviewer as a diff of a file
//! in `tests/snapshots/`.
//!
//! Each snapshot starts with the command line, then the exit code, standard output and standard
//! error. The help, the lists and the usage errors are exact; test mode has only its duration
//! redacted; a measured run goes through `common::redact_timed`, which keeps its shape and
//! redacts its numbers.
//!
//! After a deliberate change of an output: `INSTA_UPDATE=always cargo test -p bench-binary
//! --test bench_binary_snapshots` (or `cargo insta review`), then read the diff of the `.snap`
//! files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

// The helpers the end-to-end tests of cargo-pilot share.
#[path = "../../../crates/cargo-pilot/tests/common/mod.rs"]
mod common;

const DEMO: &str = env!("CARGO_BIN_EXE_demo_benches");

/// A fresh folder for one test, the target directory of its runs.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("snapshots-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The demo bench binary with `args`, its results under `target_dir`, no `PILOT_*` setting
/// of the environment of the test and no backtrace of a bench's panic.
fn demo(args: &[&str], target_dir: &Path) -> Output {
    let mut cmd = Command::new(DEMO);
    cmd.args(args)
        .env("CARGO_TARGET_DIR", target_dir)
        .env_remove("RUST_BACKTRACE");
    for (k, _) in std::env::vars() {
        if k.starts_with("PILOT_") {
            cmd.env_remove(k);
        }
    }
    cmd.output().unwrap()
}

fn command_line(args: &[&str]) -> String {
    let mut words = vec!["demo_benches"];
    words.extend_from_slice(args);
    common::command_line(&words)
}

/// `demo_benches ARGS`: its command line, then what it printed.
fn exact(args: &[&str], target_dir: &Path) -> String {
    format!(
        "{}\n{}",
        command_line(args),
        common::shown(&demo(args, target_dir))
    )
}

#[test]
fn help() {
    let dir = scratch("help");
    let text = exact(&["--help"], &dir);
    insta::assert_snapshot!(text);
}

/// The lists nextest and users read: every bench, names only, the ignored ones.
#[test]
fn lists() {
    let dir = scratch("lists");
    let text = [
        exact(&["--list"], &dir),
        exact(&["--list", "--format", "terse"], &dir),
        exact(&["--list", "--ignored"], &dir),
        exact(&["--list", "--exact", "add"], &dir),
    ]
    .join("\n");
    insta::assert_snapshot!(text);
}

#[test]
fn usage_errors() {
    let dir = scratch("usage");
    let text = [
        exact(&["--bench", "--ci", "7"], &dir),
        exact(&["--bogus"], &dir),
        exact(&["--bench", "--max-time"], &dir),
    ]
    .join("\n");
    insta::assert_snapshot!(text);
}

/// Test mode, as `cargo test --benches` runs it: each bench once, reported as libtest does;
/// then the ignored bench, which panics. The time it took is redacted, and the panicking run
/// shows only its standard output: the panic message on standard error is Rust's own format.
#[test]
fn test_mode() {
    let dir = scratch("test-mode");
    let finished = regex::Regex::new(r"finished in \d+\.\d+s").unwrap();
    let o = demo(&[], &dir);
    let passing = format!("{}\n{}", command_line(&[]), common::shown(&o));
    let mut o = demo(&["--ignored"], &dir);
    o.stderr.clear();
    let failing = format!("{}\n{}", command_line(&["--ignored"]), common::shown(&o));
    let text = format!("{passing}\n{failing}");
    let text = finished.replace_all(&text, "finished in [time]");
    insta::assert_snapshot!("test_mode", text);
}

/// Benchmark mode with a short cap: one bench of each form (micro, full with a throughput
/// unit, readings-only), the progress lines, the table and where the results went; then the
/// micro bench with libtest's bencher line. Numbers redacted.
#[test]
fn bench_mode() {
    let dir = scratch("bench-mode");
    let shown = |args: &[&str]| {
        let mut o = demo(args, &dir);
        for out in [&mut o.stdout, &mut o.stderr] {
            let text = String::from_utf8_lossy(out).replace(&dir.display().to_string(), "[target]");
            *out = text.into_bytes();
        }
        format!("{}\n{}", command_line(args), common::shown_timed(&o))
    };
    // Long enough for every form to reach an estimate on a busy machine: a bench without one
    // prints another line.
    let text = shown(&["--bench", "--max-time", "0.5"]);
    insta::assert_snapshot!("bench_mode", text);
    let text = shown(&[
        "--bench",
        "--max-time",
        "0.1",
        "--output-format",
        "bencher",
        "--exact",
        "add",
    ]);
    insta::assert_snapshot!("bench_mode_bencher_format", text);
}

/// Colour only when asked for or on a terminal: a pipe stays plain, `--color always` colours
/// the status, and `--verbose` gives the table every column and each bench's warnings.
#[test]
fn colour_and_verbose() {
    let dir = scratch("colour");
    let run = |extra: &[&str]| {
        let mut args = vec!["--bench", "--max-time", "0.1", "add", "sum_1k"];
        args.extend_from_slice(extra);
        String::from_utf8_lossy(&demo(&args, &dir).stdout).into_owned()
    };
    let plain = run(&[]);
    assert!(!plain.contains('\u{1b}'), "{plain:?}");
    let coloured = run(&["--color", "always"]);
    assert!(coloured.contains("\u{1b}["), "{coloured:?}");
    let never = run(&["--color", "never"]);
    assert!(!never.contains('\u{1b}'), "{never:?}");
    // The compact table has the columns a person compares; --verbose has every one.
    let header = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("bench "))
            .unwrap_or_else(|| panic!("no table in {text}"))
            .to_string()
    };
    assert!(!header(&plain).contains("samples"), "{plain}");
    let verbose = run(&["--verbose"]);
    assert!(header(&verbose).contains("samples"), "{verbose}");
    let wide = run(&["--format", "wide"]);
    assert!(header(&wide).contains("rounds"), "{wide}");
}
