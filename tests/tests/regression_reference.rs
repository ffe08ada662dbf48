//! pilot's regressions (OLS, the WPS method, the trend over the index) against reference values
//! from statsmodels, with the tolerances and fixture of `stats_reference.rs`.

use pilot::stats::{ols, trend, wps};

mod reference;
use reference::*;

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
