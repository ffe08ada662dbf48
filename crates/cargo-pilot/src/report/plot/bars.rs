//! Plots of intervals as horizontal bars, one row each: a group's ranking and the changes
//! against a baseline.

use plotters::prelude::*;

use pilot_engine::report::format_ns;

use super::style::{self, Whisker, series_style};
use super::{
    FONT, GREEN_, GREY, PlotResult, RED_, SIZE, bounds, chart, draw, draw_line, rect, svg_sized,
};

/// A group's members as bars, fastest first from the top: each bar its mean time per unit,
/// its interval as whiskers. `members` are `(name, mean, low, high)`, sorted here by mean.
pub fn ranking(members: &[(String, f64, f64, f64)]) -> PlotResult {
    let mut members = members.to_vec();
    members.sort_by(|a, b| a.1.total_cmp(&b.1));
    let members = &members;
    let xs: Vec<f64> = members
        .iter()
        .flat_map(|m| [m.2, m.3])
        .chain([0.0])
        .collect();
    let (_, x_hi) = bounds(&xs);
    let n = members.len();
    let bar = series_style(0).colour;
    svg_sized((SIZE.0, 70 + 34 * n as u32), |root| {
        let mut chart = chart(root, 200, 0.0..x_hi, -0.5..n as f64 - 0.5)?;
        let label = |v: &f64| row_label(*v, n, |i| members[i].0.clone());
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(n.max(1))
            .y_label_formatter(&label)
            .x_label_formatter(&|v| format_ns(*v))
            .x_desc("time per unit (bars: the mean; whiskers: its interval)")
            .label_style((FONT, 13))
            .draw()
            .map_err(|e| e.to_string())?;
        for (i, m) in members.iter().enumerate() {
            let y = (n - 1 - i) as f64;
            draw(&mut chart, rect(0.0, m.1, y - 0.3, y + 0.3, bar.mix(0.75)))?;
        }
        for (i, m) in members.iter().enumerate() {
            let y = (n - 1 - i) as f64;
            style::draw_whisker(
                chart.plotting_area(),
                ((m.2, y), (m.3, y)),
                Whisker::Horizontal,
                BLACK.stroke_width(2),
                14,
            )?;
        }
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
        let mut chart = chart(root, 220, x_lo..x_hi, -0.5..n as f64 - 0.5)?;
        let label = |v: &f64| row_label(*v, n, |i| rows[i].0.clone());
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

/// The y axis's label at `v` of a plot of `n` rows, the first at the top: the name of row `i`
/// (`name(i)`) at its whole number, nothing between.
fn row_label(v: f64, n: usize, name: impl Fn(usize) -> String) -> String {
    let i = v.round();
    if (v - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < n {
        name(n - 1 - i as usize)
    } else {
        String::new()
    }
}
