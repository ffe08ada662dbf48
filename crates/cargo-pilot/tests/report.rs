//! `cargo pilot report` end to end: the real binary on result documents written here, in a
//! target directory of their own.

mod common;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

const EXE: &str = env!("CARGO_BIN_EXE_cargo-pilot");

/// A fresh target directory for one test.
fn target(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pilot-report-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(path: &Path, doc: &Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec_pretty(doc).unwrap()).unwrap();
}

/// Bins of `readings` as a result document stores them, `per_bin` readings each.
fn bins(readings: &[f64], per_bin: usize) -> Value {
    let chunks: Vec<&[f64]> = readings.chunks(per_bin).collect();
    json!({
        "per_bin": per_bin, "count": readings.len(),
        "min": chunks.iter().map(|c| c.iter().copied().fold(f64::INFINITY, f64::min)).collect::<Vec<_>>(),
        "mean": chunks.iter().map(|c| c.iter().sum::<f64>() / c.len() as f64).collect::<Vec<_>>(),
        "max": chunks.iter().map(|c| c.iter().copied().fold(f64::NEG_INFINITY, f64::max)).collect::<Vec<_>>(),
    })
}

/// A valid `pilot.result/1` document of bench `name` in `target`.
fn result(target: &str, name: &str, mean: f64, rounds: Value) -> Value {
    json!({
        "schema": "pilot.result/1", "name": name, "target": target, "form": "full",
        "status": "ok",
        "pis": [{"name": "time", "unit": "ns", "mean": mean,
                 "ci": {"low": mean * 0.99, "high": mean * 1.01, "confidence": 0.95},
                 "interval_from": "readings"}],
        "subsession": {"count": 40, "mean": mean, "variance": 4.0, "variance_inflation": 1.0},
        "processes": {"count": 1, "means": []},
        "rounds": rounds, "warnings": [], "finished": "2026-11-22T10:00:00Z",
    })
}

/// Writes the fixture results: a full-form bench with readings (a warm-up removed in its
/// second round, a slowdown check and a warning), a sweep of three thread counts, and a
/// readings-only bench; plus the last run's document with a group and a comparison.
fn fixture(dir: &Path) {
    let results = dir.join("pilot/results/t");
    let warm: Vec<f64> = (0..100)
        .map(|i| {
            if i < 20 {
                300.0
            } else {
                100.0 + (i % 3) as f64
            }
        })
        .collect();
    let steady: Vec<f64> = (0..100).map(|i| 100.0 + (i % 5) as f64).collect();
    let mut sum = result(
        "t",
        "sum",
        101.5,
        json!([
            {"work": 10, "duration_ns": 5000, "units": 10, "stable": null, "analysed": false,
             "readings": bins(&steady[..10], 1)},
            {"work": 100, "duration_ns": 14000, "units": 100, "stable": [20, 100],
             "analysed": true, "readings": bins(&warm, 4)},
            {"work": 100, "duration_ns": 10300, "units": 100, "stable": [0, 100],
             "analysed": true, "readings": bins(&steady, 4)},
        ]),
    );
    sum["checks"] = json!([{"kind": "slowdown", "message": "the rounds got slower <by 5%>",
                            "relative": 0.05, "p": 1e-4}]);
    sum["warnings"] = json!([
        "the rounds got slower <by 5%>",
        "few rounds: use `--min-time 2` or `<more>`"
    ]);
    write(&results.join("sum.json"), &sum);
    for (threads, mean) in [(1, 100.0), (2, 190.0), (4, 370.0)] {
        write(
            &results.join(format!("scan/threads={threads}.json")),
            &result(
                "t",
                &format!("scan/threads={threads}"),
                mean,
                json!([{"work": 8, "duration_ns": 4000, "units": 8, "stable": [0, 8],
                        "analysed": true, "readings": bins(&[mean; 8], 2)}]),
            ),
        );
    }
    // t = 100 + 2w with residuals ±1, ±3 that cancel in pairs.
    let w = [100u64, 200, 300, 400, 500, 600];
    let noise = [1.0, -1.0, 3.0, -3.0, 1.0, -1.0];
    let rounds: Vec<Value> = w
        .iter()
        .zip(noise)
        .map(|(&w, e)| {
            json!({"work": w, "duration_ns": (100.0 + 2.0 * w as f64 + e) as u64, "units": 0,
                   "stable": null, "analysed": true})
        })
        .collect();
    let mut fold = result("t", "fold", 2.0, json!(rounds));
    fold["form"] = json!("readings-only");
    fold["pis"][0]["interval_from"] = json!("regression");
    write(&results.join("fold.json"), &fold);
    write(
        &dir.join("pilot/last-run.json"),
        &json!({
            "schema": "pilot.run/1",
            "results": [],
            "groups": [{
                "name": "maps", "ranking": ["sum", "fold"],
                "pairs": [{"a": "sum", "b": "fold", "ratio": 1.5,
                           "ratio_ci": {"low": 1.4, "high": 1.6}, "p": 1e-6, "verdict": "faster"}],
                "members": [{"name": "sum", "mean": 100.0, "ci": {"low": 99.0, "high": 101.0}},
                            {"name": "fold", "mean": 150.0, "ci": {"low": 148.0, "high": 152.0}}],
                "status": "settled", "interleaved": true, "cycles": 12, "elapsed_s": 1.5,
                "ranking_settled_s": 1.2}],
            "comparison": {
                "schema": "pilot.compare/1", "alpha": 0.01, "noise": 0.01, "confidence": 0.95,
                "benches": [
                    {"name": "sum", "target": "t", "base": 95.0, "new": 101.5, "change": 0.0684,
                     "change_ci": {"low": 0.05, "high": 0.087}, "p": 1e-5,
                     "verdict": "regressed", "method": "Welch"},
                    {"name": "fold", "target": "t", "base": 2.0, "new": 2.0, "change": 0.001,
                     "change_ci": {"low": -0.004, "high": 0.006}, "p": 0.6,
                     "verdict": "no change", "method": "Welch"}]}
        }),
    );
}

