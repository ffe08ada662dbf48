//! The table printed at the end of a benchmark run.

/// What a bench's time is per: a work unit, or one iteration of the micro form's closure (its
/// timed units are batches of iterations, which the user never sees).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimePer {
    /// Per work unit (the full form, a readings-only bench, a program).
    Unit,
    /// Per iteration of the micro form's closure.
    Iteration,
}

impl TimePer {
    /// Per iteration for the micro form (`form` as result documents spell it), else per unit.
    pub(crate) fn of_form(form: &str) -> TimePer {
        if form == "micro" {
            TimePer::Iteration
        } else {
            TimePer::Unit
        }
    }

    fn word(self) -> &'static str {
        match self {
            TimePer::Unit => "unit",
            TimePer::Iteration => "iteration",
        }
    }

    /// The time column's title for rows timed `per`: `time per iteration` when they all are
    /// per iteration, `time per unit` when they all are per unit, `time` for a mix (whose rows
    /// then say each what they are per); `None` for a mix.
    pub(crate) fn title(per: impl IntoIterator<Item = TimePer>) -> Option<String> {
        let mut per = per.into_iter();
        let first = per.next().unwrap_or(TimePer::Unit);
        per.all(|p| p == first)
            .then(|| format!("time per {}", first.word()))
    }
}

/// One row of the final table, already formatted.
pub struct Row {
    /// The bench's name, as the terminal shows it.
    pub name: String,
    /// `12.35 µs ± 0.41%`.
    pub time: String,
    /// What the time is per.
    pub per: TimePer,
    /// `1.234 GiB/s`, `12.00 Kelem/s`, `1.234 M MiB/s`, or empty.
    pub throughput: String,
    /// What the estimate is from: stable readings, or rounds in readings-only mode.
    pub samples: String,
    /// The subsession size `q` the interval was computed with.
    pub subsession: String,
    /// The warm-up class: `flat`, `warm-up`, `slowdown`, `no steady state`, or `-`.
    pub warm_up: String,
    /// Readings cut off as warm-up or cool-down (a count of readings, not a time).
    pub cut: String,
    /// Outliers among the stable readings, `z/MAD` (`-` in readings-only mode).
    pub outliers: String,
    /// Rounds the session ran.
    pub rounds: String,
    /// Process executions the estimate came from.
    pub processes: String,
    /// The session's wall time.
    pub wall: String,
    /// How the session ended (`ok`, `time cap`, …).
    pub status: String,
}

/// The header, the cells and the left-aligned columns of the table: one layout for the
/// terminal and for Markdown. The header states the confidence level and what the times are
/// per (a `per` column when the rows mix iterations and units).
///
/// The counting columns say what they count: `samples` are what the estimate is from (stable
/// readings, or rounds in readings-only mode), `q` the subsession size, `warm-up` the class of
/// the session's start, `readings cut` how many readings were cut off as warm-up or cool-down.
fn layout(rows: &[Row], confidence: f64) -> (Vec<String>, Vec<Vec<String>>, Vec<usize>) {
    let title = TimePer::title(rows.iter().map(|r| r.per));
    let mixed = title.is_none();
    let mut header = vec![
        "bench".to_string(),
        format!(
            "{} ({:.0}% CI)",
            title.as_deref().unwrap_or("time"),
            100.0 * confidence
        ),
    ];
    if mixed {
        header.push("per".to_string());
    }
    header.extend([
        "throughput".to_string(),
        "samples".to_string(),
        "q".to_string(),
        "warm-up".to_string(),
        "readings cut".to_string(),
        "outliers z/MAD".to_string(),
        "rounds".to_string(),
        "procs".to_string(),
        "wall".to_string(),
        "status".to_string(),
    ]);
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut cells = vec![r.name.clone(), r.time.clone()];
            if mixed {
                cells.push(r.per.word().to_string());
            }
            cells.extend([
                r.throughput.clone(),
                r.samples.clone(),
                r.subsession.clone(),
                r.warm_up.clone(),
                r.cut.clone(),
                r.outliers.clone(),
                r.rounds.clone(),
                r.processes.clone(),
                r.wall.clone(),
                r.status.clone(),
            ]);
            cells
        })
        .collect();
    // Names, `per`, warm-up classes and statuses read left to right; numbers line up on the
    // right.
    let left: Vec<usize> = if mixed {
        vec![0, 2, 6, 12]
    } else {
        vec![0, 5, 11]
    };
    (header, cells, left)
}

/// Lays rows out in aligned columns under the header of [`layout`].
pub fn render_table(rows: &[Row], confidence: f64) -> String {
    let (header, cells, left) = layout(rows, confidence);
    crate::fmt::columns(&header, &cells, &left, "")
}

/// The same table in Markdown, for a pull-request comment or a job summary: the header's
/// columns, left-aligned where the terminal table's are; the bench's name a code span nothing
/// in it can close ([`crate::fmt::markdown_code`]), and `|` and control characters in the
/// other cells escaped.
pub(crate) fn render_markdown(rows: &[Row], confidence: f64) -> String {
    let cell = |c: &String| crate::fmt::terminal(c).replace('|', "\\|");
    let line = |cells: &[String]| {
        let cells: Vec<String> = cells.iter().map(cell).collect();
        format!("| {} |\n", cells.join(" | "))
    };
    let (header, cells, left) = layout(rows, confidence);
    let mut out = line(&header);
    let rule: Vec<&str> = (0..header.len())
        .map(|i| if left.contains(&i) { ":--" } else { "--:" })
        .collect();
    out.push_str(&format!("|{}|\n", rule.join("|")));
    for cells in cells {
        let name = crate::fmt::markdown_code(&cells[0]);
        let rest: Vec<String> = cells[1..].iter().map(cell).collect();
        out.push_str(&format!("| {name} | {} |\n", rest.join(" | ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, time: &str, status: &str) -> Row {
        Row {
            name: name.into(),
            time: time.into(),
            per: TimePer::Unit,
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

    #[test]
    fn the_time_column_says_what_it_is_per() {
        let micro = |name: &str| Row {
            per: TimePer::Iteration,
            ..row(name, "84.90 µs ± 0.97%", "ok")
        };
        let t = render_table(&[micro("a"), micro("b")], 0.95);
        assert!(t.starts_with("bench  time per iteration (95% CI)"), "{t}");
        assert!(!t.contains("per unit"), "{t}");
        let t = render_table(&[row("a", "1.0 ns ± 1.00%", "ok")], 0.95);
        assert!(t.starts_with("bench  time per unit (95% CI)"), "{t}");
        // A mix: each row says what its time is per, in a column of its own.
        let t = render_table(&[micro("a"), row("b", "1.0 ns ± 1.00%", "ok")], 0.95);
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[0].starts_with("bench"), "{t}");
        assert!(lines[0].contains(" time (95% CI)  per  "), "{t}");
        assert!(lines[1].contains("± 0.97%  iteration"), "{t}");
        assert!(lines[2].contains("± 1.00%  unit"), "{t}");
        assert!(
            lines[1].ends_with("ok") && lines[0].ends_with("status"),
            "{t}"
        );
    }
}
