//! End-to-end tests of pilot-criterion: the fixture's criterion bench file (`tests/fixture-bench/
//! benches/crit.rs`, written against criterion's API) run by the bench binary itself and by
//! `cargo pilot bench`, with baselines, a regression, a panicking bench, and libtest's protocol.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

mod common;

fn manifest() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixture-bench/Cargo.toml")
}

/// Its own target directory: the other fixture tests may build theirs at the same time.
fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixture-criterion")
}

/// `cargo pilot ARGS` on the fixture's criterion target, with the fixture's cost.
fn pilot(args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut cmd = common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"));
    cmd.args(args)
        .args([
            "--features",
            "criterion",
            "--bench",
            "crit",
            "--manifest-path",
        ])
        .arg(manifest())
        .env("CARGO_TARGET_DIR", target_dir())
        .env("CARGO_BUILD_BUILD_DIR", common::fixture_build_dir())
        .env("CI", "1")
        .envs(envs.iter().copied());
    cmd.output().unwrap()
}

/// The bench executable cargo builds for `crit`, built now (once per test process).
fn crit_exe() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            common::fixture_bench_executable(&manifest(), "criterion", "crit", &target_dir())
        })
        .clone()
}

fn run_exe(args: &[&str], envs: &[(&str, &str)]) -> Output {
    // The executable is in the shared build directory, three levels under which pilot would
    // put its results: they go to this test's target directory instead.
    let mut cmd = Command::new(crit_exe());
    cmd.args(args)
        .current_dir(target_dir())
        .env("CARGO_TARGET_DIR", target_dir());
    for (k, _) in std::env::vars() {
        if k.starts_with("PILOT_") {
            cmd.env_remove(k);
        }
    }
    cmd.envs(envs.iter().copied()).output().unwrap()
}

const QUICK: &[&str] = &["--max-time", "1", "--ci", "0.05", "--processes", "3"];

fn read(path: PathBuf) -> Value {
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap()
}

// One function: each step starts from the baseline the one before saved.
#[test]
fn criterion_benches_run_under_pilot_with_baselines() {
    // Only this test's baseline: the tests beside it keep their files under the same
    // `pilot` folder (the rankings `--compare-across` saved, read back by its report).
    let _ = std::fs::remove_dir_all(target_dir().join("pilot/baselines/crit"));

    // 1. `cargo pilot bench` finds the target through pilot-criterion and saves a baseline
    //    under criterion's ids, with the group's throughput.
    let mut args = vec!["bench", "--save-baseline", "crit"];
    args.extend_from_slice(QUICK);
    let o = pilot(&args, &[("PILOT_FIXTURE_COST", "1")]);
    let out = common::text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("crit/mix/spin/2000"), "{out}");
    assert!(out.contains("crit/may_panic"), "{out}");
    let doc = read(target_dir().join("pilot/baselines/crit/crit/mix/spin/2000.json"));
    assert_eq!(doc["schema"], "pilot.result/1");
    assert_eq!(doc["name"], "mix/spin/2000");
    assert_eq!(doc["form"], "micro");
    assert!(doc["processes"]["count"].as_u64().unwrap() >= 2);
    // `Throughput::Elements(2000)`: 2000 elements per iteration, from the time per iteration.
    let (time, rate) = (&doc["pis"][0], &doc["pis"][1]);
    assert_eq!(rate["name"], "throughput");
    assert_eq!(rate["unit"], "elem/s");
    let expected = 2000.0 / (time["mean"].as_f64().unwrap() * 1e-9);
    assert!((rate["mean"].as_f64().unwrap() / expected - 1.0).abs() < 1e-9);
    // Built by `cargo bench`'s profile: no debug-build warning.
    let checks = doc["checks"].as_array().unwrap();
    assert!(
        checks.iter().all(|c| c["kind"] != "debug_build"),
        "{checks:?}"
    );

    // 2. Four times the work, compared with the baseline: a regression (exit 3) when a few
    //    processes a side make it significant, which a busy machine may not allow (then
    //    undecided, exit 0); the verdict's rule is the engine's, tested on fixed estimates.
    let mut args = vec!["bench", "--baseline", "crit"];
    args.extend_from_slice(QUICK);
    let o = pilot(&args, &[("PILOT_FIXTURE_COST", "4")]);
    let out = common::text(&o);
    match o.status.code() {
        Some(3) => assert!(out.contains("regressed"), "{out}"),
        Some(0) => assert!(out.contains("undecided"), "{out}"),
        _ => panic!("{out}"),
    }

    // 3. The binary itself, as `cargo bench` runs it: a criterion flag translated
    //    (`--measurement-time`), one filtered out, results under target/pilot/results.
    //    The settings are read from this run's own document: the group test beside this one
    //    writes the same results file at the same time.
    let json = target_dir().join("measurement-time.json");
    let o = run_exe(
        &[
            "--bench",
            "--noplot",
            "--measurement-time",
            "0.5",
            "--ci",
            "0.05",
            "--json",
            json.to_str().unwrap(),
            "spin",
        ],
        &[],
    );
    let out = common::text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("mix/spin/2000"), "{out}");
    assert!(
        !out.contains("may_panic") && !out.contains("quarter"),
        "filtered: {out}"
    );
    assert!(
        target_dir()
            .join("pilot/results/crit/mix/spin/2000.json")
            .exists()
    );
    let doc = read(json);
    let spin = doc["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "mix/spin/2000")
        .unwrap_or_else(|| panic!("no mix/spin/2000 in {doc}"));
    assert_eq!(spin["config"]["max_time"], 0.5);

    // 4. A bench that panics fails alone: the other still runs, exit code 1.
    let o = run_exe(
        &["--bench", "--max-time", "0.3", "--ci", "0.05"],
        &[("PILOT_FIXTURE_PANIC", "1")],
    );
    let out = common::text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("may_panic ")
                && l.ends_with("FAILED: the fixture was asked to fail")),
        "{out}"
    );
    assert!(out.contains("mix/spin/2000"), "{out}");
}

