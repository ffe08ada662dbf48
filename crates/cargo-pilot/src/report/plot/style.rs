//! How the alternatives on one chart are told apart: each gets a colour of a palette safe for
//! colour-blind readers, a marker shape and a dash pattern, so that the chart also reads in
//! grey (printed, or by a reader who cannot tell two of the colours apart).

use plotters::coord::CoordTranslate;
use plotters::element::{Circle, Cross, EmptyElement, Polygon};
use plotters::prelude::*;

/// Okabe and Ito's palette ("Color Universal Design", 2002), ordered so that neighbours
/// differ in lightness too; its yellow, hard to see on white, comes last.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),   // blue
    RGBColor(230, 159, 0),   // orange
    RGBColor(0, 158, 115),   // bluish green
    RGBColor(213, 94, 0),    // vermillion
    RGBColor(204, 121, 167), // reddish purple
    RGBColor(86, 180, 233),  // sky blue
    RGBColor(0, 0, 0),       // black
    RGBColor(240, 228, 66),  // yellow
];

/// The dash patterns (SVG `stroke-dasharray`, in pixels), solid first.
const DASHES: [Option<&str>; 4] = [None, Some("7 4"), Some("2 3"), Some("9 3 2 3")];

/// The marker shapes, in the order the alternatives take them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    /// A filled circle.
    Circle,
    /// A filled square.
    Square,
    /// A filled triangle, point up.
    Triangle,
    /// A filled diamond.
    Diamond,
    /// A diagonal cross.
    Cross,
}

const MARKERS: [Marker; 5] = [
    Marker::Circle,
    Marker::Square,
    Marker::Triangle,
    Marker::Diamond,
    Marker::Cross,
];

/// How alternative `i` of a chart is drawn.
#[derive(Debug, Clone, Copy)]
pub struct SeriesStyle {
    /// Its colour.
    pub colour: RGBColor,
    /// Its marker.
    pub marker: Marker,
    /// Its line's dash pattern (`None`: solid).
    pub dash: Option<&'static str>,
}

/// The style of alternative `i`: colour, marker and dash each cycle through their own list,
/// whose lengths (8, 5, 4) make the first 40 combinations distinct.
pub fn series_style(i: usize) -> SeriesStyle {
    SeriesStyle {
        colour: PALETTE[i % PALETTE.len()],
        marker: MARKERS[i % MARKERS.len()],
        dash: DASHES[i % DASHES.len()],
    }
}

/// The colour as SVG writes it (`#0072B2`).
pub fn hex(colour: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", colour.0, colour.1, colour.2)
}

/// Draws `marker` of `colour` on `area`, centred on `at`, `size` pixels across.
pub fn draw_marker<DB: DrawingBackend, CT: CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    at: CT::From,
    marker: Marker,
    colour: RGBColor,
    size: i32,
) -> Result<(), String>
where
    CT::From: Clone + 'static,
{
    let r = size / 2;
    let h = r + 1;
    let fill = colour.filled();
    let shape = EmptyElement::at(at);
    match marker {
        Marker::Circle => area.draw(&(shape + Circle::new((0, 0), r, fill))),
        Marker::Square => area.draw(&(shape + Rectangle::new([(-r, -r), (r, r)], fill))),
        Marker::Triangle => {
            area.draw(&(shape + Polygon::new(vec![(0, -h), (h, h - 1), (-h, h - 1)], fill)))
        }
        Marker::Diamond => {
            area.draw(&(shape + Polygon::new(vec![(0, -h), (h, 0), (0, h), (-h, 0)], fill)))
        }
        Marker::Cross => area.draw(&(shape + Cross::new((0, 0), r, colour.stroke_width(2)))),
    }
    .map_err(|e| e.to_string())
}

/// The direction of an interval's whisker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whisker {
    /// Along the y axis, with horizontal caps.
    Vertical,
    /// Along the x axis, with vertical caps.
    Horizontal,
}

/// Draws an interval from `from` to `to` on `area` as a whisker: a line with a cap `cap`
/// pixels long at each end. (plotters' `ErrorBar` also circles the mean, which would hide a
/// marker's shape.)
pub fn draw_whisker<DB: DrawingBackend, CT: CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    (from, to): (CT::From, CT::From),
    direction: Whisker,
    style: ShapeStyle,
    cap: i32,
) -> Result<(), String>
where
    CT::From: Clone + 'static,
{
    let half = cap / 2;
    let across = match direction {
        Whisker::Vertical => vec![(-half, 0), (half, 0)],
        Whisker::Horizontal => vec![(0, -half), (0, half)],
    };
    area.draw(&PathElement::new(vec![from.clone(), to.clone()], style))
        .map_err(|e| e.to_string())?;
    for end in [from, to] {
        area.draw(&(EmptyElement::at(end) + PathElement::new(across.clone(), style)))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// `svg` with each series' dash pattern set on its lines: plotters' SVG backend has no dashed
/// stroke (its dashed series are many short lines), so the pattern is added to the
/// `<polyline>` elements drawn in the series' colour at `width` pixels, which nothing else on
/// the chart uses. A line stays one element, which a reader (or a test) can find.
pub fn apply_dashes(svg: &str, styles: &[SeriesStyle], width: u32) -> String {
    let mut out = svg.to_string();
    for s in styles {
        if let Some(dash) = s.dash {
            let stroke = format!("stroke=\"{}\" stroke-width=\"{width}\"", hex(s.colour));
            out = out
                .split("<polyline ")
                .enumerate()
                .map(|(i, part)| {
                    if i > 0 && part.split("/>").next().is_some_and(|e| e.contains(&stroke)) {
                        part.replacen(&stroke, &format!("{stroke} stroke-dasharray=\"{dash}\""), 1)
                    } else {
                        part.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join("<polyline ");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_alternatives_differ_in_colour_marker_and_dash() {
        let styles: Vec<SeriesStyle> = (0..4).map(series_style).collect();
        for (i, a) in styles.iter().enumerate() {
            for b in &styles[i + 1..] {
                assert_ne!(a.colour, b.colour);
                assert_ne!(a.marker, b.marker);
                assert_ne!(a.dash, b.dash);
            }
        }
        assert_eq!(hex(series_style(0).colour), "#0072B2");
    }

    #[test]
    fn dashes_go_on_the_series_polylines_only() {
        let s = series_style(1);
        let svg = format!(
            "<polyline fill=\"none\" stroke=\"{c}\" stroke-width=\"2\" points=\"0,0 1,1\"/>\n\
             <line stroke=\"{c}\" stroke-width=\"2\"/>\n\
             <polyline fill=\"none\" stroke=\"{c}\" stroke-width=\"1\" points=\"0,0\"/>\n",
            c = hex(s.colour)
        );
        let out = apply_dashes(&svg, &[series_style(0), s], 2);
        assert_eq!(out.matches("stroke-dasharray=\"7 4\"").count(), 1, "{out}");
        assert!(out.starts_with(
            "<polyline fill=\"none\" stroke=\"#E69F00\" stroke-width=\"2\" stroke-dasharray"
        ));
    }
}
