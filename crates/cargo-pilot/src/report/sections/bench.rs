//! One bench's section: its figures, the plot of its session (or of its rounds), a
//! readings-only bench's WPS fit, and its checks and warnings.

use pilot_engine::report::{format_estimate, format_ns};
use pilot_format::ResultDoc;

use super::{Names, escape, escape_inline, figure};
use crate::report::plot::{self, RoundView};

/// One bench: its figures, its plot(s), its checks and warnings.
pub fn bench(r: &ResultDoc, id: usize, names: &Names) -> Result<String, String> {
    let time = r.time();
    // This run's interval (an older document's `time` widened its `ci`).
    let mean = time.and_then(|t| Some((t.mean?, t.run_ci().low?, t.run_ci().high?)));
    let per = if r.iterations_per_unit.is_some() {
        "time per iteration"
    } else {
        "time per unit"
    };
    let full = names.show(&r.target, &r.name);
    let mut html = bench_heading(r, id, &full, mean, per);
    html.push_str("<div class=\"plots\">");
    let has_readings = r.rounds.iter().any(|round| round.readings.is_some());
    if has_readings {
        html.push_str(&readings_figure(r, &full, mean, per)?);
    } else if !r.rounds.is_empty() {
        html.push_str(&rounds_figure(r, &full, mean)?);
    }
    if r.form == pilot_format::Form::ReadingsOnly {
        html.push_str(&fit(r, &full)?);
    }
    html.push_str("</div><div class=\"notes\">");
    html.push_str(&notes(r));
    html.push_str("</div></div></article>\n");
    Ok(html)
}

/// The bench's heading and the line of its figures (`full` its name as the page shows it, `mean` its time
/// with the interval, `per` what the time is per), opening its article.
fn bench_heading(
    r: &ResultDoc,
    id: usize,
    full: &str,
    mean: Option<(f64, f64, f64)>,
    per: &str,
) -> String {
    let time = r.time();
    let headline = match (mean, time) {
        (Some((m, lo, hi)), Some(t)) => format!(
            "<b>{}</b> {per} ({:.0}% confidence, this run)",
            escape(&format_estimate(m, lo, hi)),
            100.0 * t.ci.confidence
        ),
        _ => format!("<b>no estimate</b> of the {per}"),
    };
    // The mean of every stable reading beside a trimmed `time`: what interruptions add.
    let with_interruptions = r
        .pis
        .iter()
        .find(|p| p.name == pilot_format::MEAN_TIME_PI)
        .and_then(|p| Some(format_estimate(p.mean?, p.ci.low?, p.ci.high?)))
        .map_or(String::new(), |m| {
            format!(" · mean with interruptions {}", escape(&m))
        });
    // What was counted, per unit (or iteration) as the time is: instructions under callgrind
    // (`--instructions`, with estimated cycles under `--cache-sim`), allocations where a
    // `CountingAlloc` counted them.
    let unit = per.trim_start_matches("time per ");
    let (instructions, cycles, allocations) = pilot_engine::report::count_cells(r);
    let mut counts = String::new();
    for (cell, what) in [(instructions, "instructions"), (cycles, "estimated cycles")] {
        if !cell.is_empty() {
            counts.push_str(&format!(" · {what} per {unit} {}", escape(&cell)));
        }
    }
    if !allocations.is_empty() {
        counts.push_str(&format!(" · {} per {unit}", escape(&allocations)));
    }
    // Where the next run lands, beside this run's interval.
    let band = match pilot_engine::report::reproducibility_sentence(r) {
        s if s.is_empty() => s,
        s => format!(" · {}", escape(&s)),
    };
    format!(
        "<article class=\"bench\" id=\"bench-{id}\"><h3>{}</h3>\n<p class=\"meta\">{headline}{}{}{} \
         · status <b>{}</b>{} · {} rounds · {} readings, {} removed as non-stable{}</p>\n\
         <div class=\"row\">",
        escape(full),
        band,
        with_interruptions,
        counts,
        escape(&r.status),
        // Why it failed, or which resolution it is below: the reason a time is missing.
        r.status_detail
            .as_deref()
            .map_or(String::new(), |d| format!(" ({})", escape_inline(d))),
        r.rounds.len(),
        r.readings,
        r.removed_readings,
        r.warm_up
            .as_deref()
            .map_or(String::new(), |w| format!(" · warm-up class {}", escape(w)))
    )
}

