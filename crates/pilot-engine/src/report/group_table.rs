//! The ranking table of a group, printed after the bench table.

/// One member of a group's ranking, already formatted.
pub(crate) struct GroupRow {
    /// `1`, `2`, …
    pub(crate) rank: String,
    pub(crate) name: String,
    /// `12.35 µs ± 0.41%`.
    pub(crate) time: String,
    /// `1.00×`, `1.34× ± 0.02×`: time relative to the fastest member.
    pub(crate) vs_fastest: String,
    /// The ratio to the member ranked just before, with its interval and that member's name.
    pub(crate) vs_next: String,
    /// Welch's p of that pair.
    pub(crate) p: String,
    /// `slower`, `equivalent` or `undecided`, of this member against the one before it, with
    /// its caveat.
    pub(crate) verdict: String,
}

/// Lays a group's ranking out in aligned columns; `time` titles the time column (`time per
/// iteration`, `time per unit`).
pub(crate) fn render_group(rows: &[GroupRow], time: &str) -> String {
    let header = [
        "#",
        "bench",
        time,
        "vs fastest",
        "vs previous",
        "p",
        "verdict",
    ];
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.rank.clone(),
                r.name.clone(),
                r.time.clone(),
                r.vs_fastest.clone(),
                r.vs_next.clone(),
                r.p.clone(),
                r.verdict.clone(),
            ]
        })
        .collect();
    // Names, comparisons and verdicts read left to right; numbers line up right.
    crate::fmt::columns(&header.map(String::from), &cells, &[1, 4, 6], "  ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranking_columns_line_up() {
        let row = |rank: &str, name: &str, vs: &str, verdict: &str| GroupRow {
            rank: rank.into(),
            name: name.into(),
            time: "1.000 µs ± 0.50%".into(),
            vs_fastest: vs.into(),
            vs_next: String::new(),
            p: String::new(),
            verdict: verdict.into(),
        };
        let t = render_group(
            &[
                row("1", "vec", "1.00×", ""),
                row("2", "linked_list", "1.34× ± 0.02×", "slower"),
            ],
            "time per iteration",
        );
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[0].starts_with("  #  bench"), "{t}");
        assert!(lines[0].contains("  time per iteration  "), "{t}");
        let cells: Vec<&str> = lines[2].split_whitespace().collect();
        assert_eq!(cells[..4], ["2", "linked_list", "1.000", "µs"], "{t}");
        assert!(lines[2].ends_with("slower"), "{t}");
        let end =
            |l: &str, cell: &str| l[..l.find(cell).unwrap()].chars().count() + cell.chars().count();
        assert_eq!(end(lines[1], "1.00×"), end(lines[2], "0.02×"), "{t}");
    }
}
