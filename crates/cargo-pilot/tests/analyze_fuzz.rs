//! Fuzzing `cargo pilot analyze` through the real binary: arbitrary bytes, number-like text and
//! series of extreme floats, in each input layout.
//!
//! Properties, for every input:
//! - no panic and no signal: the exit code is 0, 1 or 2;
//! - exit 0 prints a report with no non-finite number (`inf`, `NaN`), and a `--json` document
//!   that parses, with `null` only where the schema allows one;
//! - exit 1 or 2 prints one `error: ` message; for a series of at least 2 finite numbers, exit 1
//!   only for a result beyond the range of an `f64` (and, with `--wps`, a regression that cannot
//!   be fitted), never for data that can be analysed.
//!
//! Bounded for CI: 256 byte inputs and 256 float series, one process each (about 10 s in a
//! debug build on 2 cores). `PROPTEST_CASES=N` runs N of each instead.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::Value;

/// Cases per property: 256 unless `PROPTEST_CASES` says otherwise.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(256)
}

/// A fresh directory for one property's input files.
fn scratch(property: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pilot-fuzz-{}-{property}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn analyze(args: &[&str], files: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cargo-pilot"))
        .args(["pilot", "analyze"])
        .args(args)
        .args(files)
        .output()
        .unwrap()
}

/// Whether `text` shows a non-finite number: `inf` or `NaN` as a word of its own.
fn shows_non_finite(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w.eq_ignore_ascii_case("inf") || w.eq_ignore_ascii_case("nan"))
}

/// The `null`s a `pilot.analyze/1` document may hold, by key path (array indices left out).
fn null_allowed(path: &str, wps: bool) -> bool {
    // `interval_ratio` is null when the textbook interval has no width (constant readings).
    const ALWAYS: [&str; 6] = [
        "files.result.required_n",
        "files.adjustment.interval_ratio",
        "comparisons.t",
        "comparisons.relative",
        "comparisons.relative_ci.low",
        "comparisons.relative_ci.high",
    ];
    // With --wps the result is the speed v, unbounded or undefined where the slope's interval
    // reaches 0.
    const WPS: [&str; 6] = [
        "files.result.mean",
        "files.result.ci.low",
        "files.result.ci.high",
        "files.wps.v",
        "files.wps.v_ci.low",
        "files.wps.v_ci.high",
    ];
    ALWAYS.contains(&path) || (wps && WPS.contains(&path))
}

/// Every `null` in `value`, as key paths.
fn nulls(value: &Value, path: &str, out: &mut Vec<String>) {
    match value {
        Value::Null => out.push(path.to_string()),
        Value::Array(items) => items.iter().for_each(|v| nulls(v, path, out)),
        Value::Object(map) => {
            for (k, v) in map {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                nulls(v, &p, out);
            }
        }
        _ => {}
    }
}

/// The properties every run must have; `series` when the input is at least 2 finite numbers per
/// file, so that exit 1 needs a result beyond the range of `f64` (or an unfittable `--wps`).
fn check(o: &Output, args: &[&str], series: bool) -> Result<(), TestCaseError> {
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    let code = o.status.code();
    prop_assert!(
        matches!(code, Some(0..=2)),
        "exit {code:?} with {args:?}\nstderr: {err}"
    );
    prop_assert!(!err.contains("panicked"), "{err}");
    if code == Some(0) {
        prop_assert!(!out.is_empty());
        prop_assert!(
            !shows_non_finite(&out),
            "non-finite number with {args:?}:\n{out}"
        );
        if args.contains(&"--json") {
            let doc: Value = serde_json::from_str(&out)
                .map_err(|e| TestCaseError::fail(format!("not JSON ({e}): {out}")))?;
            let mut found = Vec::new();
            nulls(&doc, "", &mut found);
            let wps = args.contains(&"--wps");
            let bad: Vec<&String> = found.iter().filter(|p| !null_allowed(p, wps)).collect();
            prop_assert!(bad.is_empty(), "null at {bad:?}:\n{out}");
        }
    } else {
        prop_assert!(
            err.starts_with("error: "),
            "exit {code:?} without a message: {err}"
        );
        if series {
            let fit_failed = args.contains(&"--wps") && err.contains("WPS regression failed");
            prop_assert!(
                code == Some(1) && (err.contains("beyond the range of f64") || fit_failed),
                "finite data refused with {args:?}: {err}"
            );
        }
    }
    Ok(())
}