fn report(dir: &Path, extra: &[&str]) -> std::process::Output {
    common::cargo_pilot(EXE)
        .args(["report", "--target-dir"])
        .arg(dir)
        .args(extra)
        .output()
        .unwrap()
}

/// The `<svg>…</svg>` elements of the page.
fn svgs(html: &str) -> Vec<&str> {
    html.split("<svg")
        .skip(1)
        .map(|s| &s[..s.find("</svg>").unwrap()])
        .collect()
}

#[test]
fn the_page_has_every_section_and_its_plots() {
    let dir = target("sections");
    fixture(&dir);
    let out = report(&dir, &[]);
    assert!(out.status.success(), "{}", common::text(&out));
    let index = dir.join("pilot/report/index.html");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(&index.display().to_string()),
        "{}",
        common::text(&out)
    );
    let html = std::fs::read_to_string(&index).unwrap();
    for id in ["comparison", "groups", "sweeps", "benches"] {
        assert!(html.contains(&format!("<section id=\"{id}\">")), "no {id}");
    }
    // One plot per bench (5), the fit of the readings-only bench, the group, the comparison
    // and the sweep.
    let plots = svgs(&html);
    assert_eq!(plots.len(), 9, "{html}");
    for svg in &plots {
        let drawn = [
            "<rect",
            "<path",
            "<circle",
            "<polyline",
            "<polygon",
            "<line",
        ]
        .iter()
        .map(|e| svg.matches(e).count())
        .sum::<usize>();
        assert!(drawn > 10, "an empty plot: {svg}");
    }
    assert!(!html.contains("http://") && !html.contains("https://"));
    assert!(!html.contains("<script") && !html.contains("<link"));
    // The regression is named, the check and the warning escaped.
    assert!(html.contains("<span class=\"verdict bad\">regressed</span>"));
    assert!(html.contains("<code>slowdown</code> the rounds got slower &lt;by 5%&gt;"));
    // Backticks quote code in the engine's messages: they become `<code>`, still escaped.
    assert!(
        html.contains(
            "<li>few rounds: use <code>--min-time 2</code> or <code>&lt;more&gt;</code></li>"
        ),
        "{html}"
    );
    assert!(!html.contains('`'), "a backtick left on the page");
    // By hand: the residuals alternate, so subsession analysis merges the rounds in pairs,
    // whose means (w = 150, 350, 550) lie exactly on t = 100 + 2w: an interval of zero
    // width, narrower than every round's fit gives, which is then the fit shown. Every
    // round: w̄ = 350, Sxx = 175 000, Σ(w − w̄)e = −500, so b = 2 − 500/175 000 = 1.997143
    // and α = 800 − 350b = 101.0; residuals ±0.2857, ∓1.4286, ±2.8571, SSE 20.571 on 4
    // degrees of freedom, se(b) = √(5.1429/175 000) = 0.0054211, t = 2.7764: b in
    // [1.982091, 2.012194], v = 1/b in [4.9697e8, 5.0452e8] work/s around 5.0072e8;
    // se(α) = √(5.1429 (1/6 + 350²/175 000)) = 2.1112: α in [95.14, 106.9] ns.
    assert!(
        html.contains(
            "(6 points): α = 101.0 ns [95.14 ns, 106.9 ns], v = 5.0072e8 work/s \
             [4.9697e8, 5.0452e8]"
        ),
        "{html}"
    );
    // 1, 2, 4 threads span less than a decade, and so do their times: linear axes. The
    // benches are named as `cargo pilot compare` names them, without their target.
    assert!(html.contains("<figcaption>scan: time per unit against threads</figcaption>"));
    assert!(
        html.contains("<h3>sum</h3>") && !html.contains("t/sum"),
        "{html}"
    );
    // The group without a sweep: its members as bars, fastest at the top.
    let bars = plots
        .iter()
        .find(|svg| svg.contains("bars: the mean"))
        .expect("no bars");
    assert!(
        bars.contains(">\nsum\n<") && bars.contains(">\nfold\n<"),
        "{bars}"
    );
    assert!(bars.matches("<rect").count() >= 3, "{bars}");
    let leftovers: Vec<_> = std::fs::read_dir(dir.join("pilot/report"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(leftovers, vec![std::ffi::OsString::from("index.html")]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_baseline_is_compared_and_out_moves_the_page() {
    let dir = target("baseline");
    fixture(&dir);
    std::fs::remove_file(dir.join("pilot/last-run.json")).unwrap();
    let base = dir.join("pilot/baselines/main/t/sum.json");
    write(&base, &result("t", "sum", 80.0, json!([])));
    let out_dir = dir.join("elsewhere");
    let out = report(
        &dir,
        &["--baseline", "main", "--out", out_dir.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", common::text(&out));
    let html = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    assert!(html.contains("Compared with baseline <code>main</code>"));
    assert!(!html.contains("<section id=\"groups\">"));
    // 101.5 / 80 − 1 = +26.88%, far beyond the intervals: regressed.
    assert!(html.contains("+26.88%"), "{html}");
    assert!(html.contains("verdict bad"));
    // The comparison, five benches, the fit and the sweep.
    assert_eq!(svgs(&html).len(), 8);
    assert!(!dir.join("pilot/report").exists());
    let out = report(&dir, &["--baseline", "mian"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no baseline `mian`"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_an_error_naming_the_file_and_the_old_page_stays() {
    let dir = target("bad");
    let out = report(&dir, &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "no results under `{}`: run `cargo pilot bench` first",
            dir.join("pilot/results").display()
        )),
        "{err}"
    );
    fixture(&dir);
    assert!(report(&dir, &[]).status.success());
    let index = dir.join("pilot/report/index.html");
    let before = std::fs::read(&index).unwrap();
    let broken = dir.join("pilot/results/t/broken.json");
    std::fs::write(&broken, "{\"schema\": \"pilot.result/1\", \"name\"").unwrap();
    let out = report(&dir, &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("broken.json") && err.contains("truncated"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&index).unwrap(),
        before,
        "the old page changed"
    );
    std::fs::remove_file(&broken).unwrap();
    let run = dir.join("pilot/last-run.json");
    std::fs::write(&run, "{\"schema\": \"pilot.compare/1\"}").unwrap();
    let out = report(&dir, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("last-run.json"));
    assert_eq!(std::fs::read(&index).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_million_readings_are_drawn_from_their_bins() {
    let dir = target("million");
    // 250 rounds of 4000 readings: 10⁶ readings, 16 bins a round as a document keeps them.
    let rounds: Vec<Value> = (0..250)
        .map(|r| {
            let readings: Vec<f64> = (0..4000)
                .map(|i| 100.0 + ((i * 31 + r) % 17) as f64 + if i < 200 { 50.0 } else { 0.0 })
                .collect();
            json!({"work": 4000, "duration_ns": 440_000, "units": 4000, "stable": [200, 4000],
                   "analysed": true, "readings": bins(&readings, 250)})
        })
        .collect();
    let mut doc = result("t", "big", 108.0, json!(rounds));
    doc["readings"] = json!(1_000_000);
    write(&dir.join("pilot/results/t/big.json"), &doc);
    let start = std::time::Instant::now();
    let out = report(&dir, &[]);
    let took = start.elapsed();
    assert!(out.status.success(), "{}", common::text(&out));
    let html = std::fs::read_to_string(dir.join("pilot/report/index.html")).unwrap();
    let plots = svgs(&html);
    assert_eq!(plots.len(), 1);
    // 4000 bins drawn as a line and a band, not 10⁶ points; the removed starts shaded.
    assert!(html.len() < 2_000_000, "{} bytes", html.len());
    assert!(plots[0].matches("<rect").count() >= 250);
    eprintln!("10⁶ readings: {} kB in {took:?}", html.len() / 1024);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn out_naming_a_file_is_a_usage_error_saying_it_is_not_a_folder() {
    let dir = target("out-file");
    fixture(&dir);
    let page = dir.join("page.html");
    std::fs::write(&page, "mine").unwrap();
    let out = report(&dir, &["--out", page.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", common::text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("--out `{}` is not a folder", page.display())),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&page).unwrap(), "mine");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `cargo pilot run` outside a cargo project keeps its results in `./pilot-results`; `report
/// --results` (or `CARGO_TARGET_DIR`) reads them there, with no Cargo.toml anywhere above.
#[test]
fn results_of_cargo_pilot_run_are_reported_without_a_cargo_toml() {
    let dir = tempfile::tempdir().unwrap();
    let pilot = |args: &[&str]| {
        let mut cmd = common::cargo_pilot(EXE);
        cmd.args(args)
            .current_dir(dir.path())
            .env_remove("CARGO_TARGET_DIR");
        cmd
    };
    let o = pilot(&["run", "-N", "-n", "noop", "true", "--max-time", "0.3"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", common::text(&o));
    let results = dir.path().join("pilot-results");
    assert!(
        results.join("pilot/results/run.programs").is_dir(),
        "{}",
        common::text(&o)
    );
    let page = |o: &std::process::Output, index: &Path| {
        assert!(o.status.success(), "{}", common::text(o));
        let html = std::fs::read_to_string(index).unwrap();
        assert!(html.contains("noop"), "{html}");
    };
    let o = pilot(&["report", "--results", "pilot-results"])
        .output()
        .unwrap();
    page(&o, &results.join("pilot/report/index.html"));
    // The `pilot/results` folder itself names the same results.
    let o = pilot(&[
        "report",
        "--results",
        "pilot-results/pilot/results",
        "--out",
        "a",
    ])
    .output()
    .unwrap();
    page(&o, &dir.path().join("a/index.html"));
    let o = pilot(&["report", "--out", "b"])
        .env("CARGO_TARGET_DIR", "pilot-results")
        .output()
        .unwrap();
    page(&o, &dir.path().join("b/index.html"));
    let o = pilot(&["report", "--results", "pilot-results", "--target-dir", "x"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", common::text(&o));
}
