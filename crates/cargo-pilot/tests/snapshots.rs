//! Snapshots of what every `cargo pilot` command prints, so that a change to what a user sees
//! reaches its reviewer as a diff of a file in `tests/snapshots/`.
//!
//! Each snapshot starts with the command line, then the exit code, standard output and standard
//! error. Outputs from fixed inputs are snapshotted exactly: the help of every command, `analyze`
//! on `examples/data`, and `import`, `compare`, `export`, `report` and `list` on the checked-in
//! fixtures of `tests/fixtures/` (copied into a scratch folder and run from there, so that the
//! paths printed are short and the same on every machine), with a couple of bad inputs each.
//! Outputs of timed runs (`run`, `bench`, and `list` after them) go through
//! [`common::redact_timed`]: their numbers are redacted, their shape is kept.
//!
//! After a deliberate change of an output: `INSTA_UPDATE=always cargo test -p cargo-pilot --test
//! cli_snapshots` (or `cargo insta review`), then read the diff of the `.snap` files.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

mod common;

const EXE: &str = env!("CARGO_BIN_EXE_cargo-pilot");

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// A fresh folder for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("snapshots-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
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

/// `cargo pilot ARGS` run in `dir`.
fn pilot_in(dir: &Path, args: &[&str]) -> Output {
    common::cargo_pilot(EXE)
        .args(args)
        .current_dir(dir)
        .env_remove("RUST_BACKTRACE")
        .output()
        .unwrap()
}

fn command_line(args: &[&str]) -> String {
    let mut words = vec!["cargo", "pilot"];
    words.extend_from_slice(args);
    common::command_line(&words)
}

/// The command line `cargo pilot ARGS`, then what it printed.
fn seen(args: &[&str], o: &Output) -> String {
    format!("{}\n{}", command_line(args), common::shown(o))
}

/// [`seen`] for a timed run: the numbers of its output redacted.
fn seen_timed(args: &[&str], o: &Output) -> String {
    format!("{}\n{}", command_line(args), common::shown_timed(o))
}

/// `cargo pilot ARGS` run in `dir`, as [`seen`].
fn exact(dir: &Path, args: &[&str]) -> String {
    seen(args, &pilot_in(dir, args))
}

/// Several commands run in `dir`, one after another, as [`seen`].
fn session(dir: &Path, commands: &[&[&str]]) -> String {
    commands
        .iter()
        .map(|args| exact(dir, args))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The files under `dir`, as sorted paths relative to it.
fn files(dir: &Path) -> Vec<String> {
    fn collect(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                collect(root, &path, out);
            } else {
                out.push(path.strip_prefix(root).unwrap().display().to_string());
            }
        }
    }
    let mut out = Vec::new();
    collect(dir, dir, &mut out);
    out.sort();
    out
}

/// `files(dir)` as lines under a heading, each path prefixed with `shown_as`.
fn files_written(dir: &Path, shown_as: &str) -> String {
    let mut text = String::from("\nfiles written:\n");
    for f in files(dir) {
        text.push_str(&format!("  {shown_as}{f}\n"));
    }
    text
}

/// What [`common::redact_timed`] does to lines of real timed runs: the shape kept, the numbers,
/// statuses and warm-up classes redacted, the lines that come and go dropped.
#[test]
fn redaction_of_timed_output() {
    let raw = "\
running 3 benches (1 filtered out); clock: 23.0 ns per read, resolution 20 ns
check (few_cores): a bench uses 1 thread(s) but only 0.0 of 2 cores were free
add: 0.542 ns ± 1.18% [time cap]
  warning: time cap reached with ±1.18% of the mean (target ±1.00%)
  recording overhead: 62.84 µs per unit (-755.1 µs to 880.8 µs, 2 pairs of rounds on/off)
fold: 0.541 ns ± 0.06% [ok]
sort/1000     12.00 µs ± 0.01% this run, ±2.41% run to run  ok

bench      time (95% CI)  per         throughput  samples     q  warm-up  readings cut  outliers z/MAD  rounds  procs   wall  status
add     0.542 ns ± 1.18%  iteration                   13k    16  flat              595         73/5510      12      1  0.2 s  time cap
sum_1k  50.39 ns ± 0.65%  unit       18.92 GiB/s     1.8M  6836  warm-up             0          55/59k      18      1  0.7 s  ok
fold    0.541 ns ± 0.06%  unit                         10     1  no steady state     0               -      15      1  0.0 s  out of reach
threaded/threads=2   85.07 ns ± 0.35%  unit  11.76 M units/s per thread, 23.51 M units/s on 2
cost/spin   2.850 µs ± 0.32% (time cap)  2026-11-26T21:26:20Z  pilot-fixture
true: user 530.3 µs ± 12.3%, system 0.000 ns, peak memory 1.5 MiB
| `true` | 654.492 | -370.996 … 937.988 | 2.5e-3 | 1.00 |
| Command | Mean [µs] | 95% CI [ms] |
test add ... bench:           1 ns/iter (+/- 0)
";
    let text = common::redact_timed(raw);
    insta::assert_snapshot!(text);
}

