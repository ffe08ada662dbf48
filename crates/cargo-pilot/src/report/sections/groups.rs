//! The groups: alternatives run interleaved and ranked. A group whose members are swept over a
//! parameter (`iterate/1000`, `iterate/100000`: one group instance per value) is one family,
//! drawn as one chart with a line per alternative; any other group is drawn as bars. Under the
//! chart, each instance's pairs: their ratio, Welch's p and the verdict.

use pilot_format::{GroupDoc, PairDoc, row_verdict};

use super::sweeps::split_parameter;
use super::{axes_note, escape, figure, table, verdict};
use crate::report::plot::{self, Axes, Series};

/// A group's instances, brought together by the group's name: one instance without a
/// parameter, or one per value of the parameter its members are swept over.
pub struct Family<'a> {
    /// The group's name without the parameter (`iterate` of `iterate/1000`).
    pub name: String,
    /// The parameter, when the instances are named with a numeric value of it.
    pub parameter: Option<String>,
    /// The instances, each with its parameter value, in the order of the run document.
    pub instances: Vec<(Option<f64>, &'a GroupDoc)>,
}

impl Family<'_> {
    /// Whether it is a sweep: two or more instances, each at a value of the parameter.
    pub fn is_sweep(&self) -> bool {
        self.instances.len() >= 2 && self.instances.iter().all(|(x, _)| x.is_some())
    }

    /// Its alternatives as lines: each member's name without the instance's parameter
    /// (`vec` of `vec/1000`) and its points, sorted by value. Sorted by where they end, the
    /// highest first, so that the legend lists them in the order of the lines at the right.
    pub fn series(&self) -> Vec<Series> {
        let mut series: Vec<Series> = Vec::new();
        for (x, g) in &self.instances {
            let Some(x) = *x else { continue };
            let suffix = g.name.strip_prefix(self.name.as_str()).unwrap_or("");
            for m in &g.members {
                let name = m.name.strip_suffix(suffix).unwrap_or(&m.name);
                let point = (x, m.mean, m.ci.low, m.ci.high);
                match series.iter_mut().find(|s| s.name == name) {
                    Some(s) => s.points.push(point),
                    None => series.push(Series {
                        name: name.to_string(),
                        points: vec![point],
                    }),
                }
            }
        }
        for s in &mut series {
            s.points.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        let end = |s: &Series| s.points.last().map_or((0.0, 0.0), |p| (p.0, p.1));
        series.sort_by(|a, b| {
            let (a, b) = (end(a), end(b));
            b.0.total_cmp(&a.0).then(b.1.total_cmp(&a.1))
        });
        series
    }
}

/// The groups' instances as families: `iterate/1000` and `iterate/100000` are one family
/// `iterate` over `argument`. An instance whose name a family already holds (a group of the
/// same name in another target) starts a family of its own.
pub fn families(groups: &[GroupDoc]) -> Vec<Family<'_>> {
    let mut families: Vec<Family<'_>> = Vec::new();
    for g in groups {
        let (name, parameter, x) = match split_parameter(&g.name) {
            Some((prefix, parameter, x)) => (prefix, Some(parameter.to_string()), Some(x)),
            None => (g.name.as_str(), None, None),
        };
        let home = families.iter_mut().find(|f| {
            f.name == name
                && f.parameter == parameter
                && !f.instances.iter().any(|(_, i)| i.name == g.name)
        });
        match home {
            Some(f) => f.instances.push((x, g)),
            None => families.push(Family {
                name: name.to_string(),
                parameter,
                instances: vec![(x, g)],
            }),
        }
    }
    families
}

