//! pilot's trimmed mean, its Tukey–McLaughlin interval and Yuen's test against scipy.
//!
//! The values come from `tests/fixtures/robust_reference.json`, written by
//! `tests/fixtures/gen_robust.py` (run `bash tests/fixtures/generate.sh`), never from pilot:
//! `stats.trim_mean`, `mstats.winsorize`, `mstats.trimmed_stde`, `mstats.trimmed_mean_ci` and
//! `stats.ttest_ind(…, equal_var=False, trim=…)`. Samples: n from 5 to 2000, normal, t with 2
//! degrees of freedom, 1% contaminated at 50 times, and one near 1e9; trims 0.1 and 0.2.
//!
//! Tolerance: 1e-9 relative for every quantity, the t quantiles and p-values included (statrs's
//! t distribution is within about 1e-12 of scipy's at these degrees of freedom, 2 to 1199; see
//! `pilot::stats::t_quantile` for where it is less exact). An interval is held to 1e-9 of its
//! half-width plus the relative error of the quantile pilot used, measured on the spot, and its
//! half-width at scipy's quantile to 1e-9 flat, so that the rest of it (the trimmed mean, the
//! winsorized variance, the count cut, the standard error) is checked to 1e-9 whatever statrs
//! does. Values near 1e9 get a few units in the last place of the value besides (what storing a
//! bound there costs, as in `stats_reference.rs`). The largest errors seen are printed
//! (`--nocapture`).

use std::collections::BTreeMap;
use std::sync::LazyLock;

use pilot::stats::{ConfidenceInterval, Trimmed, t_quantile, trimmed_mean_ci, yuen_test};
use serde_json::Value;
mod reference;
use reference::*;

static ROBUST: LazyLock<Value> = LazyLock::new(|| load("robust_reference.json"));

fn section(name: &str) -> &'static [Value] {
    ROBUST[name]
        .as_array()
        .unwrap_or_else(|| panic!("fixture has no array `{name}`"))
}

fn robust_sample(name: &str) -> Vec<f64> {
    nums(&ROBUST["samples"][name])
}

/// The largest relative error seen per quantity, and where, printed at the end of a test.
#[derive(Default)]
struct Worst(BTreeMap<String, (f64, String)>);

impl Worst {
    /// Checks `actual` against `expected` to `rel` relative to `scale` (plus `abs`) and records
    /// the error relative to `scale`.
    #[allow(clippy::too_many_arguments)]
    fn check(
        &mut self,
        c: &mut Checks,
        what: String,
        quantity: &'static str,
        actual: f64,
        expected: f64,
        scale: f64,
        rel: f64,
        abs: f64,
    ) {
        let err = (actual - expected).abs() / scale.abs();
        // Values near 1e9 are reported apart: their last bits dominate every figure.
        let key = if what.contains("1e9") {
            format!("{quantity} (near 1e9)")
        } else {
            quantity.to_string()
        };
        let worst = self.0.entry(key).or_insert((0.0, String::new()));
        if err > worst.0 {
            *worst = (err, what.clone());
        }
        c.close(what, actual, expected, 0.0, rel * scale.abs() + abs);
    }

    fn print(&self, test: &str) {
        for (quantity, (err, at)) in &self.0 {
            eprintln!("{test}: largest relative error of {quantity}: {err:.2e} ({at})");
        }
    }
}

/// What storing a value near `centre` costs: a few units in its last place.
fn ulps(centre: f64) -> f64 {
    16.0 * f64::EPSILON * centre.abs()
}

/// Checks an interval against scipy's `low`, `high`, computed with scipy's quantile `t_ref`
/// where pilot used `t_pilot`: to 1e-9 of the half-width plus the quantile's own error.
fn interval(
    c: &mut Checks,
    w: &mut Worst,
    what: &str,
    got: &ConfidenceInterval,
    expected: &Value,
    t_pilot: f64,
) {
    let (low, high, half) = (
        num(expected, "low"),
        num(expected, "high"),
        num(expected, "half_width"),
    );
    let quantile_err = (t_pilot - num(expected, "t")).abs() / num(expected, "t");
    let (centre, rel) = ((high + low) / 2.0, MOMENT + quantile_err);
    let bounds = "interval bounds (of the half-width)";
    w.check(
        c,
        format!("{what} low"),
        bounds,
        got.low,
        low,
        half,
        rel,
        ulps(centre),
    );
    w.check(
        c,
        format!("{what} high"),
        bounds,
        got.high,
        high,
        half,
        rel,
        ulps(centre),
    );
    let halves = "half-width";
    w.check(
        c,
        format!("{what} half-width"),
        halves,
        got.half_width(),
        half,
        half,
        rel,
        ulps(centre),
    );
    // The half-width with pilot's quantile replaced by scipy's: 1e-9 flat (but for the last bits
    // of bounds near 1e9, which pilot's half-width is the difference of).
    let at_scipys = got.half_width() * num(expected, "t") / t_pilot;
    let quantity = "half-width at scipy's t quantile";
    w.check(
        c,
        format!("{what} half-width at scipy's quantile"),
        quantity,
        at_scipys,
        half,
        half,
        MOMENT,
        ulps(centre),
    );
}

