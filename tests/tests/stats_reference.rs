//! pilot's statistics against reference values from numpy, scipy and statsmodels.
//!
//! The values come from `tests/fixtures/stats_reference.json`, written by
//! `tests/fixtures/gen_stats.py` (run `bash tests/fixtures/generate.sh`), never from pilot.
//! Tolerances: 1e-9 relative for means, variances and other moment-like values; 1e-6 relative for
//! values built on a t quantile (quantiles, intervals, p-values). Interval bounds are compared
//! relative to the interval's half-width, not to the bound, so that an interval around 1e9 is
//! held to the same standard as one around 0. Every test collects all its mismatches before
//! failing, each named by case and quantity.

use pilot::stats::welch_test;
use pilot::stats::zscore_outliers;
use pilot::stats::{Summary, t_quantile};
use pilot::stats::{lag1_autocorrelation, subsession_analysis};
use pilot::stats::{required_for_half_width, required_to_resolve};
mod reference;
use reference::*;

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
