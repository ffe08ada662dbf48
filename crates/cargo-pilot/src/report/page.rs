//! The HTML page: a style sheet of its own, a table of contents and the sections, in one file
//! that loads nothing from anywhere.

use std::collections::BTreeSet;

use super::Inputs;
use super::sections::{self, Names, escape};

/// The whole page. A plot that plotters could not draw is an error (nothing is written).
pub fn render(inputs: &Inputs) -> Result<String, String> {
    let mut body = String::new();
    let mut toc = Vec::new();
    let compared = inputs.comparison.iter().flat_map(|(doc, _)| &doc.benches);
    let names = Names::of(
        inputs
            .results
            .iter()
            .map(|r| (r.target.as_str(), r.name.as_str()))
            .chain(compared.map(|b| (b.target.as_str(), b.name.as_str()))),
    );
    if let Some((doc, against)) = &inputs.comparison {
        body.push_str(&sections::comparison(doc, against, &names)?);
        toc.push(("comparison", "Comparison".to_string()));
        let explained = sections::explained(doc, &names)?;
        if !explained.is_empty() {
            body.push_str(&explained);
            toc.push(("explained", "Where it changed".to_string()));
        }
    }
    let families = sections::families(&inputs.groups);
    if !families.is_empty() {
        body.push_str(&sections::groups(&families)?);
        toc.push(("groups", format!("Groups ({})", families.len())));
    }
    let grouped: BTreeSet<&str> = inputs
        .groups
        .iter()
        .flat_map(|g| g.members.iter().map(|m| m.name.as_str()))
        .collect();
    let sweeps = sections::find_sweeps(&inputs.results, &grouped);
    if !sweeps.is_empty() {
        body.push_str(&sections::sweeps(&sweeps)?);
        toc.push(("sweeps", format!("Parameter sweeps ({})", sweeps.len())));
    }
    if !inputs.history.is_empty() {
        body.push_str(&sections::history(&inputs.history, &inputs.history_from)?);
        toc.push(("history", format!("History ({})", inputs.history.len())));
    }
    body.push_str(
        "<section id=\"benches\"><h2>Benches</h2>\n<p>Each bench's latest result: its unit \
         readings over the session (a readings-only bench: its rounds and the WPS fit), with \
         the checks that fired and the warnings beside it.</p>\n",
    );
    for (i, r) in inputs.results.iter().enumerate() {
        body.push_str(&sections::bench(r, i, &names)?);
    }
    body.push_str("</section>\n");
    toc.push(("benches", format!("Benches ({})", inputs.results.len())));
    let nav: String = toc
        .iter()
        .map(|(id, label)| format!("<a href=\"#{id}\">{}</a>", escape(label)))
        .collect::<Vec<_>>()
        .join(" · ");
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>pilot report</title>\n<style>{STYLE}</style></head>\n<body>\n\
         <header><h1>pilot report</h1><p class=\"meta\">results from <code>{}</code></p>\
         <nav>{nav}</nav></header>\n<main>\n{body}</main>\n</body></html>\n",
        escape(&inputs.results_dir.display().to_string())
    ))
}

const STYLE: &str = "
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#222;background:#fafafa}
header{padding:1em 2em;background:#fff;border-bottom:1px solid #ddd}
h1{margin:0 0 .2em 0;font-size:1.5em}
main{padding:0 2em 2em 2em;max-width:1500px}
h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}
h3{margin:1.2em 0 .3em 0;font-family:ui-monospace,monospace;font-size:1.05em}
h4{margin:.4em 0 .2em 0}
nav a{margin-right:.3em}
.meta{color:#555;margin:.2em 0 .5em 0}
figure.plot{margin:0 0 .8em 0;background:#fff;border:1px solid #e3e3e3;padding:4px}
figure.plot svg{max-width:100%;height:auto;display:block}
figcaption{font-size:.85em;color:#444;padding:.3em .4em}
.row{display:flex;flex-wrap:wrap;gap:1.2em;align-items:flex-start}
.plots{flex:3 1 600px;min-width:0}
.notes{flex:1 1 280px;font-size:.9em}
.notes ul{padding-left:1.2em;margin:.2em 0}
.notes li{margin-bottom:.4em}
.ok{color:#2a7a2a}
article.bench{border-top:1px solid #e5e5e5;padding-top:.4em}
table{border-collapse:collapse;margin:.4em 0 1em 0;background:#fff;font-size:.9em}
th,td{border:1px solid #ddd;padding:.25em .6em;text-align:left}
th{background:#f0f0f0}
.verdict{padding:0 .4em;border-radius:3px}
.verdict.bad{background:#d62728;color:#fff}
.verdict.good{background:#2ca02c;color:#fff}
.verdict.weak{background:#eee;color:#555}
.caveat{color:#555;font-size:.9em}
";
