//! End-to-end tests of `cargo pilot export`: the real binary on the checked-in result documents
//! of `tests/fixtures/export/results` (see the README there), each format's figures checked
//! against the documents' own numbers, the BMF output against Bencher's published schema, and
//! bad input refused with nothing written.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

mod common;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/export")
}

fn results() -> PathBuf {
    fixtures().join("results")
}

/// `cargo pilot export ARGS`, its target directory `target` (for baselines and the latest
/// results).
fn export(args: &[&str], target: &Path) -> Output {
    common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"))
        .arg("export")
        .args(args)
        .arg("--target-dir")
        .arg(target)
        .output()
        .unwrap()
}

fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("export-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A successful export's standard output.
fn exported(args: &[&str], target: &Path) -> String {
    let o = export(args, target);
    assert_eq!(o.status.code(), Some(0), "{}", common::text(&o));
    String::from_utf8(o.stdout).unwrap()
}

/// The fixture documents, keyed `target/name` as export names them.
fn documents() -> Vec<(String, Value)> {
    let mut docs = Vec::new();
    for target in ["readings_only", "sort", "write_file"] {
        for entry in std::fs::read_dir(results().join(target)).unwrap() {
            let doc: Value =
                serde_json::from_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap())
                    .unwrap();
            let name = format!(
                "{}/{}",
                doc["target"].as_str().unwrap(),
                doc["name"].as_str().unwrap()
            );
            docs.push((name, doc));
        }
    }
    docs.sort_by(|a, b| a.0.cmp(&b.0));
    docs
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), dest).unwrap();
        }
    }
}

/// Validates `doc` against a JSON Schema that uses only the keywords Bencher's BMF schema uses
/// (`type` object/number, `properties`, `patternProperties`, `required`). Any other keyword
/// fails the test, so a schema that grows one is noticed rather than half-checked. Written by
/// hand instead of a JSON Schema crate: those bring a regex engine, URL resolution and dozens
/// of crates into the build for five keywords; the only pattern used, `.+`, is checked as "a
/// non-empty key".
fn validate(doc: &Value, schema: &Value, at: &str) -> Result<(), String> {
    let schema = schema.as_object().expect("a schema object");
    for (key, rule) in schema {
        match key.as_str() {
            "$id" | "$schema" => {}
            "type" => {
                let ok = match rule.as_str().unwrap() {
                    "object" => doc.is_object(),
                    "number" => doc.is_number(),
                    other => panic!("type `{other}` is not handled here"),
                };
                if !ok {
                    return Err(format!("{at}: {doc} is not of type {rule}"));
                }
            }
            "required" => {
                for name in rule.as_array().unwrap() {
                    let name = name.as_str().unwrap();
                    if doc.get(name).is_none() {
                        return Err(format!("{at}: `{name}` is required"));
                    }
                }
            }
            "properties" => {
                for (name, sub) in rule.as_object().unwrap() {
                    if let Some(v) = doc.get(name) {
                        validate(v, sub, &format!("{at}.{name}"))?;
                    }
                }
            }
            "patternProperties" => {
                for (pattern, sub) in rule.as_object().unwrap() {
                    assert_eq!(pattern, ".+", "only the pattern `.+` is handled here");
                    for (name, v) in doc.as_object().into_iter().flatten() {
                        if name.is_empty() {
                            return Err(format!("{at}: an empty key does not match `.+`"));
                        }
                        validate(v, sub, &format!("{at}.{name}"))?;
                    }
                }
            }
            other => panic!("schema keyword `{other}` is not handled here"),
        }
    }
    Ok(())
}

