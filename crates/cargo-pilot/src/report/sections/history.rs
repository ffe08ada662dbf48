//! The history section: each bench's series over commits (per machine), with its intervals as
//! a band and its change points marked, and the changes in a table.

use crate::history::{FoundChange, Series};
use crate::report::plot::{self, HistoryChange, HistoryPoint};

use super::{escape, figure, table};

/// Most runs of one series drawn: the newest.
const MAX_POINTS: usize = 200;

/// The section, for the series that have at least two runs with an estimate.
pub fn history(series: &[(Series, Vec<FoundChange>)], from: &str) -> Result<String, String> {
    let mut html = format!(
        "<section id=\"history\"><h2>History</h2>\n<p>Each bench's time per unit over commits \
         (oldest left), one chart per machine, from <code>{}</code>: the band is each run's \
         interval, a vertical line a change point (red slower, green faster), found by \
         E-Divisive means and Student's t-test over the commits, Holm's step-down over each \
         machine's series (<code>cargo pilot changes</code>).</p>\n",
        escape(from)
    );
    for (s, changes) in series {
        let usable: Vec<(usize, &crate::history::Point)> = s
            .points
            .iter()
            .enumerate()
            .filter(|(_, p)| p.estimate.is_some())
            .collect();
        if usable.len() < 2 {
            continue;
        }
        let skip = usable.len().saturating_sub(MAX_POINTS);
        let shown = &usable[skip..];
        let points: Vec<HistoryPoint> = shown
            .iter()
            .map(|(_, p)| {
                let mean = p.estimate.unwrap_or(0.0);
                HistoryPoint {
                    label: p.short()[..7.min(p.short().len())].to_string(),
                    mean,
                    low: p.low.unwrap_or(mean),
                    high: p.high.unwrap_or(mean),
                }
            })
            .collect();
        let marks: Vec<HistoryChange> = changes
            .iter()
            .filter_map(|c| {
                let at = shown.iter().position(|(i, _)| *i == c.point)?;
                Some(HistoryChange {
                    at,
                    slower: c.is_regression(),
                    text: format!("{:+.1}%", 100.0 * c.change),
                })
            })
            .collect();
        let name = format!("{} ({}) on {}", s.bench, s.target, s.machine);
        html.push_str(&format!("<h3>{}</h3>\n", escape(&name)));
        html.push_str(&figure(
            &plot::history(&points, &marks)?,
            &format!(
                "{}: {} runs{}",
                escape(&name),
                shown.len(),
                if skip > 0 {
                    format!(" (the newest {MAX_POINTS})")
                } else {
                    String::new()
                }
            ),
        ));
        if !changes.is_empty() {
            let rows: Vec<Vec<String>> = changes
                .iter()
                .rev()
                .map(|c| {
                    vec![
                        escape(
                            &c.commit
                                .as_deref()
                                .map_or("-".into(), |h| h[..12.min(h.len())].to_string()),
                        ),
                        escape(&c.text()),
                        escape(&pilot_stats::format_p(c.p_adjusted)),
                        escape(c.verdict()),
                        escape(c.subject.as_deref().unwrap_or("")),
                    ]
                })
                .collect();
            html.push_str(&table(
                &["commit", "change", "p (Holm)", "verdict", "subject"],
                &rows,
            ));
        }
    }
    html.push_str("</section>\n");
    Ok(html)
}
