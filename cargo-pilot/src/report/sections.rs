//! The page's sections as HTML fragments: what each plot is drawn from, and the tables beside
//! them.

use pilot::cargo_api::report::{format_estimate, format_ns};
use pilot::cargo_api::store::schema::{CompareDoc, GroupDoc, ResultDoc};

use super::plot::{self, ChangeView, RoundView};

/// Escapes text for HTML element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A plot with its caption.
fn figure(svg: &str, caption: &str) -> String {
    // An SVG inside HTML needs no namespace: without it the page names no URL at all.
    let svg = svg.replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1);
    format!("<figure class=\"plot\">{svg}<figcaption>{caption}</figcaption></figure>\n")
}

/// `<table>` with a header row and rows of cells already escaped.
fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut t = String::from("<table><thead><tr>");
    for h in header {
        t.push_str(&format!("<th>{}</th>", escape(h)));
    }
    t.push_str("</tr></thead><tbody>\n");
    for r in rows {
        t.push_str("<tr>");
        for c in r {
            t.push_str(&format!("<td>{c}</td>"));
        }
        t.push_str("</tr>\n");
    }
    t.push_str("</tbody></table>\n");
    t
}

/// A verdict in a coloured badge (`regressed` red, `improved`/`faster` green).
fn verdict(v: &str) -> String {
    let class = match v {
        "regressed" | "failed" => "bad",
        "improved" => "good",
        "faster" | "equivalent" | "no change" => "plain",
        _ => "weak",
    };
    format!("<span class=\"verdict {class}\">{}</span>", escape(v))
}

fn pct(x: f64) -> String {
    format!("{:+.2}%", 100.0 * x)
}

/// The comparison with a baseline: the changes' plot and their table.
pub fn comparison(doc: &CompareDoc, against: &str) -> Result<String, String> {
    let name = |b: &pilot::cargo_api::store::schema::CompareBenchDoc| {
        if b.target.is_empty() {
            b.name.clone()
        } else {
            format!("{}/{}", b.target, b.name)
        }
    };
    let views: Vec<ChangeView> = doc
        .benches
        .iter()
        .filter_map(|b| {
            let (c, ci) = (b.change?, b.change_ci?);
            Some((
                name(b),
                c,
                ci.low,
                ci.high,
                b.verdict == "regressed",
                b.verdict == "improved",
            ))
        })
        .collect();
    let mut html = format!(
        "<section id=\"comparison\"><h2>Compared with {}</h2>\n<p>Each bench's change of the \
         time per unit (new / base − 1) with its {:.0}% interval; the grey band is the noise \
         threshold (±{:.1}%). A verdict needs p &lt; {} and a change beyond the threshold: \
         <span class=\"verdict bad\">regressed</span> in red, \
         <span class=\"verdict good\">improved</span> in green.</p>\n",
        escape(against),
        100.0 * doc.confidence,
        100.0 * doc.noise,
        doc.alpha
    );
    if !views.is_empty() {
        html.push_str(&figure(
            &plot::changes(&views, doc.noise)?,
            "Change against the baseline, with its interval",
        ));
    }
    let rows: Vec<Vec<String>> = doc
        .benches
        .iter()
        .map(|b| {
            vec![
                escape(&name(b)),
                b.base.map_or("-".into(), format_ns),
                b.new.map_or("-".into(), format_ns),
                match (b.change, b.change_ci) {
                    (Some(c), Some(ci)) => {
                        format!("{} [{}, {}]", pct(c), pct(ci.low), pct(ci.high))
                    }
                    (Some(c), None) => pct(c),
                    _ => "-".into(),
                },
                b.p.map_or("-".into(), |p| format!("{p:.2e}")),
                verdict(&b.verdict),
            ]
        })
        .collect();
    html.push_str(&table(
        &["bench", "base", "new", "change", "p", "verdict"],
        &rows,
    ));
    html.push_str("</section>\n");
    Ok(html)
}