#[test]
fn criterion_benches_speak_libtests_protocol() {
    let o = pilot(&["list"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", common::text(&o));
    assert!(common::text(&o).contains("mix/quarter/2000"));

    let o = run_exe(&["--list"], &[]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        out,
        "mix/spin/2000: benchmark\nmix/quarter/2000: benchmark\nmay_panic: benchmark\n\n3 benchmarks\n",
        "{out}"
    );
    let o = run_exe(
        &["--list", "--format", "terse", "--exact", "may_panic"],
        &[],
    );
    assert_eq!(String::from_utf8_lossy(&o.stdout), "may_panic: benchmark\n");

    // Test mode (`cargo test --benches`, nextest): one iteration each, libtest's lines.
    let o = run_exe(&[], &[]);
    let out = common::text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("test mix/spin/2000 ... ok"), "{out}");
    assert!(out.contains("test result: ok. 3 passed; 0 failed"), "{out}");
    let o = run_exe(&["--exact", "may_panic"], &[("PILOT_FIXTURE_PANIC", "1")]);
    let out = common::text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("test may_panic ... FAILED"), "{out}");
    assert!(out.contains("2 filtered out"), "{out}");

    // criterion's `--load-baseline` has no meaning here: a usage error saying what to use.
    let o = run_exe(&["--bench", "--load-baseline", "x"], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(common::text(&o).contains("cargo pilot compare"));
}

#[test]
fn compare_groups_ranks_a_criterion_groups_alternatives_interleaved() {
    let o = pilot(
        &[
            "bench",
            "--max-time",
            "1",
            "--ci",
            "0.05",
            "--compare-groups",
            "mix/",
        ],
        &[],
    );
    let out = common::text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    // Ranked among the benches on the same input, fastest first, with a verdict.
    let group = out
        .split_once("group mix/2000 (")
        .unwrap_or_else(|| panic!("no ranking of mix/2000: {out}"))
        .1;
    let quarter = group.find("mix/quarter/2000").expect("quarter ranked");
    let spin = group.find("mix/spin/2000").expect("spin ranked");
    assert!(quarter < spin, "a quarter of the work ranks first: {out}");
    let spin_line = group
        .lines()
        .find(|l| l.contains("  mix/spin/2000"))
        .unwrap();
    // A verdict beside it, read against the quarter: `slower` when the cap allowed enough
    // processes to settle it (with a caveat when few rounds were analysed), else undecided.
    assert!(
        spin_line.contains("slower") || spin_line.trim_end().ends_with("undecided"),
        "{out}"
    );
    // Interleaved by processes: every member ran in several.
    for name in ["mix/spin/2000", "mix/quarter/2000"] {
        let file = format!("pilot/results/crit/{name}.json");
        let doc = read(target_dir().join(file));
        assert!(doc["processes"]["count"].as_u64().unwrap() >= 2, "{name}");
    }
}

/// The estimate of `may_panic` (200 mixing steps) from one run of the binary, with `envs`.
fn may_panic_estimate(tag: &str, envs: &[(&str, &str)]) -> f64 {
    let json = target_dir().join(format!("twice-{tag}.json"));
    let o = run_exe(
        &[
            "--bench",
            "--max-time",
            "0.5",
            "--ci",
            "0.05",
            "--exact",
            "may_panic",
            "--json",
            json.to_str().unwrap(),
        ],
        envs,
    );
    assert_eq!(o.status.code(), Some(0), "{}", common::text(&o));
    let doc = read(json);
    let result = &doc["results"][0];
    assert_eq!(result["name"], "may_panic");
    result["pis"][0]["mean"].as_f64().unwrap()
}

// criterion keeps the last routine's time when a bench function calls `b.iter` twice; mixing
// both routines' units made "no steady state" and a time between the two.
#[test]
fn a_second_iter_call_replaces_the_first() {
    let once = may_panic_estimate("once", &[]);
    let twice = may_panic_estimate("twice", &[("PILOT_FIXTURE_TWICE", "1")]);
    // The first routine costs a hundred times the second: any of its units left in the
    // estimate would move it tens of times, far beyond what two runs a few seconds apart
    // differ by on a busy machine. (The rule itself is the engine's bencher test
    // `a_second_iter_call_replaces_the_first_calls_readings`.)
    let ratio = twice / once;
    assert!(
        (0.1..10.0).contains(&ratio),
        "twice {twice} ns, once {once} ns"
    );
}

/// `--list --format terse ARGS` of the crit binary: exit code, the ids, standard error.
fn listed(args: &[&str]) -> (Option<i32>, Vec<String>, String) {
    let o = run_exe(&[&["--list", "--format", "terse"], args].concat(), &[]);
    let ids = String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| l.strip_suffix(": benchmark").map(String::from))
        .collect();
    (
        o.status.code(),
        ids,
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

#[test]
fn filters_are_regular_expressions_as_criterions_are() {
    // Alternation, anchors and classes, matched anywhere in the id unless anchored.
    let (code, ids, _) = listed(&["mix/(spin|quarter)/[0-9]+$"]);
    assert_eq!(code, Some(0));
    assert_eq!(ids, ["mix/spin/2000", "mix/quarter/2000"]);
    assert_eq!(listed(&["^may"]).1, ["may_panic"]);
    assert_eq!(
        listed(&["quarter|panic"]).1,
        ["mix/quarter/2000", "may_panic"]
    );
    assert_eq!(listed(&["mix/s", "--skip", "^mix/q"]).1, ["mix/spin/2000"]);
    // `--exact` takes the id as written.
    assert_eq!(listed(&["--exact", "mix/spin/2000"]).1, ["mix/spin/2000"]);
    assert!(listed(&["--exact", "mix/spin"]).1.is_empty());
    // No match: said, exit code 0 (cargo gives every bench target the same filters).
    let (code, ids, err) = listed(&["^spin"]);
    assert_eq!((code, ids.len()), (Some(0), 0));
    assert_eq!(
        err.trim(),
        "pilot: no bench matches `^spin` (read as a regular expression)"
    );
    // An invalid expression is a usage error naming it, in every mode, before anything runs.
    for mode in [&["--list"][..], &["--bench"], &[]] {
        let o = run_exe(&[mode, &["mix/(spin"]].concat(), &[]);
        assert_eq!(o.status.code(), Some(2), "{}", common::text(&o));
        assert_eq!(
            String::from_utf8_lossy(&o.stderr).trim(),
            "error: filter `mix/(spin` is not a valid regular expression: unclosed group (this \
             bench binary reads filters as regular expressions, as criterion does; `--exact \
             NAME` matches a name as written)"
        );
        assert!(o.stdout.is_empty(), "{}", common::text(&o));
    }
    let o = run_exe(&["--list", "--compare-across", "Lib(A"], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .starts_with("error: --compare-across `Lib(A` is not a valid regular expression")
    );
    // --help says how filters are read.
    let help = String::from_utf8_lossy(&run_exe(&["--help"], &[]).stdout).to_string();
    assert!(
        help.contains("match one of these regular expressions"),
        "{help}"
    );

    // `cargo pilot bench` forwards them: the binary decides, and only across all targets is
    // a filter that matches nothing a mistake, found before anything runs.
    let o = pilot(
        &[
            "bench",
            "--max-time",
            "0.3",
            "--processes",
            "1",
            "^may_panic$|zzz",
        ],
        &[],
    );
    let out = common::text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("may_panic") && !out.contains("mix/spin"),
        "{out}"
    );
    let o = pilot(&["bench", "^spin"], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", common::text(&o));
    assert!(
        common::text(&o).contains("no bench of any bench target matches `^spin`"),
        "{}",
        common::text(&o)
    );
    assert!(!common::text(&o).contains("== crit"), "nothing ran");
    for args in [
        &["bench", "mix/(spin"][..],
        &["bench", "--compare-across", "("],
    ] {
        let o = pilot(args, &[]);
        let out = common::text(&o);
        assert_eq!(o.status.code(), Some(2), "{out}");
        assert!(
            out.contains("bench target `crit`: ")
                && out.contains("is not a valid regular expression"),
            "{out}"
        );
        assert!(!out.contains("== crit"), "nothing ran: {out}");
    }
}

#[test]
fn compare_across_ranks_one_function_across_groups_and_the_report_shows_it() {
    let libs = [("PILOT_FIXTURE_LIBS", "1")];
    // The binary as `cargo bench` runs it: each operation of LibA against LibB's, a group of
    // its own; `LibA::only` has no partner and runs alone.
    let json = target_dir().join("across.json");
    let o = run_exe(
        &[
            "--bench",
            "--compare-across",
            "LibA|LibB",
            "--max-time",
            "1",
            "--json",
            json.to_str().unwrap(),
            "^Lib",
        ],
        &libs,
    );
    let out = common::text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("`LibA_2000/LibA::only` has no partner under --compare-across `LibA|LibB`"),
        "{out}"
    );
    let doc = read(json);
    let groups = doc["groups"].as_array().unwrap();
    let names: Vec<&str> = groups.iter().map(|g| g["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["*_2000/*::mix", "*_2000/*::half"], "{out}");
    for g in groups {
        // LibB does twice the work: ranked second, `faster` by Welch over the processes.
        let ranking: Vec<&str> = g["ranking"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert!(ranking[0].starts_with("LibA_2000/"), "{g}");
        assert!(ranking[1].starts_with("LibB_2000/"), "{g}");
        // Twice the work ranks second on any machine; whether a one-second cap makes the
        // difference significant is the machine's to decide.
        let verdict = g["pairs"][0]["verdict"].as_str().unwrap();
        assert!(["faster", "undecided"].contains(&verdict), "{g}");
        assert!(g["pairs"][0]["ratio"].as_f64().unwrap() > 1.0, "{g}");
        assert!(g["interleaved"].as_bool().unwrap());
    }
    for r in doc["results"].as_array().unwrap() {
        if r["name"] != "LibA_2000/LibA::only" {
            assert!(r["processes"]["count"].as_u64().unwrap() >= 2, "{r}");
        }
    }
    assert!(
        out.contains("group *_2000/*::mix ("),
        "the ranking is printed: {out}"
    );

    // The rankings are saved where `cargo pilot report` finds them, with no run document given.
    let saved = read(target_dir().join("pilot/rankings/crit.json"));
    assert_eq!(saved["schema"], "pilot.rankings/1");
    let report = common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"))
        .args(["report", "--manifest-path"])
        .arg(manifest())
        .env("CARGO_TARGET_DIR", target_dir())
        .env("CARGO_BUILD_BUILD_DIR", common::fixture_build_dir())
        .output()
        .unwrap();
    assert_eq!(report.status.code(), Some(0), "{}", common::text(&report));
    let html = std::fs::read_to_string(target_dir().join("pilot/report/index.html")).unwrap();
    assert!(html.contains("<section id=\"groups\">"));
    assert!(
        html.contains("group *_2000/*::mix</h3>"),
        "no ranking in the report"
    );
    assert!(html.contains("LibB_2000/LibB::half"));

    // `cargo pilot bench` forwards the pattern; the report then shows each ranking once.
    let o = pilot(
        &[
            "bench",
            "--compare-across",
            "LibA|LibB",
            "--max-time",
            "1",
            "::half$",
        ],
        &libs,
    );
    let out = common::text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("group *_2000/*::half ("), "{out}");
    let report = common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"))
        .args(["report", "--manifest-path"])
        .arg(manifest())
        .env("CARGO_TARGET_DIR", target_dir())
        .env("CARGO_BUILD_BUILD_DIR", common::fixture_build_dir())
        .output()
        .unwrap();
    assert_eq!(report.status.code(), Some(0), "{}", common::text(&report));
    let html = std::fs::read_to_string(target_dir().join("pilot/report/index.html")).unwrap();
    assert_eq!(html.matches("group *_2000/*::half</h3>").count(), 1);
    assert_eq!(html.matches("group *_2000/*::mix</h3>").count(), 1);
}

/// A `--compare-across` pattern that matches no bench's id: the benches are measured as usual,
/// and a note on standard error names the pattern; exit code 0, as libtest's for a filter that
/// matches nothing (cargo gives every bench target the same flags).
#[test]
fn compare_across_that_matches_nothing_says_so() {
    let o = run_exe(
        &[
            "--bench",
            "--compare-across",
            "LibC|LibD",
            "--max-time",
            "0.3",
            "--processes",
            "1",
            "^may_panic$",
        ],
        &[("PILOT_FIXTURE_LIBS", "1")],
    );
    let out = common::text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("may_panic"), "measured as usual: {out}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(
            "pilot: --compare-across `LibC|LibD` matched no bench (of 1 measured): nothing was \
             compared across groups"
        ),
        "{out}"
    );
    // A pattern that pairs benches says nothing of the kind.
    let o = run_exe(
        &[
            "--bench",
            "--compare-across",
            "LibA|LibB",
            "--max-time",
            "0.3",
            "--processes",
            "1",
            "::half$",
        ],
        &[("PILOT_FIXTURE_LIBS", "1")],
    );
    assert_eq!(o.status.code(), Some(0), "{}", common::text(&o));
    assert!(
        !common::text(&o).contains("matched no bench"),
        "{}",
        common::text(&o)
    );
}

/// A reader that closed the pipe (`crit --list | head -1`) ends the listing, or a measured
/// run, quietly: exit code 0, nothing on standard error, where println! panicked.
#[cfg(unix)]
#[test]
fn a_closed_standard_output_ends_the_run_quietly() {
    for args in [
        &["--list"][..],
        &["--list", "--format", "terse"],
        &[
            "--bench",
            "--max-time",
            "0.3",
            "--processes",
            "1",
            "^may_panic$",
        ],
    ] {
        let o = Command::new(crit_exe())
            .args(args)
            .current_dir(target_dir())
            .stdout(common::closed_pipe())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", common::text(&o));
        assert!(o.stderr.is_empty(), "{args:?}: {}", common::text(&o));
    }
}
