//! The table printed at the end of a benchmark run.

use std::fmt::Write;

/// One row of the final table, already formatted.
pub(crate) struct Row {
    pub name: String,
    /// `12.35 µs ± 0.41%`.
    pub time: String,
    /// `1.234 G MiB/s`, or empty.
    pub throughput: String,
    pub samples: String,
    pub subsession: String,
    pub warmup: String,
    pub rounds: String,
    pub wall: String,
    pub status: String,
}

/// Lays rows out in aligned columns under a header that states the confidence level.
pub(crate) fn render_table(rows: &[Row], confidence: f64) -> String {
    let header = [
        "bench".to_string(),
        format!("time per unit ({:.0}% CI)", 100.0 * confidence),
        "throughput".to_string(),
        "samples".to_string(),
        "q".to_string(),
        "warm-up".to_string(),
        "rounds".to_string(),
        "wall".to_string(),
        "status".to_string(),
    ];
    let cells: Vec<[String; 9]> = rows
        .iter()
        .map(|r| {
            [
                r.name.clone(),
                r.time.clone(),
                r.throughput.clone(),
                r.samples.clone(),
                r.subsession.clone(),
                r.warmup.clone(),
                r.rounds.clone(),
                r.wall.clone(),
                r.status.clone(),
            ]
        })
        .collect();
    let widths: Vec<usize> = (0..9)
        .map(|i| {
            cells
                .iter()
                .map(|c| c[i].chars().count())
                .chain([header[i].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in std::iter::once(&header).chain(cells.iter()) {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            let pad = widths[i] - cell.chars().count();
            // Names and statuses read left to right; numbers line up on the right.
            if i == 0 || i == 8 {
                let _ = write!(line, "{cell}{}  ", " ".repeat(pad));
            } else {
                let _ = write!(line, "{}{cell}  ", " ".repeat(pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
