//! Where a changed bench's instructions changed: its most changed functions, tabled, and a
//! differential flame graph of its two sides' call stacks.

use std::fmt::Write as _;

use pilot_format::{CompareBenchDoc, CompareDoc, ExplainedDoc, StackDoc};

use super::{Names, escape, figure, table};
use crate::explain::{SAME_ALLOCATIONS, SAME_CODE, capitalised};

/// Most functions the page's table names for a bench.
const TABLED: usize = 20;

/// Instructions per unit are written to inferno's folded stacks in hundredths: its counts are
/// whole numbers, and a micro bench's functions may take a few instructions an iteration.
const FOLDED_SCALE: f64 = 100.0;

/// The section, or nothing when no bench of `doc` was explained.
pub fn explained(doc: &CompareDoc, names: &Names) -> Result<String, String> {
    let benches: Vec<(&CompareBenchDoc, &ExplainedDoc)> = doc
        .benches
        .iter()
        .filter_map(|b| Some((b, b.explained.as_ref()?)))
        .collect();
    if benches.is_empty() {
        return Ok(String::new());
    }
    let mut html = String::from(
        "<section id=\"explained\"><h2>Where the instructions changed</h2>\n<p>For each bench \
         whose time or instructions changed, the functions whose instructions per unit changed \
         beyond the spread of their counting processes (own code, and with what they call), \
         most changed first; then a differential flame graph of the new side's call stacks, \
         each frame as wide as its instructions in the new build and coloured by its change \
         from the base: red more, blue fewer. Where both builds install pilot's \
         <code>CountingAlloc</code>, the call sites whose allocations per unit changed follow \
         the functions.</p>\n",
    );
    for (b, e) in benches {
        let _ = writeln!(
            html,
            "<article class=\"bench\"><h3>{}</h3>",
            escape(&names.show(&b.target, &b.name))
        );
        if e.functions.is_empty() {
            let _ = writeln!(html, "<p>{}.</p>", escape(&capitalised(SAME_CODE)));
        } else {
            let rows: Vec<Vec<String>> = e
                .functions
                .iter()
                .take(TABLED)
                .map(|f| {
                    vec![
                        format!("<code>{}</code>", escape(&f.name)),
                        escape(&crate::explain::change(f.base_self, f.new_self)),
                        escape(&crate::explain::change(f.base_inclusive, f.new_inclusive)),
                    ]
                })
                .collect();
            html.push_str(&table(
                &["function", "own code, per unit", "with callees, per unit"],
                &rows,
            ));
        }
        match e.allocation_sites.as_deref() {
            Some([]) => {
                let _ = writeln!(html, "<p>{}.</p>", escape(&capitalised(SAME_ALLOCATIONS)));
            }
            Some(sites) => {
                let rows: Vec<Vec<String>> = sites
                    .iter()
                    .take(TABLED)
                    .map(|s| {
                        vec![
                            format!("<code>{}</code>", escape(&s.name)),
                            escape(&crate::explain::change(s.base, s.new)),
                        ]
                    })
                    .collect();
                html.push_str(&table(&["call site", "allocations, per unit"], &rows));
            }
            None => {}
        }
        if !e.new_stacks.is_empty() {
            html.push_str(&figure(
                &flame_graph(&e.base_stacks, &e.new_stacks)?,
                "The new build's call stacks; red frames do more than in the base, blue fewer",
            ));
        }
        html.push_str("</article>\n");
    }
    html.push_str("</section>\n");
    Ok(html)
}

/// Stacks in the folded format (`a;b;c 1234`, counts in hundredths of an instruction); frames
/// on one line each, whatever their names hold.
fn folded(stacks: &[StackDoc]) -> String {
    let mut out = String::new();
    for s in stacks {
        let count = (s.instructions * FOLDED_SCALE).round();
        if count >= 1.0 {
            let frames: Vec<String> = s
                .frames
                .iter()
                .map(|f| f.replace(['\n', '\r', ';'], " "))
                .collect();
            let _ = writeln!(out, "{} {count:.0}", frames.join(";"));
        }
    }
    out
}

/// The differential flame graph of `new` against `base`, by inferno: its differential module
/// pairs the two folded collections stack by stack, and its flame graph writer draws the new
/// side's with each frame coloured by its change. Returned as an SVG element for the page:
/// without the XML prolog, and without inferno's script (its zoom and search), since the page
/// runs none; each frame's `<title>` (its name and counts, escaped by inferno's XML writer)
/// still shows on hover.
pub fn flame_graph(base: &[StackDoc], new: &[StackDoc]) -> Result<String, String> {
    let mut pairs = Vec::new();
    inferno::differential::from_readers(
        inferno::differential::Options::default(),
        folded(base).as_bytes(),
        folded(new).as_bytes(),
        &mut pairs,
    )
    .map_err(|e| format!("the differential flame graph's stacks: {e}"))?;
    let pairs = String::from_utf8(pairs).map_err(|e| e.to_string())?;
    let mut options = inferno::flamegraph::Options::default();
    options.title = "Instructions per unit, new build against base".to_string();
    options.count_name = "hundredths of an instruction per unit".to_string();
    options.deterministic = true;
    let mut svg = Vec::new();
    inferno::flamegraph::from_lines(&mut options, pairs.lines(), &mut svg)
        .map_err(|e| format!("the differential flame graph: {e}"))?;
    let svg = String::from_utf8(svg).map_err(|e| e.to_string())?;
    Ok(without_script(&svg))
}

/// inferno's SVG as an element of the page: from `<svg` on, its `<script>` elements and its
/// `onload` handler left out.
fn without_script(svg: &str) -> String {
    let mut out = svg[svg.find("<svg").unwrap_or(0)..].to_string();
    while let Some(start) = out.find("<script") {
        let end = out[start..]
            .find("</script>")
            .map_or(out.len(), |e| start + e + "</script>".len());
        out.replace_range(start..end, "");
    }
    out.replace(" onload=\"init(evt)\"", "")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stack(frames: &[&str], instructions: f64) -> StackDoc {
        StackDoc {
            frames: frames.iter().map(|f| f.to_string()).collect(),
            instructions,
        }
    }

    #[test]
    fn the_flame_graph_escapes_hostile_names_and_runs_no_script() {
        let hostile = "<script>a&\"'</script>";
        let base = [
            stack(&["bench", hostile], 100.0),
            stack(&["bench", "c"], 50.0),
        ];
        let new = [
            stack(&["bench", hostile], 110.0),
            stack(&["bench", "c"], 50.0),
        ];
        let svg = flame_graph(&base, &new).unwrap();
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(!svg.contains("<script"), "{svg}");
        assert!(!svg.contains("onload"), "{svg}");
        assert!(svg.contains("&lt;script&gt;a&amp;"), "{svg}");
        assert!(svg.contains("bench"), "{svg}");
    }

    #[test]
    fn folded_stacks_are_one_line_each_in_hundredths() {
        let s = [stack(&["a", "b\nc;d"], 1.234), stack(&["a"], 0.001)];
        assert_eq!(folded(&s), "a;b c d 123\n");
    }
}
