//! The page's sections as HTML fragments: what each plot is drawn from, and the tables beside
//! them.

mod bench;

use pilot_engine::report::format_ns;
use pilot_engine::schema::{CompareDoc, GroupDoc, ResultDoc};

use super::plot::{self, ChangeView};

pub use bench::bench;

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
    let name = |b: &pilot_engine::schema::CompareBenchDoc| {
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
