//! End-to-end tests of pilot-divan: the fixture's divan bench file (`tests/fixture-bench/
//! benches/dvn.rs`, written against divan's API) run by the bench binary itself and by
//! `cargo pilot bench`: divan's ids and regular-expression filters, test mode, a measured run
//! with a counter's throughput and thread counts, a panicking bench, a bad filter.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

mod common;

fn manifest() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixture-bench/Cargo.toml")
}

/// Its own target directory: the other fixture tests may build theirs at the same time.
fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixture-divan")
}

/// The bench executable cargo builds for `dvn`, built now (once per test process).
fn dvn_exe() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            common::fixture_bench_executable(&manifest(), "divan", "dvn", &target_dir())
        })
        .clone()
}

fn run_exe(args: &[&str], envs: &[(&str, &str)]) -> Output {
    // The executable is in the shared build directory, three levels under which pilot would
    // put its results: they go to this test's target directory instead.
    let mut cmd = Command::new(dvn_exe());
    cmd.args(args)
        .current_dir(target_dir())
        .env("CARGO_TARGET_DIR", target_dir());
    for (k, _) in std::env::vars() {
        if k.starts_with("PILOT_") || k.starts_with("DIVAN_") || k == "NEXTEST" {
            cmd.env_remove(k);
        }
    }
    cmd.envs(envs.iter().copied()).output().unwrap()
}

/// The ids `--list --format terse` prints (what cargo-nextest reads).
fn listed(args: &[&str]) -> Vec<String> {
    listed_with(args, &[])
}

/// pilot's bench names, a thread count each: the terse list `cargo pilot` asks for.
fn names(args: &[&str]) -> Vec<String> {
    listed_with(args, &[("PILOT_LIST_NAMES", "1")])
}

fn listed_with(args: &[&str], envs: &[(&str, &str)]) -> Vec<String> {
    let mut all = vec!["--list", "--format", "terse"];
    all.extend_from_slice(args);
    let o = run_exe(&all, envs);
    assert!(o.status.success(), "{}", common::text(&o));
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| l.strip_suffix(": benchmark").unwrap().to_string())
        .collect()
}

#[test]
fn divan_ids_and_filters() {
    // divan's ids: the crate (bench target) first, the group's name for its module, the
    // argument, the type; one id for all of a bench's thread counts, as divan lists them for
    // cargo-nextest.
    assert_eq!(
        listed(&[]),
        [
            "dvn::mixing::spin::500",
            "dvn::mixing::spin::2000",
            "dvn::mixing::on_threads",
            "dvn::width::u8",
            "dvn::width::u64",
            "dvn::may_panic",
        ]
    );
    // pilot's names, which `cargo pilot` runs and reads results under: the thread counts after
    // the id.
    assert_eq!(
        names(&[]),
        [
            "dvn::mixing::spin::500",
            "dvn::mixing::spin::2000",
            "dvn::mixing::on_threads::t=1",
            "dvn::mixing::on_threads::t=2",
            "dvn::width::u8",
            "dvn::width::u64",
            "dvn::may_panic",
        ]
    );
    // A regular expression, as divan reads its filters.
    assert_eq!(
        listed(&["spin::(500|2000)$", "u64$"]),
        [
            "dvn::mixing::spin::500",
            "dvn::mixing::spin::2000",
            "dvn::width::u64"
        ]
    );
    // `--exact` on divan's id selects all its thread counts; on a name, that count.
    assert_eq!(
        names(&["--exact", "dvn::mixing::on_threads"]),
        [
            "dvn::mixing::on_threads::t=1",
            "dvn::mixing::on_threads::t=2"
        ]
    );
    assert_eq!(
        names(&["--exact", "dvn::mixing::on_threads::t=2"]),
        ["dvn::mixing::on_threads::t=2"]
    );
    assert_eq!(
        listed(&["--exact", "dvn::mixing::on_threads::t=2"]),
        ["dvn::mixing::on_threads"]
    );
    // `--skip` wins over a filter; divan's own flags are accepted.
    assert_eq!(
        listed(&[
            "mixing",
            "--skip",
            "t=\\d",
            "--sample-count",
            "10",
            "--timer",
            "os"
        ]),
        ["dvn::mixing::spin::500", "dvn::mixing::spin::2000"]
    );
    // `--threads` is every bench's thread counts, as in divan.
    assert_eq!(
        names(&["width::u8", "--threads", "1,3"]),
        ["dvn::width::u8::t=1", "dvn::width::u8::t=3"]
    );
    assert_eq!(
        listed(&["width::u8", "--threads", "1,3"]),
        ["dvn::width::u8"]
    );
    // A filter that is not a regular expression is a usage error, before anything runs.
    let o = run_exe(&["--bench", "spin("], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", common::text(&o));
    assert!(
        common::text(&o).contains("filter `spin(` is not a regular expression"),
        "{}",
        common::text(&o)
    );
    // pilot's probe: a pilot binary.
    let o = run_exe(&["--list"], &[("PILOT_PROBE", "1")]);
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("pilot-harness "));
}

