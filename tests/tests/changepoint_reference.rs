//! pilot's port of E-Divisive with Medians (`edm_multi`) against Twitter's BreakoutDetection.
//!
//! The change points come from `tests/fixtures/changepoint_edm.json`, written by
//! `tests/fixtures/gen_changepoint.py` (run `bash tests/fixtures/generate.sh`) with PyPI
//! `breakout-detection`, never from pilot. The port computes the reference's statistic bit for
//! bit, so the change points must match exactly. Both use the same index convention (0-based
//! index of the first value of a new segment), so no index mapping is applied.

use std::sync::LazyLock;

use pilot::stats::{ChangepointConfig, edm_multi};
use serde_json::Value;

static FIXTURE: LazyLock<Value> = LazyLock::new(|| {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/changepoint_edm.json");
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("failed to read {path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("failed to parse {path}: {e}"))
});

fn usizes(v: &Value) -> Vec<usize> {
    v.as_array()
        .expect("fixture value is not an array")
        .iter()
        .map(|x| x.as_u64().expect("fixture array holds a non-integer") as usize)
        .collect()
}

#[test]
fn edm_multi_matches_breakout_detection_exactly() {
    let cases = FIXTURE["cases"].as_array().expect("fixture has no `cases`");
    assert!(
        cases.len() >= 20,
        "fixture holds only {} cases",
        cases.len()
    );
    let mut with_changes = 0;
    let mut mismatches = Vec::new();
    for case in cases {
        let name = case["name"].as_str().expect("case without a name");
        let series: Vec<f64> = usizes(&case["series"])
            .into_iter()
            .map(|x| x as f64)
            .collect();
        let config = ChangepointConfig {
            beta: case["beta"].as_f64().expect("beta"),
            min_segment: case["min_size"].as_u64().expect("min_size") as usize,
            degree: case["degree"].as_u64().expect("degree") as u32,
        };
        let want = usizes(&case["changepoints"]);
        with_changes += usize::from(!want.is_empty());
        let got = edm_multi(&series, &config).expect("finite series and valid settings");
        if got != want {
            mismatches.push(format!(
                "{name}: breakout-detection {want:?}, pilot {got:?}"
            ));
        }
    }
    assert!(
        with_changes >= 10,
        "only {with_changes} fixture cases have change points"
    );
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

#[test]
fn reference_cases_include_the_tricky_ones() {
    // Guard against a regenerated fixture losing the cases that tell a faithful port from a
    // textbook one: several settings of the penalty, and a series where the reference's
    // approximation (the left median uses only the best previous change point) shows.
    let cases = FIXTURE["cases"].as_array().unwrap();
    let degrees: std::collections::BTreeSet<u64> = cases
        .iter()
        .map(|c| c["degree"].as_u64().unwrap())
        .collect();
    assert_eq!(degrees.into_iter().collect::<Vec<_>>(), vec![0, 1, 2]);
    assert!(cases.iter().any(|c| c["min_size"].as_u64() != Some(30)));
    assert!(cases.iter().any(|c| usizes(&c["changepoints"]).len() >= 3));
}
