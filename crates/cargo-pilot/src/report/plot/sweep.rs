//! A parameter sweep's plot: each alternative's time per unit against the parameter, as a line
//! with its intervals as error bars, on linear or logarithmic axes, with a legend beside it.

use plotters::coord::Shift;
use plotters::coord::combinators::{LogCoord, WithKeyPoints};
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use pilot_engine::report::format_ns;

use super::axis::LogAxis;
use super::style::{self, SeriesStyle, Whisker};
use super::{FONT, PlotResult, SIZE, bounds, svg_sized};

/// Width of the legend beside the plot, in pixels, when there are several alternatives.
const LEGEND_WIDTH: u32 = 220;
/// Characters of a name the legend shows; a longer one ends with `…` (the tables name it whole).
const LEGEND_CHARS: usize = 24;
/// Width of the alternatives' lines, which only they are drawn with (see [`style::apply_dashes`]).
const LINE_WIDTH: u32 = 2;

/// One alternative of a sweep: its name and its points `(parameter, mean, low, high)` sorted
/// by parameter, times in ns.
pub struct Series {
    /// The alternative's name, as the legend shows it.
    pub name: String,
    /// Its points.
    pub points: Vec<(f64, f64, f64, f64)>,
}

/// Which of a sweep plot's axes are logarithmic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Axes {
    /// The parameter's.
    pub log_x: bool,
    /// The time's.
    pub log_y: bool,
}

impl Axes {
    /// Each axis is logarithmic where its values span a decade or more (all of them above 0):
    /// a sweep's parameter usually grows by a factor, and its times with it.
    pub fn of(series: &[Series]) -> Axes {
        let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
        let ys = series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
        Axes {
            log_x: spans_decades(xs),
            log_y: spans_decades(ys),
        }
    }
}

/// Whether the values are all above 0 and the greatest is 10 or more times the least.
fn spans_decades(values: impl Iterator<Item = f64>) -> bool {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    lo > 0.0 && hi.is_finite() && hi / lo >= 10.0
}

/// A sweep's alternatives on one chart: each a line through its means, in its own colour,
/// marker and dash ([`style::series_style`]), its intervals as error bars; a legend names them
/// when there are several.
pub fn sweep(series: &[Series], parameter: &str, y_label: &str, axes: Axes) -> PlotResult {
    let points = || series.iter().flat_map(|s| s.points.iter());
    let xs: Vec<f64> = points().map(|p| p.0).collect();
    let ys: Vec<f64> = points().flat_map(|p| [p.1, p.2, p.3]).collect();
    let x = {
        let (lo, hi) = min_max(&xs);
        let pad = ((hi - lo) * 0.05).max(0.5);
        lo - pad..hi + pad
    };
    let y = {
        let (lo, hi) = bounds(&ys);
        lo.min(0.0)..hi
    };
    // A log axis's range and ticks come from its values (see `LogAxis`).
    let log_x = axes.log_x.then(|| LogAxis::of(&xs));
    let log_y = axes.log_y.then(|| LogAxis::of(&ys));
    let styles: Vec<SeriesStyle> = (0..series.len()).map(style::series_style).collect();
    // With a legend, the plot keeps the standard width and the legend is added beside it.
    let size = if series.len() > 1 {
        (SIZE.0 + LEGEND_WIDTH, SIZE.1 + 40)
    } else {
        SIZE
    };
    let drawn = svg_sized(size, |root| {
        let plot = if series.len() > 1 {
            let (plot, legend_area) = root.split_horizontally(SIZE.0);
            legend(&legend_area, series, &styles, size.1)?;
            plot
        } else {
            root.clone()
        };
        let labels = Labels {
            parameter,
            y_label,
            axes,
        };
        match (log_x, log_y) {
            (None, None) => sweep_on(&plot, x, y, series, &styles, labels),
            (Some(lx), None) => sweep_on(&plot, log_coord(lx), y, series, &styles, labels),
            (None, Some(ly)) => sweep_on(&plot, x, log_coord(ly), series, &styles, labels),
            (Some(lx), Some(ly)) => {
                sweep_on(&plot, log_coord(lx), log_coord(ly), series, &styles, labels)
            }
        }
    })?;
    Ok(style::apply_dashes(&drawn, &styles, LINE_WIDTH))
}

fn min_max(values: &[f64]) -> (f64, f64) {
    values
        .iter()
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(*v), hi.max(*v))
        })
}

/// A logarithmic coordinate over `axis`'s range, with its ticks (labelled, a grid line each)
/// and its minor grid lines, in place of plotters' own choice.
fn log_coord(axis: LogAxis) -> WithKeyPoints<LogCoord<f64>> {
    axis.range
        .log_scale()
        .with_key_points(axis.ticks)
        .with_light_points(axis.minor)
}

/// The axes' descriptions.
#[derive(Clone, Copy)]
struct Labels<'a> {
    parameter: &'a str,
    y_label: &'a str,
    axes: Axes,
}

fn sweep_on<X, Y>(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    x: X,
    y: Y,
    series: &[Series],
    styles: &[SeriesStyle],
    labels: Labels<'_>,
) -> Result<(), String>
where
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(x, y)
        .map_err(|e| e.to_string())?;
    let y_bottom = chart.y_range().start;
    chart
        .configure_mesh()
        .x_desc(labels.parameter)
        .y_desc(labels.y_label)
        .y_label_formatter(&|v| format_ns(*v))
        .x_label_formatter(&|v| format_param(*v))
        .label_style((FONT, 13))
        .draw()
        .map_err(|e| e.to_string())?;
    for (s, st) in series.iter().zip(styles) {
        // On a log axis an interval reaching 0 or below is cut at the axis.
        let low = |l: f64| {
            if labels.axes.log_y {
                l.max(y_bottom)
            } else {
                l
            }
        };
        for p in &s.points {
            style::draw_whisker(
                chart.plotting_area(),
                ((p.0, low(p.2)), (p.0, p.3)),
                Whisker::Vertical,
                st.colour.stroke_width(1),
                10,
            )?;
        }
        chart
            .draw_series(std::iter::once(PathElement::new(
                s.points.iter().map(|p| (p.0, p.1)).collect::<Vec<_>>(),
                st.colour.stroke_width(LINE_WIDTH),
            )))
            .map_err(|e| e.to_string())?;
        for p in &s.points {
            style::draw_marker(chart.plotting_area(), (p.0, p.1), st.marker, st.colour, 9)?;
        }
    }
    Ok(())
}

