//! pilot's level changes (`level_changes`, the method of `cargo pilot changes`) against Apache
//! Otava's `compute_change_points`, Hunter's successor.
//!
//! The expected changes come from `tests/fixtures/changes_otava.json`, written by
//! `tests/fixtures/gen_changes_otava.py` (run `bash tests/fixtures/generate.sh`) with PyPI
//! `apache-otava` 0.8.0, three of whose lines the script corrects (it says which), never from
//! pilot. With Otava's own rule (`min_segment` 1) and its settings, the indices must match
//! exactly, and the statistic, the means and the t-test's p to rounding.

use std::sync::LazyLock;

use pilot::stats::{LevelChangeConfig, level_changes};
use serde_json::Value;

static FIXTURE: LazyLock<Value> = LazyLock::new(|| {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/changes_otava.json");
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("failed to read {path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("failed to parse {path}: {e}"))
});

fn close(got: f64, want: f64, rel: f64, abs: f64) -> bool {
    (got - want).abs() <= rel * want.abs() + abs
}

#[test]
fn level_changes_match_otava() {
    let cases = FIXTURE["cases"].as_array().expect("fixture has no `cases`");
    assert!(
        cases.len() >= 30,
        "fixture holds only {} cases",
        cases.len()
    );
    let (mut with_changes, mut without) = (0, 0);
    let mut mismatches = Vec::new();
    for case in cases {
        let name = case["name"].as_str().expect("case without a name");
        let series: Vec<f64> = case["series"]
            .as_array()
            .expect("series")
            .iter()
            .map(|x| x.as_i64().expect("integer series") as f64)
            .collect();
        let config = LevelChangeConfig {
            window: case["window"].as_u64().expect("window") as usize,
            max_p: case["max_pvalue"].as_f64().expect("max_pvalue"),
            ..LevelChangeConfig::default()
        };
        let got = level_changes(&series, &config).expect("finite series, valid settings");
        let want = case["changes"].as_array().expect("changes");
        if want.is_empty() {
            without += 1;
        } else {
            with_changes += 1;
        }
        let got_at: Vec<usize> = got.iter().map(|c| c.index).collect();
        let want_at: Vec<usize> = want
            .iter()
            .map(|c| c["index"].as_u64().unwrap() as usize)
            .collect();
        if got_at != want_at {
            mismatches.push(format!("{name}: otava {want_at:?}, pilot {got_at:?}"));
            continue;
        }
        for (g, w) in got.iter().zip(want) {
            let f = |k: &str| w[k].as_f64().unwrap();
            let checks = [
                ("qhat", g.qhat, f("qhat"), 1e-9, 1e-6),
                ("mean_before", g.mean_before, f("mean_before"), 1e-12, 0.0),
                ("mean_after", g.mean_after, f("mean_after"), 1e-12, 0.0),
                // statrs's Student-t tail against scipy's.
                ("p", g.p, f("pvalue"), 1e-6, 1e-14),
            ];
            for (what, got, want, rel, abs) in checks {
                if !close(got, want, rel, abs) {
                    mismatches.push(format!(
                        "{name} at {}: {what} otava {want:e}, pilot {got:e}",
                        g.index
                    ));
                }
            }
        }
    }
    assert!(
        with_changes >= 15 && without >= 8,
        "{with_changes} with, {without} without"
    );
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