/// The groups' section: each family's chart first (a sweep's alternatives as lines, another
/// group's members as bars), then each instance's pairs.
pub fn groups(families: &[Family<'_>]) -> Result<String, String> {
    let mut html = String::from(
        "<section id=\"groups\"><h2>Groups</h2>\n<p>Alternatives run interleaved and ranked. \
         A group swept over a parameter is one chart: each alternative's time per unit \
         against the parameter, a line with its intervals as error bars. Another group's \
         members are bars, fastest at the top, with their intervals as whiskers. Under each \
         chart, each adjacent pair's ratio (the slower over the faster) with its interval, \
         Welch's p and the verdict: whether the bench is slower than the one before it, \
         equivalent to it within the noise threshold, or undecided.</p>\n",
    );
    for f in families {
        if f.is_sweep() {
            html.push_str(&sweep_family(f)?);
        } else {
            for (_, g) in &f.instances {
                html.push_str(&bars_group(g)?);
            }
        }
    }
    html.push_str("</section>\n");
    Ok(html)
}

/// A swept group: its chart of lines, then each instance's line of figures and pairs.
fn sweep_family(f: &Family<'_>) -> Result<String, String> {
    let series = f.series();
    let axes = Axes::of(&series);
    let parameter = f.parameter.as_deref().unwrap_or("argument");
    let names: Vec<String> = series.iter().map(|s| escape(&s.name)).collect();
    let mut html = format!(
        "<h3 id=\"group-{}\">group {}</h3>\n<p class=\"meta\">{} alternatives over {} \
         values of {}: {}</p>\n",
        escape(&f.name),
        escape(&f.name),
        series.len(),
        f.instances.len(),
        escape(parameter),
        names.join(", ")
    );
    html.push_str(&figure(
        &plot::sweep(&series, parameter, "time per unit", axes)?,
        &format!(
            "group {}: each alternative's time per unit against {}, with its interval{}",
            escape(&f.name),
            escape(parameter),
            axes_note(axes)
        ),
    ));
    for (_, g) in &f.instances {
        html.push_str(&format!("<h4>{}</h4>\n", escape(&g.name)));
        html.push_str(&instance_meta(g));
        html.push_str(&pairs(g));
    }
    Ok(html)
}

/// A group without a sweep: its heading, its members as bars and its pairs.
fn bars_group(g: &GroupDoc) -> Result<String, String> {
    let members: Vec<(String, f64, f64, f64)> = g
        .members
        .iter()
        .map(|m| (m.name.clone(), m.mean, m.ci.low, m.ci.high))
        .collect();
    let mut html = format!(
        "<h3 id=\"group-{}\">group {}</h3>\n",
        escape(&g.name),
        escape(&g.name)
    );
    html.push_str(&instance_meta(g));
    if !members.is_empty() {
        html.push_str(&figure(
            &plot::ranking(&members)?,
            &format!("group {}: time per unit, fastest first", escape(&g.name)),
        ));
    }
    html.push_str(&pairs(g));
    Ok(html)
}

/// A group instance's status, cycles, time and whether it ran interleaved.
fn instance_meta(g: &GroupDoc) -> String {
    format!(
        "<p class=\"meta\">{}, {} cycles, {:.1} s{}</p>\n",
        escape(&g.status),
        g.cycles,
        g.elapsed_s,
        if g.interleaved {
            ", interleaved"
        } else {
            ", one after another"
        }
    )
}

/// A pair's verdict as its slower member's row reads it against the member before it
/// (`slower`, `equivalent`, `undecided`), in a badge, with its caveat beside it.
fn pair_verdict(p: &PairDoc) -> String {
    let word = row_verdict(&p.verdict, None);
    match &p.caveat {
        Some(c) => format!(
            "{} <span class=\"caveat\">({})</span>",
            verdict(&word),
            escape(c)
        ),
        None => verdict(&word),
    }
}

/// The table of a group instance's adjacent pairs.
fn pairs(g: &GroupDoc) -> String {
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
                p.p.map_or("-".into(), pilot_stats::format_p),
                pair_verdict(p),
            ]
        })
        .collect();
    table(&["bench", "vs", "ratio", "p", "verdict"], &rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(name: &str, members: &[(&str, f64)]) -> GroupDoc {
        serde_json::from_value(serde_json::json!({
            "name": name, "ranking": [], "pairs": [],
            "members": members.iter().map(|(n, m)| serde_json::json!({
                "name": n, "mean": m, "ci": {"low": m * 0.9, "high": m * 1.1}})).collect::<Vec<_>>(),
            "status": "settled", "interleaved": true, "cycles": 3, "elapsed_s": 1.0,
            "ranking_settled_s": null,
        }))
        .unwrap()
    }

    #[test]
    fn a_pair_reads_in_its_slower_members_row_with_its_caveat() {
        let pair = |verdict: &str, caveat: Option<&str>| -> PairDoc {
            serde_json::from_value(serde_json::json!({
                "a": "vec_deque/100000", "b": "linked_list/100000", "ratio": 11.9,
                "ratio_ci": {"low": 10.3, "high": 13.8}, "p": 1e-5, "verdict": verdict,
                "caveat": caveat,
            }))
            .unwrap()
        };
        assert_eq!(
            pair_verdict(&pair("faster", Some("few analysed rounds"))),
            "<span class=\"verdict plain\">slower</span> \
             <span class=\"caveat\">(few analysed rounds)</span>"
        );
        assert_eq!(
            pair_verdict(&pair("faster", None)),
            "<span class=\"verdict plain\">slower</span>"
        );
        assert_eq!(
            pair_verdict(&pair("undecided", Some("few analysed rounds"))),
            "<span class=\"verdict weak\">undecided</span> \
             <span class=\"caveat\">(few analysed rounds)</span>"
        );
        let table = pairs(&GroupDoc {
            pairs: vec![pair("faster", Some("few analysed rounds"))],
            ..group("iterate/100000", &[])
        });
        assert!(
            table.contains("<td>linked_list/100000</td><td>vec_deque/100000</td>"),
            "{table}"
        );
    }

    #[test]
    fn a_swept_group_is_one_family_with_a_line_per_alternative() {
        let groups = [
            group(
                "iterate/100000",
                &[("vec/100000", 8e3), ("list/100000", 1.2e5)],
            ),
            group("iterate/1000", &[("vec/1000", 75.0), ("list/1000", 1300.0)]),
            group("maps", &[("btree", 10.0), ("hash", 5.0)]),
            group("iterate/1000", &[("a/1000", 1.0)]),
        ];
        let families = families(&groups);
        assert_eq!(families.len(), 3);
        let f = &families[0];
        assert!(f.is_sweep());
        assert_eq!(f.parameter.as_deref(), Some("argument"));
        let series = f.series();
        let names: Vec<&str> = series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            ["list", "vec"],
            "the highest line at the right first"
        );
        assert_eq!(series[1].points[0], (1000.0, 75.0, 67.5, 82.5));
        assert_eq!(series[1].points[1].0, 100_000.0);
        assert!(!families[1].is_sweep());
        assert_eq!(
            families[2].instances.len(),
            1,
            "another target's group of that name"
        );
    }
}
