//! pilot under hostile conditions, driving the real `cargo pilot`: corrupt, truncated, foreign
//! and hand-edited result files, a failed bench in a comparison, runs killed at random
//! moments, and outputs named as devices, FIFOs and symlinks. What must hold: a clear error naming the file and the key, the documented exit
//! code, and no result file ever half-written or silently wrong. (The bench binary's own cases
//! are in `bench_binary.rs`: Ctrl-C between rounds, a file in the way of a result, hostile
//! names, bad flags.)

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

mod common;
use common::text;

fn cargo_pilot(args: &[&str]) -> Output {
    common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"))
        .args(args)
        .env("CI", "1")
        .output()
        .unwrap()
}

fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("robustness-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A valid result of bench `name` at `mean` ns ± 1%.
fn result(name: &str, mean: f64) -> Value {
    json!({
        "schema": "pilot.result/1", "name": name, "target": "t", "status": "ok",
        "pis": [{"name": "time", "unit": "ns", "mean": mean,
                 "ci": {"low": 0.99 * mean, "high": 1.01 * mean, "confidence": 0.95},
                 "n": 4000, "subsession_size": 1, "autocorrelation": 0.0,
                 "interval_from": "readings"}],
        "subsession": {"count": 400, "mean": mean, "variance": (0.05 * mean) * (0.05 * mean),
                       "variance_inflation": 1.0},
        "processes": {"count": 1, "means": []},
    })
}

fn write(path: &Path, doc: &Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_string_pretty(doc).unwrap()).unwrap();
}

#[test]
fn a_failed_bench_in_a_comparison_is_exit_1_and_said() {
    let dir = scratch("failed");
    write(&dir.join("base/sort.json"), &result("sort", 100.0));
    write(&dir.join("base/hash.json"), &result("hash", 50.0));
    let mut failed = result("sort", 100.0);
    failed["status"] = json!("failed");
    failed["status_detail"] = json!("panicked: index out of bounds");
    failed["pis"] = json!([]);
    failed["subsession"] = Value::Null;
    write(&dir.join("new/sort.json"), &failed);
    write(&dir.join("new/hash.json"), &result("hash", 50.0));
    let (base, new) = (dir.join("base"), dir.join("new"));
    let o = cargo_pilot(&[
        "compare",
        base.to_str().unwrap(),
        new.to_str().unwrap(),
        "--format",
        "md",
    ]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("2 benches, 0 regressed, 0 improved, 1 failed"),
        "{out}"
    );
    assert!(out.contains("**failed**"), "{out}");

    // The same bench without an estimate in the baseline instead (a short baseline run that
    // found no steady state): the row says so, but the new run did not fail, and the exit code
    // is the new run's, as `cargo pilot bench --baseline` decides.
    let mut unsettled = failed.clone();
    unsettled["status"] = json!("no steady state");
    write(&dir.join("base2/sort.json"), &unsettled);
    write(&dir.join("base2/hash.json"), &result("hash", 50.0));
    write(&dir.join("new2/sort.json"), &result("sort", 100.0));
    write(&dir.join("new2/hash.json"), &result("hash", 50.0));
    let (base, new) = (dir.join("base2"), dir.join("new2"));
    let o = cargo_pilot(&[
        "compare",
        base.to_str().unwrap(),
        new.to_str().unwrap(),
        "--format",
        "md",
    ]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("**failed**"), "{out}");
}