/// A number as a file might hold it: mostly well-formed and of any magnitude, now and then
/// malformed or non-finite.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        50 => prop::num::f64::NORMAL.prop_map(|x| format!("{x:e}")),
        5 => prop::num::f64::SUBNORMAL.prop_map(|x| format!("{x:e}")),
        1 => prop::num::f64::ZERO.prop_map(|x| format!("{x:e}")),
        60 => (-1e6..1e6f64).prop_map(|x| x.to_string()),
        1 => prop::sample::select(vec![
            "nan", "NaN", "inf", "-inf", "1e999", "+5", ".5", "5.", "1e", "0x10", "1_000", "３",
            "--1", "",
        ])
        .prop_map(str::to_string),
    ]
}

/// How a file is laid out, and the options that read it so.
#[derive(Debug, Clone, Copy)]
enum Shape {
    /// One number per line: no options, `--json` or `--no-changepoints`.
    Lines(&'static [&'static str]),
    /// Two numbers per line: `--wps`.
    Pairs(&'static [&'static str]),
    /// CSV with columns `a` and `ns`: `--column ns`, or `--wps` with both columns.
    Csv(&'static [&'static str]),
}

fn shape() -> impl Strategy<Value = Shape> {
    prop::sample::select(vec![
        Shape::Lines(&[]),
        Shape::Lines(&["--json"]),
        Shape::Lines(&["--no-changepoints"]),
        Shape::Pairs(&["--wps"]),
        Shape::Pairs(&["--wps", "--json"]),
        Shape::Csv(&["--column", "ns"]),
        Shape::Csv(&["--column", "ns", "--json"]),
        Shape::Csv(&["--wps", "--work-column", "a", "--duration-column", "ns"]),
    ])
}

/// Text laid out as `shape` wants, with comments, blanks and a byte-order mark, and sometimes one
/// corruption (stray bytes or a stray word): what a careless export or a wrong file holds.
fn text_for(shape: Shape) -> impl Strategy<Value = Vec<u8>> {
    // `--wps` refuses readings that are not positive: mostly give it positive ones, so that its
    // fit is reached too.
    let wps = match shape {
        Shape::Lines(_) => false,
        Shape::Pairs(a) | Shape::Csv(a) => a.contains(&"--wps"),
    };
    let number = move || {
        number().prop_map(move |n| {
            if wps {
                n.trim_start_matches('-').to_string()
            } else {
                n
            }
        })
    };
    let separator = prop::sample::select(vec![",", " ", "\t", ", "]);
    let pair = (number(), separator, number()).prop_map(|(a, s, b)| format!("{a}{s}{b}"));
    let row = match shape {
        Shape::Lines(_) => number().boxed(),
        Shape::Pairs(_) => pair.boxed(),
        Shape::Csv(_) => (number(), number())
            .prop_map(|(a, b)| format!("{a},{b}"))
            .boxed(),
    };
    let line = prop_oneof![
        20 => row,
        1 => prop::sample::select(vec!["", "# comment", "  "]).prop_map(str::to_string),
    ];
    let header = match shape {
        Shape::Csv(_) => prop::sample::select(vec!["a,ns\n", "ns,a\n", "\u{feff}a,ns\n"]),
        _ => prop::sample::select(vec!["", "", "\u{feff}", "# readings\n"]),
    };
    let end = prop::sample::select(vec!["\n", "\r\n"]);
    let corruption = prop::option::weighted(
        0.3,
        (
            any::<prop::sample::Index>(),
            prop_oneof![
                prop::collection::vec(any::<u8>(), 1..8),
                prop::sample::select(vec!["x", "a,ns", "1,", "\0", "\u{feff}", "\n\n"])
                    .prop_map(|w| w.as_bytes().to_vec()),
            ],
        ),
    );
    let lines = prop::collection::vec(line, 0..80);
    (header, lines, end, corruption).prop_map(|(header, lines, end, corruption)| {
        let mut text = header.as_bytes().to_vec();
        text.extend(lines.join(end).into_bytes());
        if let Some((at, junk)) = corruption {
            let at = at.index(text.len() + 1);
            text.splice(at..at, junk);
        }
        text
    })
}

/// Options and an input for them: raw bytes, or text in (or near) the layout they read.
fn input() -> impl Strategy<Value = (&'static [&'static str], Vec<u8>)> {
    shape().prop_flat_map(|shape| {
        let args = match shape {
            Shape::Lines(a) | Shape::Pairs(a) | Shape::Csv(a) => a,
        };
        let bytes = prop_oneof![
            1 => prop::collection::vec(any::<u8>(), 0..600),
            6 => text_for(shape),
        ];
        (Just(args), bytes)
    })
}

