//! pilot's statistics against reference values from numpy, scipy and statsmodels.
//!
//! The values come from `tests/fixtures/stats_reference.json`, written by
//! `tests/fixtures/gen_stats.py` (run `bash tests/fixtures/generate.sh`), never from pilot.
//! Tolerances: 1e-9 relative for means, variances and other moment-like values; 1e-6 relative for
//! values built on a t quantile (quantiles, intervals, p-values). Interval bounds are compared
//! relative to the interval's half-width, not to the bound, so that an interval around 1e9 is
//! held to the same standard as one around 0. Every test collects all its mismatches before
//! failing, each named by case and quantity.

use std::fmt::Display;
use std::sync::LazyLock;

use pilot::stats::trend;
use pilot::stats::welch_test;
use pilot::stats::zscore_outliers;
use pilot::stats::{ConfidenceInterval, Summary, t_quantile};
use pilot::stats::{lag1_autocorrelation, subsession_analysis};
use pilot::stats::{ols, wps};
use pilot::stats::{required_for_half_width, required_to_resolve};
use serde_json::Value;

/// Relative tolerance for means, variances and other moments.
const MOMENT: f64 = 1e-9;
/// Relative tolerance for values computed from t quantiles.
const QUANTILE: f64 = 1e-6;

static FIXTURE: LazyLock<Value> = LazyLock::new(|| {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/stats_reference.json");
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("failed to read {path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("failed to parse {path}: {e}"))
});

fn cases(section: &str) -> &'static [Value] {
    FIXTURE[section]
        .as_array()
        .unwrap_or_else(|| panic!("fixture has no array `{section}`"))
}

fn num(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("fixture value `{key}` is not a number in {v:.80}"))
}

fn int(v: &Value, key: &str) -> usize {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("fixture value `{key}` is not an integer")) as usize
}

fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("fixture value `{key}` is not a string"))
}

fn nums(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("fixture value is not an array")
        .iter()
        .map(|x| x.as_f64().expect("fixture array holds a non-number"))
        .collect()
}

fn sample(name: &str) -> Vec<f64> {
    nums(&FIXTURE["samples"][name])
}

/// What the last bits of values near a large mean cost a lag-1 autocorrelation: each value (and
/// the mean subtracted from it) is off by up to a unit in the last place, which enters r1 at
/// first order, by about that error over the spread, averaged over √n values. Negligible unless
/// the mean dwarfs the spread (the 1e9-offset samples).
fn lag1_floor(xs: &[f64]) -> f64 {
    let s = Summary::of(xs).unwrap();
    4.0 * f64::EPSILON * s.mean.abs() / (s.std_dev * (s.n as f64).sqrt()) + 1e-12
}

/// Collects the mismatches of one test and how many values it compared.
#[derive(Default)]
struct Checks {
    failures: Vec<String>,
    count: usize,
}

impl Checks {
    /// `|actual − expected| ≤ rel · |expected| + abs`.
    fn close(&mut self, what: impl Display, actual: f64, expected: f64, rel: f64, abs: f64) {
        self.count += 1;
        let ok = actual == expected || (actual - expected).abs() <= rel * expected.abs() + abs;
        if !ok {
            let err = (actual - expected).abs() / expected.abs();
            self.failures.push(format!(
                "{what}: pilot {actual:e}, reference {expected:e} (rel. error {err:.2e})"
            ));
        }
    }