/// The groups' rankings: each a plot of its members' intervals and the table of its pairs.
pub fn groups(groups: &[GroupDoc]) -> Result<String, String> {
    let mut html = String::from(
        "<section id=\"groups\"><h2>Groups</h2>\n<p>Alternatives run interleaved and ranked, \
         fastest at the top: each member's time per unit with its interval; under it, each \
         adjacent pair's ratio (the slower over the faster) with its interval, Welch's p and \
         the verdict.</p>\n",
    );
    for g in groups {
        let members: Vec<(String, f64, f64, f64)> = g
            .members
            .iter()
            .map(|m| (m.name.clone(), m.mean, m.ci.low, m.ci.high))
            .collect();
        html.push_str(&format!(
            "<h3 id=\"group-{}\">group {}</h3>\n<p class=\"meta\">{}, {} cycles, {:.1} s{}</p>\n",
            escape(&g.name),
            escape(&g.name),
            escape(&g.status),
            g.cycles,
            g.elapsed_s,
            if g.interleaved {
                ", interleaved"
            } else {
                ", one after another"
            }
        ));
        if !members.is_empty() {
            html.push_str(&figure(
                &plot::ranking(&members)?,
                &format!("group {}: time per unit, fastest first", escape(&g.name)),
            ));
        }
        let rows: Vec<Vec<String>> = g
            .pairs
            .iter()
            .map(|p| {
                vec![
                    escape(&p.b),
                    escape(&p.a),
                    format!(
                        "{:.3}× [{:.3}, {:.3}]",
                        p.ratio, p.ratio_ci.low, p.ratio_ci.high
                    ),
                    p.p.map_or("-".into(), |p| format!("{p:.1e}")),
                    verdict(&p.verdict),
                ]
            })
            .collect();
        html.push_str(&table(&["bench", "vs", "ratio", "p", "verdict"], &rows));
    }
    html.push_str("</section>\n");
    Ok(html)
}

/// A parameter sweep found among the results: benches `name/arg` of one target.
pub struct Sweep {
    /// `target/name`.
    pub name: String,
    /// The parameter's name (`threads`, a `-P` variable) or `argument`.
    pub parameter: String,
    /// `(value, mean, low, high)` sorted by value, times in ns.
    pub points: Vec<(f64, f64, f64, f64)>,
}

impl Sweep {
    /// Whether the values grow geometrically (each about the same factor over the last, by
    /// at least 1.5): then both axes are logarithmic.
    pub fn geometric(&self) -> bool {
        let xs: Vec<f64> = self.points.iter().map(|p| p.0).collect();
        if xs.len() < 2 || xs[0] <= 0.0 {
            return false;
        }
        let ratios: Vec<f64> = xs.windows(2).map(|w| w[1] / w[0]).collect();
        let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if xs.len() == 2 {
            return lo >= 4.0;
        }
        lo >= 1.5 && hi / lo <= 1.5
    }
}

