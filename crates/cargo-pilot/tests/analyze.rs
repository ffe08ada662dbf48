//! End-to-end tests of `cargo pilot analyze`: the real binary, real files, real exit codes.
//!
//! Expected numbers are computed here from their definitions on small, hand-checkable inputs,
//! never taken from pilot's own output.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cargo-pilot"));
    cmd.arg("pilot");
    cmd
}

/// Writes `contents` to a fresh file in a per-test temporary directory.
fn file(test: &str, name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pilot-cli-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

fn run(args: &[&str]) -> Output {
    bin().args(["analyze"]).args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> Value {
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(o));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(o)))
}

fn lines(xs: &[f64]) -> String {
    xs.iter().map(|x| format!("{x}\n")).collect()
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs().max(1e-300)
}

/// 40 values cycling 1, 2, 3, 4: mean 2.5, variance 50/39, no change points, lag-1
/// autocorrelation (1·… by hand) = Σ(d_i d_{i+1}) / Σ d_i² with d = −1.5, −0.5, 0.5, 1.5.
fn cyclic() -> Vec<f64> {
    (0..40).map(|i| (i % 4 + 1) as f64).collect()
}

#[test]
fn json_document_has_the_documented_keys_and_values() {
    let path = file(
        "json",
        "cyclic.txt",
        &format!("# a comment\n\n{}", lines(&cyclic())),
    );
    let doc = json(&run(&[
        "--json",
        "--no-changepoints",
        path.to_str().unwrap(),
    ]));
    assert_eq!(doc["schema"], "pilot.analyze/1");
    assert_eq!(doc["comparisons"].as_array().unwrap().len(), 0);
    let f = &doc["files"][0];
    for key in [
        "file",
        "n",
        "mean",
        "std",
        "median",
        "min",
        "max",
        "ci",
        "autocorrelation",
        "changepoints",
        "stable",
        "subsession",
        "result",
        "warnings",
    ] {
        assert!(f.get(key).is_some(), "missing key {key} in {f}");
    }
    assert_eq!(f["n"], 40);
    assert_eq!(f["mean"], 2.5);
    assert_eq!(f["median"], 2.5);
    assert_eq!(
        (f["min"].as_f64(), f["max"].as_f64()),
        (Some(1.0), Some(4.0))
    );
    // Σ d² = 10 · (2.25 + 0.25 + 0.25 + 2.25) = 50; variance 50/39.
    assert!(close(
        f["std"].as_f64().unwrap(),
        (50.0f64 / 39.0).sqrt(),
        1e-12
    ));
    // Lag-1 products per cycle: (−1.5)(−0.5) + (−0.5)(0.5) + (0.5)(1.5) = 1.25 within a cycle,
    // and (1.5)(−1.5) = −2.25 across cycles (9 times): 10·1.25 − 9·2.25 = −7.75; r1 = −7.75/50.
    assert!(close(
        f["autocorrelation"].as_f64().unwrap(),
        -7.75 / 50.0,
        1e-12
    ));
    // Raw CI: 2.5 ± t(39, .975) · sqrt(50/39/40), t(39, .975) = 2.0226909117347285 (scipy).
    let half = 2.0226909117347285 * (50.0f64 / 39.0 / 40.0).sqrt();
    assert!(close(f["ci"]["low"].as_f64().unwrap(), 2.5 - half, 1e-6));
    assert!(close(f["ci"]["high"].as_f64().unwrap(), 2.5 + half, 1e-6));
    assert_eq!(f["ci"]["confidence"], 0.95);
    assert_eq!(f["changepoints"], serde_json::json!([]));
    assert_eq!(
        (f["stable"]["start"].as_u64(), f["stable"]["end"].as_u64()),
        (Some(0), Some(40))
    );
    // |r1| = 0.155 > 0.1 at q = 1; q = 2 gives the blocks 1.5, 3.5, 1.5, … (r1 = −1 … ) and
    // q = 4 would leave 10 < 30 blocks, so it stops at q = 2… unless |r1| is within the limit.
    let sub = &f["subsession"];
    assert!(sub["size"].as_u64().unwrap() >= 1);
    assert_eq!(
        sub["count"].as_u64().unwrap(),
        40 / sub["size"].as_u64().unwrap(),
        "count is floor(n / size)"
    );
    let r = &f["result"];
    assert!(r["ci"]["low"].as_f64().unwrap() <= r["mean"].as_f64().unwrap());
    assert!(r["required_n"].as_u64().is_some());
}