#[test]
fn help_of_every_command() {
    let commands: &[&[&str]] = &[
        &[],
        &["bench"],
        &["compare"],
        &["list"],
        &["analyze"],
        &["run"],
        &["export"],
        &["report"],
        &["import"],
        &["import", "criterion"],
        &["import", "hyperfine"],
        &["history"],
        &["history", "add"],
        &["changes"],
        &["bisect"],
        &["noise"],
    ];
    for command in commands {
        let mut args = command.to_vec();
        args.push("--help");
        let text = exact(&workspace(), &args);
        let name = if command.is_empty() {
            "help".to_string()
        } else {
            format!("help_{}", command.join("_"))
        };
        insta::assert_snapshot!(name, text);
    }
}

/// No command, an unknown one: clap's usage error, exit 2.
#[test]
fn usage_errors_of_cargo_pilot() {
    let text = session(&workspace(), &[&[], &["frobnicate"]]);
    insta::assert_snapshot!(text);
}

/// The example data, through the default analysis (change points, subsession analysis), the
/// textbook one (`--independent`), one CSV column without change points, the WPS fit of
/// readings-only data, and standard input.
#[test]
fn analyze_tables_of_the_example_data() {
    let cases: [(&str, &[&str]); 5] = [
        ("analyze_one_file", &["examples/data/sum-64k.txt"]),
        (
            "analyze_two_files_compared",
            &[
                "examples/data/sort-1k.txt",
                "examples/data/sort-unstable-1k.txt",
            ],
        ),
        (
            "analyze_independent",
            &[
                "--independent",
                "examples/data/sort-1k.txt",
                "examples/data/sort-unstable-1k.txt",
            ],
        ),
        (
            "analyze_csv_column_without_changepoints",
            &[
                "--no-changepoints",
                "--column",
                "nanoseconds",
                "examples/data/copy-wps.csv",
            ],
        ),
        (
            "analyze_wps",
            &[
                "--wps",
                "--work-column",
                "bytes",
                "--duration-column",
                "nanoseconds",
                "examples/data/copy-wps.csv",
            ],
        ),
    ];
    for (name, files) in cases {
        let mut args = vec!["analyze"];
        args.extend_from_slice(files);
        let text = exact(&workspace(), &args);
        insta::assert_snapshot!(name, text);
    }

    let mut child = common::cargo_pilot(EXE)
        .args(["analyze", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let input = "# four readings\n3\n4\n\n5\n6\n";
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), input.as_bytes()).unwrap();
    let o = child.wait_with_output().unwrap();
    let text = format!(
        "$ printf '{}' | cargo pilot analyze -\n{}",
        input.replace('\n', "\\n"),
        common::shown(&o)
    );
    insta::assert_snapshot!("analyze_standard_input", text);
}

/// `--json`: the `pilot.analyze/1` document of two files and their comparison.
#[test]
fn analyze_json_document() {
    let text = exact(
        &workspace(),
        &[
            "analyze",
            "--json",
            "examples/data/sort-1k.txt",
            "examples/data/sort-unstable-1k.txt",
        ],
    );
    insta::assert_snapshot!(text);
}

/// Another harness's files read as readings: hyperfine's export and criterion's folder.
#[test]
fn analyze_other_harnesses_files() {
    let text = exact(
        &workspace(),
        &[
            "analyze",
            "--from",
            "hyperfine",
            "crates/cargo-pilot/tests/fixtures/import/hyperfine.json",
        ],
    );
    insta::assert_snapshot!("analyze_from_hyperfine", text);
    let text = exact(
        &workspace(),
        &[
            "analyze",
            "--from",
            "criterion",
            "crates/cargo-pilot/tests/fixtures/import/criterion",
        ],
    );
    insta::assert_snapshot!("analyze_from_criterion", text);
}

