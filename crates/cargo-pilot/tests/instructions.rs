//! End-to-end tests of `--instructions`: the real `cargo pilot` on the fixture workspace
//! `tests/fixture-bench`, its benches counted under Valgrind's callgrind.
//!
//! The `counts` target's benches execute blocks of `nop`s of known lengths, so their counts
//! are known by construction; `cost`'s `spin` is edited in a git repository to check that
//! `--against` flags a change of 0.5% more instructions and not an unchanged tree.
//!
//! Without `valgrind` on the PATH the tests that count say they skipped, unless
//! `PILOT_REQUIRE_VALGRIND=1` (as CI sets it, after installing Debian's `valgrind`): then they
//! fail. The test of a missing Valgrind's error runs everywhere.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

mod common;
use common::text;

const EXE: &str = env!("CARGO_BIN_EXE_cargo-pilot");

fn manifest() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixture-bench/Cargo.toml")
}

/// Its own target directory for results (`cargo_pilot.rs` starts from an empty one, and
/// nextest may run both at once); the build is the shared one.
fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixture-instructions")
}

/// `cargo pilot bench --instructions` on the fixture's target `target` (built with the feature
/// of its name) in one process a bench, its sessions capped at `max_time` seconds, its run
/// document written to `json`, with `args` after.
fn bench_counted(target: &str, max_time: &str, json: &Path, args: &[&str]) -> Output {
    let mut cmd = common::cargo_pilot(EXE);
    cmd.args(["bench", "--manifest-path"])
        .arg(manifest())
        .args(["--features", target, "--bench", target])
        .args(["--max-time", max_time, "--processes", "1", "--instructions"])
        .arg("--json")
        .arg(json)
        .args(args)
        .env("CARGO_TARGET_DIR", target_dir())
        .env("CARGO_BUILD_BUILD_DIR", common::fixture_build_dir())
        .env("CI", "1");
    cmd.output().unwrap()
}

/// `cargo pilot bench ARGS` on the fixture's `counts` target, short sessions: long enough that
/// a readings-only bench's fit usually finds a time per unit, with this binary's other tests
/// counting beside it.
fn bench_counts(args: &[&str], json: &Path) -> Output {
    bench_counted("counts", "0.6", json, args)
}

/// The `pi` PI of bench `name` in run document `run`: (mean, low, high).
fn pi(run: &Value, name: &str, pi: &str) -> (f64, f64, f64) {
    let doc = run["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == name)
        .unwrap_or_else(|| panic!("no result of `{name}` in {run:#}"));
    let p = doc["pis"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == pi)
        .unwrap_or_else(|| panic!("no `{pi}` PI of `{name}`: {doc:#}"));
    let f = |v: &Value| v.as_f64().unwrap();
    (f(&p["mean"]), f(&p["ci"]["low"]), f(&p["ci"]["high"]))
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_missing_valgrind_is_an_error_naming_its_package_before_anything_is_built() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("no-valgrind");
    std::fs::create_dir_all(&dir).unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    for against in [false, true] {
        let mut cmd = common::cargo_pilot(EXE);
        cmd.args(["bench", "--instructions", "--manifest-path"])
            .arg(manifest())
            .env("CARGO_TARGET_DIR", &dir)
            // An empty PATH: no valgrind (nor git); cargo is found through $CARGO.
            .env("PATH", &dir)
            .env("CARGO", &cargo);
        if against {
            cmd.args(["--against", "HEAD"]);
        }
        let o = cmd.output().unwrap();
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("valgrind is not installed")
                && err.contains("package `valgrind`")
                && err.contains("apt-get install valgrind"),
            "{}",
            text(&o)
        );
        assert!(!dir.join("release").exists(), "something was built");
    }
}

