//! Output of `cargo pilot analyze`: a Getstats-like table per file, or one JSON document.

use std::fmt::Write;

use pilot_stats::Analysis;
use pilot_stats::ConfidenceInterval;
use pilot_stats::WpsFit;
use serde_json::{Value, json};

use super::{AnalyzeArgs, Comparison, FileReport};

/// The schema name of the `--json` document; a change of its keys bumps the version.
pub const SCHEMA: &str = "pilot.analyze/1";

/// A number with 6 significant digits, in scientific notation when very large or small.
fn num(x: f64) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    if x == 0.0 {
        return "0".to_string();
    }
    let mag = x.abs().log10().floor() as i32;
    if !(-4..9).contains(&mag) {
        return format!("{x:.5e}");
    }
    let decimals = (5 - mag).max(0) as usize;
    format!("{x:.decimals$}")
}

fn pct(x: f64) -> String {
    format!("{}%", percent(x))
}

/// The fraction `x` in percent, with 2 decimals; in scientific notation from 10⁶% on, where
/// fixed notation would print hundreds of digits for the ratios of values near 1e308.
fn percent(x: f64) -> String {
    let p = 100.0 * x;
    if p.abs() < 1e6 {
        format!("{p:.2}")
    } else {
        format!("{p:.2e}")
    }
}

/// [`percent`] with a sign and a `%`.
fn signed_pct(x: f64) -> String {
    let p = percent(x);
    if p.starts_with('-') {
        format!("{p}%")
    } else {
        format!("+{p}%")
    }
}

fn confidence_label(c: f64) -> String {
    let p = 100.0 * c;
    if (p - p.round()).abs() < 1e-9 {
        format!("{p:.0}%")
    } else {
        format!("{p}%")
    }
}

/// The human-readable report.
pub fn human(reports: &[FileReport], comparisons: &[Comparison], args: &AnalyzeArgs) -> String {
    let mut out = String::new();
    for r in reports {
        let _ = writeln!(out, "{}", r.name);
        match &r.wps {
            Some(fit) => wps_block(&mut out, fit),
            None => table_block(&mut out, r, args),
        }
        for w in &r.analysis.warnings {
            let _ = writeln!(out, "  warning: {w}");
        }
        out.push('\n');
    }
    if !comparisons.is_empty() {
        let samples = if args.independent {
            "the values as independent samples"
        } else {
            "subsession samples"
        };
        let _ = writeln!(
            out,
            "compared with {} (Welch's t-test on {samples}, change interval by Fieller's \
             theorem; a difference at p < {}, equivalent within ±{}):",
            comparisons[0].base,
            args.alpha,
            pct(args.noise)
        );
        for c in comparisons {
            let difference = match c.relative {
                Some(r) if (100.0 * r.ci.0).is_finite() && (100.0 * r.ci.1).is_finite() => {
                    format!(
                        "{} [{}, {}]",
                        signed_pct(r.estimate),
                        signed_pct(r.ci.0),
                        signed_pct(r.ci.1)
                    )
                }
                // No percentage of a zero (or nearly zero) base mean: the difference itself.
                _ => format!(
                    "{} [{}, {}] (no relative difference: the base mean is {})",
                    signed(c.test.difference),
                    signed(c.test.difference_ci.low),
                    signed(c.test.difference_ci.high),
                    if reports[0].analysis.mean == 0.0 {
                        "0"
                    } else {
                        "too close to 0"
                    }
                ),
            };
            let _ = writeln!(
                out,
                "  {}  {difference}  {}  {}",
                c.other,
                pilot_stats::p_clause(c.test.p),
                verdict_sentence(c)
            );
        }
    }
    out
}

/// [`num`] with a sign.
fn signed(x: f64) -> String {
    if x > 0.0 {
        format!("+{}", num(x))
    } else {
        num(x)
    }
}

fn verdict_sentence(c: &Comparison) -> String {
    match c.verdict {
        "larger" => format!("larger than {}", c.base),
        "smaller" => format!("smaller than {}", c.base),
        "equivalent" => "equivalent: the difference is within the noise threshold".to_string(),
        _ => "inconclusive: no difference proven; more data would tell".to_string(),
    }
}

/// A file's statistics as `cargo pilot analyze` prints them: the raw and stable columns, then
/// the stable segment, the adjustment, the result and the required N.
fn table_block(out: &mut String, r: &FileReport, args: &AnalyzeArgs) {
    let a = &r.analysis;
    summary_table(out, a);
    segment_line(out, a);
    if args.independent {
        let _ = writeln!(
            out,
            "  independent      no change points, no subsession merging, no variance inflation \
             (lag-1 autocorrelation {:.3}): the textbook interval",
            a.raw_autocorrelation
        );
    } else {
        subsession_lines(out, a, args);
    }
    let _ = writeln!(
        out,
        "  result           {} ± {} ({}%) at {} confidence",
        num(a.mean),
        num(a.ci.half_width()),
        rel(a.ci.half_width(), a.mean),
        confidence_label(a.ci.confidence)
    );
    required_n_line(out, a, args);
}