    fn equal<T: PartialEq + std::fmt::Debug>(
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
    fn interval(&mut self, what: impl Display, actual: &ConfidenceInterval, low: f64, high: f64) {
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

    fn fail(&mut self, what: impl Display, err: impl Display) {
        self.count += 1;
        self.failures
            .push(format!("{what}: pilot returned an error: {err}"));
    }

    /// Panics with every mismatch when there is one, or when fewer than `at_least` values were
    /// compared (a fixture that lost its cases must not pass silently).
    fn finish(self, method: &str, at_least: usize) {
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

#[test]
fn summary_matches_numpy_and_scipy() {
    let mut c = Checks::default();
    for case in cases("summary") {
        let name = text(case, "sample");
        let s = Summary::of(&sample(name)).unwrap();
        c.equal(format_args!("{name} n"), s.n, int(case, "n"));
        c.close(
            format_args!("{name} mean"),
            s.mean,
            num(case, "mean"),
            MOMENT,
            0.0,
        );
        c.close(
            format_args!("{name} variance"),
            s.variance,
            num(case, "variance"),
            MOMENT,
            0.0,
        );
        // Order statistics are values of the sample (or the mean of two): exact up to rounding.
        c.close(
            format_args!("{name} median"),
            s.median,
            num(case, "median"),
            MOMENT,
            0.0,
        );
        c.equal(format_args!("{name} min"), s.min, num(case, "min"));
        c.equal(format_args!("{name} max"), s.max, num(case, "max"));
        for ci in case["ci"].as_array().unwrap() {
            let conf = num(ci, "confidence");
            let what = format!("{name} mean CI at {conf}");
            match s.mean_ci(conf) {
                Ok(got) => c.interval(what, &got, num(ci, "low"), num(ci, "high")),
                Err(e) => c.fail(what, e),
            }
        }
    }
    c.finish("summary", 200);
}

#[test]
fn t_quantiles_match_scipy() {
    let mut c = Checks::default();
    for case in cases("t_quantiles") {
        let (p, dof) = (num(case, "p"), num(case, "dof"));
        c.close(
            format_args!("t quantile p = {p}, dof = {dof}"),
            t_quantile(p, dof),
            num(case, "quantile"),
            QUANTILE,
            0.0,
        );
    }
    c.finish("t quantiles", 150);
}

#[test]
fn lag1_autocorrelation_matches_statsmodels_acf() {
    let mut c = Checks::default();
    for case in cases("summary") {
        let name = text(case, "sample");
        let what = format!("{name} lag-1 autocorrelation");
        match lag1_autocorrelation(&sample(name)) {
            Ok(r1) => c.close(
                what,
                r1,
                num(case, "lag1"),
                MOMENT,
                lag1_floor(&sample(name)),
            ),
            Err(e) => c.fail(what, e),
        }
    }
    c.finish("lag-1 autocorrelation", 25);
}

// Long because it checks every fixture case against each quantity of the definition in turn.
#[test]
fn subsession_analysis_matches_pilots_definition_computed_in_python() {
    let mut c = Checks::default();
    for case in cases("subsession") {
        let (name, limit, min) = (
            text(case, "sample"),
            num(case, "limit"),
            int(case, "min_subsessions"),
        );
        let label = format!("{name} (limit {limit}, min {min})");
        let s = match subsession_analysis(&sample(name), limit, min) {
            Ok(s) => s,
            Err(e) => {
                c.fail(&label, e);
                continue;
            }
        };
        c.equal(format_args!("{label} q"), s.size, int(case, "size"));
        c.equal(format_args!("{label} h"), s.count(), int(case, "count"));
        c.equal(
            format_args!("{label} converged"),
            s.converged,
            case["converged"].as_bool().unwrap(),
        );
        if s.size != int(case, "size") {
            continue; // the rest would compare different block means
        }
        let r1 = num(case, "autocorrelation");
        c.close(
            format_args!("{label} r1"),
            s.autocorrelation,
            r1,
            MOMENT,
            lag1_floor(&s.means),
        );
        c.close(
            format_args!("{label} mean"),
            s.mean(),
            num(case, "mean"),
            MOMENT,
            0.0,
        );
        c.close(
            format_args!("{label} var_q"),
            s.variance(),
            num(case, "variance"),
            MOMENT,
            0.0,
        );
        for ci in case["ci"].as_array().unwrap() {
            let conf = num(ci, "confidence");
            let what = format!("{label} CI at {conf}");
            match s.mean_ci(conf) {
                Ok(got) => c.interval(what, &got, num(ci, "low"), num(ci, "high")),
                Err(e) => c.fail(what, e),
            }
        }
        // pilot widens Pilot's interval and required count by a variance inflation factor for
        // the correlation left between subsession samples; the fixture computes it from its
        // documented formula.
        let f = num(case, "variance_inflation");
        c.close(
            format_args!("{label} variance inflation"),
            s.variance_inflation(),
            f,
            MOMENT,
            0.0,
        );
        for ci in case["ci"].as_array().unwrap() {
            let conf = num(ci, "confidence");
            let (low, high) = (num(ci, "low"), num(ci, "high"));
            let (mid, half) = ((high + low) / 2.0, (high - low) / 2.0 * f.sqrt());
            let what = format!("{label} adjusted CI at {conf}");
            match s.adjusted_mean_ci(conf) {
                Ok(got) => c.interval(what, &got, mid - half, mid + half),
                Err(e) => c.fail(what, e),
            }
        }
        let dof = (s.count() - 1) as f64;
        for r in case["required"].as_array().unwrap() {
            let (e, conf) = (num(r, "half_width"), num(r, "confidence"));
            c.equal(
                format_args!(
                    "{label} Pilot's required count (eq. 6) for half-width {e:e} at {conf}"
                ),
                required_for_half_width(s.variance(), dof, e, conf),
                Some(int(r, "count")),
            );
            c.equal(
                format_args!("{label} required_count for half-width {e:e} at {conf}"),
                s.required_count(e, conf),
                Some(int(r, "inflated_count")),
            );
        }
    }
    c.finish("subsession analysis", 100);
}

#[test]
fn welch_test_matches_scipy_ttest_ind() {
    let mut c = Checks::default();
    for case in cases("welch") {
        let (base, other) = (text(case, "base"), text(case, "other"));
        let label = format!("welch({base}, {other})");
        let mb = Summary::of(&sample(base)).unwrap().moments();
        let mo = Summary::of(&sample(other)).unwrap().moments();
        // The difference of two means near 1e9 is known only to their last bits.
        let floor = 2.0 * f64::EPSILON * mb.mean.abs().max(mo.mean.abs());
        for ci in case["ci"].as_array().unwrap() {
            let conf = num(ci, "confidence");
            let w = match welch_test(&mb, &mo, conf) {
                Ok(w) => w,
                Err(e) => {
                    c.fail(&label, e);
                    continue;
                }
            };
            let (low, high) = (num(ci, "low"), num(ci, "high"));
            let slack = QUANTILE * (high - low) / 2.0 + floor;
            c.close(
                format_args!("{label} CI low at {conf}"),
                w.difference_ci.low,
                low,
                0.0,
                slack,
            );
            c.close(
                format_args!("{label} CI high at {conf}"),
                w.difference_ci.high,
                high,
                0.0,
                slack,
            );
            if conf == 0.95 {
                c.close(
                    format_args!("{label} t"),
                    w.t,
                    num(case, "t"),
                    QUANTILE,
                    0.0,
                );
                c.close(
                    format_args!("{label} p"),
                    w.p,
                    num(case, "p"),
                    QUANTILE,
                    0.0,
                );
                c.close(
                    format_args!("{label} dof"),
                    w.dof,
                    num(case, "dof"),
                    MOMENT,
                    0.0,
                );
                let d = num(case, "difference");
                c.close(
                    format_args!("{label} difference"),
                    w.difference,
                    d,
                    MOMENT,
                    floor,
                );
            }
        }
    }
    c.finish("welch", 50);
}

#[test]
fn ols_matches_statsmodels() {
    let mut c = Checks::default();
    for case in cases("ols") {
        let name = text(case, "name");
        let f = ols(&nums(&case["x"]), &nums(&case["y"])).unwrap();
        c.close(
            format_args!("{name} intercept"),
            f.intercept,
            num(case, "intercept"),
            MOMENT,
            0.0,
        );
        c.close(
            format_args!("{name} slope"),
            f.slope,
            num(case, "slope"),
            MOMENT,
            0.0,
        );
        c.close(
            format_args!("{name} intercept se"),
            f.intercept_se,
            num(case, "intercept_se"),
            MOMENT,
            0.0,
        );
        c.close(
            format_args!("{name} slope se"),
            f.slope_se,
            num(case, "slope_se"),
            MOMENT,
            0.0,
        );
        let rv = num(case, "residual_variance");
        c.close(
            format_args!("{name} residual variance"),
            f.residual_variance,
            rv,
            MOMENT,
            0.0,
        );
        c.close(
            format_args!("{name} R²"),
            f.r_squared,
            num(case, "r_squared"),
            MOMENT,
            1e-15,
        );
        // A p-value that underflows in statsmodels must be tiny in pilot too.
        c.close(
            format_args!("{name} slope p"),
            f.slope_p(),
            num(case, "slope_p"),
            QUANTILE,
            1e-300,
        );
        for ci in case["slope_ci"].as_array().unwrap() {
            let conf = num(ci, "confidence");
            let got = f.slope_ci(conf).unwrap();
            c.interval(
                format_args!("{name} slope CI at {conf}"),
                &got,
                num(ci, "low"),
                num(ci, "high"),
            );
        }
        for ci in case["intercept_ci"].as_array().unwrap() {
            let conf = num(ci, "confidence");
            let got = f.intercept_ci(conf).unwrap();
            let what = format!("{name} intercept CI at {conf}");
            c.interval(what, &got, num(ci, "low"), num(ci, "high"));
        }
    }
    c.finish("ols", 60);
}

// Long because it checks each documented step of the method against its own fixture value.
#[test]
fn wps_matches_its_documented_steps_on_statsmodels() {
    let mut c = Checks::default();
    for case in cases("wps") {
        let name = text(case, "name");
        let (conf, limit) = (num(case, "confidence"), num(case, "limit"));
        let r = match wps(&nums(&case["work"]), &nums(&case["duration"]), conf, limit) {
            Ok(r) => r,
            Err(e) => {
                c.fail(name, e);
                continue;
            }
        };
        c.equal(
            format_args!("{name} rounds used"),
            r.rounds_used,
            int(case, "rounds_used"),
        );
        c.equal(
            format_args!("{name} subsession size"),
            r.subsession_size,
            int(case, "subsession_size"),
        );
        if r.rounds_used != int(case, "rounds_used")
            || r.subsession_size != int(case, "subsession_size")
        {
            continue;
        }
        c.close(
            format_args!("{name} intercept"),
            r.fit.intercept,
            num(case, "intercept"),
            MOMENT,
            0.0,
        );
        c.close(
            format_args!("{name} slope"),
            r.fit.slope,
            num(case, "slope"),
            MOMENT,
            0.0,
        );
        c.close(
            format_args!("{name} slope se"),
            r.fit.slope_se,
            num(case, "slope_se"),
            MOMENT,
            0.0,
        );
        let ra = num(case, "residual_autocorrelation");
        c.close(
            format_args!("{name} residual r1"),
            r.residual_autocorrelation,
            ra,
            MOMENT,
            1e-12,
        );
        let (low, high) = (
            num(&case["slope_ci"], "low"),
            num(&case["slope_ci"], "high"),
        );
        c.interval(format_args!("{name} slope CI"), &r.slope_ci, low, high);
        c.close(
            format_args!("{name} v"),
            r.v.unwrap(),
            num(case, "v"),
            MOMENT,
            0.0,
        );
        // v's bounds are 1/b_high and 1/b_low: relative errors carry over from the slope's bounds.
        let rel_low = QUANTILE * (high - low) / 2.0 / high;
        let rel_high = QUANTILE * (high - low) / 2.0 / low;
        c.close(
            format_args!("{name} v low"),
            r.v_ci.low.unwrap(),
            num(case, "v_low"),
            rel_low,
            0.0,
        );
        c.close(
            format_args!("{name} v high"),
            r.v_ci.high.unwrap(),
            num(case, "v_high"),
            rel_high,
            0.0,
        );
    }
    c.finish("wps", 40);
}

#[test]
fn zscore_outliers_match_scipy_zscore() {
    let mut c = Checks::default();
    for case in cases("outliers") {
        let (name, threshold) = (text(case, "sample"), num(case, "threshold"));
        let expected: Vec<usize> = case["indices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i.as_u64().unwrap() as usize)
            .collect();
        let got = zscore_outliers(&sample(name), threshold).unwrap();
        c.equal(
            format_args!("{name} outliers beyond |z| = {threshold}"),
            got,
            expected,
        );
    }
    c.finish("z-score outliers", 8);
}

#[test]
fn trend_matches_statsmodels_ols_over_the_index() {
    let mut c = Checks::default();
    for case in cases("trend") {
        let (name, conf) = (text(case, "sample"), num(case, "confidence"));
        let label = format!("{name} trend at {conf}");
        let t = trend(&sample(name), conf).unwrap();
        c.close(
            format_args!("{label} slope"),
            t.slope,
            num(case, "slope"),
            MOMENT,
            0.0,
        );
        c.interval(
            format_args!("{label} slope CI"),
            &t.slope_ci,
            num(case, "low"),
            num(case, "high"),
        );
        c.close(
            format_args!("{label} p"),
            t.p,
            num(case, "p"),
            QUANTILE,
            0.0,
        );
        let drift = num(case, "relative_drift");
        c.close(
            format_args!("{label} relative drift"),
            t.relative_drift,
            drift,
            MOMENT,
            0.0,
        );
    }
    c.finish("trend", 40);
}

#[test]
fn required_sample_sizes_match_scipy_quantiles() {
    let mut c = Checks::default();
    for case in cases("required_for_half_width") {
        let (var, dof, e, conf) = (
            num(case, "variance"),
            num(case, "dof"),
            num(case, "half_width"),
            num(case, "confidence"),
        );
        c.equal(
            format_args!("required_for_half_width(var {var}, dof {dof}, e {e}, c {conf})"),
            required_for_half_width(var, dof, e, conf),
            Some(int(case, "count")),
        );
    }
    for case in cases("required_to_resolve") {
        let (va, vb) = (num(case, "variance_a"), num(case, "variance_b"));
        let (d, alpha, power) = (
            num(case, "difference"),
            num(case, "alpha"),
            num(case, "power"),
        );
        c.equal(
            format_args!("required_to_resolve({va}, {vb}, d {d}, alpha {alpha}, power {power})"),
            required_to_resolve(va, vb, d, alpha, power),
            Some(int(case, "count")),
        );
    }
    c.finish("required sample sizes", 100);
}