/// The sweeps among `results`: benches of one target named `prefix/value`, two or more with a
/// numeric value (`1000`, `threads=4`, `n=2.5`) and an estimate.
pub fn find_sweeps(results: &[ResultDoc]) -> Vec<Sweep> {
    let mut sweeps: Vec<Sweep> = Vec::new();
    for r in results {
        let Some((prefix, arg)) = r.name.rsplit_once('/') else {
            continue;
        };
        let (parameter, value) = match arg.split_once('=') {
            Some((var, v)) => (var.to_string(), v),
            None => ("argument".to_string(), arg),
        };
        let Ok(x) = value.parse::<f64>() else {
            continue;
        };
        let Some(t) = r.pis.first() else { continue };
        let (Some(m), Some(lo), Some(hi)) = (t.mean, t.ci.low, t.ci.high) else {
            continue;
        };
        if !x.is_finite() {
            continue;
        }
        let name = format!("{}/{prefix}", r.target);
        match sweeps
            .iter_mut()
            .find(|s| s.name == name && s.parameter == parameter)
        {
            Some(s) => s.points.push((x, m, lo, hi)),
            None => sweeps.push(Sweep {
                name,
                parameter,
                points: vec![(x, m, lo, hi)],
            }),
        }
    }
    sweeps.retain(|s| s.points.len() >= 2);
    for s in &mut sweeps {
        s.points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    sweeps
}

/// The sweeps' plots.
pub fn sweeps(sweeps: &[Sweep]) -> Result<String, String> {
    let mut html = String::from(
        "<section id=\"sweeps\"><h2>Parameter sweeps</h2>\n<p>Time per unit against the \
         parameter, with the interval as a band; both axes are logarithmic when the values \
         grow by a constant factor.</p>\n",
    );
    for s in sweeps {
        let log = s.geometric();
        html.push_str(&format!("<h3>{}</h3>\n", escape(&s.name)));
        html.push_str(&figure(
            &plot::sweep(&s.points, &s.parameter, "time per unit", log)?,
            &format!(
                "{}: time per unit against {}{}",
                escape(&s.name),
                escape(&s.parameter),
                if log { " (log-log)" } else { "" }
            ),
        ));
    }
    html.push_str("</section>\n");
    Ok(html)
}

/// One bench: its figures, its plot(s), its checks and warnings.
pub fn bench(r: &ResultDoc, id: usize) -> Result<String, String> {
    let time = r.pis.first();
    let mean = time.and_then(|t| Some((t.mean?, t.ci.low?, t.ci.high?)));
    let estimate = match mean {
        Some((m, lo, hi)) => format_estimate(m, lo, hi),
        None => "no estimate".into(),
    };
    let per = if r.iterations_per_unit.is_some() {
        "time per iteration"
    } else {
        "time per unit"
    };
    // The mean of every stable reading beside a trimmed `time`: what interruptions add.
    let with_interruptions = r
        .pis
        .iter()
        .find(|p| p.name == pilot::cargo_api::store::schema::MEAN_TIME_PI)
        .and_then(|p| Some(format_estimate(p.mean?, p.ci.low?, p.ci.high?)))
        .map_or(String::new(), |m| {
            format!(" · mean with interruptions {}", escape(&m))
        });
    let full = if r.target.is_empty() {
        r.name.clone()
    } else {
        format!("{}/{}", r.target, r.name)
    };
    let mut html = format!(
        "<article class=\"bench\" id=\"bench-{id}\"><h3>{}</h3>\n<p class=\"meta\"><b>{}</b> \
         {} ({}% confidence){} · status <b>{}</b> · {} rounds · {} readings, {} removed as \
         non-stable{}</p>\n<div class=\"row\">",
        escape(&full),
        escape(&estimate),
        per,
        time.map_or("-".into(), |t| format!("{:.0}", 100.0 * t.ci.confidence)),
        with_interruptions,
        escape(&r.status),
        r.rounds.len(),
        r.readings,
        r.removed_readings,
        r.warm_up
            .as_deref()
            .map_or(String::new(), |w| format!(" · warm-up class {}", escape(w)))
    );
    html.push_str("<div class=\"plots\">");
    let has_readings = r.rounds.iter().any(|round| round.readings.is_some());
    if has_readings {
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
        html.push_str(&figure(
            &svg,
            &format!(
                "{}: unit readings over the session (mean per bin of consecutive readings, \
                 band from least to greatest); shaded orange: removed as warm-up or cool-down; \
                 grey: rounds too short to analyse; lines: round boundaries; blue: the stable \
                 mean and its interval{}",
                escape(&full),
                if clipped {
                    " (the slowest readings are above the top of the plot)"
                } else {
                    ""
                }
            ),
        ));
    } else if !r.rounds.is_empty() {
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
        html.push_str(&figure(
            &plot::rounds(&points, mean, "round time / work")?,
            &format!(
                "{}: each round's time over its work amount (setup included), in order; grey: \
                 rounds left out of the analysis; blue: the estimate and its interval",
                escape(&full)
            ),
        ));
    }
    if r.form == "readings-only" {
        html.push_str(&fit(r, &full)?);
    }
    html.push_str("</div><div class=\"notes\">");
    html.push_str(&notes(r));
    html.push_str("</div></div></article>\n");
    Ok(html)
}

/// The WPS fit of a readings-only bench: its rounds refitted with pilot's own `wps` (the
/// session's fit is not stored with its intercept), with α and v and their intervals.
fn fit(r: &ResultDoc, full: &str) -> Result<String, String> {
    let used: Vec<&pilot::cargo_api::store::schema::RoundDoc> =
        r.rounds.iter().filter(|x| x.analysed).collect();
    let w: Vec<f64> = used.iter().map(|x| x.work as f64).collect();
    let t: Vec<f64> = used.iter().map(|x| x.duration_ns as f64).collect();
    let confidence = r.pis.first().map_or(0.95, |p| p.ci.confidence);
    let Ok(f) = pilot::stats::wps(&w, &t, confidence, 0.1) else {
        return Ok(String::new());
    };
    let points: Vec<(f64, f64, bool)> = r
        .rounds
        .iter()
        .map(|x| (x.work as f64, x.duration_ns as f64, x.analysed))
        .collect();
    let svg = plot::fit(&points, f.fit.intercept, f.fit.slope)?;
    let dof = (f.fit.n.max(3) - 2) as f64;
    let tq = pilot::stats::t_quantile(1.0 - (1.0 - confidence) / 2.0, dof);
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
                escape(&c.message)
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
            html.push_str(&format!("<li>{}</li>", escape(w)));
        }
        html.push_str("</ul>");
    }
    html
}