#[test]
fn corrupt_and_foreign_result_files_are_errors_naming_file_and_key() {
    let dir = scratch("corrupt");
    let good = dir.join("good.json");
    write(&good, &result("sort", 100.0));
    let text_of_good = std::fs::read_to_string(&good).unwrap();
    let cases: Vec<(&str, String, &str)> = vec![
        ("empty.json", String::new(), "the file is empty"),
        (
            "cut.json",
            text_of_good[..text_of_good.len() / 2].to_string(),
            "truncated",
        ),
        ("garbage.json", "not json at all".into(), "malformed JSON"),
        ("foreign.json", r#"{"hello": 1}"#.into(), "no `schema` key"),
        (
            "newer.json",
            text_of_good.replace("pilot.result/1", "pilot.result/9"),
            "newer pilot",
        ),
        (
            "mean.json",
            text_of_good.replace("\"mean\": 100.0", "\"mean\": \"fast\""),
            "`pis[0].mean`",
        ),
        (
            "empty-pis.json",
            serde_json::to_string(&{
                let mut d = result("sort", 100.0);
                d["pis"] = json!([]);
                d
            })
            .unwrap(),
            "`pis` is empty but `status` is `ok`",
        ),
        (
            "low.json",
            text_of_good.replace("\"low\": 99.0", "\"low\": 120.0"),
            "`pis[0].ci.low` (120) is above the mean (100)",
        ),
    ];
    for (file, contents, expected) in cases {
        let path = dir.join(file);
        std::fs::write(&path, contents).unwrap();
        let o = cargo_pilot(&["compare", good.to_str().unwrap(), path.to_str().unwrap()]);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(1), "{file}: {out}");
        assert!(
            out.contains(file),
            "{file}: the error names the file: {out}"
        );
        assert!(
            out.contains(expected),
            "{file}: expected `{expected}` in {out}"
        );
        assert!(!out.contains("panicked"), "{file}: {out}");
    }
}

/// `cargo pilot bench` killed with SIGKILL at moments spread over a run: whatever it and its
/// bench binary had written is whole (every result file reads back), and the next run works.
#[cfg(unix)]
#[test]
fn runs_killed_at_any_moment_leave_only_whole_files() {
    let manifest =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixture-bench/Cargo.toml");
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixture-bench-robustness");
    let run = |extra: &[&str]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_cargo-pilot"));
        cmd.args(["pilot", "bench", "--max-time", "0.4", "--ci", "0.05"])
            .args(extra)
            .arg("--manifest-path")
            .arg(&manifest)
            .env("CARGO_TARGET_DIR", &target)
            .env("CARGO_BUILD_BUILD_DIR", common::fixture_build_dir())
            .env("CI", "1")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        cmd
    };
    // Built once, outside the killing.
    assert!(run(&["--save-baseline", "k"]).status().unwrap().success());
    for delay_ms in [150, 400, 700, 1000, 1300] {
        let mut child = run(&["--save-baseline", "k"]).spawn().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        // Its bench binary may outlive it by a round; let it finish or die.
        std::thread::sleep(std::time::Duration::from_millis(300));
        for dir in ["pilot/results", "pilot/baselines/k"] {
            let read = pilot_engine::store::read_dir(&target.join(dir));
            assert!(
                read.is_ok(),
                "after a kill at {delay_ms} ms: {:?}",
                read.err()
            );
        }
    }
    let o = run(&["--baseline", "k", "--noise", "0.5"])
        .output()
        .unwrap();
    assert!(
        matches!(o.status.code(), Some(0 | 3)),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Whether `path` is still a character device (`/dev/null`, `/dev/full`), not a regular file
/// renamed over it.
#[cfg(target_os = "linux")]
fn is_char_device(path: &str) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_char_device())
}

/// A FIFO at `path`, read to its end by a thread through a second name of it, so that a
/// build that renamed a file over `path` leaves the reader waiting on the FIFO, which
/// [`FifoReader::finish`] then ends.
#[cfg(target_os = "linux")]
struct FifoReader {
    keep: PathBuf,
    opened: std::sync::Arc<std::sync::atomic::AtomicBool>,
    reader: std::thread::JoinHandle<Vec<u8>>,
}

#[cfg(target_os = "linux")]
impl FifoReader {
    fn new(path: &Path) -> FifoReader {
        assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
        let keep = path.with_extension("keep");
        std::fs::hard_link(path, &keep).unwrap();
        let opened = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (name, flag) = (keep.clone(), opened.clone());
        let reader = std::thread::spawn(move || {
            use std::io::Read;
            let mut fifo = std::fs::File::open(&name).unwrap();
            flag.store(true, std::sync::atomic::Ordering::SeqCst);
            let mut bytes = Vec::new();
            fifo.read_to_end(&mut bytes).unwrap();
            bytes
        });
        FifoReader {
            keep,
            opened,
            reader,
        }
    }