#[test]
fn bmf_holds_each_benchs_latency_and_throughput_and_matches_bencher_schema() {
    let target = scratch("bmf");
    let out = exported(&["--format", "bmf", results().to_str().unwrap()], &target);
    let bmf: Value = serde_json::from_str(&out).unwrap();
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(fixtures().join("bmf.schema.json")).unwrap())
            .unwrap();
    assert_eq!(schema["$id"], "https://bencher.dev/bmf.json");
    validate(&bmf, &schema, "$").unwrap();
    // The validator itself catches what the schema forbids.
    assert!(validate(&serde_json::json!({"a": {"latency": {}}}), &schema, "$").is_err());
    assert!(
        validate(
            &serde_json::json!({"a": {"latency": {"value": "1"}}}),
            &schema,
            "$"
        )
        .is_err()
    );

    let docs = documents();
    assert_eq!(bmf.as_object().unwrap().len(), docs.len());
    for (name, doc) in &docs {
        let time = &doc["pis"][0];
        let latency = &bmf[name]["latency"];
        assert_eq!(f(&latency["value"]), f(&time["mean"]), "{name}");
        assert_eq!(f(&latency["lower_value"]), f(&time["ci"]["low"]), "{name}");
        assert_eq!(f(&latency["upper_value"]), f(&time["ci"]["high"]), "{name}");
        match doc["pis"].get(1) {
            Some(tp) => {
                // Units per second: the inverse of the time per unit in ns.
                let t = &bmf[name]["throughput"];
                assert!((f(&t["value"]) * f(&time["mean"]) / 1e9 - 1.0).abs() < 1e-12);
                assert!((f(&t["lower_value"]) * f(&time["ci"]["high"]) / 1e9 - 1.0).abs() < 1e-12);
                assert!((f(&t["upper_value"]) * f(&time["ci"]["low"]) / 1e9 - 1.0).abs() < 1e-12);
                assert_eq!(f(&t["value"]), f(&tp["mean"]));
            }
            None => assert!(bmf[name].get("throughput").is_none(), "{name}"),
        }
    }
    assert!(bmf["write_file/write_1mib"].get("throughput").is_some());
}

#[test]
fn github_has_the_custom_smaller_is_better_fields_and_the_documents_figures() {
    let target = scratch("github");
    let out = exported(
        &["--format", "github", results().to_str().unwrap()],
        &target,
    );
    let entries: Value = serde_json::from_str(&out).unwrap();
    let entries = entries
        .as_array()
        .expect("an array, as the action's custom tools read");
    let docs = documents();
    assert_eq!(entries.len(), docs.len());
    for (entry, (name, doc)) in entries.iter().zip(&docs) {
        // The action's BenchmarkResult: name, value, unit required; range and extra optional
        // strings; nothing else.
        let keys: Vec<&str> = entry
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["name", "unit", "value", "range", "extra"]);
        assert_eq!(entry["name"], name.as_str());
        assert!(entry["unit"].as_str().unwrap().starts_with("ns/"));
        let time = &doc["pis"][0];
        let (mean, low, high) = (
            f(&time["mean"]),
            f(&time["ci"]["low"]),
            f(&time["ci"]["high"]),
        );
        assert_eq!(f(&entry["value"]), mean);
        let range = entry["range"].as_str().unwrap();
        let half: f64 = range.strip_prefix("± ").unwrap().parse().unwrap();
        assert!((half / ((high - low) / 2.0) - 1.0).abs() < 5e-4, "{range}");
        let extra = entry["extra"].as_str().unwrap();
        assert!(extra.starts_with("95% CI ["), "{extra}");
        let bounds: Vec<f64> = extra["95% CI [".len()..extra.find(']').unwrap()]
            .split(", ")
            .map(|b| b.parse().unwrap())
            .collect();
        assert!((bounds[0] / low - 1.0).abs() < 5e-6 && (bounds[1] / high - 1.0).abs() < 5e-6);
        assert!(extra.contains(&format!("status: {}", doc["status"].as_str().unwrap())));
    }
    let units: Vec<&str> = entries
        .iter()
        .map(|e| e["unit"].as_str().unwrap())
        .collect();
    assert_eq!(units, ["ns/unit", "ns/iter", "ns/MiB"]);
}