#[test]
fn analyze_errors() {
    let dir = scratch("analyze-errors");
    std::fs::write(dir.join("words.txt"), "1\n2\nabc\n").unwrap();
    std::fs::write(dir.join("one.txt"), "1\n").unwrap();
    std::fs::write(dir.join("empty.txt"), "").unwrap();
    std::fs::write(dir.join("two.csv"), "bytes,nanoseconds\n1,2\n3,4\n").unwrap();
    let text = session(
        &dir,
        &[
            &["analyze"],
            &["analyze", "missing.txt"],
            &["analyze", "words.txt"],
            &["analyze", "one.txt"],
            &["analyze", "empty.txt"],
            &["analyze", "--column", "seconds", "two.csv"],
            &["analyze", "--confidence", "2", "one.txt"],
            &["analyze", "--from", "hyperfine", "words.txt"],
        ],
    );
    insta::assert_snapshot!(text);
}

/// A scratch folder holding copies of the fixtures: the result documents of
/// `fixtures/export/results` as `results/`, hyperfine's export as `hyperfine.json`, the same
/// runs one and a half times as slow as `hyperfine-slower.json` (every time in it scaled, so
/// that a comparison finds a regression), and criterion's output as `criterion/`. The target
/// directory is `t` (no baselines in it yet).
fn fixture_folder(test: &str) -> PathBuf {
    let dir = scratch(test);
    copy_dir(&fixtures().join("export/results"), &dir.join("results"));
    copy_dir(&fixtures().join("import/criterion"), &dir.join("criterion"));
    let hyperfine = fixtures().join("import/hyperfine.json");
    std::fs::copy(&hyperfine, dir.join("hyperfine.json")).unwrap();
    let mut doc: Value =
        serde_json::from_str(&std::fs::read_to_string(&hyperfine).unwrap()).unwrap();
    for result in doc["results"].as_array_mut().unwrap() {
        for key in ["mean", "stddev", "median", "user", "system", "min", "max"] {
            result[key] = (result[key].as_f64().unwrap() * 1.5).into();
        }
        for t in result["times"].as_array_mut().unwrap() {
            *t = (t.as_f64().unwrap() * 1.5).into();
        }
    }
    std::fs::write(
        dir.join("hyperfine-slower.json"),
        serde_json::to_string_pretty(&doc).unwrap(),
    )
    .unwrap();
    dir
}

/// [`fixture_folder`] with three baselines imported: `before` (hyperfine's runs), `after` (the
/// slower copy) and `crit` (criterion's).
fn baselines(test: &str) -> PathBuf {
    let dir = fixture_folder(test);
    for args in [
        &[
            "import",
            "hyperfine",
            "hyperfine.json",
            "--baseline",
            "before",
        ][..],
        &[
            "import",
            "hyperfine",
            "hyperfine-slower.json",
            "--baseline",
            "after",
        ],
        &["import", "criterion", "criterion", "--baseline", "crit"],
    ] {
        let mut args = args.to_vec();
        args.extend(["--target-dir", "t"]);
        let o = pilot_in(&dir, &args);
        assert_eq!(o.status.code(), Some(0), "{}", common::text(&o));
    }
    dir
}

/// Both importers' tables, and the files they write.
#[test]
fn import_tables_and_files() {
    let dir = fixture_folder("import");
    let mut text = session(
        &dir,
        &[
            &[
                "import",
                "hyperfine",
                "hyperfine.json",
                "--baseline",
                "before",
                "--target-dir",
                "t",
            ],
            &[
                "import",
                "criterion",
                "criterion",
                "--baseline",
                "crit",
                "--target-dir",
                "t",
            ],
            &[
                "import",
                "criterion",
                "criterion/one_add",
                "--baseline",
                "one",
                "--bench",
                "one_add",
                "--confidence",
                "0.99",
                "--target-dir",
                "t",
            ],
        ],
    );
    text.push_str(&files_written(&dir.join("t"), "t/"));
    insta::assert_snapshot!(text);
}

#[test]
fn import_errors() {
    let dir = baselines("import-errors");
    std::fs::write(dir.join("truncated.json"), "{\"results\": [\n").unwrap();
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let text = session(
        &dir,
        &[
            &["import"],
            &["import", "hyperfine", "hyperfine.json"],
            &[
                "import",
                "hyperfine",
                "hyperfine.json",
                "--baseline",
                "before",
                "--target-dir",
                "t",
            ],
            &[
                "import",
                "hyperfine",
                "hyperfine.json",
                "--baseline",
                "a/b",
                "--target-dir",
                "t",
            ],
            &[
                "import",
                "hyperfine",
                "missing.json",
                "--baseline",
                "x",
                "--target-dir",
                "t",
            ],
            &[
                "import",
                "hyperfine",
                "truncated.json",
                "--baseline",
                "x",
                "--target-dir",
                "t",
            ],
            &[
                "import",
                "criterion",
                "empty",
                "--baseline",
                "x",
                "--target-dir",
                "t",
            ],
        ],
    );
    insta::assert_snapshot!(text);
}

