//! The report's plots, drawn by plotters into SVG strings: a session's readings, a WPS fit, a
//! group's ranking, a comparison with a baseline and a parameter sweep. Each function takes
//! plain figures (no documents), so what is drawn is what the caller computed.

use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

use pilot::cargo_api::report::format_ns;

/// Width and height of every plot, in SVG pixels (the page scales them to its width).
const SIZE: (u32, u32) = (860, 340);
/// Most round boundaries drawn: more would fill the plot with lines.
const MAX_BOUNDARIES: usize = 200;

const FONT: &str = "sans-serif";
const BLUE: RGBColor = RGBColor(31, 119, 180);
const ORANGE: RGBColor = RGBColor(255, 127, 14);
const GREY: RGBColor = RGBColor(150, 150, 150);
const RED_: RGBColor = RGBColor(214, 39, 40);
const GREEN_: RGBColor = RGBColor(44, 160, 44);

/// A plot that could not be drawn (plotters' error, as text).
pub type PlotResult = Result<String, String>;

/// One round of a session as the readings plot draws it.
pub struct RoundView {
    /// Unit readings in the round (the width it takes on the x axis).
    pub units: usize,
    /// The stable phase `[start, end)` of its readings, when it had one.
    pub stable: Option<(usize, usize)>,
    /// Whether it went into the analysis.
    pub analysed: bool,
    /// Its readings' bins: `(first reading, readings, min, mean, max)`, in ns.
    pub bins: Vec<(usize, usize, f64, f64, f64)>,
}