#[test]
fn csv_has_getstats_columns_computed_from_the_stored_samples() {
    let target = scratch("csv");
    let out = exported(&["--format", "csv", results().to_str().unwrap()], &target);
    let mut reader = csv::Reader::from_reader(out.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header,
        [
            "bench",
            "pi",
            "unit",
            "count",
            "mean",
            "median",
            "low",
            "high",
            "min",
            "max",
            "sdev%",
            "hw%",
            "samples",
            "confidence",
            "status"
        ]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let docs = documents();
    let pis: usize = docs
        .iter()
        .map(|(_, d)| d["pis"].as_array().unwrap().len())
        .sum();
    assert_eq!(rows.len(), pis);
    let num = |r: &csv::StringRecord, col: &str| -> Option<f64> {
        let i = header.iter().position(|h| h == col).unwrap();
        (!r[i].is_empty()).then(|| r[i].parse().unwrap())
    };
    let mut rows = rows.iter();
    for (name, doc) in &docs {
        for pi in doc["pis"].as_array().unwrap() {
            let r = rows.next().unwrap();
            assert_eq!(
                (&r[0], &r[1], &r[2]),
                (
                    name.as_str(),
                    pi["name"].as_str().unwrap(),
                    pi["unit"].as_str().unwrap()
                )
            );
            let mean = f(&pi["mean"]);
            assert_eq!(num(r, "count"), pi["n"].as_f64());
            assert_eq!(num(r, "mean"), Some(mean));
            assert_eq!(num(r, "low"), pi["ci"]["low"].as_f64());
            assert_eq!(num(r, "high"), pi["ci"]["high"].as_f64());
            let hw = 100.0 * (f(&pi["ci"]["high"]) - f(&pi["ci"]["low"])) / 2.0 / mean;
            assert!((num(r, "hw%").unwrap() / hw - 1.0).abs() < 1e-12);
            assert_eq!(num(r, "samples"), doc["subsession"]["count"].as_f64());
            let Some(means) = doc["subsession"]["means"].as_array() else {
                for col in ["median", "min", "max", "sdev%"] {
                    assert_eq!(num(r, col), None, "{name} {col}");
                }
                continue;
            };
            // By the definitions, over the stored samples (a throughput's are 1e9 / time).
            let mut xs: Vec<f64> = means.iter().map(f).collect();
            if pi["name"] == "throughput" {
                xs = xs.iter().map(|t| 1e9 / t).collect();
            }
            xs.sort_by(f64::total_cmp);
            let n = xs.len();
            let median = if n % 2 == 1 {
                xs[n / 2]
            } else {
                (xs[n / 2 - 1] + xs[n / 2]) / 2.0
            };
            let avg = xs.iter().sum::<f64>() / n as f64;
            let sd = (xs.iter().map(|x| (x - avg).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt();
            let close = |a: f64, b: f64| (a / b - 1.0).abs() < 1e-9;
            assert!(close(num(r, "median").unwrap(), median), "{name}");
            assert_eq!(num(r, "min"), Some(xs[0]));
            assert_eq!(num(r, "max"), Some(xs[n - 1]));
            assert!(close(num(r, "sdev%").unwrap(), 100.0 * sd / avg), "{name}");
        }
    }
}

#[test]
fn md_is_the_results_table_one_row_per_bench() {
    let target = scratch("md");
    let out = exported(&["--format", "md", results().to_str().unwrap()], &target);
    let lines: Vec<&str> = out.lines().collect();
    let docs = documents();
    assert_eq!(lines.len(), 2 + docs.len(), "{out}");
    // The fixtures mix the micro form (per iteration) with the others (per unit): the time
    // column is `time` and a `per` column says which.
    assert!(
        lines[0].starts_with("| bench | time (95% CI, this run) | per |"),
        "{out}"
    );
    for (line, (name, doc)) in lines[2..].iter().zip(&docs) {
        let time = &doc["pis"][0];
        let hw = 100.0 * (f(&time["ci"]["high"]) - f(&time["ci"]["low"])) / 2.0 / f(&time["mean"]);
        assert!(line.starts_with(&format!("| `{name}` | ")), "{line}");
        assert!(line.contains(&format!(" ± {hw:.2}% |")), "{line}");
        assert!(
            line.ends_with(&format!("| {} |", doc["status"].as_str().unwrap())),
            "{line}"
        );
    }
}

#[test]
fn sources_latest_results_a_baseline_a_file_and_a_run_document() {
    let target = scratch("sources");
    // No results yet: an error naming where they were looked for.
    let o = export(&["--format", "bmf"], &target);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        common::text(&o).contains("no results in"),
        "{}",
        common::text(&o)
    );
    copy_dir(&results(), &target.join("pilot/results"));
    copy_dir(
        &results().join("sort"),
        &target.join("pilot/baselines/main/sort"),
    );
    let latest: Value = serde_json::from_str(&exported(&["--format", "bmf"], &target)).unwrap();
    assert_eq!(latest.as_object().unwrap().len(), 3);
    let main: Value =
        serde_json::from_str(&exported(&["--format", "bmf", "main"], &target)).unwrap();
    let keys: Vec<&String> = main.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["sort/sort_10k"]);
    let file = results().join("write_file/write_1mib.json");
    let one: Value = serde_json::from_str(&exported(
        &["--format", "bmf", file.to_str().unwrap()],
        &target,
    ))
    .unwrap();
    assert_eq!(
        one.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["write_file/write_1mib"]
    );
    // A `pilot.run/1` document (a bench binary's --json) holds several results.
    let docs: Vec<Value> = documents().into_iter().map(|(_, d)| d).collect();
    let run = target.join("run.json");
    std::fs::write(
        &run,
        serde_json::json!({"schema": "pilot.run/1", "results": docs}).to_string(),
    )
    .unwrap();
    let from_run: Value = serde_json::from_str(&exported(
        &["--format", "bmf", run.to_str().unwrap()],
        &target,
    ))
    .unwrap();
    assert_eq!(from_run, latest);
}

#[test]
fn bad_input_is_an_error_naming_it_and_nothing_is_written() {
    let target = scratch("bad");
    let out = target.join("out.json");
    let out_arg = out.to_str().unwrap();
    let check = |args: &[&str], expect: &[&str]| {
        let mut all = vec!["--format", "bmf", "--out", out_arg];
        all.extend_from_slice(args);
        let o = export(&all, &target);
        let text = common::text(&o);
        assert_eq!(o.status.code(), Some(1), "{text}");
        for e in expect {
            assert!(text.contains(e), "`{e}` not in {text}");
        }
        assert!(!out.exists(), "{text}");
        let left: Vec<_> = std::fs::read_dir(&target)
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert!(
            left.iter().all(|n| !n.to_string_lossy().ends_with(".tmp")),
            "{left:?}"
        );
    };
    // A missing baseline names the ones that exist.
    std::fs::create_dir_all(target.join("pilot/baselines/main")).unwrap();
    check(&["mian"], &["no baseline `mian`", "main"]);
    // An empty folder (the baseline `main` holds nothing yet).
    check(&["main"], &["baseline `main`", "holds no results"]);
    let empty = target.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    check(&[empty.to_str().unwrap()], &["empty", "holds no results"]);
    // A file of another schema, named with what it is.
    let compare = target.join("compare.json");
    std::fs::write(
        &compare,
        r#"{"schema": "pilot.compare/1", "alpha": 0.01, "noise": 0.01, "confidence": 0.95, "benches": []}"#,
    )
    .unwrap();
    check(
        &[compare.to_str().unwrap()],
        &[
            "compare.json",
            "schema `pilot.compare/1` is not `pilot.result/1`",
        ],
    );
    // A path that does not exist.
    check(&["nowhere/r.json"], &["`nowhere/r.json` does not exist"]);
    // Results without an estimate are left out by name; none at all is an error.
    let failed = target.join("failed");
    std::fs::create_dir_all(&failed).unwrap();
    let mut doc: Value = serde_json::from_str(
        &std::fs::read_to_string(results().join("sort/sort_10k.json")).unwrap(),
    )
    .unwrap();
    doc["status"] = "failed".into();
    doc["status_detail"] = "the bench panicked".into();
    doc["pis"] = serde_json::json!([]);
    doc["subsession"] = Value::Null;
    std::fs::write(failed.join("sort_10k.json"), doc.to_string()).unwrap();
    check(&[failed.to_str().unwrap()], &["has an estimate", "failed"]);
    copy_dir(&results().join("write_file"), &failed.join("write_file"));
    let o = export(&["--format", "github", failed.to_str().unwrap()], &target);
    assert_eq!(o.status.code(), Some(0), "{}", common::text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("`sort/sort_10k` has no estimate (status `failed`): left out"),
        "{err}"
    );
    let entries: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(entries.as_array().unwrap().len(), 1);
}

#[test]
fn out_is_written_atomically_and_never_replaced_without_force() {
    let target = scratch("out");
    let out = target.join("reports/bmf.json");
    let out_arg = out.to_str().unwrap();
    let src = results();
    let src = src.to_str().unwrap();
    let stdout = exported(&["--format", "bmf", src], &target);
    let o = export(&["--format", "bmf", src, "--out", out_arg], &target);
    assert_eq!(o.status.code(), Some(0), "{}", common::text(&o));
    assert!(o.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&out).unwrap(), stdout);
    // An existing file is refused, and stays as it was.
    let o = export(&["--format", "csv", src, "--out", out_arg], &target);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        common::text(&o).contains("exists: pass --force"),
        "{}",
        common::text(&o)
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), stdout);
    // --force replaces it whole.
    let o = export(
        &["--format", "csv", src, "--out", out_arg, "--force"],
        &target,
    );
    assert_eq!(o.status.code(), Some(0), "{}", common::text(&o));
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .starts_with("bench,pi,unit,")
    );
    let names: Vec<String> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["bmf.json"], "no temporary file is left behind");
    // --force alone is a usage error naming --out.
    let o = export(&["--format", "csv", src, "--force"], &target);
    assert_eq!(o.status.code(), Some(2));
    assert!(common::text(&o).contains("--out"), "{}", common::text(&o));
}

