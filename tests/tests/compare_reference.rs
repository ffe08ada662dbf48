//! Baseline comparisons (`pilot::compare`) against values computed with scipy from the
//! definitions: `tests/fixtures/compare_reference.json`, written by
//! `tests/fixtures/gen_compare.py` (run `bash tests/fixtures/generate.sh`), never by pilot.

use pilot::stats::t_quantile;
use pilot_engine::compare::{CompareOptions, Verdict, compare_estimates, compare_paired};
use pilot_engine::store::{SampleMoments, SavedEstimate};
use serde_json::Value;

fn fixture() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/compare_reference.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// An estimate whose interval is exactly `mean ± t(dof)·sqrt(se2)`, as pilot writes it.
fn estimate(
    mean: f64,
    se2: f64,
    dof: f64,
    samples: SampleMoments,
    processes: Vec<f64>,
) -> SavedEstimate {
    let half = t_quantile(0.975, dof) * se2.sqrt();
    SavedEstimate {
        mean,
        low: mean - half,
        high: mean + half,
        confidence: 0.95,
        interval_from: if processes.is_empty() {
            "readings"
        } else {
            "processes"
        }
        .into(),
        dof,
        samples,
        process_means: processes,
        run_to_run: None,
    }
}

fn from_processes(ms: Vec<f64>) -> SavedEstimate {
    let n = ms.len() as f64;
    let mean = ms.iter().sum::<f64>() / n;
    let variance = ms.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let samples = SampleMoments {
        count: ms.len(),
        mean,
        variance,
        variance_inflation: 1.0,
    };
    estimate(mean, variance / n, n - 1.0, samples, ms)
}

fn from_moments(v: &Value) -> SavedEstimate {
    let count = v["count"].as_u64().unwrap() as usize;
    let samples = SampleMoments {
        count,
        mean: v["mean"].as_f64().unwrap(),
        variance: v["variance"].as_f64().unwrap(),
        variance_inflation: v["inflation"].as_f64().unwrap(),
    };
    let se2 = samples.variance * samples.variance_inflation / count as f64;
    estimate(samples.mean, se2, count as f64 - 1.0, samples, Vec::new())
}

fn close(got: f64, want: f64, rel: f64, what: &str) {
    assert!(
        (got - want).abs() <= rel * want.abs(),
        "{what}: got {got}, scipy says {want}"
    );
}

#[test]
fn comparisons_match_scipy() {
    let f = fixture();
    let options = CompareOptions::default();
    let mut seen = 0;
    for case in f["cases"].as_array().unwrap() {
        let kind = case["kind"].as_str().unwrap();
        let (base, new, verdict) = match kind {
            "multi" => (
                from_processes(floats(&case["base_processes"])),
                from_processes(floats(&case["new_processes"])),
                // p 0.001 < 0.01 and +5% > 1%.
                Verdict::Regressed,
            ),
            "mixed" => {
                let se2 = case["new_se2"].as_f64().unwrap();
                let dof = case["new_dof"].as_f64().unwrap();
                let mean = case["new_mean"].as_f64().unwrap();
                let samples = SampleMoments {
                    count: dof as usize + 1,
                    mean,
                    variance: se2 * (dof + 1.0),
                    variance_inflation: 1.0,
                };
                (
                    from_processes(floats(&case["base_processes"])),
                    estimate(mean, se2, dof, samples, Vec::new()),
                    // p 0.015 ≥ 0.01, and the interval [1.7%, 10.4%] reaches past ±1%.
                    Verdict::Undecided,
                )
            }
            "single" => (
                from_moments(&case["base"]),
                from_moments(&case["new"]),
                // p 0.13, interval [−0.5%, 3.5%].
                Verdict::Undecided,
            ),
            "paired" => continue,
            other => panic!("unknown case {other}"),
        };
        let found = compare_estimates(&base, &new, &options);
        let (ci, got, method) = (found.change_ci, found.verdict, &found.method);
        close(
            found.p,
            case["p"].as_f64().unwrap(),
            1e-6,
            &format!("{kind}: p"),
        );
        close(
            found.change,
            case["change"].as_f64().unwrap(),
            1e-12,
            &format!("{kind}: change"),
        );
        let want = floats(&case["change_ci"]);
        let (lo, hi) = ci.unwrap();
        close(lo, want[0], 1e-6, &format!("{kind}: change CI low"));
        close(hi, want[1], 1e-6, &format!("{kind}: change CI high"));
        assert_eq!(got, verdict, "{kind}: {method}");
        seen += 1;
    }
    assert_eq!(seen, 3);
}