/// The unit readings over a session: each round's bins (mean as a line, least to greatest as
/// a band), its removed warm-up and cool-down shaded orange, rounds left out of the analysis
/// shaded grey, round boundaries as thin lines, and the stable mean with its interval as a
/// blue band. The y axis ends a little above the 99th percentile of the bins' means (or the
/// interval, if higher) so one slow reading does not flatten the rest; `clipped` says whether
/// something was cut off.
pub fn session(
    rounds: &[RoundView],
    mean: Option<(f64, f64, f64)>,
    y_label: &str,
) -> Result<(String, bool), String> {
    let total: usize = rounds.iter().map(|r| r.units).sum::<usize>().max(1);
    let mut means: Vec<f64> = rounds
        .iter()
        .flat_map(|r| r.bins.iter().map(|b| b.3))
        .collect();
    means.sort_by(f64::total_cmp);
    let top = rounds
        .iter()
        .flat_map(|r| r.bins.iter().map(|b| b.4))
        .fold(f64::NEG_INFINITY, f64::max);
    let bottom = rounds
        .iter()
        .flat_map(|r| r.bins.iter().map(|b| b.2))
        .fold(f64::INFINITY, f64::min);
    // The axis follows the bins' means (their 99th percentile, with room above), not their
    // extremes: one preempted reading would otherwise flatten the whole session.
    let mut y_hi = percentile(&means, 0.99).unwrap_or(1.0) * 1.3;
    let mut y_lo = bottom.max(means.first().copied().unwrap_or(0.0) * 0.7);
    if let Some((m, lo, hi)) = mean {
        y_hi = y_hi.max(hi * 1.1).max(m);
        y_lo = y_lo.min(lo * 0.9);
    }
    if !y_lo.is_finite() {
        y_lo = 0.0;
    }
    let clipped = top > y_hi;
    let pad = (y_hi - y_lo).abs().max(y_hi.abs() * 0.01).max(1e-9) * 0.05;
    let (y_lo, y_hi) = ((y_lo - pad).max(0.0), y_hi + pad);
    svg(|root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .build_cartesian_2d(0f64..total as f64, y_lo..y_hi)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc("unit reading, in the order taken")
            .y_desc(y_label)
            .y_label_formatter(&|v| format_ns(*v))
            .x_label_formatter(&|v| format!("{v:.0}"))
            .label_style((FONT, 13))
            .draw()
            .map_err(|e| e.to_string())?;
        let clamp = |y: f64| y.clamp(y_lo, y_hi);
        // Shading first, so the readings are drawn over it.
        let mut shaded_removed = false;
        let mut shaded_skipped = false;
        let mut at = 0usize;
        for r in rounds {
            let (start, end) = (at as f64, (at + r.units) as f64);
            if !r.analysed {
                draw(&mut chart, rect(start, end, y_lo, y_hi, GREY.mix(0.18)))?;
                shaded_skipped = true;
            } else if let Some((a, b)) = r.stable {
                if a > 0 {
                    draw(
                        &mut chart,
                        rect(start, (at + a) as f64, y_lo, y_hi, ORANGE.mix(0.25)),
                    )?;
                    shaded_removed = true;
                }
                if b < r.units {
                    draw(
                        &mut chart,
                        rect((at + b) as f64, end, y_lo, y_hi, ORANGE.mix(0.25)),
                    )?;
                    shaded_removed = true;
                }
            } else {
                // Analysed without a dominant stable phase: all of it unstable.
                draw(&mut chart, rect(start, end, y_lo, y_hi, ORANGE.mix(0.25)))?;
                shaded_removed = true;
            }
            at += r.units;
        }
        if let Some((m, lo, hi)) = mean {
            chart
                .draw_series(std::iter::once(rect(
                    0.0,
                    total as f64,
                    lo,
                    hi,
                    BLUE.mix(0.22),
                )))
                .map_err(|e| e.to_string())?
                .label(format!("stable mean and its interval: {}", format_ns(m)))
                .legend(|(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 18, y + 5)], BLUE.mix(0.3).filled())
                });
            draw_line(
                &mut chart,
                vec![(0.0, m), (total as f64, m)],
                BLUE.stroke_width(2),
            )?;
        }
        // Round boundaries: every k-th when there are many.
        let step = rounds.len().div_ceil(MAX_BOUNDARIES).max(1);
        let mut at = 0usize;
        for (i, r) in rounds.iter().enumerate() {
            if i > 0 && i % step == 0 {
                draw_line(
                    &mut chart,
                    vec![(at as f64, y_lo), (at as f64, y_hi)],
                    BLACK.mix(0.25).stroke_width(1),
                )?;
            }
            at += r.units;
        }
        // Each round's readings: the band of least to greatest and the line of means.
        let mut at = 0usize;
        let mut labelled = false;
        for r in rounds {
            if !r.bins.is_empty() {
                let centre =
                    |b: &(usize, usize, f64, f64, f64)| (at + b.0) as f64 + b.1 as f64 / 2.0;
                let mut band: Vec<(f64, f64)> =
                    r.bins.iter().map(|b| (centre(b), clamp(b.4))).collect();
                band.extend(r.bins.iter().rev().map(|b| (centre(b), clamp(b.2))));
                if r.bins.len() == 1 {
                    let b = &r.bins[0];
                    let (x0, x1) = ((at + b.0) as f64, (at + b.0 + b.1) as f64);
                    band = vec![
                        (x0, clamp(b.4)),
                        (x1, clamp(b.4)),
                        (x1, clamp(b.2)),
                        (x0, clamp(b.2)),
                    ];
                }
                chart
                    .draw_series(std::iter::once(Polygon::new(
                        band,
                        BLACK.mix(0.12).filled(),
                    )))
                    .map_err(|e| e.to_string())?;
                let line: Vec<(f64, f64)> = if r.bins.len() == 1 {
                    let b = &r.bins[0];
                    vec![
                        ((at + b.0) as f64, clamp(b.3)),
                        ((at + b.0 + b.1) as f64, clamp(b.3)),
                    ]
                } else {
                    r.bins.iter().map(|b| (centre(b), clamp(b.3))).collect()
                };
                let series = chart
                    .draw_series(LineSeries::new(line, BLACK.stroke_width(1)))
                    .map_err(|e| e.to_string())?;
                if !labelled {
                    series
                        .label("readings: mean per bin, band from least to greatest")
                        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], BLACK));
                    labelled = true;
                }
            }
            at += r.units;
        }
        if shaded_removed {
            legend_patch(
                &mut chart,
                "removed as warm-up or cool-down",
                ORANGE.mix(0.35),
            )?;
        }
        if shaded_skipped {
            legend_patch(&mut chart, "round too short to analyse", GREY.mix(0.3))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .label_font((FONT, 12))
            .draw()
            .map_err(|e| e.to_string())
    })
    .map(|s| (s, clipped))
}