/// The same runs and the slower copy: a regression (exit 3) and an undecided change in each
/// format; the other way round, an improvement (exit 0); criterion's baseline against the
/// result documents: benches missing, new, and one in both; the documents against themselves.
#[test]
fn compare_in_every_format() {
    let dir = baselines("compare");
    for format in ["table", "md", "json"] {
        let text = exact(
            &dir,
            &[
                "compare",
                "before",
                "after",
                "--format",
                format,
                "--target-dir",
                "t",
            ],
        );
        insta::assert_snapshot!(format!("compare_regressed_{format}"), text);
    }
    let text = exact(&dir, &["compare", "after", "before", "--target-dir", "t"]);
    insta::assert_snapshot!("compare_improved", text);
    let text = exact(&dir, &["compare", "crit", "results", "--target-dir", "t"]);
    insta::assert_snapshot!("compare_missing_and_new", text);
    let text = exact(
        &dir,
        &[
            "compare",
            "results",
            "results",
            "--format",
            "md",
            "--target-dir",
            "t",
        ],
    );
    insta::assert_snapshot!("compare_files_with_themselves_md", text);
}

/// `compare BASE` against the latest results of a target directory: baseline `main` was saved
/// from a run of two targets, `sort` ran again since (its latest result is a new document),
/// `write_file` did not, and `readings_only` is a target the baseline never measured. Only
/// `sort_10k` is compared; the note says which results were left out and why, and nothing is
/// "new".
#[test]
fn compare_with_the_latest_results() {
    let dir = fixture_folder("compare-latest");
    let pilot = dir.join("t/pilot");
    copy_dir(&dir.join("results"), &pilot.join("results"));
    for target in ["sort", "write_file"] {
        copy_dir(
            &dir.join("results").join(target),
            &pilot.join("baselines/main").join(target),
        );
    }
    let rerun = pilot.join("results/sort/sort_10k.json");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&rerun).unwrap()).unwrap();
    doc["finished"] = "2026-11-24T09:00:00Z".into();
    std::fs::write(&rerun, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let text = session(
        &dir,
        &[
            &["compare", "main", "--target-dir", "t"],
            &["compare", "main", "--format", "md", "--target-dir", "t"],
        ],
    );
    insta::assert_snapshot!("compare_with_the_latest_results", text);
}

#[test]
fn compare_errors() {
    let dir = baselines("compare-errors");
    std::fs::write(
        dir.join("truncated.json"),
        "{\"schema\": \"pilot.result/1\", \"name\":\n",
    )
    .unwrap();
    let text = session(
        &dir,
        &[
            &["compare"],
            &["compare", "missing", "--target-dir", "t"],
            &["compare", "before", "--target-dir", "t"],
            &["compare", "truncated.json", "results", "--target-dir", "t"],
            &[
                "compare",
                "before",
                "after",
                "--format",
                "xml",
                "--target-dir",
                "t",
            ],
        ],
    );
    insta::assert_snapshot!(text);
}

/// Every format of the result documents, and of a baseline by its name.
#[test]
fn export_in_every_format() {
    let dir = baselines("export");
    for format in ["bmf", "github", "csv", "md"] {
        let text = exact(
            &dir,
            &["export", "--format", format, "results", "--target-dir", "t"],
        );
        insta::assert_snapshot!(format!("export_{format}"), text);
    }
    let text = exact(
        &dir,
        &["export", "--format", "md", "after", "--target-dir", "t"],
    );
    insta::assert_snapshot!("export_baseline_md", text);
}

#[test]
fn export_errors() {
    let dir = baselines("export-errors");
    std::fs::write(dir.join("garbage.json"), "not json\n").unwrap();
    std::fs::write(dir.join("taken.md"), "").unwrap();
    let text = session(
        &dir,
        &[
            &["export", "results", "--target-dir", "t"],
            &["export", "--format", "xml", "results", "--target-dir", "t"],
            &["export", "--format", "md", "--target-dir", "t"],
            &["export", "--format", "md", "missing", "--target-dir", "t"],
            &[
                "export",
                "--format",
                "md",
                "garbage.json",
                "--target-dir",
                "t",
            ],
            &[
                "export",
                "--format",
                "md",
                "results",
                "--out",
                "taken.md",
                "--target-dir",
                "t",
            ],
        ],
    );
    insta::assert_snapshot!(text);
}