/// `--list` prints divan's tree of the fixture's benches, written here by hand from divan
/// 0.1.21's `tree_painter.rs`: the crate, then at each level the benches before the groups and
/// generic functions, by name (`u8` before `u64`), `├─ ` and `╰─ ` before each, `│  ` below a
/// node with siblings after it, no arguments or thread counts, an empty line after the crate;
/// `(ignored)` past the widest name (the arguments' count, a level below their bench) for each
/// bench the run leaves out.
#[test]
fn list_prints_divans_tree() {
    let tree = |args: &[&str]| {
        let mut all = vec!["--list"];
        all.extend_from_slice(args);
        let o = run_exe(&all, &[]);
        assert!(o.status.success(), "{}", common::text(&o));
        String::from_utf8(o.stdout).unwrap()
    };
    assert_eq!(
        tree(&[]),
        "\
dvn
├─ may_panic
├─ mixing
│  ├─ on_threads
│  ╰─ spin
╰─ width
   ├─ u8
   ╰─ u64

"
    );
    // With `--ignored`, every bench here is one the run leaves out.
    assert_eq!(
        tree(&["--ignored"]),
        "\
dvn
├─ may_panic      (ignored)
├─ mixing
│  ├─ on_threads  (ignored)
│  ╰─ spin        (ignored)
╰─ width
   ├─ u8          (ignored)
   ╰─ u64         (ignored)

"
    );
    // divan's `--sortr kind`: descending, groups first.
    assert_eq!(
        tree(&["--sortr", "kind"]),
        "\
dvn
├─ width
│  ├─ u64
│  ╰─ u8
├─ mixing
│  ├─ spin
│  ╰─ on_threads
╰─ may_panic

"
    );
    // What the filters select, as the run would.
    assert_eq!(tree(&["spin"]), "dvn\n╰─ mixing\n   ╰─ spin\n\n");
    assert_eq!(tree(&["nothing-matches"]), "");
    // A reader that closed the pipe (`| head -1`) ends the listing quietly.
    #[cfg(unix)]
    for args in [&["--list"][..], &["--list", "--format", "terse"]] {
        let o = Command::new(dvn_exe())
            .args(args)
            .stdout(common::closed_pipe())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", common::text(&o));
        assert!(o.stderr.is_empty(), "{args:?}: {}", common::text(&o));
    }
}

#[test]
fn test_mode_runs_each_once_and_reports_a_panic() {
    let o = run_exe(&[], &[]);
    let out = common::text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("test dvn::mixing::on_threads::t=2 ... ok"),
        "{out}"
    );
    assert!(out.contains("test result: ok. 7 passed"), "{out}");
    let o = run_exe(&["may_panic"], &[("PILOT_FIXTURE_PANIC", "1")]);
    let out = common::text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("the fixture was asked to fail"), "{out}");
}

fn read(path: PathBuf) -> Value {
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap()
}

#[test]
fn measured_with_a_counters_throughput_and_thread_counts() {
    let json = target_dir().join("measured.json");
    let o = run_exe(
        &[
            "--bench",
            "spin::2000|on_threads",
            // Half a second a process: time for an estimate on a busy machine too.
            "--max-time",
            "1",
            "--ci",
            "0.05",
            "--processes",
            "2",
            "--json",
        ]
        .into_iter()
        .chain([json.to_str().unwrap()])
        .collect::<Vec<_>>(),
        &[],
    );
    let out = common::text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let doc = read(json);
    let results = doc["results"].as_array().unwrap();
    let names: Vec<&str> = results
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "dvn::mixing::spin::2000",
            "dvn::mixing::on_threads::t=1",
            "dvn::mixing::on_threads::t=2"
        ]
    );
    for r in results {
        let time = &r["pis"][0];
        assert_eq!(time["name"], "time");
        assert!(time["ci"]["low"].as_f64().unwrap() <= time["mean"].as_f64().unwrap());
        assert!(time["mean"].as_f64().unwrap() <= time["ci"]["high"].as_f64().unwrap());
    }
    // `counter(ItemsCount::new(2000))`: 2000 items per iteration, from the time per iteration.
    let spin = &results[0];
    let rate = spin["pis"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "throughput")
        .expect("a throughput PI");
    assert_eq!(rate["unit"], "item/s");
    let expected = 2000.0 / (spin["pis"][0]["mean"].as_f64().unwrap() * 1e-9);
    assert!((rate["mean"].as_f64().unwrap() / expected - 1.0).abs() < 1e-9);
    // Two threads contend for the same cores' time: neither thread is faster than alone by
    // much (a sanity bound, not a timing claim: the readings are per thread's iteration).
    assert!(results[2]["pis"][0]["mean"].as_f64().unwrap() > 0.0);
}

#[test]
fn cargo_pilot_bench_finds_pilot_divan_targets() {
    let _ = dvn_exe();
    let mut cmd = common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"));
    cmd.args([
        "bench",
        "--features",
        "divan",
        "--bench",
        "dvn",
        "--max-time",
        "0.3",
        "--ci",
        "0.1",
        "--processes",
        "1",
        "width",
        "--manifest-path",
    ])
    .arg(manifest())
    .env("CARGO_TARGET_DIR", target_dir())
    .env("CARGO_BUILD_BUILD_DIR", common::fixture_build_dir())
    .env("CI", "1");
    let o = cmd.output().unwrap();
    let out = common::text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("dvn/dvn::width::u8"), "{out}");
    assert!(out.contains("dvn/dvn::width::u64"), "{out}");
    assert!(!out.contains("spin"), "{out}");
}
