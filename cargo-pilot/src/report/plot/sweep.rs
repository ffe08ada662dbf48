//! A parameter sweep's plot: the time per unit against the parameter, on linear or log-log
//! axes.

use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

use pilot_engine::report::format_ns;

use super::{BLUE, FONT, PlotResult, bounds, svg};

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