#[test]
fn the_method_says_which_variance_decided() {
    let f = fixture();
    let multi = &f["cases"][0];
    let a = from_processes(floats(&multi["base_processes"]));
    let b = from_processes(floats(&multi["new_processes"]));
    let single = from_moments(&f["cases"][2]["base"]);
    let options = CompareOptions::default();
    assert!(
        compare_estimates(&a, &b, &options)
            .method
            .contains("5 vs 5 process estimates")
    );
    assert!(
        compare_estimates(&a, &single, &options)
            .method
            .contains("spread added")
    );
    let within = compare_estimates(&single, &single, &options).method;
    assert!(
        within.contains("within one process each (50 vs 50 subsession samples)"),
        "{within}"
    );
}

#[test]
fn paired_comparisons_match_scipy() {
    let f = fixture();
    let options = CompareOptions::default();
    let cases: Vec<&Value> = f["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "paired")
        .collect();
    assert_eq!(cases.len(), 4);
    // +3.0% with p 6e-5: regressed. +0.3% with p 0.51 and an interval reaching past +1%:
    // undecided. +3.2% with one pair's new process 40% slower, trimmed away: regressed.
    // Four pairs (nothing trimmed, scipy's paired t-test): +2.5% with p 0.001, regressed.
    let verdicts = [
        Verdict::Regressed,
        Verdict::Undecided,
        Verdict::Regressed,
        Verdict::Regressed,
    ];
    for (case, verdict) in cases.iter().zip(verdicts) {
        let pairs: Vec<(f64, f64)> = floats(&case["base_processes"])
            .into_iter()
            .zip(floats(&case["new_processes"]))
            .collect();
        let found = compare_paired(&pairs, 0.95, &options).unwrap();
        close(found.p, case["p"].as_f64().unwrap(), 1e-6, "paired: p");
        close(
            found.change,
            case["change"].as_f64().unwrap(),
            1e-12,
            "paired: change",
        );
        let want = floats(&case["change_ci"]);
        let (lo, hi) = found.change_ci.unwrap();
        close(lo, want[0], 1e-9, "paired: change CI low");
        close(hi, want[1], 1e-9, "paired: change CI high");
        assert_eq!(found.verdict, verdict);
        assert!(found.method.starts_with("paired: "), "{}", found.method);
    }
}

#[test]
fn pairing_needs_two_usable_pairs() {
    let options = CompareOptions::default();
    assert!(compare_paired(&[(1.0, 1.1)], 0.95, &options).is_none());
    assert!(compare_paired(&[(1.0, 1.1), (0.0, 1.0)], 0.95, &options).is_none());
    assert!(compare_paired(&[(1.0, 1.1), (f64::NAN, 1.0)], 0.95, &options).is_none());
    // Identical ratios: no spread, so p is 0 for a change and 1 for none.
    let same = compare_paired(&[(1.0, 1.1), (2.0, 2.2)], 0.95, &options).unwrap();
    assert_eq!((same.p, same.verdict), (0.0, Verdict::Regressed));
    let none = compare_paired(&[(1.0, 1.0), (2.0, 2.0)], 0.95, &options).unwrap();
    assert_eq!((none.p, none.verdict), (1.0, Verdict::NoChange));
}
