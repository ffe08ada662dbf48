//! Input `cargo pilot import` refuses, from a hostile sweep (issue 26): names that would lead
//! outside `target/pilot`, times no clock measures, folders that loop back on themselves, and
//! errors that named a hidden temporary file rather than the user's input.

use std::path::Path;
use std::time::{Duration, Instant};

use super::{common, fixtures, pilot, target, walk};

/// Every file under `dir`, as paths relative to it.
fn files(dir: &Path) -> Vec<String> {
    fn collect(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                collect(&p, out)
            } else {
                out.push(p)
            }
        }
    }
    let mut out = Vec::new();
    collect(dir, &mut out);
    out.iter()
        .map(|p| p.strip_prefix(dir).unwrap().display().to_string())
        .collect()
}

/// `--bench` names one folder: `..`, an absolute path, `.`, an empty or hidden name is a
/// usage error naming the flag (exit 2), and nothing is written anywhere, inside the target
/// directory or beside it. Bench names read from criterion's files are encoded: an id of
/// `..` parts stays inside the baseline.
#[test]
fn bench_targets_that_are_not_one_folder_are_refused() {
    let t = target("refused-targets");
    // The target directory two levels down, so that `../..` lands inside `t`, where it is seen.
    let inner = t.join("a/b");
    std::fs::create_dir_all(&inner).unwrap();
    let bench = fixtures().join("criterion/one_add");
    let absolute = t.join("absolute");
    for name in [
        "../../escape",
        "../../../../escape",
        absolute.to_str().unwrap(),
        ".",
        "..",
        "",
        ".hidden",
    ] {
        let o = pilot(
            &inner,
            &[
                "import",
                "criterion",
                bench.to_str().unwrap(),
                "--baseline",
                "b",
                "--bench",
                name,
            ],
        );
        assert_eq!(o.status.code(), Some(2), "{name:?}: {}", common::text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("--bench") && err.contains("not a bench target's name"),
            "{name:?}: {err}"
        );
        assert_eq!(files(&t), Vec::<String>::new(), "{name:?} wrote files");
    }

    // A baseline's name is checked as `cargo pilot bench --save-baseline` checks it.
    let o = pilot(
        &inner,
        &[
            "import",
            "criterion",
            bench.to_str().unwrap(),
            "--baseline",
            "../../escape",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", common::text(&o));
    assert_eq!(files(&t), Vec::<String>::new());

    // criterion ids of `..` parts, an absolute one and a `.`: pilot's encoded file names.
    let dir = t.join("crit");
    let sample = bench.join("new/sample.json");
    for (folder, group, value) in [
        ("up", "../../../../../escape", Some("..")),
        ("abs", "/tmp/escape", None),
        ("dot", ".", Some(".")),
    ] {
        let new = dir.join(folder).join("new");
        std::fs::create_dir_all(&new).unwrap();
        std::fs::copy(&sample, new.join("sample.json")).unwrap();
        let id = serde_json::json!({"group_id": group, "function_id": null,
                                    "value_str": value, "throughput": null});
        std::fs::write(new.join("benchmark.json"), id.to_string()).unwrap();
    }
    let o = pilot(
        &inner,
        &[
            "import",
            "criterion",
            dir.to_str().unwrap(),
            "--baseline",
            "b",
        ],
    );
    assert!(o.status.success(), "{}", common::text(&o));
    let saved = inner.join("pilot/baselines/b/criterion");
    assert_eq!(walk(&saved), 3, "{:?}", files(&saved));
    let outside: Vec<String> = files(&t)
        .into_iter()
        .filter(|f| !f.starts_with("crit/") && !f.starts_with("a/b/pilot/baselines/b/criterion/"))
        .collect();
    assert_eq!(outside, Vec::<String>::new());
}

/// A time no clock measures (zero, negative, subnormal, below a picosecond) or no benchmark
/// took (above `1e7` s) is an error naming the file, the key and the value, and nothing is
/// saved: `1e-320` s was saved as `0.000 ns ± 0.00%`, status `ok`.
#[test]
fn absurd_times_are_refused_naming_the_file_key_and_value() {
    let t = target("refused-times");
    let file = t.join("times.json");
    for (time, shown) in [
        ("1e-320", "1e-320 s, below 1e-12 s"),
        ("1e-13", "1e-13 s, below 1e-12 s"),
        ("1e308", "1e308 s, above 1e7 s"),
        ("1e299", "1e299 s, above 1e7 s"),
        ("2e7", "2e7 s, above 1e7 s"),
        ("0", "0, expected a positive number of seconds"),
        ("-0.001", "-0.001, expected a positive number of seconds"),
    ] {
        let times = format!("[0.002, {time}, {time}, 0.001, 0.002]");
        let json = format!(r#"{{"results": [{{"command": "a", "times": {times}}}]}}"#);
        std::fs::write(&file, json).unwrap();
        let o = pilot(
            &t,
            &[
                "import",
                "hyperfine",
                file.to_str().unwrap(),
                "--baseline",
                "h",
            ],
        );
        assert_eq!(o.status.code(), Some(1), "{time}: {}", common::text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        let expected = format!("`{}`: `results[0].times[1]` is {shown}", file.display());
        assert!(err.contains(&expected), "{time}: {err}");
        assert!(!t.join("pilot/baselines/h").exists(), "{time}");
    }
    // criterion: a sample's time, and a time per iteration below a picosecond.
    let dir = t.join("crit/x/new");
    std::fs::create_dir_all(&dir).unwrap();
    let from = fixtures().join("criterion/one_add/new/benchmark.json");
    std::fs::copy(from, dir.join("benchmark.json")).unwrap();
    let sample = dir.join("sample.json");
    for (iters, times, expected) in [
        (
            "[1, 1]",
            "[5, 1e-320]",
            "`times[1]` is 1e-320 ns, below 0.001 ns",
        ),
        (
            "[1e300, 1]",
            "[5, 5]",
            "`times[0] / iters[0]` is 5e-300 ns, below 0.001 ns",
        ),
        (
            "[1, 1]",
            "[5, 1e300]",
            "`times[1]` is 1e300 ns, above 1e16 ns",
        ),
    ] {
        let json = format!(r#"{{"sampling_mode": "Linear", "iters": {iters}, "times": {times}}}"#);
        std::fs::write(&sample, json).unwrap();
        let o = pilot(
            &t,
            &[
                "import",
                "criterion",
                t.join("crit").to_str().unwrap(),
                "--baseline",
                "c",
            ],
        );
        assert_eq!(o.status.code(), Some(1), "{times}: {}", common::text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        let expected = format!("`{}`: {expected}", sample.display());
        assert!(err.contains(&expected), "{err}");
        assert!(!t.join("pilot/baselines/c").exists());
    }
}

/// A name pilot cannot store (an empty hyperfine command, an empty criterion id) is an error
/// naming the input and its key, never the hidden folder the baseline is written in first.
#[test]
fn errors_name_the_input_not_a_temporary_file() {
    let t = target("refused-names");
    let file = t.join("empty.json");
    std::fs::write(
        &file,
        r#"{"results": [{"command": "", "times": [0.001, 0.002, 0.001]}]}"#,
    )
    .unwrap();
    let o = pilot(
        &t,
        &[
            "import",
            "hyperfine",
            file.to_str().unwrap(),
            "--baseline",
            "h",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", common::text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    let expected = format!("`{}`: `results[0].command` is empty", file.display());
    assert!(
        err.contains(&expected) && !err.contains(".import."),
        "{err}"
    );

    let dir = t.join("crit/x/new");
    std::fs::create_dir_all(&dir).unwrap();
    let from = fixtures().join("criterion/one_add/new/sample.json");
    std::fs::copy(from, dir.join("sample.json")).unwrap();
    let id = dir.join("benchmark.json");
    std::fs::write(
        &id,
        r#"{"group_id": "", "function_id": null, "value_str": null, "throughput": null}"#,
    )
    .unwrap();
    let o = pilot(
        &t,
        &[
            "import",
            "criterion",
            t.join("crit").to_str().unwrap(),
            "--baseline",
            "c",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", common::text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    let expected = format!("`{}`: `group_id` is empty", id.display());
    assert!(
        err.contains(&expected) && !err.contains(".import."),
        "{err}"
    );
    assert!(!t.join("pilot/baselines").join("h").exists());
    assert!(!t.join("pilot/baselines").join("c").exists());
}

/// Links to a folder above (`ln -s . x`, four in each folder) are not followed: the search
/// ends, finding the one bench once. Following them, it multiplied by four at each of 16
/// levels and was still walking after minutes; 60 s is far beyond the milliseconds it takes.
#[cfg(unix)]
#[test]
fn folder_links_are_not_followed() {
    let t = target("refused-links");
    let dir = t.join("crit");
    let new = dir.join("one_add/new");
    std::fs::create_dir_all(&new).unwrap();
    for file in ["sample.json", "benchmark.json"] {
        let from = fixtures().join("criterion/one_add/new").join(file);
        std::fs::copy(from, new.join(file)).unwrap();
    }
    for folder in [dir.clone(), dir.join("one_add")] {
        for link in ["a", "b", "c", "d"] {
            std::os::unix::fs::symlink(".", folder.join(link)).unwrap();
        }
    }
    let mut child = common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"))
        .args(["import", "criterion"])
        .arg(&dir)
        .args(["--baseline", "l", "--target-dir"])
        .arg(&t)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            child.wait().unwrap();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.is_some(), "still searching the folders after 60 s");
    assert!(status.unwrap().success());
    assert_eq!(walk(&t.join("pilot/baselines/l")), 1);
}