/// The plot of the bench's unit readings over its session, with its caption.
fn readings_figure(
    r: &ResultDoc,
    full: &str,
    mean: Option<(f64, f64, f64)>,
    per: &str,
) -> Result<String, String> {
    let views: Vec<RoundView> = r
        .rounds
        .iter()
        .map(|round| RoundView {
            units: round.units,
            stable: round.stable.map(|[a, b]| (a, b)),
            analysed: round.analysed,
            bins: round.readings.as_ref().map_or(Vec::new(), |b| {
                (0..b.mean.len())
                    .map(|i| {
                        (
                            i * b.per_bin,
                            b.readings_in(i),
                            b.min[i],
                            b.mean[i],
                            b.max[i],
                        )
                    })
                    .collect()
            }),
        })
        .collect();
    let (svg, clipped) = plot::session(&views, mean, per)?;
    Ok(figure(
        &svg,
        &format!(
            "{}: unit readings over the session (mean per bin of consecutive readings, \
             band from least to greatest); shaded orange: removed as warm-up or cool-down; \
             grey: rounds too short to analyse; lines: round boundaries; blue: the stable \
             mean and its interval{}",
            escape(full),
            if clipped {
                " (the slowest readings are above the top of the plot)"
            } else {
                ""
            }
        ),
    ))
}

/// The plot of each round's time over its work amount, for a bench without unit readings.
fn rounds_figure(
    r: &ResultDoc,
    full: &str,
    mean: Option<(f64, f64, f64)>,
) -> Result<String, String> {
    let points: Vec<(f64, bool)> = r
        .rounds
        .iter()
        .map(|round| {
            (
                round.duration_ns as f64 / round.work.max(1) as f64,
                round.analysed,
            )
        })
        .collect();
    Ok(figure(
        &plot::rounds(&points, mean, "round time / work")?,
        &format!(
            "{}: each round's time over its work amount (setup included), in order; grey: \
             rounds left out of the analysis; blue: the estimate and its interval",
            escape(full)
        ),
    ))
}

/// The WPS fit of a readings-only bench: its rounds refitted with pilot's own `wps` (the
/// session's fit is not stored with its intercept), with α and v and their intervals.
fn fit(r: &ResultDoc, full: &str) -> Result<String, String> {
    let used: Vec<&pilot_format::RoundDoc> = r.rounds.iter().filter(|x| x.analysed).collect();
    let w: Vec<f64> = used.iter().map(|x| x.work as f64).collect();
    let t: Vec<f64> = used.iter().map(|x| x.duration_ns as f64).collect();
    let confidence = r.time().map_or(0.95, |p| p.ci.confidence);
    let Ok(f) = pilot_stats::wps(&w, &t, confidence, 0.1) else {
        return Ok(String::new());
    };
    let points: Vec<(f64, f64, bool)> = r
        .rounds
        .iter()
        .map(|x| (x.work as f64, x.duration_ns as f64, x.analysed))
        .collect();
    let svg = plot::fit(&points, f.fit.intercept, f.fit.slope)?;
    let dof = (f.fit.n.max(3) - 2) as f64;
    let tq = pilot_stats::t_quantile(1.0 - (1.0 - confidence) / 2.0, dof);
    let (alpha_lo, alpha_hi) = (
        f.fit.intercept - tq * f.fit.intercept_se,
        f.fit.intercept + tq * f.fit.intercept_se,
    );
    // The fit is over nanoseconds: v is work per ns.
    let rate = |v: Option<f64>| v.map_or("∞".to_string(), |v| format!("{:.4e}", v * 1e9));
    Ok(figure(
        &svg,
        &format!(
            "{}: the WPS fit t = α + w / v over the analysed rounds ({} points): α = {} [{}, \
             {}], v = {} work/s [{}, {}] at {:.0}% confidence",
            escape(full),
            f.fit.n,
            format_ns(f.fit.intercept),
            format_ns(alpha_lo),
            format_ns(alpha_hi),
            rate(f.v),
            rate(f.v_ci.low),
            rate(f.v_ci.high),
            100.0 * confidence
        ),
    ))
}

/// The bench's checks (each with its kind) and its other warnings.
fn notes(r: &ResultDoc) -> String {
    let mut html = String::new();
    if r.checks.is_empty() && r.warnings.is_empty() {
        return "<p class=\"ok\">no checks fired, no warnings</p>".into();
    }
    if !r.checks.is_empty() {
        html.push_str("<h4>checks</h4><ul class=\"checks\">");
        for c in &r.checks {
            html.push_str(&format!(
                "<li><code>{}</code> {}</li>",
                escape(&c.kind),
                escape_inline(&c.message)
            ));
        }
        html.push_str("</ul>");
    }
    let others: Vec<&String> = r
        .warnings
        .iter()
        .filter(|w| !r.checks.iter().any(|c| &c.message == *w))
        .collect();
    if !others.is_empty() {
        html.push_str("<h4>warnings</h4><ul class=\"warnings\">");
        for w in others {
            html.push_str(&format!("<li>{}</li>", escape_inline(w)));
        }
        html.push_str("</ul>");
    }
    html
}