// Long because it checks each quantity of one fixture case in turn.
#[test]
fn trimmed_mean_and_interval_match_scipy() {
    let (mut c, mut w) = (Checks::default(), Worst::default());
    for case in section("trimmed") {
        let (name, trim) = (text(case, "sample"), num(case, "trim"));
        let label = format!("{name} trim {trim}");
        let xs = robust_sample(name);
        let t = match Trimmed::of(&xs, trim) {
            Ok(t) => t,
            Err(e) => {
                c.fail(&label, e);
                continue;
            }
        };
        c.equal(format!("{label} n"), t.n, int(case, "n"));
        c.equal(format!("{label} g"), t.g, int(case, "g"));
        let mean = num(case, "mean");
        w.check(
            &mut c,
            format!("{label} trimmed mean"),
            "trimmed mean",
            t.mean,
            mean,
            mean,
            MOMENT,
            ulps(mean),
        );
        let v = num(case, "winsorized_variance");
        w.check(
            &mut c,
            format!("{label} winsorized variance"),
            "winsorized variance",
            t.winsorized_variance,
            v,
            v,
            MOMENT,
            0.0,
        );
        let se = num(case, "std_error");
        w.check(
            &mut c,
            format!("{label} standard error"),
            "standard error",
            t.std_error(trim),
            se,
            se,
            MOMENT,
            0.0,
        );
        for ci in case["ci"].as_array().unwrap() {
            let conf = num(ci, "confidence");
            let what = format!("{label} interval at {conf}");
            let t_pilot = t_quantile(1.0 - (1.0 - conf) / 2.0, (t.kept() - 1) as f64);
            w.check(
                &mut c,
                format!("{what} t quantile"),
                "t quantile",
                t_pilot,
                num(ci, "t"),
                num(ci, "t"),
                MOMENT,
                0.0,
            );
            match trimmed_mean_ci(&xs, trim, conf) {
                Ok(got) => interval(&mut c, &mut w, &what, &got, ci, t_pilot),
                Err(e) => c.fail(what, e),
            }
        }
    }
    w.print("trimmed mean");
    c.finish("trimmed mean", 1000);
}

#[test]
fn yuen_test_matches_scipy_ttest_ind_with_trim() {
    let (mut c, mut w) = (Checks::default(), Worst::default());
    for case in section("yuen") {
        let (base, other, trim) = (text(case, "base"), text(case, "other"), num(case, "trim"));
        let label = format!("yuen({base}, {other}) trim {trim}");
        let (b, o) = (robust_sample(base), robust_sample(other));
        for ci in case["ci"].as_array().unwrap() {
            let conf = num(ci, "confidence");
            let y = match yuen_test(&b, &o, trim, conf) {
                Ok(y) => y,
                Err(e) => {
                    c.fail(&label, e);
                    continue;
                }
            };
            let (t, dof, d) = (num(case, "t"), num(case, "dof"), num(case, "difference"));
            w.check(
                &mut c,
                format!("{label} t"),
                "statistic",
                y.t,
                t,
                t,
                MOMENT,
                0.0,
            );
            w.check(
                &mut c,
                format!("{label} dof"),
                "degrees of freedom",
                y.dof,
                dof,
                dof,
                MOMENT,
                0.0,
            );
            w.check(
                &mut c,
                format!("{label} difference"),
                "difference",
                y.difference,
                d,
                d,
                MOMENT,
                0.0,
            );
            let p = num(case, "p");
            w.check(
                &mut c,
                format!("{label} p"),
                "p-value",
                y.p,
                p,
                p,
                MOMENT,
                0.0,
            );
            let t_pilot = t_quantile(1.0 - (1.0 - conf) / 2.0, y.dof);
            let what = format!("{label} interval of the difference at {conf}");
            interval(&mut c, &mut w, &what, &y.difference_ci, ci, t_pilot);
        }
    }
    w.print("yuen");
    c.finish("yuen", 200);
}

#[test]
fn the_fixture_covers_what_it_claims() {
    // Both trims at every size, each distribution, and cases where the trim cuts nothing
    // (n = 5 and 6 at 0.1) and where it cuts exactly a fifth (n = 15, 35 at 0.2).
    let cases = section("trimmed");
    let has = |name: &str, trim: f64, g: usize| {
        cases
            .iter()
            .any(|c| text(c, "sample") == name && num(c, "trim") == trim && int(c, "g") == g)
    };
    assert!(has("n5_normal", 0.1, 0));
    assert!(has("n5_normal", 0.2, 1));
    assert!(has("n35_t2", 0.2, 7));
    assert!(has("n2000_contaminated", 0.2, 400));
    assert!(has("n1000_offset_1e9", 0.1, 100));
    assert!(section("yuen").len() >= 18);
}