/// `report` with a baseline: what it prints, the files it writes, and the page with its plots
/// (`<svg>`) and its style sheet elided, which leaves the sections, tables, captions, checks
/// and warnings; then `--results`, a folder of results without a Cargo.toml.
#[test]
fn report_page() {
    let dir = baselines("report");
    copy_dir(&dir.join("results"), &dir.join("t/pilot/results"));
    let mut text = exact(
        &dir,
        &[
            "report",
            "--baseline",
            "crit",
            "--out",
            "page",
            "--target-dir",
            "t",
        ],
    );
    text.push_str(&files_written(&dir.join("page"), "page/"));
    let html = std::fs::read_to_string(dir.join("page/index.html")).unwrap();
    let svg = regex::Regex::new(r"(?s)<svg[ >].*?</svg>").unwrap();
    let style = regex::Regex::new(r"(?s)<style>.*?</style>").unwrap();
    let html = svg.replace_all(&html, "<svg>…</svg>");
    let html = style.replace_all(&html, "<style>…</style>");
    text.push_str(&format!(
        "\npage/index.html, plots and style elided:\n{html}"
    ));
    insta::assert_snapshot!(text);

    let text = exact(&dir, &["report", "--results", "t", "--out", "page2"]);
    insta::assert_snapshot!("report_page_of_a_results_folder", text);
}

#[test]
fn report_errors() {
    let dir = baselines("report-errors");
    let mut text = session(
        &dir,
        &[
            &["report", "--target-dir", "t", "--out", "page"],
            &["report", "--results", "missing", "--out", "page"],
            &["report", "--target-dir", "t", "--alpha", "2"],
        ],
    );
    copy_dir(&dir.join("results"), &dir.join("t/pilot/results"));
    text.push('\n');
    text.push_str(&exact(
        &dir,
        &[
            "report",
            "--baseline",
            "missing",
            "--target-dir",
            "t",
            "--out",
            "page",
        ],
    ));
    insta::assert_snapshot!(text);
}

/// The shape of a JSON document: each number becomes `"<number>"`, an array of numbers
/// (whose length varies) `["<numbers>"]`; keys and strings are kept.
fn shape(v: &Value) -> Value {
    match v {
        Value::Number(_) => "<number>".into(),
        Value::Array(a) if !a.is_empty() && a.iter().all(Value::is_number) => {
            Value::Array(vec!["<numbers>".into()])
        }
        Value::Array(a) => a.iter().map(shape).collect(),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), shape(v))).collect()),
        other => other.clone(),
    }
}

/// A trivial program measured for a fifth of a second, with hyperfine's export formats of the
/// result, and the files written: numbers redacted, the JSON export as its shape.
#[test]
fn run_a_trivial_command() {
    let dir = scratch("run");
    let args = [
        "run",
        "-N",
        "true",
        "--max-time",
        "0.2",
        "--out",
        "res",
        "--export-markdown",
        "true.md",
        "--export-csv",
        "true.csv",
        "--export-json",
        "true.json",
    ];
    let text = seen_timed(&args, &pilot_in(&dir, &args));
    insta::assert_snapshot!("run_true", text);
    let file = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let text = common::redact_timed(&file("true.md"));
    insta::assert_snapshot!("run_true_export_markdown", text);
    let text = common::redact_timed(&file("true.csv"));
    insta::assert_snapshot!("run_true_export_csv", text);
    let json: Value = serde_json::from_str(&file("true.json")).unwrap();
    let text = serde_json::to_string_pretty(&shape(&json)).unwrap();
    insta::assert_snapshot!("run_true_export_json_shape", text);
    let text = files_written(&dir, "");
    insta::assert_snapshot!("run_true_files", text.trim_start());
}