#[test]
fn counted_allocations_are_exported_beside_the_time() {
    // The fixture's sort bench as a `CountingAlloc` bench writes it: 2 allocations of 80 000
    // bytes a unit, exactly, and 1.5 ± 0.1 reallocations' worth of a second count.
    let mut doc: Value = serde_json::from_str(
        &std::fs::read_to_string(results().join("sort/sort_10k.json")).unwrap(),
    )
    .unwrap();
    let count = |name: &str, unit: &str, mean: f64, half: f64| {
        serde_json::json!({"name": name, "unit": unit, "mean": mean,
            "ci": {"low": mean - half, "high": mean + half, "confidence": 0.95},
            "n": 5000, "subsession_size": 1, "autocorrelation": 0.0, "required_n": null})
    };
    let pis = doc["pis"].as_array_mut().unwrap();
    pis.push(count("allocations", "allocs", 2.0, 0.0));
    pis.push(count("allocated_bytes", "B", 80_000.0, 400.0));
    doc["allocations"] = serde_json::json!({"reallocations": 0.0, "deallocations": 2.0,
        "cost_ns": 1.2, "share_of_unit": 0.00003});
    let dir = scratch("counts");
    let folder = dir.join("sort");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("sort_10k.json"), doc.to_string()).unwrap();
    let source = dir.to_str().unwrap();

    let bmf: Value = serde_json::from_str(&exported(&["--format", "bmf", source], &dir)).unwrap();
    let measures = &bmf["sort/sort_10k"];
    assert_eq!(
        measures["allocations"],
        serde_json::json!({"value": 2.0, "lower_value": 2.0, "upper_value": 2.0})
    );
    assert_eq!(f(&measures["allocated_bytes"]["lower_value"]), 79_600.0);
    assert_eq!(f(&measures["latency"]["value"]), f(&doc["pis"][0]["mean"]));

    let github: Value =
        serde_json::from_str(&exported(&["--format", "github", source], &dir)).unwrap();
    let entries = github.as_array().unwrap();
    assert_eq!(entries.len(), 3, "{github}");
    let allocs = entries
        .iter()
        .find(|e| e["name"] == "sort/sort_10k (allocations)")
        .unwrap();
    assert_eq!(
        (allocs["unit"].as_str(), f(&allocs["value"])),
        (Some("allocs/iter"), 2.0)
    );
    assert_eq!(allocs["range"], "± 0");

    let csv = exported(&["--format", "csv", source], &dir);
    let line = csv
        .lines()
        .find(|l| l.contains(",allocated_bytes,"))
        .unwrap();
    let cells: Vec<&str> = line.split(',').collect();
    // bench, pi, unit, count, mean, median, low, high, min, max, sdev%, hw%: no samples of
    // its own, and 400 of 80 000 is 0.5%.
    assert_eq!(
        &cells[..12],
        [
            "sort/sort_10k",
            "allocated_bytes",
            "B",
            "5000",
            "80000",
            "",
            "79600",
            "80400",
            "",
            "",
            "",
            "0.5"
        ]
    );
    let exact = csv.lines().find(|l| l.contains(",allocations,")).unwrap();
    assert_eq!(exact.split(',').nth(11), Some("0"), "{exact}");

    let md = exported(&["--format", "md", source], &dir);
    assert!(
        md.contains("| allocations |") && md.contains("2 allocs, 80,000 ± 0.50% B"),
        "{md}"
    );
}