    /// What was written to the FIFO, once the writer is gone; empty when nothing opened it.
    fn finish(self) -> Vec<u8> {
        if !self.opened.load(std::sync::atomic::Ordering::SeqCst) {
            // The reader waits in its open: a writer that writes nothing lets it see the end.
            drop(std::fs::OpenOptions::new().write(true).open(&self.keep));
        }
        self.reader.join().unwrap()
    }
}

/// The JSON document that ends `out` (printed after the table, from a line `{`).
fn json_at_end(out: &[u8]) -> Value {
    let out = String::from_utf8_lossy(out);
    let start = out
        .find("\n{\n")
        .unwrap_or_else(|| panic!("no JSON in {out}"));
    serde_json::from_str(&out[start..]).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// `cargo pilot run`'s exports to `/dev/stdout`, `/dev/null`, a FIFO and a symlink: each is
/// written in place, none is replaced by a regular file.
#[cfg(target_os = "linux")]
#[test]
fn run_exports_to_devices_fifos_and_symlinks_are_written_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("table.md");
    let reader = FifoReader::new(&fifo);
    let (real, link) = (dir.path().join("real.json"), dir.path().join("link.json"));
    std::fs::write(&real, "an older document").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let results = dir.path().join("results");
    let o = cargo_pilot(&[
        "run",
        "-N",
        "true",
        "--max-time",
        "0.3",
        "--out",
        results.to_str().unwrap(),
        "--export-json",
        "/dev/stdout",
        "--export-csv",
        "/dev/null",
        "--export-markdown",
        fifo.to_str().unwrap(),
        "--json",
        link.to_str().unwrap(),
    ]);
    let markdown = String::from_utf8(reader.finish()).unwrap();
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(is_char_device("/dev/null"), "{out}");
    assert!(
        std::fs::symlink_metadata("/dev/stdout")
            .unwrap()
            .is_symlink()
    );
    // hyperfine's JSON, printed after the table.
    assert_eq!(json_at_end(&o.stdout)["results"][0]["command"], "true");
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo(), "the FIFO was replaced: {kind:?}");
    }
    assert!(markdown.starts_with("| Command | Mean"), "{markdown:?}");
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    let run: Value = serde_json::from_slice(&std::fs::read(&real).unwrap()).unwrap();
    assert_eq!(run["schema"], "pilot.run/1");
}

/// A device that refuses the write (`/dev/full`) is an error naming it, exit 1, and stays a
/// device.
#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_to_a_device_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results");
    let o = cargo_pilot(&[
        "run",
        "-N",
        "true",
        "--max-time",
        "0.2",
        "--out",
        results.to_str().unwrap(),
        "--export-markdown",
        "/dev/full",
    ]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("error: failed to write `/dev/full`: No space left on device"),
        "{out}"
    );
    assert!(is_char_device("/dev/full"));
}

/// `cargo pilot export --out`: a device, `/dev/stdout` or a symlink only with `--force`, then
/// written in place; a new file is readable as the umask allows, like any file the user makes.
#[cfg(target_os = "linux")]
#[test]
fn export_out_writes_devices_and_symlinks_in_place_and_files_by_the_umask() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("results");
    write(&source.join("t/sort.json"), &result("sort", 100.0));
    let export = |out: &Path, force: bool| {
        let mut args = vec![
            "export",
            "--format",
            "bmf",
            source.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        if force {
            args.push("--force");
        }
        cargo_pilot(&args)
    };
    let o = export(Path::new("/dev/null"), false);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("`/dev/null` exists: pass --force"),
        "{}",
        text(&o)
    );
    let o = export(Path::new("/dev/null"), true);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(is_char_device("/dev/null"));
    let o = export(Path::new("/dev/stdout"), true);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let bmf: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(bmf["t/sort"]["latency"]["value"].is_number(), "{bmf}");
    let o = export(Path::new("/dev/full"), true);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("failed to write `/dev/full`: No space left on device"),
        "{}",
        text(&o)
    );
    assert!(is_char_device("/dev/full"));

    let (real, link) = (dir.path().join("real.json"), dir.path().join("link.json"));
    std::fs::write(&real, "kept until --force").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    assert_eq!(export(&link, false).status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(&real).unwrap(),
        "kept until --force"
    );
    let o = export(&link, true);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    let bmf: Value = serde_json::from_slice(&std::fs::read(&real).unwrap()).unwrap();
    assert!(bmf["t/sort"].is_object(), "{bmf}");

    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    // A file made here gets 0666 less this process's umask, which the command inherits.
    let plain = dir.path().join("plain");
    std::fs::write(&plain, "").unwrap();
    let new = dir.path().join("new.json");
    assert_eq!(export(&new, false).status.code(), Some(0));
    assert_eq!(mode(&new), mode(&plain), "{:o}", mode(&new));
}

