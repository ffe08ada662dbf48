//! Parameter sweeps outside groups: the benches of one target named `prefix/value`, each
//! drawn as one line against its parameter.

use std::collections::BTreeSet;

use pilot_format::ResultDoc;

use super::{Names, axes_note, escape, figure};
use crate::report::plot::{self, Axes, Series};

/// A parameter sweep found among the results: benches `name/arg` of one target.
pub struct Sweep {
    /// The bench target.
    pub target: String,
    /// The benches' name without the parameter (`sum_sweep` of `sum_sweep/1000`).
    pub name: String,
    /// The parameter's name (`threads`, a `-P` variable) or `argument`.
    pub parameter: String,
    /// `(value, mean, low, high)` sorted by value, times in ns.
    pub points: Vec<(f64, f64, f64, f64)>,
}

/// A bench or group name that ends with a numeric parameter value: `(prefix, parameter,
/// value)`, the parameter `argument` for `prefix/1000`, or the variable's name for
/// `prefix/threads=4` (`n=2.5`).
pub fn split_parameter(name: &str) -> Option<(&str, &str, f64)> {
    let (prefix, arg) = name.rsplit_once('/')?;
    let (parameter, value) = arg.split_once('=').unwrap_or(("argument", arg));
    let x = value.parse::<f64>().ok().filter(|x| x.is_finite())?;
    Some((prefix, parameter, x))
}

/// The sweeps among `results`: benches of one target named `prefix/value`, two or more with a
/// numeric value (`1000`, `threads=4`, `n=2.5`) and an estimate. Benches named in `grouped`
/// are left out: their group's chart shows them, beside the other alternatives.
pub fn find_sweeps(results: &[ResultDoc], grouped: &BTreeSet<&str>) -> Vec<Sweep> {
    let mut sweeps: Vec<Sweep> = Vec::new();
    for r in results {
        if grouped.contains(r.name.as_str()) {
            continue;
        }
        let Some((prefix, parameter, x)) = split_parameter(&r.name) else {
            continue;
        };
        let Some(t) = r.time() else { continue };
        let ci = t.run_ci();
        let (Some(m), Some(lo), Some(hi)) = (t.mean, ci.low, ci.high) else {
            continue;
        };
        match sweeps
            .iter_mut()
            .find(|s| s.target == r.target && s.name == prefix && s.parameter == parameter)
        {
            Some(s) => s.points.push((x, m, lo, hi)),
            None => sweeps.push(Sweep {
                target: r.target.clone(),
                name: prefix.to_string(),
                parameter: parameter.to_string(),
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
         parameter, with each interval as an error bar; an axis is logarithmic where its \
         values span a decade or more.</p>\n",
    );
    let names = Names::of(sweeps.iter().map(|s| (s.target.as_str(), s.name.as_str())));
    for s in sweeps {
        let name = names.show(&s.target, &s.name);
        let series = [Series {
            name: name.clone(),
            points: s.points.clone(),
        }];
        let axes = Axes::of(&series);
        html.push_str(&format!("<h3>{}</h3>\n", escape(&name)));
        html.push_str(&figure(
            &plot::sweep(&series, &s.parameter, "time per unit", axes)?,
            &format!(
                "{}: time per unit against {}{}",
                escape(&name),
                escape(&s.parameter),
                axes_note(axes)
            ),
        ));
    }
    html.push_str("</section>\n");
    Ok(html)
}

#[cfg(test)]
mod tests {
    use super::split_parameter;

    #[test]
    fn a_name_ends_with_a_parameter_value_or_not() {
        assert_eq!(
            split_parameter("iterate/1000"),
            Some(("iterate", "argument", 1000.0))
        );
        assert_eq!(
            split_parameter("a/b/threads=4"),
            Some(("a/b", "threads", 4.0))
        );
        assert_eq!(split_parameter("sort_10k"), None);
        assert_eq!(split_parameter("checksum/reversed"), None);
        assert_eq!(split_parameter("x/inf"), None);
    }
}
