//! `cargo pilot import criterion|hyperfine` end to end, on files made by real runs of
//! criterion 0.8 and hyperfine (`tests/fixtures/import/generate.sh` made them; its comments
//! say how), and criterion 0.3.2's older `[iters, times]` form built from one of them.

mod common;
#[path = "import/refused.rs"]
mod refused;

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import")
}

/// A fresh target directory of this test's own.
fn target(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("import-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn pilot(target: &Path, args: &[&str]) -> Output {
    common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"))
        .args(args)
        .arg("--target-dir")
        .arg(target)
        .output()
        .unwrap()
}

/// `cargo pilot import HARNESS DIR --baseline NAME` into `target`.
fn import(target: &Path, harness: &str, dir: &Path, baseline: &str) -> Output {
    pilot(
        target,
        &[
            "import",
            harness,
            dir.to_str().unwrap(),
            "--baseline",
            baseline,
        ],
    )
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

/// The bench folders of the criterion fixture.
fn criterion_benches() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixtures().join("criterion"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The mean of the readings: what criterion and hyperfine report as their mean, and what the
/// import reports.
fn mean_of(readings: &[f64]) -> f64 {
    readings.iter().sum::<f64>() / readings.len() as f64
}

/// The bar: criterion's run of lab/criterion-same-workloads, imported. criterion's mean is the
/// plain mean of `times[i] / iters[i]` over all its samples (criterion's
/// `src/analysis/mod.rs`), and so is every bench's imported mean: within criterion's own 95%
/// interval of it, and with pilot's interval around it.
#[test]
fn criterion_results_become_a_baseline_within_criterions_intervals() {
    let t = target("criterion");
    let dir = fixtures().join("criterion");
    let o = import(&t, "criterion", &dir, "crit");
    assert!(o.status.success(), "{}", common::text(&o));
    let benches = criterion_benches();
    assert!(benches.len() >= 4, "{benches:?}");
    let mut outside = Vec::new();
    for bench in &benches {
        let new = dir.join(bench).join("new");
        let sample = json(&new.join("sample.json"));
        let readings: Vec<f64> = sample["iters"]
            .as_array()
            .unwrap()
            .iter()
            .zip(sample["times"].as_array().unwrap())
            .map(|(n, t)| f(t) / f(n))
            .collect();
        let estimates = json(&new.join("estimates.json"));
        let crit = &estimates["mean"];
        let plain = mean_of(&readings);
        assert!(
            (f(&crit["point_estimate"]) / plain - 1.0).abs() < 1e-12,
            "{bench}: criterion's mean is the plain mean of the per-iteration times"
        );
        // criterion's `bench_function` names are pilot's names; no target is recorded.
        let doc = json(&t.join(format!("pilot/baselines/crit/criterion/{bench}.json")));
        assert_eq!(doc["schema"], "pilot.result/1");
        assert_eq!(
            (doc["name"].as_str(), doc["target"].as_str()),
            (Some(bench.as_str()), Some(""))
        );
        assert_eq!(doc["readings"], readings.len());
        let mean = f(&doc["pis"][0]["mean"]);
        assert!(
            (mean / f(&crit["point_estimate"]) - 1.0).abs() < 1e-12,
            "{bench}: {mean} vs criterion's {}",
            crit["point_estimate"]
        );
        assert_eq!(doc["removed_readings"], 0, "{bench}: no reading is cut");
        let (low, high) = (
            f(&doc["pis"][0]["ci"]["low"]),
            f(&doc["pis"][0]["ci"]["high"]),
        );
        assert!(low < mean && mean < high);
        let ci = &crit["confidence_interval"];
        if !(f(&ci["lower_bound"]) <= mean && mean <= f(&ci["upper_bound"])) {
            outside.push(format!(
                "{bench}: pilot {mean} outside criterion's [{}, {}]",
                ci["lower_bound"], ci["upper_bound"]
            ));
        }
    }
    assert!(outside.is_empty(), "{outside:#?}");

    // Today's pilot result of a bench of the same name, in a bench target of its own (here a
    // program measured by `cargo pilot run`, target `run`): the imported result, which names
    // no target, is its baseline.
    let o = common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"))
        .args([
            "run",
            "-N",
            "-n",
            "one_add",
            "true",
            "--max-time",
            "0.3",
            "--out",
        ])
        .arg(&t)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", common::text(&o));
    let results = t.join("pilot/results");
    let o = pilot(
        &t,
        &[
            "compare",
            "crit",
            results.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    assert!(
        matches!(o.status.code(), Some(0 | 3)),
        "{}",
        common::text(&o)
    );
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let benches = doc["benches"].as_array().unwrap();
    let one_add = benches.iter().find(|b| b["name"] == "one_add").unwrap();
    assert_eq!(one_add["target"], "run.programs");
    assert!(
        f(&one_add["base"]) > 0.0 && f(&one_add["change"]) > 1.0,
        "{one_add}"
    );
    // A process start is a million times an add; on a busy machine its spread can still leave
    // the verdict undecided, never anything else.
    assert!(
        ["regressed", "undecided"].contains(&one_add["verdict"].as_str().unwrap()),
        "{one_add}"
    );
    let missing = benches.iter().filter(|b| b["verdict"] == "missing").count();
    assert_eq!(
        missing,
        benches.len() - 1,
        "the others are not measured today"
    );

    // The same baseline again is refused, and nothing changes; --force replaces it whole.
    let file = t.join("pilot/baselines/crit/criterion/sort_10k.json");
    let before = std::fs::read(&file).unwrap();
    let o = import(&t, "criterion", &dir, "crit");
    assert_eq!(o.status.code(), Some(1), "{}", common::text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("baseline `crit` exists") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), before);
    let one = dir.join("one_add");
    let o = pilot(
        &t,
        &[
            "import",
            "criterion",
            one.to_str().unwrap(),
            "--baseline",
            "crit",
            "--force",
        ],
    );
    assert!(o.status.success(), "{}", common::text(&o));
    let left: Vec<_> = std::fs::read_dir(t.join("pilot/baselines/crit/criterion"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["one_add.json"]);
    let hidden = std::fs::read_dir(t.join("pilot/baselines"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with('.')
        })
        .count();
    assert_eq!(hidden, 0, "no staging folder is left behind");
}

/// A criterion sample skewed as linear sampling skews a nanosecond bench (the timer's fixed
/// cost over few iterations in the first samples), made by `fixtures/import/skewed.py` with
/// criterion's estimates beside it. Change-point detection finds the first samples apart and
/// no steady state: the import cut them before and reported 2.53 ns, outside criterion's
/// interval of its mean, [3.31, 5.08]. Now it reports criterion's mean of every sample,
/// inside, and says where the change points are.
#[test]
fn a_skewed_criterion_sample_keeps_criterions_mean() {
    let t = target("skewed");
    let dir = fixtures().join("criterion-skewed");
    let o = import(&t, "criterion", &dir, "s");
    assert!(o.status.success(), "{}", common::text(&o));
    let crit = json(&dir.join("skewed/new/estimates.json"));
    let crit = &crit["mean"];
    let doc = json(&t.join("pilot/baselines/s/criterion/skewed.json"));
    let mean = f(&doc["pis"][0]["mean"]);
    assert!(
        (mean / f(&crit["point_estimate"]) - 1.0).abs() < 1e-12,
        "{mean} vs criterion's {}",
        crit["point_estimate"]
    );
    let ci = &crit["confidence_interval"];
    assert!(
        f(&ci["lower_bound"]) <= mean && mean <= f(&ci["upper_bound"]),
        "{mean} outside criterion's [{}, {}]",
        ci["lower_bound"],
        ci["upper_bound"]
    );
    let (low, high) = (
        f(&doc["pis"][0]["ci"]["low"]),
        f(&doc["pis"][0]["ci"]["high"]),
    );
    assert!(low < mean && mean < high, "{doc}");
    assert_eq!(doc["status"], "no steady state");
    assert_eq!(doc["removed_readings"], 0);
    assert_eq!(doc["rounds"][0]["stable"], serde_json::json!([0, 100]));
    let warnings: Vec<&str> = doc["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|w| w.as_str())
        .collect();
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with("change point(s) at reading") && w.contains("no steady state")),
        "{warnings:#?}"
    );
}

/// criterion 0.3.0–0.3.2's `[iters, times]` sample, of a group member with a parameter and a
/// throughput: the same numbers as the 0.8 form give the same estimate, under pilot's name
/// for a group member (`function/value`), with its throughput; `--full-ids` and `--bench`
/// keep criterion's group and set the target.
#[test]
fn criterion_0_3_2_array_form_and_group_names() {
    let t = target("old");
    let old = fixtures().join("criterion-0.3.2");
    let o = import(&t, "criterion", &old, "old");
    assert!(o.status.success(), "{}", common::text(&o));
    let doc = json(&t.join("pilot/baselines/old/criterion/sort/10000.json"));
    assert_eq!(doc["name"], "sort/10000");
    let o = pilot(
        &t,
        &[
            "import",
            "criterion",
            fixtures().join("criterion/sort_10k").to_str().unwrap(),
            "--baseline",
            "new",
        ],
    );
    assert!(o.status.success(), "{}", common::text(&o));
    let new = json(&t.join("pilot/baselines/new/criterion/sort_10k.json"));
    assert_eq!(doc["pis"][0], new["pis"][0]);
    let tp = &doc["pis"][1];
    assert_eq!(
        (tp["name"].as_str(), tp["unit"].as_str()),
        (Some("throughput"), Some("elements/s"))
    );
    let time = f(&doc["pis"][0]["mean"]);
    assert!((f(&tp["mean"]) / (10_000.0 * 1e9 / time) - 1.0).abs() < 1e-12);
    assert!(
        (f(&tp["ci"]["low"]) / (10_000.0 * 1e9 / f(&doc["pis"][0]["ci"]["high"])) - 1.0).abs()
            < 1e-12
    );

    let o = pilot(
        &t,
        &[
            "import",
            "criterion",
            old.to_str().unwrap(),
            "--baseline",
            "full",
            "--full-ids",
            "--bench",
            "sorting",
        ],
    );
    assert!(o.status.success(), "{}", common::text(&o));
    let doc = json(&t.join("pilot/baselines/full/sorting/sorts/sort/10000.json"));
    assert_eq!(
        (doc["name"].as_str(), doc["target"].as_str()),
        (Some("sorts/sort/10000"), Some("sorting"))
    );
}

/// A copy of the criterion fixture to break.
fn broken_copy(t: &Path) -> PathBuf {
    let dir = t.join("crit-copy");
    for bench in criterion_benches() {
        let from = fixtures().join("criterion").join(&bench).join("new");
        let to = dir.join(&bench).join("new");
        std::fs::create_dir_all(&to).unwrap();
        for file in ["sample.json", "benchmark.json"] {
            std::fs::copy(from.join(file), to.join(file)).unwrap();
        }
    }
    dir
}

/// Bad input: an error naming the file, exit 1, and no baseline saved.
#[test]
fn bad_input_names_the_file_and_saves_nothing() {
    let t = target("bad");
    let dir = broken_copy(&t);
    let cases: [(&str, &str, &str); 5] = [
        (
            "sample.json",
            r#"{"sampling_mode":"Linear","iters":[],"times":[]}"#,
            "0 sample(s)",
        ),
        (
            "sample.json",
            r#"{"schema":"pilot.result/1","name":"x"}"#,
            "not a criterion sample",
        ),
        (
            "sample.json",
            r#"{"sampling_mode":"Linear","iters":[1,2],"times":[5]}"#,
            "2 iteration counts but 1 times",
        ),
        ("sample.json", r#"[[1,2],[3,0]]"#, "`times[1]` is 0"),
        (
            "benchmark.json",
            r#"{"function_id":"f"}"#,
            "not a criterion benchmark id",
        ),
    ];
    for (file, text, message) in cases {
        let path = dir.join("warm_up/new").join(file);
        let good = std::fs::read(&path).unwrap();
        std::fs::write(&path, text).unwrap();
        let o = import(&t, "criterion", &dir, "b");
        assert_eq!(o.status.code(), Some(1), "{}", common::text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(message) && err.contains(&path.display().to_string()),
            "{err}"
        );
        assert!(
            !t.join("pilot/baselines/b").exists(),
            "nothing is saved on {message}"
        );
        std::fs::write(&path, good).unwrap();
    }
    let o = pilot(
        &t,
        &[
            "import",
            "criterion",
            t.join("nowhere").to_str().unwrap(),
            "--baseline",
            "b",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("nowhere` does not exist"),
        "{}",
        common::text(&o)
    );
    let foreign = t.join("foreign.json");
    std::fs::write(&foreign, r#"{"schema": "pilot.result/1", "name": "x"}"#).unwrap();
    let o = import(&t, "hyperfine", &foreign, "b");
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("not a hyperfine") && err.contains("foreign.json"),
        "{err}"
    );
    std::fs::write(&foreign, r#"{"results": [{"command": "a", "times": []}]}"#).unwrap();
    let o = import(&t, "hyperfine", &foreign, "b");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("`results[0].times` holds 0 run(s)"),
        "{}",
        common::text(&o)
    );
    assert!(!t.join("pilot/baselines/b").exists());
    // Two criterion benches that pilot would name alike.
    let twin = dir.join("group2/sort_10k/new");
    std::fs::create_dir_all(&twin).unwrap();
    std::fs::copy(
        dir.join("sort_10k/new/sample.json"),
        twin.join("sample.json"),
    )
    .unwrap();
    std::fs::write(
        twin.join("benchmark.json"),
        r#"{"group_id":"group2","function_id":"sort_10k","value_str":null,"throughput":null}"#,
    )
    .unwrap();
    let o = import(&t, "criterion", &dir, "b");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("would both be pilot's bench `sort_10k`") && err.contains("--full-ids"),
        "{err}"
    );
    assert!(!t.join("pilot/baselines/b").exists());
}

/// hyperfine's export, imported under `cargo pilot run`'s names and target; then `cargo pilot
/// run` of the same commands today, and `cargo pilot compare` between the two.
#[test]
fn hyperfine_results_compare_with_todays_cargo_pilot_run() {
    let t = target("hyperfine");
    let file = fixtures().join("hyperfine.json");
    let o = import(&t, "hyperfine", &file, "hf");
    assert!(o.status.success(), "{}", common::text(&o));
    let export = json(&file);
    for (r, name, path) in [
        (0, "sleep 0.001/n=1", "sleep%200%2E001/n=1.json"),
        (1, "sleep 0.002/n=2", "sleep%200%2E002/n=2.json"),
    ] {
        let doc = json(&t.join("pilot/baselines/hf/run.programs").join(path));
        assert_eq!(
            (doc["name"].as_str(), doc["target"].as_str()),
            (Some(name), Some("run.programs"))
        );
        let times: Vec<f64> = export["results"][r]["times"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| f(t) * 1e9)
            .collect();
        // hyperfine's own mean, in seconds, of every run.
        let theirs = f(&export["results"][r]["mean"]) * 1e9;
        assert!((mean_of(&times) / theirs - 1.0).abs() < 1e-9, "{name}");
        let mean = f(&doc["pis"][0]["mean"]);
        assert!(
            (mean / theirs - 1.0).abs() < 1e-12,
            "{name}: {mean} vs {theirs}"
        );
    }
    // Today's measurement of the same commands, as `cargo pilot run` names them.
    let o = common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"))
        .args([
            "run",
            "-N",
            "-L",
            "n",
            "1,2",
            "sleep 0.00{n}",
            "--max-time",
            "0.5",
            "--out",
        ])
        .arg(&t)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", common::text(&o));
    let results = t.join("pilot/results");
    let o = pilot(
        &t,
        &[
            "compare",
            "hf",
            results.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    assert!(
        matches!(o.status.code(), Some(0 | 3)),
        "{}",
        common::text(&o)
    );
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let benches = doc["benches"].as_array().unwrap();
    assert_eq!(benches.len(), 2, "{doc:#}");
    for b in benches {
        assert!(f(&b["base"]) > 0.0 && f(&b["new"]) > 0.0, "{b}");
        assert!(
            ["improved", "regressed", "no change", "undecided"]
                .contains(&b["verdict"].as_str().unwrap()),
            "{b}"
        );
    }
}

/// `cargo pilot analyze --from`: each bench of criterion's folder or hyperfine's file is
/// analysed as a file of readings would be: the mean of all its readings is the import's, the
/// change points it finds (and cuts) are the ones the import reports (and keeps).
#[test]
fn analyze_reads_both_formats() {
    let t = target("analyze");
    let bench = fixtures().join("criterion/fill_64k");
    let o = import(&t, "criterion", &bench, "a");
    assert!(o.status.success(), "{}", common::text(&o));
    let doc = json(&t.join("pilot/baselines/a/criterion/fill_64k.json"));
    let o = common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"))
        .args(["analyze", "--json", "--from", "criterion"])
        .arg(&bench)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", common::text(&o));
    let a: Value = serde_json::from_slice(&o.stdout).unwrap();
    let file = &a["files"][0];
    assert_eq!(file["file"], format!("{}: fill_64k", bench.display()));
    assert_eq!(file["mean"], doc["pis"][0]["mean"]);
    let cut = file["changepoints"].as_array().unwrap();
    assert!(!cut.is_empty(), "{file}");
    let said = doc["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|w| w.as_str())
        .find(|w| w.starts_with("change point(s) at reading"))
        .unwrap_or_else(|| panic!("no change points said: {doc}"));
    assert!(
        said.contains(&format!("reading {} of 100", cut[0])),
        "{said}"
    );
    let o = common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"))
        .args(["analyze", "--json", "--from", "hyperfine"])
        .arg(fixtures().join("hyperfine.json"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", common::text(&o));
    let a: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(a["files"].as_array().unwrap().len(), 2);
    assert_eq!(a["comparisons"].as_array().unwrap().len(), 1);
    let o = common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"))
        .args(["analyze", "--from", "hyperfine"])
        .arg(fixtures().join("criterion/fill_64k/new/sample.json"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("not a hyperfine"),
        "{}",
        common::text(&o)
    );
}

/// criterion nests a group's benches inside another bench's folder when their ids share a
/// prefix (`sum` and `sum/4096`), and keeps named baselines (`--save-baseline main`) and its
/// HTML report beside the runs: every bench is found once, the `new/` run of each.
#[test]
fn nested_benches_are_found_and_named_baselines_skipped() {
    let t = target("nested");
    let dir = t.join("criterion");
    let from = fixtures().join("criterion/one_add/new");
    let id = |group: &str, value: Option<&str>| {
        serde_json::json!({"group_id": group, "function_id": null, "value_str": value,
                           "throughput": null})
        .to_string()
    };
    for (folder, benchmark) in [
        ("sum/new", id("sum", None)),
        ("sum/main", id("sum", None)),
        ("sum/4096/new", id("sum", Some("4096"))),
        ("sum/4096/base", id("sum", Some("4096"))),
        ("sum/report", id("sum", None)),
    ] {
        let d = dir.join(folder);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::copy(from.join("sample.json"), d.join("sample.json")).unwrap();
        std::fs::write(d.join("benchmark.json"), benchmark).unwrap();
    }
    let o = import(&t, "criterion", &dir, "n");
    assert!(o.status.success(), "{}", common::text(&o));
    let base = t.join("pilot/baselines/n/criterion");
    assert!(base.join("sum.json").is_file() && base.join("sum/4096.json").is_file());
    let files = walk(&base);
    assert_eq!(files, 2, "{}", common::text(&o));
}

fn walk(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| if p.is_dir() { walk(&p) } else { 1 })
        .sum()
}