/// Names from an imported or hand-made file, each aimed at one format: CSV formulas, a line
/// break that would end a Markdown row and add a heading, a backtick that would close the code
/// span, a bar that would split the cell, and ANSI escapes for the terminal.
const HOSTILE: [&str; 7] = [
    "=cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "+1+1",
    "x\n## All benches passed",
    "a`b",
    "p|q",
    "\u{1b}[31mred\u{1b}[0m\u{1b}[2J",
];

/// The body rows of the first Markdown table in `md`, each as its cells' text, read by
/// pulldown-cmark (CommonMark with GitHub's tables): how a PR comment shows them.
fn markdown_rows(md: &str) -> (Vec<Vec<String>>, Vec<String>) {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let (mut rows, mut headings) = (Vec::new(), Vec::new());
    let (mut row, mut cell, mut in_body, mut heading): (Vec<String>, String, bool, Option<String>) =
        (Vec::new(), String::new(), false, None);
    for event in Parser::new_ext(md, Options::ENABLE_TABLES) {
        match event {
            Event::End(TagEnd::TableHead) => in_body = true,
            Event::End(TagEnd::Table) => in_body = false,
            Event::Start(Tag::TableCell) => cell.clear(),
            Event::End(TagEnd::TableCell) if in_body => row.push(std::mem::take(&mut cell)),
            Event::End(TagEnd::TableRow) if in_body => rows.push(std::mem::take(&mut row)),
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::End(TagEnd::Heading(_)) => headings.extend(heading.take()),
            Event::Text(t) | Event::Code(t) => {
                cell.push_str(&t);
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            _ => {}
        }
    }
    (rows, headings)
}

#[test]
fn hostile_names_are_text_in_csv_markdown_and_the_terminal() {
    let dir = scratch("names");
    for (i, name) in HOSTILE.iter().enumerate() {
        // No target, as an import of a loose file gives: the name starts the cell.
        let mut doc = result(name, 100.0);
        doc["target"] = json!("");
        write(&dir.join(format!("base/n{i}.json")), &doc);
        write(&dir.join(format!("new/n{i}.json")), &doc);
    }
    let (base, new) = (dir.join("base"), dir.join("new"));
    let shown = |name: &str| name.replace('\n', "\\n").replace('\u{1b}', "\\u{1b}");

    // CSV: read back by a CSV reader, every name is one cell, a formula's first character made
    // text with a `'` (OWASP), and nothing else changed.
    let o = cargo_pilot(&["export", "--format", "csv", base.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let mut r = csv::Reader::from_reader(&o.stdout[..]);
    let names: Vec<String> = r.records().map(|r| r.unwrap()[0].to_string()).collect();
    assert_eq!(names.len(), HOSTILE.len(), "{}", text(&o));
    for name in HOSTILE {
        let cell = if name.starts_with(['=', '+', '-', '@']) {
            format!("'{name}")
        } else {
            name.to_string()
        };
        assert!(names.contains(&cell), "{cell:?} not in {names:?}");
    }
    assert!(
        names
            .iter()
            .all(|n| !n.starts_with(['=', '+', '-', '@', '\t', '\r']))
    );

    // Markdown, the results table and a comparison: one row per bench whose first cell is the
    // name as shown, no heading or row injected, no escape sequence.
    let o = cargo_pilot(&["export", "--format", "md", base.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let compare = cargo_pilot(&[
        "compare",
        base.to_str().unwrap(),
        new.to_str().unwrap(),
        "--format",
        "md",
    ]);
    assert_eq!(compare.status.code(), Some(0), "{}", text(&compare));
    for (md, columns) in [(&o.stdout, 12), (&compare.stdout, 7)] {
        let md = String::from_utf8_lossy(md);
        assert!(!md.contains('\u{1b}'), "{md}");
        let (rows, headings) = markdown_rows(&md);
        assert!(
            headings.iter().all(|h| !h.contains("All benches passed")),
            "{headings:?}\n{md}"
        );
        assert_eq!(rows.len(), HOSTILE.len(), "{md}");
        let mut firsts: Vec<String> = rows.iter().map(|r| r[0].clone()).collect();
        for r in &rows {
            assert_eq!(r.len(), columns, "{r:?}\n{md}");
        }
        let mut expected: Vec<String> = HOSTILE.iter().map(|n| shown(n)).collect();
        firsts.sort();
        expected.sort();
        assert_eq!(firsts, expected, "{md}");
    }

    // The terminal: the comparison's table shows the escapes as text and sends none.
    let o = cargo_pilot(&["compare", base.to_str().unwrap(), new.to_str().unwrap()]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(!out.contains('\u{1b}'), "{out}");
    assert!(out.contains("\\u{1b}[31mred"), "{out}");
    assert!(out.contains("x\\n## All benches passed"), "{out}");
    let o = cargo_pilot(&["export", "--format", "bmf", base.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

/// A closed standard output (`cargo pilot … | head -1`) ends each command quietly, exit code
/// 0: no panic, no backtrace, nothing on standard error.
#[cfg(unix)]
#[test]
fn a_closed_standard_output_ends_each_command_quietly() {
    let dir = scratch("closed-stdout");
    write(&dir.join("base/sort.json"), &result("sort", 100.0));
    write(&dir.join("new/sort.json"), &result("sort", 100.0));
    let (base, new) = (dir.join("base"), dir.join("new"));
    let (base, new) = (base.to_str().unwrap(), new.to_str().unwrap());
    let out = dir.join("out");
    for args in [
        &["compare", base, new][..],
        &["compare", base, new, "--format", "md"],
        &["export", "--format", "csv", base],
        &[
            "run",
            "-N",
            "true",
            "--max-time",
            "0.2",
            "--out",
            out.to_str().unwrap(),
        ],
    ] {
        let o = common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"))
            .args(args)
            .env("CI", "1")
            .stdout(common::closed_pipe())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
        assert_eq!(err, "", "{args:?}");
    }
}

/// Standard error closed or full (`2>&1 >/dev/null | head -1`, `2>/dev/full`): the notes on it
/// are lost, the command's output and exit code are not (it panicked, exit 101, before writing
/// its output).
#[cfg(unix)]
#[test]
fn a_closed_or_full_standard_error_loses_only_the_notes() {
    let dir = scratch("closed-stderr");
    write(&dir.join("base/sort.json"), &result("sort", 100.0));
    write(&dir.join("new/sort.json"), &result("sort", 130.0));
    let (base, new) = (dir.join("base"), dir.join("new"));
    let (base, new) = (base.to_str().unwrap(), new.to_str().unwrap());
    for full in [false, true] {
        for (args, code) in [
            (&["export", "--format", "csv", base][..], 0),
            // One process a side, across runs: undecided, exit 0.
            (&["compare", base, new], 0),
            // An error goes to standard error: lost, its exit code kept.
            (&["compare", base, "no-such-baseline"], 1),
        ] {
            let err = if full {
                std::process::Stdio::from(std::fs::File::create("/dev/full").unwrap())
            } else {
                common::closed_pipe()
            };
            let o = common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"))
                .args(args)
                .env("CI", "1")
                .stderr(err)
                .output()
                .unwrap();
            let out = String::from_utf8_lossy(&o.stdout);
            assert_eq!(o.status.code(), Some(code), "{args:?} (full {full}): {out}");
            if code != 1 {
                assert!(out.contains("sort"), "{args:?} (full {full}): {out}");
            }
        }
    }
}

/// An OSC that sets the window title and a CSI that colours, with their C1 forms.
const CONTROLS: &str = "\u{1b}]0;title\u{7}\u{1b}[31mRED\u{9b}2J\u{9d}x";

/// A name (a command's, a bench's, a baseline's, a file's or folder's) that holds ESC, BEL, a
/// CSI and an OSC goes through every command that prints names, and none of those bytes
/// reaches standard output or error: each line says the name as text.
#[test]
fn names_with_control_sequences_reach_the_terminal_as_text() {
    let dir = scratch("controls");
    let out = dir.join(format!("out{CONTROLS}"));
    let history = dir.join(format!("h{CONTROLS}.sqlite"));
    let (out, history) = (out.to_str().unwrap(), history.to_str().unwrap());
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run",
            "-N",
            "-n",
            CONTROLS,
            "true",
            "--max-time",
            "0.3",
            "--out",
            out,
            "--history",
            history,
        ];
        args.extend_from_slice(extra);
        args.into_iter().map(String::from).collect::<Vec<String>>()
    };
    let file = dir.join(format!("data{CONTROLS}.csv"));
    std::fs::write(&file, "1\n2\n3\n2\n1\n2\n3\n2\n").unwrap();
    let (base, new) = (dir.join("base"), dir.join("new"));
    write(&base.join("n.json"), &result(CONTROLS, 100.0));
    write(&new.join("n.json"), &result(CONTROLS, 200.0));
    let mut failed = result(CONTROLS, 100.0);
    failed["status"] = json!("failed");
    failed["status_detail"] = json!(format!("panicked: {CONTROLS}"));
    failed["pis"] = json!([]);
    failed["subsession"] = Value::Null;
    write(&dir.join("failed/n.json"), &failed);
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let strings = |a: &[&str]| a.iter().map(|x| x.to_string()).collect::<Vec<String>>();
    for args in [
        run(&["--save-baseline", "b"]),
        run(&["--baseline", "b"]),
        // A command that fails: its name is in the error.
        strings(&["run", "-N", "-n", CONTROLS, "false", "--out", out]),
        // A shell whose name is hostile, and that cannot start.
        strings(&["run", "--shell", CONTROLS, "true", "--out", out]),
        strings(&["history", "--history", history]),
        strings(&["history", "--history", history, "--format", "md"]),
        strings(&["changes", "--history", history]),
        vec!["compare".into(), s(&base), s(&new)],
        vec!["compare".into(), s(&base), s(&new), "--verbose".into()],
        vec!["compare".into(), s(&base), s(&dir.join("failed"))],
        vec!["compare".into(), s(&base), s(&dir.join(CONTROLS))],
        vec!["export".into(), "--format".into(), "md".into(), s(&base)],
        vec![
            "export".into(),
            "--format".into(),
            "bmf".into(),
            s(&dir.join("failed")),
        ],
        vec!["analyze".into(), s(&file)],
        vec![
            "analyze".into(),
            s(&file),
            s(&file),
            "--format".into(),
            "json".into(),
        ],
        vec![
            "report".into(),
            "--run".into(),
            s(&dir.join(format!("{CONTROLS}.json"))),
        ],
    ] {
        let o = cargo_pilot(&args.iter().map(String::as_str).collect::<Vec<_>>());
        for (stream, bytes) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
            let found = common::control_bytes(bytes);
            assert!(
                found.is_empty(),
                "{args:?}: {found:?} on {stream}:\n{}",
                text(&o)
            );
        }
    }
    // Shown, not dropped, on the line that once printed it raw: the program's CPU time.
    let o = cargo_pilot(&run(&[]).iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        String::from_utf8_lossy(&o.stdout)
            .contains("\\u{1b}]0;title\\u{7}\\u{1b}[31mRED\\u{9b}2J\\u{9d}x: user "),
        "{}",
        text(&o)
    );
}
