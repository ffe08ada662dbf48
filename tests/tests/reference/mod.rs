//! What the reference tests share: the fixture written by `tests/fixtures/gen_stats.py` (and a
//! loader for the others), the tolerances, and the collector of mismatches. Each test file uses
//! part of it.
#![allow(dead_code)]

use std::fmt::Display;
use std::sync::LazyLock;

use pilot::stats::{ConfidenceInterval, Summary};
use serde_json::Value;

/// Relative tolerance for means, variances and other moments.
pub(crate) const MOMENT: f64 = 1e-9;
/// Relative tolerance for values computed from t quantiles.
pub(crate) const QUANTILE: f64 = 1e-6;

pub(crate) static FIXTURE: LazyLock<Value> = LazyLock::new(|| load("stats_reference.json"));

/// The fixture `tests/fixtures/<file>`, parsed.
pub(crate) fn load(file: &str) -> Value {
    let path = format!("{}/fixtures/{file}", env!("CARGO_MANIFEST_DIR"));
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("failed to read {path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("failed to parse {path}: {e}"))
}

pub(crate) fn cases(section: &str) -> &'static [Value] {
    FIXTURE[section]
        .as_array()
        .unwrap_or_else(|| panic!("fixture has no array `{section}`"))
}

pub(crate) fn num(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("fixture value `{key}` is not a number in {v:.80}"))
}

pub(crate) fn int(v: &Value, key: &str) -> usize {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("fixture value `{key}` is not an integer")) as usize
}

pub(crate) fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("fixture value `{key}` is not a string"))
}

pub(crate) fn nums(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("fixture value is not an array")
        .iter()
        .map(|x| x.as_f64().expect("fixture array holds a non-number"))
        .collect()
}

pub(crate) fn sample(name: &str) -> Vec<f64> {
    nums(&FIXTURE["samples"][name])
}

/// What the last bits of values near a large mean cost a lag-1 autocorrelation: each value (and
/// the mean subtracted from it) is off by up to a unit in the last place, which enters r1 at
/// first order, by about that error over the spread, averaged over √n values. Negligible unless
/// the mean dwarfs the spread (the 1e9-offset samples).
pub(crate) fn lag1_floor(xs: &[f64]) -> f64 {
    let s = Summary::of(xs).unwrap();
    4.0 * f64::EPSILON * s.mean.abs() / (s.std_dev * (s.n as f64).sqrt()) + 1e-12
}

/// Collects the mismatches of one test and how many values it compared.
#[derive(Default)]
pub(crate) struct Checks {
    pub(crate) failures: Vec<String>,
    pub(crate) count: usize,
}

impl Checks {
    /// `|actual − expected| ≤ rel · |expected| + abs`.
    pub(crate) fn close(
        &mut self,
        what: impl Display,
        actual: f64,
        expected: f64,
        rel: f64,
        abs: f64,
    ) {
        self.count += 1;
        let ok = actual == expected || (actual - expected).abs() <= rel * expected.abs() + abs;
        if !ok {
            let err = (actual - expected).abs() / expected.abs();
            self.failures.push(format!(
                "{what}: pilot {actual:e}, reference {expected:e} (rel. error {err:.2e})"
            ));
        }
    }

    pub(crate) fn equal<T: PartialEq + std::fmt::Debug>(
        &mut self,
        what: impl Display,
        actual: T,
        expected: T,
    ) {
        self.count += 1;
        if actual != expected {
            self.failures
                .push(format!("{what}: pilot {actual:?}, reference {expected:?}"));
        }
    }

    /// An interval's bounds and half-width, each to `QUANTILE` times the half-width plus a few
    /// units in the last place of the centre: what storing a bound near 1e9 costs.
    pub(crate) fn interval(
        &mut self,
        what: impl Display,
        actual: &ConfidenceInterval,
        low: f64,
        high: f64,
    ) {
        let half = (high - low) / 2.0;
        let slack = QUANTILE * half.abs() + 16.0 * f64::EPSILON * ((high + low) / 2.0).abs();
        self.close(format_args!("{what} low"), actual.low, low, 0.0, slack);
        self.close(format_args!("{what} high"), actual.high, high, 0.0, slack);
        self.close(
            format_args!("{what} half-width"),
            actual.half_width(),
            half,
            0.0,
            slack,
        );
    }

    pub(crate) fn fail(&mut self, what: impl Display, err: impl Display) {
        self.count += 1;
        self.failures
            .push(format!("{what}: pilot returned an error: {err}"));
    }

    /// Panics with every mismatch when there is one, or when fewer than `at_least` values were
    /// compared (a fixture that lost its cases must not pass silently).
    pub(crate) fn finish(self, method: &str, at_least: usize) {
        eprintln!("{method}: {} reference values checked", self.count);
        assert!(
            self.failures.is_empty(),
            "{method}: {} of {} reference values differ:\n  {}",
            self.failures.len(),
            self.count,
            self.failures.join("\n  ")
        );
        assert!(
            self.count >= at_least,
            "{method}: only {} values checked",
            self.count
        );
    }
}