/// The columns of the raw readings and of the stable ones: N, mean, median, interval, extremes,
/// spread and half-width.
fn summary_table(out: &mut String, a: &Analysis) {
    let header = [
        "", "N", "MEAN", "MEDIAN", "CI LOW", "CI HIGH", "MIN", "MAX", "SDEV%", "HW%",
    ];
    let raw = [
        "raw".to_string(),
        a.raw.n.to_string(),
        num(a.raw.mean),
        num(a.raw.median),
        num(a.raw_ci.low),
        num(a.raw_ci.high),
        num(a.raw.min),
        num(a.raw.max),
        rel(a.raw.std_dev, a.raw.mean),
        rel(a.raw_ci.half_width(), a.raw.mean),
    ];
    let st = &a.stable_summary;
    let result = [
        "stable".to_string(),
        st.n.to_string(),
        num(a.mean),
        num(st.median),
        num(a.ci.low),
        num(a.ci.high),
        num(st.min),
        num(st.max),
        rel(st.std_dev, st.mean),
        rel(a.ci.half_width(), a.mean),
    ];
    let rows = [header.map(String::from), raw, result];
    let widths: Vec<usize> = (0..header.len())
        .map(|i| rows.iter().map(|r| r[i].len()).max().unwrap_or(0))
        .collect();
    for row in &rows {
        let _ = write!(out, "  {:<w$}", row[0], w = widths[0]);
        for (cell, w) in row.iter().zip(&widths).skip(1) {
            let _ = write!(out, "  {cell:>w$}");
        }
        out.push('\n');
    }
}

/// Where the stable segment is and the change points that bound it.
fn segment_line(out: &mut String, a: &Analysis) {
    let seg = &a.stable;
    let n = a.raw.n;
    let cps = if seg.changepoints.is_empty() {
        "no change points".to_string()
    } else {
        let list: Vec<String> = seg.changepoints.iter().map(usize::to_string).collect();
        format!("change points at {}", list.join(", "))
    };
    let _ = writeln!(
        out,
        "  stable segment   {}..{} of {n} ({}; removed {} before, {} after)",
        seg.start,
        seg.end,
        cps,
        seg.start,
        n - seg.end
    );
}

/// The subsession size and, when the interval was adjusted, how much wider it is than the
/// textbook one.
fn subsession_lines(out: &mut String, a: &Analysis, args: &AnalyzeArgs) {
    let stable = &a.subsession;
    let seg = &a.stable;
    let n = a.raw.n;
    let _ = writeln!(
        out,
        "  subsession size  {} ({} subsession samples, lag-1 autocorrelation {:.3}; raw {:.3}){}",
        stable.size,
        stable.count(),
        stable.autocorrelation,
        a.raw_autocorrelation,
        if stable.converged {
            ""
        } else {
            " not within the limit"
        }
    );
    let adjusted =
        stable.size > 1 || stable.variance_inflation() > 1.0 || seg.start > 0 || seg.end < n;
    if let Some(widened) = super::widening(a, args.confidence).filter(|_| adjusted) {
        let _ = writeln!(
            out,
            "  adjustment       {} readings cut, subsession size {}, variance inflation \
             {:.3}: the interval is {:.2}× the textbook one over the readings kept, and \
             comparisons use the same (--independent gives the textbook statistics for \
             independent data)",
            n - (seg.end - seg.start),
            stable.size,
            stable.variance_inflation(),
            widened
        );
    }
}

/// How many stable values the target half-width needs, against how many there are.
fn required_n_line(out: &mut String, a: &Analysis, args: &AnalyzeArgs) {
    match a.required_n {
        Some(req) => {
            let have = a.stable.end - a.stable.start;
            let verdict = if req <= have {
                "reached"
            } else {
                "not reached yet"
            };
            let _ = writeln!(
                out,
                "  required N       {req} stable values for ±{} (have {have}: {verdict})",
                pct(args.target)
            );
        }
        None if a.mean == 0.0 => {
            let _ = writeln!(out, "  required N       unknown (the mean is 0)");
        }
        None => {
            let _ = writeln!(
                out,
                "  required N       beyond counting: the mean is so close to 0 that ±{} of it \
                 needs more than 2^53 values",
                pct(args.target)
            );
        }
    }
}

/// `x` as a percentage of `|of|`; `-` where there is none (a zero mean) or it passes `f64::MAX`
/// (a mean very close to 0).
fn rel(x: f64, of: f64) -> String {
    let fraction = x / of.abs();
    if (100.0 * fraction).is_finite() {
        percent(fraction)
    } else {
        "-".to_string()
    }
}

fn bound(x: Option<f64>) -> String {
    x.map_or("unbounded".to_string(), num)
}

