//! The report's plots, drawn by plotters into SVG strings: a session's readings, a WPS fit, a
//! group's members as bars, a comparison with a baseline, a parameter sweep's alternatives
//! as lines, and a bench's history over commits. Each function takes
//! plain figures (no documents), so what is drawn is what the caller computed. This module
//! holds what every plot shares: the size, the colours and the drawing helpers.

mod axis;
mod bars;
mod history;
mod session;
mod style;
mod sweep;

use std::ops::Range;

use plotters::coord::Shift;
use plotters::prelude::*;

pub use bars::{ChangeView, changes, ranking};
pub use history::{HistoryChange, HistoryPoint, history};
pub use session::{RoundView, fit, rounds, session};
pub use sweep::{Axes, Series, sweep};

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

/// A chart of two linear axes over `x` and `y` on `root`, with `y_labels` pixels for the y
/// axis's labels.
fn chart<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, Shift>,
    y_labels: u32,
    x: Range<f64>,
    y: Range<f64>,
) -> Result<Chart<'a, 'b>, String> {
    ChartBuilder::on(root)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(y_labels)
        .build_cartesian_2d(x, y)
        .map_err(|e| e.to_string())
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
