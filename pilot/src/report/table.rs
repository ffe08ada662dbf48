//! The table printed at the end of a benchmark run.

/// One row of the final table, already formatted.
pub(crate) struct Row {
    pub name: String,
    /// `12.35 µs ± 0.41%`.
    pub time: String,
    /// `1.234 G MiB/s`, or empty.
    pub throughput: String,
    pub samples: String,
    pub subsession: String,
    /// The warm-up class: `flat`, `warm-up`, `slowdown`, `no steady state`, or `-`.
    pub warm_up: String,
    /// Readings cut off as warm-up or cool-down.
    pub cut: String,
    /// Outliers among the stable readings, `z/MAD` (`-` in readings-only mode).
    pub outliers: String,
    pub rounds: String,
    /// Process executions the estimate came from.
    pub processes: String,
    pub wall: String,
    pub status: String,
}

/// Lays rows out in aligned columns under a header that states the confidence level.
pub(crate) fn render_table(rows: &[Row], confidence: f64) -> String {
    let cells: Vec<Vec<String>> = rows.iter().map(Row::cells).collect();
    // Names and statuses read left to right; numbers line up on the right.
    crate::fmt::columns(&header(confidence), &cells, &LEFT, "")
}

/// The columns that read left to right: the name, the warm-up class and the status.
const LEFT: [usize; 3] = [0, 5, 11];

/// The same table in Markdown, for a pull-request comment or a job summary: the header's
/// columns, left-aligned where the terminal table's are, and `|` in a cell escaped.
pub(crate) fn render_markdown(rows: &[Row], confidence: f64) -> String {
    let line = |cells: &[String]| {
        let cells: Vec<String> = cells.iter().map(|c| c.replace('|', "\\|")).collect();
        format!("| {} |\n", cells.join(" | "))
    };
    let header = header(confidence);
    let mut out = line(&header);
    let rule: Vec<&str> = (0..header.len())
        .map(|i| if LEFT.contains(&i) { ":--" } else { "--:" })
        .collect();
    out.push_str(&format!("|{}|\n", rule.join("|")));
    for r in rows {
        let mut cells = r.cells();
        cells[0] = format!("`{}`", cells[0]);
        out.push_str(&line(&cells));
    }
    out
}

impl Row {
    fn cells(&self) -> Vec<String> {
        vec![
            self.name.clone(),
            self.time.clone(),
            self.throughput.clone(),
            self.samples.clone(),
            self.subsession.clone(),
            self.warm_up.clone(),
            self.cut.clone(),
            self.outliers.clone(),
            self.rounds.clone(),
            self.processes.clone(),
            self.wall.clone(),
            self.status.clone(),
        ]
    }
}

fn header(confidence: f64) -> [String; 12] {
    [
        "bench".to_string(),
        format!("time per unit ({:.0}% CI)", 100.0 * confidence),
        "throughput".to_string(),
        "samples".to_string(),
        "q".to_string(),
        "warm-up".to_string(),
        "cut".to_string(),
        "outliers z/MAD".to_string(),
        "rounds".to_string(),
        "procs".to_string(),
        "wall".to_string(),
        "status".to_string(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, time: &str, status: &str) -> Row {
        Row {
            name: name.into(),
            time: time.into(),
            throughput: String::new(),
            samples: "86k".into(),
            subsession: "1".into(),
            warm_up: "flat".into(),
            cut: "0".into(),
            outliers: "2/5".into(),
            rounds: "12".into(),
            processes: "3".into(),
            wall: "1.5 s".into(),
            status: status.into(),
        }
    }

    #[test]
    fn markdown_has_one_row_per_bench_and_escapes_bars() {
        let t = render_markdown(&[row("a|b", "84.90 µs ± 0.97%", "ok")], 0.95);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 3, "{t}");
        assert!(
            lines[0].starts_with("| bench | time per unit (95% CI) | throughput |"),
            "{t}"
        );
        assert_eq!(lines[1].matches('|').count(), 13, "{t}");
        assert!(lines[1].starts_with("|:--|--:|"), "{t}");
        assert!(
            lines[2].starts_with("| `a\\|b` | 84.90 µs ± 0.97% |  | 86k |"),
            "{t}"
        );
        assert!(lines[2].ends_with("| 1.5 s | ok |"), "{t}");
    }

    #[test]
    fn columns_line_up_and_the_header_states_the_confidence() {
        let t = render_table(
            &[
                row("sort_10k", "84.90 µs ± 0.97%", "ok"),
                row("a", "1.0 ns ± 1.00%", "time cap"),
            ],
            0.99,
        );
        let lines: Vec<&str> = t.lines().collect();
        assert!(
            lines[0].starts_with("bench     time per unit (99% CI)"),
            "{t}"
        );
        // Numbers are right-aligned: both time cells end in the same column.
        let end =
            |l: &str, cell: &str| l[..l.find(cell).unwrap()].chars().count() + cell.chars().count();
        assert_eq!(end(lines[1], "0.97%"), end(lines[2], "1.00%"), "{t}");
        // Names and statuses are left-aligned.
        assert!(lines[2].starts_with("a "), "{t}");
        assert!(lines[2].ends_with("time cap"), "{t}");
        assert!(lines[1].ends_with("ok"), "{t}");
    }
}
