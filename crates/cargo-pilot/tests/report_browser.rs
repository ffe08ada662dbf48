//! `cargo pilot report`'s group chart as a reader sees it: the page written from result
//! documents of a group swept over a parameter (three alternatives, one of them with a hostile
//! name), its chart checked in the HTML, then rendered by headless Chromium: the DOM it builds
//! and the screenshot it takes.
//!
//! Without a `chromium` on the PATH the browser test says it skipped, unless
//! `PILOT_REQUIRE_CHROMIUM=1` (as CI sets it, after installing Debian's `chromium`): then it
//! fails.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const EXE: &str = env!("CARGO_BIN_EXE_cargo-pilot");

/// The alternatives, the argument values they are swept over, and their times per unit at
/// the first value (each grows in proportion to the argument). The third name would open a
/// script element and end an attribute if it were not escaped; it is short enough that the
/// legend shows it whole.
const ALTERNATIVES: [(&str, f64); 3] = [("vec", 70.0), ("linked_list", 1300.0), (HOSTILE, 300.0)];
const HOSTILE: &str = "<script>a&\"'";
const SIZES: [u64; 3] = [1000, 10_000, 100_000];
/// The first three colours of the chart's palette, as the SVG writes them.
const COLOURS: [&str; 3] = ["#0072B2", "#E69F00", "#009E73"];
/// The browser's window, which the screenshot has the size of.
const WINDOW: (u32, u32) = (1200, 2000);

/// A `pilot.result/1` document of bench `name` with time per unit `mean` (±3%).
fn result(name: &str, mean: f64) -> Value {
    let bins = [mean; 4];
    json!({
        "schema": "pilot.result/1", "name": name, "target": "groups", "form": "full",
        "status": "ok",
        "pis": [{"name": "time", "unit": "ns", "mean": mean,
                 "ci": {"low": mean * 0.97, "high": mean * 1.03, "confidence": 0.95},
                 "interval_from": "readings"}],
        "subsession": {"count": 40, "mean": mean, "variance": 4.0, "variance_inflation": 1.0},
        "processes": {"count": 1, "means": []},
        "rounds": [{"work": 8, "duration_ns": 4000, "units": 8, "stable": [0, 8],
                    "analysed": true,
                    "readings": {"per_bin": 2, "count": 8, "min": bins,
                                 "mean": bins, "max": bins}}],
        "warnings": [], "finished": "2026-11-22T10:00:00Z",
    })
}

/// Writes the results of the plain-named alternatives and the last run's document with the
/// group's three instances (`iterate/1000` …), into a fresh target directory.
fn fixture(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pilot-browser-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let write = |path: PathBuf, doc: &Value| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, serde_json::to_vec_pretty(doc).unwrap()).unwrap();
    };
    let mut groups = Vec::new();
    for n in SIZES {
        let scale = n as f64 / 1000.0;
        let mut members: Vec<(String, f64)> = ALTERNATIVES
            .iter()
            .map(|(name, t)| (format!("{name}/{n}"), t * scale))
            .collect();
        members.sort_by(|a, b| a.1.total_cmp(&b.1));
        for (name, mean) in members.iter().filter(|(m, _)| !m.starts_with('<')) {
            write(
                dir.join(format!("pilot/results/groups/{name}.json")),
                &result(name, *mean),
            );
        }
        let pairs: Vec<Value> = members
            .windows(2)
            .map(|w| {
                let ratio = w[1].1 / w[0].1;
                json!({"a": w[0].0, "b": w[1].0, "ratio": ratio,
                       "ratio_ci": {"low": ratio * 0.95, "high": ratio * 1.05}, "p": 1e-9,
                       "verdict": "faster"})
            })
            .collect();
        groups.push(json!({
            "name": format!("iterate/{n}"),
            "ranking": members.iter().map(|m| &m.0).collect::<Vec<_>>(),
            "pairs": pairs,
            "members": members.iter().map(|(name, mean)| json!({
                "name": name, "mean": mean, "ci": {"low": mean * 0.97, "high": mean * 1.03}
            })).collect::<Vec<_>>(),
            "status": "settled", "interleaved": true, "cycles": 20, "elapsed_s": 1.0,
            "ranking_settled_s": 0.5,
        }));
    }
    write(
        dir.join("pilot/last-run.json"),
        &json!({"schema": "pilot.run/1", "results": [], "groups": groups}),
    );
    dir
}