/// A finite `f64` of any magnitude, weighted towards the ends of the range.
fn extreme() -> impl Strategy<Value = f64> {
    let sign = prop::bool::ANY.prop_map(|neg| if neg { -1.0 } else { 1.0 });
    prop_oneof![
        // Any finite value, normal or subnormal, of either sign.
        2 => prop::num::f64::NORMAL | prop::num::f64::SUBNORMAL | prop::num::f64::ZERO,
        // Near ±f64::MAX.
        2 => (sign.clone(), 0.25..1.0f64).prop_map(|(s, u)| s * u * f64::MAX),
        // Subnormal and tiny normal values.
        1 => (sign, 1u64..1 << 53).prop_map(|(s, m)| s * f64::from_bits(m)),
    ]
}

/// A series of finite values: all of one magnitude with a relative spread (as real readings
/// are, from 1e-320 to 1e308), mixed magnitudes, or a constant.
fn series() -> impl Strategy<Value = Vec<f64>> {
    let spread = (
        -1074i32..1024,
        0.0..0.5f64,
        prop::collection::vec(0.0..1.0f64, 2..150),
    )
        .prop_map(|(k, width, us)| {
            let level = 2f64.powi(k.min(1023)) * if k < -1022 { 1.0 } else { 1.5 };
            us.iter().map(|u| level * (1.0 + width * u)).collect()
        });
    prop_oneof![
        3 => spread.prop_filter("finite", |xs: &Vec<f64>| xs.iter().all(|x| x.is_finite())),
        2 => prop::collection::vec(extreme(), 2..150),
        1 => (extreme(), 2..60usize).prop_map(|(x, n)| vec![x; n]),
    ]
}

fn text(xs: &[f64]) -> String {
    xs.iter().map(|x| format!("{x:e}\n")).collect()
}

/// Work amounts and durations: positive, of any magnitude (a fitted speed of 1e600 is refused).
fn rounds() -> impl Strategy<Value = (Vec<f64>, Vec<f64>)> {
    (series(), series()).prop_map(|(w, t)| {
        let n = w.len().min(t.len());
        let positive = |xs: &[f64]| -> Vec<f64> {
            xs[..n]
                .iter()
                .map(|x| if *x == 0.0 { 1.0 } else { x.abs() })
                .collect()
        };
        (positive(&w), positive(&t))
    })
}

proptest! {
    // The sources live outside the crate's folder, where proptest cannot keep a regressions file
    // beside them; a failure prints its minimal input instead.
    #![proptest_config(ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn any_bytes((args, input) in input(), stdin in prop::bool::weighted(0.2)) {
        let dir = scratch("bytes");
        let path = dir.join("input.txt");
        std::fs::write(&path, &input).unwrap();
        let o = if stdin {
            let mut child = Command::new(env!("CARGO_BIN_EXE_cargo-pilot"))
                .args(["pilot", "analyze"])
                .args(args)
                .arg("-")
                .stdin(std::fs::File::open(&path).unwrap())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            child.stdin.take();
            child.wait_with_output().unwrap()
        } else {
            analyze(args, &[&path])
        };
        check(&o, args, false)?;
    }

    #[test]
    fn extreme_floats(
        xs in series(),
        other in prop::option::weighted(0.3, series()),
        (work, durations) in rounds(),
        mode in 0..4usize,
    ) {
        let dir = scratch("floats");
        let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
        let (args, files): (Vec<&str>, Vec<&Path>) = match mode {
            0 | 1 => {
                std::fs::write(&a, text(&xs)).unwrap();
                let mut files = vec![a.as_path()];
                if let Some(other) = &other {
                    std::fs::write(&b, text(other)).unwrap();
                    files.push(b.as_path());
                }
                (if mode == 0 { vec![] } else { vec!["--json"] }, files)
            }
            2 => {
                std::fs::write(&a, text(&xs)).unwrap();
                (vec!["--no-changepoints", "--json"], vec![a.as_path()])
            }
            _ => {
                let pairs: String = work
                    .iter()
                    .zip(&durations)
                    .map(|(w, t)| format!("{w:e} {t:e}\n"))
                    .collect();
                std::fs::write(&a, pairs).unwrap();
                (vec!["--wps", "--json"], vec![a.as_path()])
            }
        };
        let o = analyze(&args, &files);
        check(&o, &args, true)?;
        // The human report of the same input keeps the same promises.
        if args.contains(&"--json") && o.status.code() == Some(0) {
            let human: Vec<&str> = args.iter().copied().filter(|a| *a != "--json").collect();
            check(&analyze(&human, &files), &human, true)?;
        }
    }
}