/// The legend, on its own area beside the plot: each alternative's line, marker and name, in
/// the order of `series`; those that do not fit are counted at the end.
fn legend(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    series: &[Series],
    styles: &[SeriesStyle],
    height: u32,
) -> Result<(), String> {
    let step = 26;
    let fits = ((height as i32 - 40) / step).max(1) as usize;
    let shown = if series.len() > fits { fits - 1 } else { fits };
    let font = TextStyle::from((FONT, 14)).pos(Pos::new(HPos::Left, VPos::Center));
    for (i, (s, st)) in series.iter().zip(styles).take(shown).enumerate() {
        let y = 24 + step * i as i32;
        area.draw(&PathElement::new(
            vec![(4, y), (44, y)],
            st.colour.stroke_width(LINE_WIDTH),
        ))
        .map_err(|e| e.to_string())?;
        style::draw_marker(area, (24, y), st.marker, st.colour, 9)?;
        area.draw(&Text::new(shorten(&s.name), (52, y), font.clone()))
            .map_err(|e| e.to_string())?;
    }
    if series.len() > shown {
        let y = 24 + step * shown as i32;
        let more = format!("… and {} more", series.len() - shown);
        area.draw(&Text::new(more, (52, y), font))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// `name` cut to [`LEGEND_CHARS`] characters, ending with `…` when cut.
fn shorten(name: &str) -> String {
    if name.chars().count() <= LEGEND_CHARS {
        return name.to_string();
    }
    let mut short: String = name.chars().take(LEGEND_CHARS - 1).collect();
    short.push('…');
    short
}

/// A parameter value as an axis label: integers without decimals.
fn format_param(v: f64) -> String {
    if v.fract().abs() < 1e-9 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_axis_is_logarithmic_where_it_spans_a_decade() {
        let series = |points: Vec<(f64, f64)>| {
            vec![Series {
                name: "a".into(),
                points: points.into_iter().map(|(x, y)| (x, y, y, y)).collect(),
            }]
        };
        let axes = Axes::of(&series(vec![(1000.0, 5.0), (100_000.0, 9.0)]));
        assert_eq!((axes.log_x, axes.log_y), (true, false));
        let axes = Axes::of(&series(vec![(1.0, 5.0), (4.0, 90.0)]));
        assert_eq!((axes.log_x, axes.log_y), (false, true));
        let axes = Axes::of(&series(vec![(0.0, 5.0), (100.0, 9.0)]));
        assert!(!axes.log_x, "0 has no place on a log axis");
    }

    /// The texts of `svg`'s `<text>` elements, trimmed, the empty ones left out.
    fn texts(svg: &str) -> Vec<&str> {
        svg.split("<text")
            .skip(1)
            .map(|t| t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()].trim())
            .filter(|t| !t.is_empty())
            .collect()
    }

    /// A time label (`2.000 µs`) in ns; `None` for another text.
    fn time_label(text: &str) -> Option<f64> {
        let (v, unit) = text.split_once(' ')?;
        let scale = match unit {
            "ns" => 1.0,
            "µs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            _ => return None,
        };
        Some(v.parse::<f64>().ok()? * scale)
    }

    #[test]
    fn a_log_chart_labels_the_range_of_its_points_with_a_sparse_grid() {
        // checksum_sizes: 2.9 µs at 1024 bytes, 46 µs at 16384. plotters labelled 10, 20 and
        // 50 µs only (the 2.9 µs point below them all), drew 163 minor lines, crowded below
        // each power of ten, and labelled 10000 twice.
        let series = [Series {
            name: "checksum_sizes".into(),
            points: vec![
                (1024.0, 2910.0, 2823.0, 2997.0),
                (16384.0, 46_000.0, 44_620.0, 47_380.0),
            ],
        }];
        let axes = Axes::of(&series);
        assert_eq!((axes.log_x, axes.log_y), (true, true));
        let svg = sweep(&series, "argument", "time per unit", axes).unwrap();
        let texts = texts(&svg);
        let times: Vec<f64> = texts.iter().filter_map(|t| time_label(t)).collect();
        let (low, high) = (times[0], times[times.len() - 1]);
        assert!(low <= 2823.0 && high >= 47_380.0, "{texts:?}");
        let params: Vec<f64> = texts.iter().filter_map(|t| t.parse().ok()).collect();
        assert!(params[0] <= 1024.0, "{texts:?}");
        assert!(params[params.len() - 1] >= 16384.0, "{texts:?}");
        let mut sorted = params.clone();
        sorted.dedup();
        assert_eq!(sorted, params, "each tick labelled once: {texts:?}");
        let minor = svg.matches("<line opacity=\"0.1\"").count();
        assert!(minor <= 40, "{minor} minor grid lines");
    }

    #[test]
    fn long_names_are_cut_in_the_legend() {
        assert_eq!(shorten("vec"), "vec");
        let long = "a".repeat(30);
        assert_eq!(shorten(&long).chars().count(), LEGEND_CHARS);
        assert!(shorten(&long).ends_with('…'));
    }
}
