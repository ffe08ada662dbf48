//! The comparison with a baseline: each bench's change with its interval, plotted and tabled.

use pilot_engine::report::format_ns;
use pilot_format::{CompareBenchDoc, CompareDoc};

use super::{Names, escape, escape_inline, figure, pct, table, verdict};
use crate::report::plot::{self, ChangeView};

/// The comparison with a baseline: the changes' plot and their table.
pub fn comparison(doc: &CompareDoc, against: &str, names: &Names) -> Result<String, String> {
    let name = |b: &CompareBenchDoc| names.show(&b.target, &b.name);
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
        escape_inline(against),
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
                b.p.map_or("-".into(), pilot_stats::format_p),
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