/// Writes the page of `dir`'s results and returns its path.
fn report(dir: &Path) -> PathBuf {
    let out = common::cargo_pilot(EXE)
        .args(["report", "--target-dir"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::text(&out));
    dir.join("pilot/report/index.html")
}

/// The first `<svg>…</svg>` after the group's heading in `html` (the page or the DOM).
fn group_chart(html: &str) -> &str {
    let at = html.find("id=\"group-iterate\"").expect("no group section");
    let start = at
        + html[at..]
            .find("<svg")
            .expect("no chart after the group's heading");
    let end = start + html[start..].find("</svg>").unwrap();
    &html[start..end]
}

/// Each `<polyline>` of `svg` as (its stroke, its number of points).
fn polylines(svg: &str) -> Vec<(String, usize)> {
    let attribute = |element: &str, name: &str| {
        let key = format!(" {name}=\"");
        let start = element.find(&key)? + key.len();
        Some(element[start..start + element[start..].find('"')?].to_string())
    };
    svg.split("<polyline")
        .skip(1)
        .map(|e| &e[..e.find('>').unwrap()])
        .map(|e| {
            let points = attribute(e, "points").unwrap_or_default();
            (
                attribute(e, "stroke").unwrap_or_default(),
                points.split_whitespace().count(),
            )
        })
        .collect()
}

/// Checks the chart of the group in `html`: one line through every argument value for each
/// alternative, each in its own colour of the palette.
fn check_lines(html: &str) {
    let chart = group_chart(html);
    let lines: Vec<(String, usize)> = polylines(chart)
        .into_iter()
        .filter(|(_, points)| *points == SIZES.len())
        .collect();
    let mut strokes: Vec<&str> = lines.iter().map(|(s, _)| s.as_str()).collect();
    strokes.sort();
    let mut expected = COLOURS.to_vec();
    expected.sort();
    assert_eq!(strokes, expected, "one line per alternative: {lines:?}");
}

#[test]
fn a_swept_group_is_one_chart_with_a_line_per_alternative() {
    let dir = fixture("html");
    let html = std::fs::read_to_string(report(&dir)).unwrap();
    check_lines(&html);
    let chart = group_chart(&html);
    // The legend names each alternative, escaped by the SVG writer; nothing of the hostile
    // name acts as markup anywhere on the page.
    for name in ["vec", "linked_list", "&lt;script&gt;a&amp;&quot;&apos;"] {
        assert!(
            chart.contains(&format!(">\n{name}\n</text>")),
            "{name}: {chart}"
        );
    }
    assert!(!html.contains("<script"), "{html}");
    assert!(html.contains(
        "alternatives over 3 values of argument: linked_list, &lt;script&gt;a&amp;&quot;&#39;, vec"
    ));
    // Ten times the argument, ten times the time: both axes logarithmic.
    assert!(html.contains("against argument, with its interval (log-log)</figcaption>"));
    // The members are in the group's chart, not in charts of their own.
    assert!(!html.contains("<section id=\"sweeps\">"), "{html}");
    // The chart comes first in the group's section, each instance's pairs under it.
    let section = &html[html.find("id=\"group-iterate\"").unwrap()..];
    assert!(section.find("<svg").unwrap() < section.find("<h4>iterate/1000</h4>").unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The `chromium` on the PATH (Debian's package; `chromium-browser` elsewhere), if any.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| [d.join("chromium"), d.join("chromium-browser")])
        .find(|p| p.is_file())
}

/// Runs headless Chromium on `page` with `args`, in a profile of its own, within two minutes;
/// returns its standard output.
fn headless(chromium: &Path, page: &Path, profile: &Path, args: &[String]) -> String {
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--window-size={},{}", WINDOW.0, WINDOW.1))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("failed to start chromium");
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(stdout).unwrap_or_default());
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("chromium {args:?} took more than two minutes");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stderr = std::io::read_to_string(child.stderr.take().unwrap()).unwrap_or_default();
    assert!(status.success(), "chromium {args:?}: {status}\n{stderr}");
    reader.join().unwrap()
}

/// How many of the screenshot's pixels (`bytes` each, red, green and blue first) are within a
/// small distance of `hex` (`#RRGGBB`).
fn pixels_of(image: &[u8], bytes: usize, hex: &str) -> usize {
    let channel = |i: usize| u8::from_str_radix(&hex[1 + 2 * i..3 + 2 * i], 16).unwrap();
    let colour = [channel(0), channel(1), channel(2)];
    image
        .chunks_exact(bytes)
        .filter(|p| (0..3).map(|i| p[i].abs_diff(colour[i]) as u32).sum::<u32>() <= 24)
        .count()
}

#[test]
fn the_group_chart_renders_in_headless_chromium() {
    let required = std::env::var("PILOT_REQUIRE_CHROMIUM").is_ok_and(|v| v == "1");
    let Some(chromium) = chromium() else {
        assert!(
            !required,
            "PILOT_REQUIRE_CHROMIUM=1 but no `chromium` on the PATH"
        );
        // Straight to the terminal: the harness shows a passing test's own prints only
        // with --nocapture.
        let _ = writeln!(
            std::io::stderr(),
            "skipped: the report's browser test needs `chromium` on the PATH \
             (PILOT_REQUIRE_CHROMIUM=1 makes its absence a failure)"
        );
        return;
    };
    let dir = fixture("chromium");
    let page = report(&dir);
    let start = Instant::now();
    let dom = headless(
        &chromium,
        &page,
        &dir.join("profile-dom"),
        &["--dump-dom".into()],
    );
    // The browser's DOM, serialised: the chart with its lines, the legend's names as text
    // (a serialised text escapes `&`, `<` and `>` only), and no script element.
    check_lines(&dom);
    let chart = group_chart(&dom);
    for name in ["vec", "linked_list", "&lt;script&gt;a&amp;\"'"] {
        assert!(
            chart.contains(&format!(">\n{name}\n</text>")),
            "{name}: {chart}"
        );
    }
    assert!(!dom.contains("<script"), "{dom}");
    let png = dir.join("page.png");
    headless(
        &chromium,
        &page,
        &dir.join("profile-png"),
        &[format!("--screenshot={}", png.display())],
    );
    let took = start.elapsed();
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let mut reader = decoder.read_info().expect("the screenshot is not a PNG");
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut buf).unwrap();
    assert_eq!((frame.width, frame.height), WINDOW);
    let bytes = match (frame.color_type, frame.bit_depth) {
        (png::ColorType::Rgb, png::BitDepth::Eight) => 3,
        (png::ColorType::Rgba, png::BitDepth::Eight) => 4,
        other => panic!("a screenshot of {other:?}"),
    };
    let image = &buf[..frame.buffer_size()];
    // Not blank: each alternative's colour is drawn (lines 2 px wide, markers 9 px across).
    for colour in COLOURS {
        let n = pixels_of(image, bytes, colour);
        assert!(n >= 100, "{colour}: {n} pixels on the screenshot");
    }
    eprintln!("chromium: DOM and screenshot in {took:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