/// Usage errors, a failing program, a missing one, a missing baseline: nothing is measured,
/// so the output is exact.
#[test]
fn run_errors() {
    let dir = scratch("run-errors");
    let text = session(
        &dir,
        &[
            &["run", "--max-time", "0.2"],
            &["run", "-N", "true", "--max-time", "-1"],
            &["run", "-N", "true", "--ci", "7"],
            &["run", "-N", "false", "--max-time", "0.2", "--out", "res"],
            &[
                "run",
                "-N",
                "no-such-program",
                "--max-time",
                "0.2",
                "--out",
                "res",
            ],
            &[
                "run",
                "-N",
                "true",
                "--max-time",
                "0.2",
                "--baseline",
                "missing",
                "--out",
                "res",
            ],
        ],
    );
    insta::assert_snapshot!(text);
}

/// Whether `line` is one of cargo's status lines (`   Compiling …`, `    Finished …`): a
/// capitalised word right-aligned to column 12.
fn is_cargo_status(line: &str) -> bool {
    let (head, rest) = (line.get(..12), line.get(12..));
    match (head.map(str::trim_start), rest) {
        (Some(word), Some(rest)) => {
            rest.starts_with(' ')
                && word.chars().next().is_some_and(|c| c.is_ascii_uppercase())
                && word.chars().all(|c| c.is_ascii_alphabetic())
        }
        _ => false,
    }
}

/// `cargo pilot ARGS --manifest-path tests/fixture-bench/Cargo.toml` in `dir`, its target
/// directory `dir/target`: its command line, and its output with cargo's status lines (which
/// depend on what was built before) left out and `dir` shown as `[scratch]`.
///
/// The build goes into the build directory every test's fixture builds share
/// (`common::fixture_build_dir`), and the results to `dir/target`.
fn on_fixture<'a>(dir: &Path, args: &[&'a str]) -> (Vec<&'a str>, Output) {
    let manifest = workspace().join("tests/fixture-bench/Cargo.toml");
    let o = common::cargo_pilot(EXE)
        .args(args)
        .arg("--manifest-path")
        .arg(&manifest)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env("CARGO_BUILD_BUILD_DIR", common::fixture_build_dir())
        .env_remove("RUST_BACKTRACE")
        .output()
        .unwrap();
    let scratch = dir.display().to_string();
    let clean = |bytes: &[u8], drop_status: bool| -> Vec<u8> {
        String::from_utf8_lossy(bytes)
            .lines()
            .filter(|l| !(drop_status && is_cargo_status(l)))
            .map(|l| format!("{}\n", l.replace(&scratch, "[scratch]")))
            .collect::<String>()
            .into_bytes()
    };
    let mut shown_args = args.to_vec();
    shown_args.extend(["--manifest-path", "tests/fixture-bench/Cargo.toml"]);
    let cleaned = Output {
        status: o.status,
        stdout: clean(&o.stdout, false),
        stderr: clean(&o.stderr, true),
    };
    (shown_args, cleaned)
}

/// `list` before a run (the benches not run yet, and the results of benches the workspace no
/// longer has: the export fixtures), a short `bench`, and `list` after it, timed; then bad
/// input: a missing baseline, a filter that matches nothing, a time cap of zero, a missing
/// manifest.
#[test]
fn bench_and_list_on_the_fixture_workspace() {
    let dir = scratch("bench");
    copy_dir(
        &fixtures().join("export/results"),
        &dir.join("target/pilot/results"),
    );
    let (args, o) = on_fixture(&dir, &["list"]);
    let text = seen(&args, &o);
    insta::assert_snapshot!("list_before_a_run", text);

    // Long enough for both benches to reach an estimate on a busy machine: a bench without
    // one prints another line.
    let (args, o) = on_fixture(&dir, &["bench", "--max-time", "0.5"]);
    let text = seen_timed(&args, &o);
    insta::assert_snapshot!("bench", text);

    let (args, o) = on_fixture(&dir, &["list"]);
    let text = seen_timed(&args, &o);
    insta::assert_snapshot!("list_after_a_run", text);

    let mut errors = Vec::new();
    for (cmd, timed) in [
        (
            &["bench", "--max-time", "0.2", "--baseline", "missing"][..],
            false,
        ),
        (&["bench", "--max-time", "0"], false),
        // Measures nothing, but the clock and the machine are probed.
        (&["bench", "--max-time", "0.2", "no_such_bench"], true),
    ] {
        let (args, o) = on_fixture(&dir, cmd);
        errors.push(if timed {
            seen_timed(&args, &o)
        } else {
            seen(&args, &o)
        });
    }
    errors.push(exact(
        &dir,
        &["list", "--manifest-path", "missing/Cargo.toml"],
    ));
    let text = errors.join("\n");
    insta::assert_snapshot!("bench_and_list_errors", text);
}