/// Per-round figures of a session with no unit readings (readings-only, or a document written
/// before readings were summarised): each round's time per work unit, analysed rounds in black
/// and the others grey, with the estimate's band.
pub fn rounds(points: &[(f64, bool)], mean: Option<(f64, f64, f64)>, y_label: &str) -> PlotResult {
    let n = points.len().max(1) as f64;
    let mut ys: Vec<f64> = points.iter().map(|p| p.0).collect();
    if let Some((m, lo, hi)) = mean {
        ys.extend([m, lo, hi]);
    }
    let (lo, hi) = bounds(&ys);
    svg(|root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .build_cartesian_2d(-0.5..n - 0.5, lo..hi)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("round")
            .y_desc(y_label)
            .y_label_formatter(&|v| format_ns(*v))
            .x_label_formatter(&|v| format!("{v:.0}"))
            .label_style((FONT, 13))
            .draw()
            .map_err(|e| e.to_string())?;
        if let Some((m, l, h)) = mean {
            draw(&mut chart, rect(-0.5, n - 0.5, l, h, BLUE.mix(0.22)))?;
            draw_line(
                &mut chart,
                vec![(-0.5, m), (n - 0.5, m)],
                BLUE.stroke_width(2),
            )?;
        }
        chart
            .draw_series(points.iter().enumerate().map(|(i, &(y, analysed))| {
                let colour = if analysed { BLACK } else { GREY };
                Circle::new((i as f64, y), 3, colour.filled())
            }))
            .map_err(|e| e.to_string())?;
        Ok(())
    })
}

/// A readings-only fit: each round's (work, duration) as a point (rounds outside the fit
/// grey) and the line `t = α + w · slope`.
pub fn fit(points: &[(f64, f64, bool)], alpha: f64, slope: f64) -> PlotResult {
    let xs: Vec<f64> = points.iter().map(|p| p.0).chain([0.0]).collect();
    let (_, x_hi) = bounds(&xs);
    let mut ys: Vec<f64> = points.iter().map(|p| p.1).collect();
    ys.extend([alpha, alpha + slope * x_hi]);
    let (y_lo, y_hi) = bounds(&ys);
    let y_lo = y_lo.min(0.0);
    svg(|root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .build_cartesian_2d(0.0..x_hi, y_lo..y_hi)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("work amount w")
            .y_desc("round time t")
            .y_label_formatter(&|v| format_ns(*v))
            .label_style((FONT, 13))
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(LineSeries::new(
                [(0.0, alpha), (x_hi, alpha + slope * x_hi)],
                RED_.stroke_width(2),
            ))
            .map_err(|e| e.to_string())?
            .label("fit t = α + w / v")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], RED_));
        chart
            .draw_series(points.iter().map(|&(w, t, used)| {
                let colour = if used { BLUE } else { GREY };
                Circle::new((w, t), 3, colour.filled())
            }))
            .map_err(|e| e.to_string())?
            .label("rounds")
            .legend(|(x, y)| Circle::new((x + 9, y), 3, BLUE.filled()));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .label_font((FONT, 12))
            .draw()
            .map_err(|e| e.to_string())
    })
}