#[test]
fn reads_standard_input_and_csv_columns() {
    let mut child = bin()
        .args(["analyze", "--json", "--no-changepoints", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(lines(&cyclic()).as_bytes())
        .unwrap();
    let doc = json(&child.wait_with_output().unwrap());
    assert_eq!(doc["files"][0]["file"], "-");
    assert_eq!(doc["files"][0]["mean"], 2.5);

    let csv: String = std::iter::once("run,ns\n".to_string())
        .chain(
            cyclic()
                .iter()
                .enumerate()
                .map(|(i, x)| format!("{i},{}\n", 10.0 * x)),
        )
        .collect();
    let path = file("csv", "data.csv", &csv);
    let doc = json(&run(&[
        "--json",
        "--no-changepoints",
        "--column",
        "ns",
        path.to_str().unwrap(),
    ]));
    assert_eq!(doc["files"][0]["mean"], 25.0);
    assert_eq!(doc["files"][0]["n"], 40);
}

#[test]
fn bad_input_is_a_clear_error_with_the_right_exit_code() {
    let bad = file("bad", "bad.txt", "1\n2\nthree\n4\n");
    let o = run(&[bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("bad.txt:3: `three` is not a number"),
        "{}",
        stderr(&o)
    );

    let nan = file("bad", "nan.txt", "1\nNaN\n");
    let o = run(&[nan.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("nan.txt:2: `NaN` is not a finite number"),
        "{}",
        stderr(&o)
    );

    let empty = file("bad", "empty.txt", "# nothing\n\n");
    let o = run(&[empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("empty.txt: no values"),
        "{}",
        stderr(&o)
    );

    let single = file("bad", "single.txt", "42\n");
    let o = run(&[single.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("only one value"), "{}", stderr(&o));

    let o = run(&["/nonexistent/pilot-data.txt"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("failed to read `/nonexistent/pilot-data.txt`"));
}

#[test]
fn usage_errors_exit_with_2_and_name_the_flag() {
    let csv = file("usage", "data.csv", "a,b\n1,2\n3,4\n5,6\n");
    let o = run(&["--column", "c", csv.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no column `c`") && stderr(&o).contains("a, b"),
        "{}",
        stderr(&o)
    );

    let o = run(&[csv.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--column"), "{}", stderr(&o));

    let o = run(&["--confidence", "1.5", csv.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--confidence"), "{}", stderr(&o));

    let o = run(&[]);
    assert_eq!(o.status.code(), Some(2));
    let o = bin().args(["frobnicate"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let o = bin().args(["analyze", "--help"]).output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("--autocorr-limit"));
}

#[test]
fn constant_series_has_a_zero_width_interval() {
    let path = file("constant", "flat.txt", &lines(&[7.0; 50]));
    let doc = json(&run(&["--json", path.to_str().unwrap()]));
    let f = &doc["files"][0];
    assert_eq!(f["std"], 0.0);
    assert_eq!(f["result"]["mean"], 7.0);
    assert_eq!(f["result"]["ci"]["low"], 7.0);
    assert_eq!(f["result"]["ci"]["high"], 7.0);
}

#[test]
fn second_file_is_compared_with_the_first() {
    // Independent alternating noise around 100 and around 110: a 10% difference.
    let a: Vec<f64> = (0..60)
        .map(|i| 100.0 + if i % 3 == 0 { 1.0 } else { -0.5 })
        .collect();
    let b: Vec<f64> = a.iter().map(|x| x + 10.0).collect();
    let pa = file("compare", "a.txt", &lines(&a));
    let pb = file("compare", "b.txt", &lines(&b));
    let args = [
        "--json",
        "--no-changepoints",
        pa.to_str().unwrap(),
        pb.to_str().unwrap(),
    ];
    let doc = json(&run(&args));
    let c = &doc["comparisons"][0];
    for key in [
        "base",
        "other",
        "t",
        "dof",
        "p",
        "difference",
        "relative",
        "verdict",
    ] {
        assert!(c.get(key).is_some(), "missing key {key} in {c}");
    }
    assert_eq!(c["verdict"], "larger");
    assert!(close(
        c["difference"]["estimate"].as_f64().unwrap(),
        10.0,
        1e-12
    ));
    assert!(close(c["relative"].as_f64().unwrap(), 0.1, 1e-12));
    assert!(c["p"].as_f64().unwrap() < 1e-10);

    // The same file twice: no difference, p = 1, never "larger" or "smaller".
    let doc = json(&run(&[
        "--json",
        "--no-changepoints",
        pa.to_str().unwrap(),
        pa.to_str().unwrap(),
    ]));
    let c = &doc["comparisons"][0];
    assert_eq!(c["p"], 1.0);
    assert!(
        c["verdict"] == "equivalent" || c["verdict"] == "inconclusive",
        "{c}"
    );

    let o = run(&[
        "--no-changepoints",
        pa.to_str().unwrap(),
        pb.to_str().unwrap(),
    ]);
    assert!(stdout(&o).contains("+10.00%"), "{}", stdout(&o));
    assert!(stdout(&o).contains("larger than"), "{}", stdout(&o));
}

#[test]
fn wps_fits_speed_from_work_and_duration() {
    // t = 3 + w/4 exactly, work amounts from the bisection sequence over [0, 64].
    let work = [
        32.0, 16.0, 48.0, 8.0, 24.0, 40.0, 56.0, 4.0, 12.0, 20.0, 28.0, 36.0,
    ];
    let pairs: String = work
        .iter()
        .map(|w| format!("{w} {}\n", 3.0 + w / 4.0))
        .collect();
    let path = file("wps", "wps.txt", &pairs);
    let doc = json(&run(&["--json", "--wps", path.to_str().unwrap()]));
    let w = &doc["files"][0]["wps"];
    assert!(close(w["v"].as_f64().unwrap(), 4.0, 1e-9), "{w}");
    assert!(close(w["alpha"].as_f64().unwrap(), 3.0, 1e-9), "{w}");
    assert!(close(w["slope"].as_f64().unwrap(), 0.25, 1e-9), "{w}");
    for key in ["slope_ci", "v_ci", "rounds_used"] {
        assert!(w.get(key).is_some(), "missing {key}");
    }

    // Durations that do not grow with work: v has no upper bound, reported as null.
    let flat: String = work
        .iter()
        .enumerate()
        .map(|(i, w)| format!("{w},{}\n", 100.0 + [1.0, -1.0, 0.5][i % 3]))
        .collect();
    let path = file("wps", "flat.csv", &format!("work,ns\n{flat}"));
    let args = [
        "--json",
        "--wps",
        "--work-column",
        "work",
        "--duration-column",
        "ns",
    ];
    let doc = json(&run(&[&args[..], &[path.to_str().unwrap()]].concat()));
    assert!(
        doc["files"][0]["wps"]["v_ci"]["high"].is_null(),
        "{}",
        doc["files"][0]["wps"]
    );
}

/// Whether `text` shows a non-finite number: `inf` or `NaN` as a word of its own.
fn shows_non_finite(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w.eq_ignore_ascii_case("inf") || w.eq_ignore_ascii_case("nan"))
}

#[test]
fn values_near_the_largest_f64_do_not_panic() {
    // Mixed signs near ±1e308: the drift test's t was NaN and statrs's Student-t panicked
    // (`XOutOfRange`, exit 101).
    let xs: Vec<f64> = (0..60)
        .map(|i| {
            let sign = if i % 3 == 0 { -1.0 } else { 1.0 };
            sign * (1e307 + 1.5e306 * f64::from(i % 7))
        })
        .collect();
    let path = file("near-max", "near-max.txt", &lines(&xs));
    let o = run(&[path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    assert!(!shows_non_finite(&stdout(&o)), "{}", stdout(&o));

    // ±MAX: the standard deviation, √2 · MAX, is no f64; refused with the reason.
    let xs: Vec<f64> = (0..10)
        .map(|i| if i % 2 == 0 { f64::MAX } else { -f64::MAX })
        .collect();
    let path = file("near-max", "max.txt", &lines(&xs));
    let o = run(&[path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "stdout: {}", stdout(&o));
    assert!(
        stderr(&o).contains("max.txt: the standard deviation is beyond the range of f64"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn huge_and_tiny_values_are_analysed_as_their_scaled_copies() {
    // Times 2^600 the variance overflowed (`± inf`, a NaN mean); times 2^-600 it underflowed
    // (a zero-width interval). A power of two scales every reported number exactly.
    let base_path = file("scaled", "base.txt", &lines(&cyclic()));
    let base = json(&run(&["--json", base_path.to_str().unwrap()]));
    let b = &base["files"][0];
    for k in [600, -600] {
        let f = 2f64.powi(k);
        let xs: Vec<f64> = cyclic().iter().map(|x| x * f).collect();
        let path = file("scaled", &format!("x{k}.txt"), &lines(&xs));
        let doc = json(&run(&["--json", path.to_str().unwrap()]));
        let a = &doc["files"][0];
        let scaled = |v: &Value| v.as_f64().unwrap() * f;
        for key in ["mean", "std", "median", "min", "max"] {
            assert_eq!(a[key].as_f64(), Some(scaled(&b[key])), "{key} at 2^{k}");
        }
        for bound in ["low", "high"] {
            assert_eq!(
                a["result"]["ci"][bound].as_f64(),
                Some(scaled(&b["result"]["ci"][bound])),
                "{bound} at 2^{k}"
            );
        }
        assert_eq!(a["result"]["required_n"], b["result"]["required_n"]);
        assert_eq!(a["changepoints"], b["changepoints"]);
        assert_eq!(a["autocorrelation"], b["autocorrelation"]);
    }
    // Decimal factors, as a user's file would have them: no ∞, no NaN, the same required N.
    for f in [1e200, 1e-200] {
        let xs: Vec<f64> = cyclic().iter().map(|x| x * f).collect();
        let path = file("scaled", &format!("x{f:e}.txt"), &lines(&xs));
        let o = run(&[path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
        assert!(!shows_non_finite(&stdout(&o)), "{}", stdout(&o));
        let required = |o: &str| {
            o.lines()
                .find(|l| l.contains("required N"))
                .map(str::to_string)
        };
        let base_text = stdout(&run(&[base_path.to_str().unwrap()]));
        assert_eq!(required(&stdout(&o)), required(&base_text));
    }
}

#[test]
fn tiny_values_invent_no_change_points() {
    // Irregular noise around 1 has no change point; times 1e-200 its noise variance underflowed
    // to 0, every difference of means became significant and change points were invented.
    let noise: Vec<f64> = (0..100)
        .map(|i| 1.0 + 0.1 * ((f64::from(i) * 12.9898).sin() * 43_758.545_3).fract())
        .collect();
    for f in [1.0, 1e-200, 1e-310] {
        let xs: Vec<f64> = noise.iter().map(|x| x * f).collect();
        let path = file("tiny-cp", &format!("x{f:e}.txt"), &lines(&xs));
        let doc = json(&run(&["--json", path.to_str().unwrap()]));
        let a = &doc["files"][0];
        assert_eq!(a["changepoints"], serde_json::json!([]), "{f:e}: {a}");
        let hw =
            a["result"]["ci"]["high"].as_f64().unwrap() - a["result"]["mean"].as_f64().unwrap();
        assert!(hw > 0.0, "{f:e}: zero-width interval {a}");
    }
}

#[test]
fn required_n_is_unknown_only_for_a_zero_mean() {
    let zero: Vec<f64> = cyclic().iter().map(|x| x - 2.5).collect();
    let path = file("required", "zero.txt", &lines(&zero));
    let o = run(&["--no-changepoints", path.to_str().unwrap()]);
    assert!(
        stdout(&o).contains("required N       unknown (the mean is 0)"),
        "{}",
        stdout(&o)
    );
    // Integers in units of the smallest subnormal, 2^-1074: 1% of the mean underflowed to 0,
    // and this said "the mean is 0" too.
    let unit = f64::from_bits(1);
    let tiny: Vec<f64> = cyclic().iter().map(|x| x.round() * unit).collect();
    let ints: Vec<f64> = cyclic().iter().map(|x| x.round()).collect();
    let (pt, pi) = (
        file("required", "tiny.txt", &lines(&tiny)),
        file("required", "ints.txt", &lines(&ints)),
    );
    let (t, i) = (
        json(&run(&["--json", "--no-changepoints", pt.to_str().unwrap()])),
        json(&run(&["--json", "--no-changepoints", pi.to_str().unwrap()])),
    );
    assert!(i["files"][0]["result"]["required_n"].as_u64().is_some());
    assert_eq!(
        t["files"][0]["result"]["required_n"],
        i["files"][0]["result"]["required_n"]
    );
}

#[test]
fn a_zero_base_mean_gives_a_difference_not_a_nan_percentage() {
    let zero: Vec<f64> = cyclic().iter().map(|x| x - 2.5).collect();
    let shifted: Vec<f64> = cyclic().iter().map(|x| x + 7.5).collect();
    let (pz, ps) = (
        file("zero-base", "zero.txt", &lines(&zero)),
        file("zero-base", "shifted.txt", &lines(&shifted)),
    );
    let args = [
        "--no-changepoints",
        pz.to_str().unwrap(),
        ps.to_str().unwrap(),
    ];
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    assert!(!shows_non_finite(&stdout(&o)), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("+10.0000 [") && stdout(&o).contains("the base mean is 0"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("larger than"), "{}", stdout(&o));
    let doc = json(&run(&[&["--json"][..], &args].concat()));
    assert!(doc["comparisons"][0]["relative"].is_null());
    assert_eq!(doc["comparisons"][0]["difference"]["estimate"], 10.0);
}

#[test]
fn endless_and_oversized_input_is_refused_naming_the_limit() {
    // /dev/zero has no newline: it used to be read until memory ran out.
    let o = run(&["/dev/zero"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("/dev/zero:1: the line is longer than 1 MiB"),
        "{}",
        stderr(&o)
    );
    // A (sparse) file over 1 GiB is refused from its size, before it is read.
    let path = file("limits", "huge.txt", "");
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len((1 << 30) + 1)
        .unwrap();
    let o = run(&[path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("huge.txt: more than 1 GiB, the most `cargo pilot analyze` reads"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_byte_order_mark_is_accepted_in_text_and_csv() {
    let plain = file("bom", "bom.txt", &format!("\u{feff}{}", lines(&cyclic())));
    let doc = json(&run(&[
        "--json",
        "--no-changepoints",
        plain.to_str().unwrap(),
    ]));
    assert_eq!(doc["files"][0]["mean"], 2.5);
    assert_eq!(doc["files"][0]["n"], 40);
    let csv = file(
        "bom",
        "bom.csv",
        &format!("\u{feff}ns\n{}", lines(&cyclic())),
    );
    let doc = json(&run(&[
        "--json",
        "--no-changepoints",
        "--column",
        "ns",
        csv.to_str().unwrap(),
    ]));
    assert_eq!(doc["files"][0]["mean"], 2.5);
}

#[test]
fn wps_refuses_durations_and_work_amounts_that_are_not_positive() {
    let work = [32.0, 16.0, 48.0, 8.0, 24.0, 40.0];
    let mut pairs: Vec<String> = work
        .iter()
        .map(|w| format!("{w} {}", 3.0 + w / 4.0))
        .collect();
    pairs[3] = "8 -5".to_string();
    let path = file("wps-sign", "negative.txt", &(pairs.join("\n") + "\n"));
    let o = run(&["--wps", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("negative.txt:4: duration `-5` is not positive"),
        "{}",
        stderr(&o)
    );
    let csv = format!(
        "work,ns\n{}",
        work.iter()
            .enumerate()
            .map(|(i, w)| format!("{},{}\n", if i == 2 { 0.0 } else { *w }, 3.0 + w / 4.0))
            .collect::<String>()
    );
    let path = file("wps-sign", "zero.csv", &csv);
    let o = run(&[
        "--wps",
        "--work-column",
        "work",
        "--duration-column",
        "ns",
        path.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("zero.csv:4: column `work`: `0` is not positive"),
        "{}",
        stderr(&o)
    );
}

/// `--independent` gives the textbook statistics, equal to scipy's
/// (`tests/fixtures/gen_independent.py`); the default analysis of an autocorrelated series
/// with a warm-up says what it adjusted, and its interval is wider.
#[test]
fn independent_statistics_equal_scipys_and_the_default_states_its_adjustment() {
    let fixture: Value = serde_json::from_str(include_str!(
        "../../../tests/fixtures/independent_reference.json"
    ))
    .unwrap();
    let values = |name: &str| -> Vec<f64> {
        fixture["files"][name]["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect()
    };
    let close = |got: &Value, want: &Value, what: &str| {
        let (g, w) = (got.as_f64().unwrap(), want.as_f64().unwrap());
        assert!(
            (g - w).abs() <= 1e-9 * w.abs().max(1.0),
            "{what}: {g} against scipy's {w}"
        );
    };
    let test = "independent";
    let paths: Vec<PathBuf> = ["base", "other", "ar"]
        .iter()
        .map(|n| file(test, &format!("{n}.txt"), &lines(&values(n))))
        .collect();
    let arg = |i: usize| paths[i].to_str().unwrap();
    let doc = json(&run(&["--independent", "--json", arg(0), arg(1), arg(2)]));
    for (i, name) in ["base", "other", "ar"].iter().enumerate() {
        let (got, want) = (&doc["files"][i]["result"], &fixture["files"][*name]);
        close(&got["mean"], &want["mean"], "mean");
        close(&got["ci"]["low"], &want["ci"][0], "interval's low bound");
        close(&got["ci"]["high"], &want["ci"][1], "interval's high bound");
        assert_eq!(doc["files"][i]["subsession"]["size"], 1);
        assert_eq!(doc["files"][i]["adjustment"]["variance_inflation"], 1.0);
    }
    let (got, want) = (&doc["comparisons"][0], &fixture["welch_other_vs_base"]);
    close(&got["t"], &want["t"], "Welch's t");
    close(
        &got["dof"],
        &want["dof"],
        "Welch–Satterthwaite degrees of freedom",
    );
    close(&got["p"], &want["p"], "p");
    close(
        &got["difference"]["ci"]["low"],
        &want["difference_ci"][0],
        "difference low",
    );
    close(
        &got["difference"]["ci"]["high"],
        &want["difference_ci"][1],
        "difference high",
    );

    // The default on the AR(1) series with a warm-up: readings cut, subsessions merged, an
    // inflation, a wider interval than the textbook one, and the human output says so.
    let doc = json(&run(&["--json", arg(2)]));
    let adj = &doc["files"][0]["adjustment"];
    assert!(adj["removed"].as_u64().unwrap() > 0, "{adj}");
    assert!(adj["subsession_size"].as_u64().unwrap() > 1, "{adj}");
    assert!(adj["interval_ratio"].as_f64().unwrap() > 1.0, "{adj}");
    let out = stdout(&run(&[arg(2)]));
    assert!(
        out.contains("adjustment") && out.contains("--independent"),
        "{out}"
    );
}