fn wps_block(out: &mut String, fit: &WpsFit) {
    let f = &fit.fit;
    let _ = writeln!(
        out,
        "  WPS method: duration = α + work / v, fitted over {} rounds",
        fit.rounds_used
    );
    match f.intercept_ci(fit.slope_ci.confidence) {
        Ok(ci) => {
            let _ = writeln!(
                out,
                "  α (overhead)     {} [{}, {}]",
                num(f.intercept),
                num(ci.low),
                num(ci.high)
            );
        }
        // Its interval passes f64::MAX: the estimate alone.
        Err(_) => {
            let _ = writeln!(out, "  α (overhead)     {}", num(f.intercept));
        }
    }
    let _ = writeln!(
        out,
        "  slope (1/v)      {} [{}, {}] at {} confidence",
        num(f.slope),
        num(fit.slope_ci.low),
        num(fit.slope_ci.high),
        confidence_label(fit.slope_ci.confidence)
    );
    match fit.v {
        Some(v) => {
            let _ = writeln!(
                out,
                "  v (work / time)  {} [{}, {}]",
                num(v),
                bound(fit.v_ci.low),
                bound(fit.v_ci.high)
            );
        }
        None => {
            let _ = writeln!(
                out,
                "  v (work / time)  undefined: the slope is not positive"
            );
        }
    }
    if fit.v_ci.high.is_none() {
        let _ = writeln!(
            out,
            "  warning: the slope's interval reaches 0, so v has no upper bound: the durations \
             barely depend on the work amount; use larger or more varied work amounts"
        );
    }
    let _ = writeln!(
        out,
        "  fit              R² {:.4}, subsession size {}, residual lag-1 autocorrelation {:.3}",
        f.r_squared, fit.subsession_size, fit.residual_autocorrelation
    );
}

fn ci_json(ci: &ConfidenceInterval) -> Value {
    json!({"low": ci.low, "high": ci.high, "confidence": ci.confidence})
}

/// The `pilot.analyze/1` document.
pub fn json(reports: &[FileReport], comparisons: &[Comparison], args: &AnalyzeArgs) -> String {
    let files: Vec<Value> = reports.iter().map(|r| file_json(r, args)).collect();
    let comparisons: Vec<Value> = comparisons
        .iter()
        .map(|c| {
            json!({
                "base": c.base,
                "other": c.other,
                "t": finite_or_null(c.test.t),
                "dof": c.test.dof,
                "p": c.test.p,
                "difference": {
                    "estimate": c.test.difference,
                    "ci": {"low": c.test.difference_ci.low, "high": c.test.difference_ci.high},
                },
                "relative": c.relative.map(|r| r.estimate),
                "relative_ci": {
                    "low": c.relative.map(|r| r.ci.0),
                    "high": c.relative.map(|r| r.ci.1),
                },
                "verdict": c.verdict,
                "alpha": args.alpha,
                "noise": args.noise,
            })
        })
        .collect();
    let doc = json!({"schema": SCHEMA, "files": files, "comparisons": comparisons});
    serde_json::to_string_pretty(&doc).expect("a JSON value always serialises")
}

fn finite_or_null(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

fn file_json(r: &FileReport, args: &AnalyzeArgs) -> Value {
    let a = &r.analysis;
    let s = &a.subsession;
    let mut doc = json!({
        "file": r.name,
        "n": a.raw.n,
        "mean": a.raw.mean,
        "std": a.raw.std_dev,
        "median": a.raw.median,
        "min": a.raw.min,
        "max": a.raw.max,
        "ci": ci_json(&a.raw_ci),
        "autocorrelation": a.raw_autocorrelation,
        "changepoints": a.stable.changepoints,
        "stable": {"start": a.stable.start, "end": a.stable.end, "dominant": a.stable.dominant},
        "subsession": {
            "size": s.size,
            "count": s.count(),
            "autocorrelation": s.autocorrelation,
            "converged": s.converged,
            "variance_inflation": super::inflation(a, args.independent),
        },
        "independent": args.independent,
        "adjustment": {
            "removed": a.raw.n - (a.stable.end - a.stable.start),
            "subsession_size": s.size,
            "variance_inflation": super::inflation(a, args.independent),
            "interval_ratio": super::widening(a, args.confidence),
        },
        "result": {
            "mean": a.mean,
            "ci": ci_json(&a.ci),
            "required_n": a.required_n,
            "target": args.target,
        },
        "warnings": a.warnings,
    });
    if let Some(fit) = &r.wps {
        // The performance index of readings-only data is the speed v, not a mean duration.
        doc["subsession"] = json!({
            "size": fit.subsession_size,
            "count": fit.fit.n,
            "autocorrelation": fit.residual_autocorrelation,
        });
        doc["result"] = json!({
            "mean": fit.v,
            "ci": {"low": fit.v_ci.low, "high": fit.v_ci.high, "confidence": fit.v_ci.confidence},
            "required_n": Value::Null,
            "target": args.target,
        });
        doc["wps"] = json!({
            "alpha": fit.fit.intercept,
            "slope": fit.fit.slope,
            "slope_ci": {"low": fit.slope_ci.low, "high": fit.slope_ci.high},
            "v": fit.v,
            "v_ci": {"low": fit.v_ci.low, "high": fit.v_ci.high},
            "rounds_used": fit.rounds_used,
            "subsession_size": fit.subsession_size,
            "r_squared": fit.fit.r_squared,
        });
    }
    doc
}