/// A group's members, fastest first from the top: each mean with its interval as a bar.
pub fn ranking(members: &[(String, f64, f64, f64)]) -> PlotResult {
    let xs: Vec<f64> = members
        .iter()
        .flat_map(|m| [m.2, m.3])
        .chain([0.0])
        .collect();
    let (_, x_hi) = bounds(&xs);
    let n = members.len();
    svg_sized((SIZE.0, 70 + 34 * n as u32), |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(200)
            .build_cartesian_2d(0.0..x_hi, -0.5..n as f64 - 0.5)
            .map_err(|e| e.to_string())?;
        let label = |v: &f64| {
            let i = v.round();
            if (v - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < n {
                members[n - 1 - i as usize].0.clone()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(n.max(1))
            .y_label_formatter(&label)
            .x_label_formatter(&|v| format_ns(*v))
            .x_desc("time per unit (interval bars)")
            .label_style((FONT, 13))
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(members.iter().enumerate().map(|(i, m)| {
                let y = (n - 1 - i) as f64;
                ErrorBar::new_horizontal(y, m.2, m.1, m.3, BLUE.stroke_width(2), 12)
            }))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(
                members
                    .iter()
                    .enumerate()
                    .map(|(i, m)| Circle::new((m.1, (n - 1 - i) as f64), 4, BLUE.filled())),
            )
            .map_err(|e| e.to_string())?;
        Ok(())
    })
}

/// One bench's change against a baseline: `(name, change, low, high, regressed, improved)`,
/// relative (`0.05` is 5% slower).
pub type ChangeView = (String, f64, f64, f64, bool, bool);

/// Each bench's change with its interval, against the noise band (± `noise`, shaded):
/// regressions red, improvements green, the rest grey.
pub fn changes(rows: &[ChangeView], noise: f64) -> PlotResult {
    let xs: Vec<f64> = rows
        .iter()
        .flat_map(|r| [r.2, r.3])
        .chain([-noise * 2.0, noise * 2.0])
        .map(|x| 100.0 * x)
        .collect();
    let (x_lo, x_hi) = bounds(&xs);
    let n = rows.len();
    svg_sized((SIZE.0, 70 + 30 * n as u32), |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(220)
            .build_cartesian_2d(x_lo..x_hi, -0.5..n as f64 - 0.5)
            .map_err(|e| e.to_string())?;
        let label = |v: &f64| {
            let i = v.round();
            if (v - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < n {
                rows[n - 1 - i as usize].0.clone()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(n.max(1))
            .y_label_formatter(&label)
            .x_label_formatter(&|v| format!("{v:+.1}%"))
            .x_desc("change of the time per unit (interval bars; shaded: the noise threshold)")
            .label_style((FONT, 13))
            .draw()
            .map_err(|e| e.to_string())?;
        draw(
            &mut chart,
            rect(
                -100.0 * noise,
                100.0 * noise,
                -0.5,
                n as f64 - 0.5,
                GREY.mix(0.25),
            ),
        )?;
        draw_line(
            &mut chart,
            vec![(0.0, -0.5), (0.0, n as f64 - 0.5)],
            BLACK.mix(0.5).stroke_width(1),
        )?;
        let colour = |r: &ChangeView| {
            if r.4 {
                RED_
            } else if r.5 {
                GREEN_
            } else {
                RGBColor(80, 80, 80)
            }
        };
        chart
            .draw_series(rows.iter().enumerate().map(|(i, r)| {
                let y = (n - 1 - i) as f64;
                ErrorBar::new_horizontal(
                    y,
                    100.0 * r.2,
                    100.0 * r.1,
                    100.0 * r.3,
                    colour(r).stroke_width(2),
                    12,
                )
            }))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(rows.iter().enumerate().map(|(i, r)| {
                Circle::new((100.0 * r.1, (n - 1 - i) as f64), 4, colour(r).filled())
            }))
            .map_err(|e| e.to_string())?;
        Ok(())
    })
}

/// A parameter sweep: `(parameter, mean, low, high)` sorted by parameter, the mean as a line
/// with points and the interval as a band; both axes logarithmic when `log`.
pub fn sweep(
    points: &[(f64, f64, f64, f64)],
    parameter: &str,
    y_label: &str,
    log: bool,
) -> PlotResult {
    let xs: Vec<f64> = points.iter().map(|p| p.0).collect();
    let ys: Vec<f64> = points.iter().flat_map(|p| [p.2, p.3]).collect();
    let (x_lo, x_hi) = (
        xs.iter().copied().fold(f64::INFINITY, f64::min),
        xs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    );
    if log {
        let y_lo = ys
            .iter()
            .copied()
            .filter(|y| *y > 0.0)
            .fold(f64::INFINITY, f64::min);
        let y_hi = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        svg(|root| {
            sweep_on(
                root,
                (x_lo / 1.2..x_hi * 1.2).log_scale(),
                (y_lo / 1.3..y_hi * 1.3).log_scale(),
                points,
                parameter,
                y_label,
                true,
            )
        })
    } else {
        let pad = ((x_hi - x_lo) * 0.05).max(0.5);
        let (y_lo, y_hi) = bounds(&ys);
        svg(|root| {
            sweep_on(
                root,
                x_lo - pad..x_hi + pad,
                y_lo.min(0.0)..y_hi,
                points,
                parameter,
                y_label,
                false,
            )
        })
    }
}

fn sweep_on<X, Y>(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    x: X,
    y: Y,
    points: &[(f64, f64, f64, f64)],
    parameter: &str,
    y_label: &str,
    log: bool,
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
    chart
        .configure_mesh()
        .x_desc(parameter)
        .y_desc(y_label)
        .y_label_formatter(&|v| format_ns(*v))
        .x_label_formatter(&|v| {
            // A log axis has a key point at every integer multiple of each decade; only 1, 2
            // and 5 of each are labelled, so the labels do not run into each other.
            if log && !is_round_mantissa(*v) {
                String::new()
            } else {
                format_param(*v)
            }
        })
        .label_style((FONT, 13))
        .draw()
        .map_err(|e| e.to_string())?;
    let mut band: Vec<(f64, f64)> = points.iter().map(|p| (p.0, p.3)).collect();
    band.extend(points.iter().rev().map(|p| (p.0, p.2)));
    chart
        .draw_series(std::iter::once(Polygon::new(band, BLUE.mix(0.22).filled())))
        .map_err(|e| e.to_string())?;
    chart
        .draw_series(LineSeries::new(
            points.iter().map(|p| (p.0, p.1)),
            BLUE.stroke_width(2),
        ))
        .map_err(|e| e.to_string())?;
    chart
        .draw_series(
            points
                .iter()
                .map(|p| Circle::new((p.0, p.1), 4, BLUE.filled())),
        )
        .map_err(|e| e.to_string())?;
    Ok(())
}

/// Whether `v` is 1, 2 or 5 times a power of ten (to a relative 1e-6).
fn is_round_mantissa(v: f64) -> bool {
    if v <= 0.0 || !v.is_finite() {
        return false;
    }
    let mantissa = v / 10f64.powf(v.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .any(|m| (mantissa - m).abs() < 1e-6 * m)
}

/// A parameter value as an axis label: integers without decimals.
fn format_param(v: f64) -> String {
    if v.fract().abs() < 1e-9 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

/// The `q`-quantile of sorted `xs` (nearest rank).
fn percentile(sorted: &[f64], q: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    Some(sorted[i.min(sorted.len() - 1)])
}

/// A padded range holding every value of `ys` (at least a small one around a single value).
fn bounds(ys: &[f64]) -> (f64, f64) {
    let finite = ys.iter().copied().filter(|y| y.is_finite());
    let lo = finite.clone().fold(f64::INFINITY, f64::min);
    let hi = finite.fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.08)
        .max(hi.abs().max(lo.abs()) * 0.02)
        .max(1e-9);
    (lo - pad, hi + pad)
}

type Chart<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

fn rect(x0: f64, x1: f64, y0: f64, y1: f64, colour: RGBAColor) -> Rectangle<(f64, f64)> {
    Rectangle::new([(x0, y0), (x1, y1)], colour.filled())
}

fn draw(chart: &mut Chart<'_, '_>, r: Rectangle<(f64, f64)>) -> Result<(), String> {
    chart
        .draw_series(std::iter::once(r))
        .map(|_| ())
        .map_err(|e| e.to_string())
}

fn draw_line(
    chart: &mut Chart<'_, '_>,
    points: Vec<(f64, f64)>,
    style: ShapeStyle,
) -> Result<(), String> {
    chart
        .draw_series(std::iter::once(PathElement::new(points, style)))
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// A legend entry for a shaded region (drawn off the plot: an empty series with a label).
fn legend_patch(chart: &mut Chart<'_, '_>, label: &str, colour: RGBAColor) -> Result<(), String> {
    chart
        .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
        .map_err(|e| e.to_string())?
        .label(label)
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 18, y + 5)], colour.filled()));
    Ok(())
}

/// Draws into an SVG of the standard size and returns its text.
fn svg(draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String>) -> PlotResult {
    svg_sized(SIZE, draw)
}

fn svg_sized(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String>,
) -> PlotResult {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        draw(&root)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::is_round_mantissa;

    #[test]
    fn only_one_two_and_five_of_each_decade_are_labelled() {
        for v in [1.0, 2.0, 5.0, 10.0, 20.0, 5000.0, 1e6, 0.2, 0.05] {
            assert!(is_round_mantissa(v), "{v}");
        }
        for v in [3.0, 7000.0, 9000.0, 1500.0, 0.0, -2.0, f64::NAN, 64_000.0] {
            assert!(!is_round_mantissa(v), "{v}");
        }
    }
}