#[test]
fn every_format_exports_this_runs_interval_and_markdown_and_github_the_band() {
    // The fixture's sort bench as a run that learnt where the next run lands (a band
    // around 300 µs, ±2.41%), and as a document from before reproducibility was a figure of
    // its own: `ci` widened by the machine's variation, `machine.run_ci` the run's interval.
    let doc: Value = serde_json::from_str(
        &std::fs::read_to_string(results().join("sort/sort_10k.json")).unwrap(),
    )
    .unwrap();
    let (mean, low, high) = (
        f(&doc["pis"][0]["mean"]),
        f(&doc["pis"][0]["ci"]["low"]),
        f(&doc["pis"][0]["ci"]["high"]),
    );
    let mut learnt = doc.clone();
    learnt["pis"][0]["reproducibility"] = serde_json::json!({"state": "learnt",
        "center": 300e3, "low": 292.86e3, "high": 307.32e3, "half_width": 0.0241,
        "sd": 0.009, "dof": 4.0, "runs": 6, "learnt_from": "bench"});
    let mut older = doc.clone();
    older["pis"][0]["ci"] =
        serde_json::json!({"low": 0.5 * mean, "high": 1.5 * mean, "confidence": 0.95});
    older["pis"][0]["interval_from"] = serde_json::json!("machine");
    older["pis"][0]["machine"] = serde_json::json!({
        "run_ci": {"low": low, "high": high, "confidence": 0.95},
        "run_interval_from": "rounds", "run_to_run": 0.2, "runs": 8, "learnt_from": "probe"});
    for (test, doc) in [("band", &learnt), ("older", &older)] {
        let dir = scratch(test);
        let folder = dir.join("sort");
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("sort_10k.json"), doc.to_string()).unwrap();
        let source = dir.to_str().unwrap();
        let bmf: Value =
            serde_json::from_str(&exported(&["--format", "bmf", source], &dir)).unwrap();
        let latency = &bmf["sort/sort_10k"]["latency"];
        assert_eq!(
            (f(&latency["lower_value"]), f(&latency["upper_value"])),
            (low, high),
            "{test}"
        );
        let csv = exported(&["--format", "csv", source], &dir);
        let line = csv.lines().find(|l| l.contains(",time,")).unwrap();
        assert!(line.contains(&format!(",{low},{high},")), "{test}: {line}");
        let md = exported(&["--format", "md", source], &dir);
        let half = 100.0 * (high - low) / 2.0 / mean;
        assert!(md.contains(&format!(" ± {half:.2}% |")), "{test}: {md}");
        let github: Value =
            serde_json::from_str(&exported(&["--format", "github", source], &dir)).unwrap();
        let extra = github[0]["extra"].as_str().unwrap().to_string();
        if test == "band" {
            assert!(md.contains("| run to run (95%) |"), "{md}");
            assert!(md.contains(&format!(" ± {half:.2}% | ±2.41% |")), "{md}");
            assert!(
                extra.contains("\nrun to run [292860, 307320] ns/iter"),
                "{extra}"
            );
        } else {
            assert!(!md.contains("run to run"), "{md}");
            assert!(!extra.contains("run to run"), "{extra}");
        }
    }
}
