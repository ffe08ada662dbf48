//! A bench's session plots: its unit readings over the rounds, or (without readings) each
//! round's time per work unit, and a readings-only bench's WPS fit.

use plotters::prelude::*;

use pilot_engine::report::format_ns;

use super::{
    BLUE, Chart, FONT, GREY, MAX_BOUNDARIES, ORANGE, PlotResult, RED_, bounds, chart, draw,
    draw_line, legend_patch, percentile, rect, svg,
};

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

/// A bin of readings: `(first reading, readings, min, mean, max)`.
type Bin = (usize, usize, f64, f64, f64);

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
    let (y, clipped) = y_range(rounds, mean);
    svg(|root| {
        let mut chart = chart(root, 80, 0f64..total as f64, y.0..y.1)?;
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
        // Shading first, so the readings are drawn over it.
        let (shaded_removed, shaded_skipped) = shade_rounds(&mut chart, rounds, y)?;
        if let Some(mean) = mean {
            draw_mean(&mut chart, mean, total)?;
        }
        draw_boundaries(&mut chart, rounds, y)?;
        draw_readings(&mut chart, rounds, y)?;
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

/// The readings plot's y axis `(low, high)`, and whether a bin's greatest reading is above it.
fn y_range(rounds: &[RoundView], mean: Option<(f64, f64, f64)>) -> ((f64, f64), bool) {
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
    (((y_lo - pad).max(0.0), y_hi + pad), clipped)
}

/// Shades each round's removed warm-up and cool-down orange and each round left out of the
/// analysis grey, across the axis `y`; says whether anything was shaded each way.
fn shade_rounds(
    chart: &mut Chart<'_, '_>,
    rounds: &[RoundView],
    (y_lo, y_hi): (f64, f64),
) -> Result<(bool, bool), String> {
    let mut shaded_removed = false;
    let mut shaded_skipped = false;
    let mut at = 0usize;
    for r in rounds {
        let (start, end) = (at as f64, (at + r.units) as f64);
        if !r.analysed {
            draw(chart, rect(start, end, y_lo, y_hi, GREY.mix(0.18)))?;
            shaded_skipped = true;
        } else if let Some((a, b)) = r.stable {
            if a > 0 {
                draw(
                    chart,
                    rect(start, (at + a) as f64, y_lo, y_hi, ORANGE.mix(0.25)),
                )?;
                shaded_removed = true;
            }
            if b < r.units {
                draw(
                    chart,
                    rect((at + b) as f64, end, y_lo, y_hi, ORANGE.mix(0.25)),
                )?;
                shaded_removed = true;
            }
        } else {
            // Analysed without a dominant stable phase: all of it unstable.
            draw(chart, rect(start, end, y_lo, y_hi, ORANGE.mix(0.25)))?;
            shaded_removed = true;
        }
        at += r.units;
    }
    Ok((shaded_removed, shaded_skipped))
}

/// The stable mean `(mean, low, high)` as a blue line over its interval's band, across all
/// `total` readings.
fn draw_mean(
    chart: &mut Chart<'_, '_>,
    (m, lo, hi): (f64, f64, f64),
    total: usize,
) -> Result<(), String> {
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
        .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 18, y + 5)], BLUE.mix(0.3).filled()));
    draw_line(
        chart,
        vec![(0.0, m), (total as f64, m)],
        BLUE.stroke_width(2),
    )
}

/// Round boundaries as thin lines: every k-th when there are many.
fn draw_boundaries(
    chart: &mut Chart<'_, '_>,
    rounds: &[RoundView],
    (y_lo, y_hi): (f64, f64),
) -> Result<(), String> {
    let step = rounds.len().div_ceil(MAX_BOUNDARIES).max(1);
    let mut at = 0usize;
    for (i, r) in rounds.iter().enumerate() {
        if i > 0 && i % step == 0 {
            draw_line(
                chart,
                vec![(at as f64, y_lo), (at as f64, y_hi)],
                BLACK.mix(0.25).stroke_width(1),
            )?;
        }
        at += r.units;
    }
    Ok(())
}

/// Each round's readings: the band of least to greatest and the line of means, clamped to the
/// axis `y`.
fn draw_readings(
    chart: &mut Chart<'_, '_>,
    rounds: &[RoundView],
    (y_lo, y_hi): (f64, f64),
) -> Result<(), String> {
    let clamp = |y: f64| y.clamp(y_lo, y_hi);
    let mut at = 0usize;
    let mut labelled = false;
    for r in rounds {
        if !r.bins.is_empty() {
            let centre = |b: &Bin| (at + b.0) as f64 + b.1 as f64 / 2.0;
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
    Ok(())
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
        let mut chart = chart(root, 80, -0.5..n - 0.5, lo..hi)?;
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
        let mut chart = chart(root, 80, 0.0..x_hi, y_lo..y_hi)?;
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