/// The `allocs` target's bench allocates once an iteration in `allocs::boxes`, twice in
/// `allocs::buffers` (both calling the C library's allocator, Rust's entry points inlined into
/// them) and once inside the standard library's `format!` for `allocs::text` (through
/// `__rust_alloc`): each allocation is counted once, at its call site, and the sites add up to
/// what the `CountingAlloc` counted in the timed processes.
#[test]
fn allocations_are_counted_once_each_at_their_call_sites() {
    if !common::valgrind_here() {
        return;
    }
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("instructions-allocs");
    std::fs::create_dir_all(&tmp).unwrap();
    let json = tmp.join("allocs.json");
    let o = bench_counted("allocs", "0.3", &json, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let run = read_json(&json);
    let (allocations, _, _) = pi(&run, "sites", "allocations");
    assert_eq!(allocations, 4.0);
    let doc = &run["results"][0];
    let sites = doc["counts"]["profile"]["allocation_sites"]
        .as_array()
        .unwrap_or_else(|| panic!("no allocation sites: {doc:#}"));
    let found: Vec<(&str, Vec<f64>)> = sites
        .iter()
        .map(|s| {
            let per_process = s["allocations"].as_array().unwrap();
            let values = per_process.iter().map(|v| v.as_f64().unwrap()).collect();
            (s["name"].as_str().unwrap(), values)
        })
        .collect();
    let expected = [
        ("allocs::buffers", 2.0),
        ("allocs::boxes", 1.0),
        ("allocs::text", 1.0),
    ];
    assert_eq!(found.len(), expected.len(), "{found:?}");
    for ((name, values), (want, per_iteration)) in found.iter().zip(expected) {
        assert_eq!(*name, want, "{found:?}");
        assert_eq!(values.len(), 3, "{found:?}");
        for v in values {
            assert!((v - per_iteration).abs() < 1e-9, "{found:?}");
        }
    }
}

#[test]
fn counts_known_by_construction_come_out_exact_and_are_compared_and_exported() {
    if !common::valgrind_here() {
        return;
    }
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("instructions");
    std::fs::create_dir_all(&tmp).unwrap();
    let first = tmp.join("first.json");
    let o = bench_counts(&["--save-baseline", "counted"], &first);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    // The table has the column, and each bench's line its count.
    assert!(out.contains("instructions"), "{out}");
    assert!(out.contains("instr 1,000 ± 0.00%"), "{out}");
    let run = read_json(&first);
    // 1 000 nops a unit, the switches around it taken off: 1 000 (a call site may add an
    // instruction or two around the unit's result).
    let (unit, low, high) = pi(&run, "unit_1000", "instructions");
    assert!((unit - 1000.0).abs() <= 2.0, "{unit}");
    assert_eq!((low, high), (unit, unit), "a count of nops does not vary");
    // Micro form: 300 and 100 nops an iteration, everything else alike: 200 apart exactly.
    let micro = pi(&run, "iter_300", "instructions").0 - pi(&run, "iter_100", "instructions").0;
    assert_eq!(micro, 200.0);
    // Readings-only: 150 and 50 nops a work unit: 100 apart exactly.
    let whole = pi(&run, "whole_150", "instructions").0 - pi(&run, "whole_50", "instructions").0;
    assert_eq!(whole, 100.0);
    // How they were counted: three processes, each with its count.
    let doc = run["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "unit_1000")
        .unwrap();
    assert_eq!(doc["counts"]["process_means"].as_array().unwrap().len(), 3);
    // Without a `CountingAlloc` (this target installs none): no allocation sites.
    assert!(doc["counts"]["profile"]["functions"].is_array(), "{doc:#}");
    assert_eq!(
        doc["counts"]["profile"].get("allocation_sites"),
        None,
        "{doc:#}"
    );
    assert!(
        doc["counts"]["tool"]
            .as_str()
            .unwrap()
            .starts_with("callgrind (valgrind-")
    );

    // Against the baseline just saved: the same code, the same counts, no change.
    let second = tmp.join("second.json");
    let o = bench_counts(&["--baseline", "counted", "unit_1000", "iter_"], &second);
    // Two 0.6 s runs in one process each: on a busy machine (this binary's other test counts
    // under valgrind meanwhile) the time can move past its noise and exit 3; the instructions
    // cannot, which the verdicts below check.
    assert!(matches!(o.status.code(), Some(0 | 3)), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("instr verdict") && out.contains("1,000 → 1,000"),
        "{out}"
    );
    let compared = read_json(&second)["comparison"]["benches"].clone();
    for b in compared.as_array().unwrap() {
        assert_eq!(b["instructions"]["verdict"], "no change", "{b:#}");
        assert_eq!(b["instructions"]["change"], 0.0, "{b:#}");
    }

    // Two counted results compared with each other (`compare FILE FILE`): 200 more `nop`s an
    // iteration is a regression of the instructions, explained by the function they are in.
    let saved = target_dir().join("pilot/baselines/counted/counts");
    let o = common::cargo_pilot(EXE)
        .args(["compare", "--format", "json"])
        .arg(saved.join("iter_100.json"))
        .arg(saved.join("iter_300.json"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let bench = &doc["benches"][0];
    assert_eq!(bench["instructions"]["verdict"], "regressed", "{bench:#}");
    let first = &bench["explained"]["functions"][0];
    let more = first["new_self"].as_f64().unwrap() - first["base_self"].as_f64().unwrap();
    assert!(more >= 199.0, "{bench:#}");
    assert!(
        !bench["explained"]["new_stacks"]
            .as_array()
            .unwrap()
            .is_empty(),
        "{bench:#}"
    );

    // Exported as time is: a measure, a column, a row of its own.
    let export = |format: &str| {
        let o = common::cargo_pilot(EXE)
            .args(["export", "--format", format, "counted", "--target-dir"])
            .arg(target_dir())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        String::from_utf8(o.stdout).unwrap()
    };
    let bmf: Value = serde_json::from_str(&export("bmf")).unwrap();
    assert_eq!(bmf["counts/unit_1000"]["instructions"]["value"], unit);
    let github: Value = serde_json::from_str(&export("github")).unwrap();
    assert!(
        github
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["name"] == "counts/unit_1000 (instructions)"
                && e["unit"] == "instructions/unit"
                && e["value"] == unit),
        "{github:#}"
    );
    let csv = export("csv");
    assert!(
        csv.lines()
            .any(|l| l.starts_with("counts/unit_1000,instructions,instructions,")),
        "{csv}"
    );
    let md = export("md");
    assert!(md.contains("| instructions |"), "{md}");
}

/// A time cap too short for any estimate of the time: the benches are counted all the same,
/// their documents holding the counts alone.
#[test]
fn a_bench_whose_time_found_no_estimate_is_counted_all_the_same() {
    if !common::valgrind_here() {
        return;
    }
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("instructions-untimed");
    std::fs::create_dir_all(&tmp).unwrap();
    let json = tmp.join("untimed.json");
    let o = bench_counted("counts", "0.001", &json, &["whole_"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let run = read_json(&json);
    for doc in run["results"].as_array().unwrap() {
        assert_ne!(doc["status"], "ok", "{doc:#}");
        assert_eq!(doc["pis"][0]["name"], "instructions", "{doc:#}");
    }
    let whole = pi(&run, "whole_150", "instructions").0 - pi(&run, "whole_50", "instructions").0;
    assert_eq!(whole, 100.0);
    // The table shows the counts where the time has none.
    let out = String::from_utf8_lossy(&o.stdout);
    let row = out
        .lines()
        .find(|l| l.starts_with("counts/whole_50 "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(row.contains(" - ") && row.contains("± 0.00%"), "{out}");

    // The report's bench heading says so too.
    let page = tmp.join("report");
    let o = common::cargo_pilot(EXE)
        .args(["report", "--target-dir"])
        .arg(target_dir())
        .arg("--out")
        .arg(&page)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let html = std::fs::read_to_string(page.join("index.html")).unwrap();
    assert!(
        html.contains("<b>no estimate</b> of the time per unit · instructions per unit 52.00"),
        "{html}"
    );
}
