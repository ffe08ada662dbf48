//! A bench's history over commits: the commits along the x axis (oldest first), each run's
//! time as a point on a line, its interval as a band, and each change point as a vertical line
//! before the commit it starts at, with the change written beside it.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use pilot_engine::report::format_ns;

use super::{BLUE, FONT, GREEN_, PlotResult, RED_, bounds, chart, draw_line, svg};

/// One run of the series: its commit's label (first hex digits) and its time, with the
/// interval's bounds (ns).
pub struct HistoryPoint {
    /// The commit, as the axis shows it.
    pub label: String,
    /// The time per unit and its interval.
    pub mean: f64,
    pub low: f64,
    pub high: f64,
}

/// A change point: the index of the first point at the new level, whether it is a slowdown,
/// and its text (`+8.1%`).
pub struct HistoryChange {
    /// Index of the first point at the new level.
    pub at: usize,
    /// Whether it is a slowdown (drawn red; green otherwise).
    pub slower: bool,
    /// What the line is labelled with.
    pub text: String,
}

/// The series `points` with its `changes`.
pub fn history(points: &[HistoryPoint], changes: &[HistoryChange]) -> PlotResult {
    let n = points.len();
    let ys: Vec<f64> = points
        .iter()
        .flat_map(|p| [p.low, p.mean, p.high])
        .collect();
    let (lo, hi) = bounds(&ys);
    svg(|root| {
        let mut chart = chart(root, 80, -0.5..n.max(1) as f64 - 0.5, lo..hi)?;
        // At most about 12 commits labelled, so the labels do not run into each other.
        let every = n.div_ceil(12).max(1);
        let label = |v: &f64| {
            let i = v.round();
            if (v - i).abs() < 1e-6
                && i >= 0.0
                && (i as usize) < n
                && (i as usize).is_multiple_of(every)
            {
                points[i as usize].label.clone()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .x_labels(n.clamp(2, 60))
            .x_label_formatter(&label)
            .y_label_formatter(&|v| format_ns(*v))
            .x_desc("commit (oldest first)")
            .y_desc("time per unit")
            .label_style((FONT, 12))
            .draw()
            .map_err(|e| e.to_string())?;
        // The intervals as one band: the lows left to right, then the highs back.
        let band: Vec<(f64, f64)> = points
            .iter()
            .enumerate()
            .map(|(i, p)| (i as f64, p.low))
            .chain(
                points
                    .iter()
                    .enumerate()
                    .rev()
                    .map(|(i, p)| (i as f64, p.high)),
            )
            .collect();
        chart
            .draw_series(std::iter::once(Polygon::new(band, BLUE.mix(0.18).filled())))
            .map_err(|e| e.to_string())?
            .label("interval")
            .legend(|(x, y)| {
                Rectangle::new([(x, y - 5), (x + 18, y + 5)], BLUE.mix(0.18).filled())
            });
        let line: Vec<(f64, f64)> = points
            .iter()
            .enumerate()
            .map(|(i, p)| (i as f64, p.mean))
            .collect();
        draw_line(&mut chart, line.clone(), BLUE.stroke_width(2))?;
        chart
            .draw_series(
                line.iter()
                    .map(|&(x, y)| Circle::new((x, y), 3, BLUE.filled())),
            )
            .map_err(|e| e.to_string())?
            .label("time per unit")
            .legend(|(x, y)| Circle::new((x + 9, y), 3, BLUE.filled()));
        for c in changes {
            let colour = if c.slower { RED_ } else { GREEN_ };
            let x = c.at as f64 - 0.5;
            draw_line(&mut chart, vec![(x, lo), (x, hi)], colour.stroke_width(2))?;
            let font = TextStyle::from((FONT, 13))
                .color(&colour)
                .pos(Pos::new(HPos::Left, VPos::Top));
            chart
                .draw_series(std::iter::once(Text::new(
                    format!(" {}", c.text),
                    (x, hi),
                    font,
                )))
                .map_err(|e| e.to_string())?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.3))
            .label_font((FONT, 12))
            .draw()
            .map_err(|e| e.to_string())?;
        Ok(())
    })
}
