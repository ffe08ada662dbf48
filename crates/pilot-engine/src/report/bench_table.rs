//! The table printed at the end of a benchmark run.

use crate::compare::Verdict;
use crate::fmt::Paint;

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
    /// Per iteration for the micro form , else per unit.
    pub(crate) fn of_form(form: pilot_format::Form) -> TimePer {
        if form == pilot_format::Form::Micro {
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
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The bench's name, as the terminal shows it.
    pub name: String,
    /// `12.35 µs ± 0.41%`: this run's estimate and interval.
    pub time: String,
    /// Where the next run's estimate lands, `±2.41%`; empty while it is not learnt.
    pub run_to_run: String,
    /// What the time is per.
    pub per: TimePer,
    /// `1.234 GiB/s`, `12.00 Kelem/s`, `1.234 M MiB/s`, or empty.
    pub throughput: String,
    /// Allocations and bytes per unit (`3 allocs, 4,220 B`), when a `CountingAlloc` counted
    /// them; else empty.
    pub allocations: String,
    /// Instructions per unit (per iteration) counted under callgrind, `12,519 ± 0.00%`; empty
    /// when not counted.
    pub instructions: String,
    /// Cycles per unit estimated from callgrind's cache simulation; empty without one.
    pub cycles: String,
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
    /// The change against the baseline and its verdict (`+3.2% regressed`), or empty.
    pub change: String,
    /// The verdict `change` ends with, which colours it (regressed red, improved green); `None`
    /// without a comparison.
    pub verdict: Option<Verdict>,
}

/// The columns of the end table: the ones a person compares (bench, time with its interval,
/// throughput, change against the baseline, status), or with `wide` every one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Bench,
    Time,
    RunToRun,
    Per,
    Throughput,
    Allocations,
    Instructions,
    Cycles,
    Samples,
    Subsession,
    WarmUp,
    Cut,
    Outliers,
    Rounds,
    Processes,
    Wall,
    Change,
    Status,
}

impl Column {
    fn title(self) -> &'static str {
        match self {
            Column::Bench => "bench",
            Column::Time => "time",
            Column::RunToRun => "run to run",
            Column::Per => "per",
            Column::Throughput => "throughput",
            Column::Allocations => "allocations",
            Column::Instructions => "instructions",
            Column::Cycles => "est. cycles",
            Column::Samples => "samples",
            Column::Subsession => "q",
            Column::WarmUp => "warm-up",
            Column::Cut => "readings cut",
            Column::Outliers => "outliers z/MAD",
            Column::Rounds => "rounds",
            Column::Processes => "procs",
            Column::Wall => "wall",
            Column::Change => "change",
            Column::Status => "status",
        }
    }

    /// Whether the column reads left to right (names, words) rather than lining numbers up on
    /// the right.
    fn left(self) -> bool {
        matches!(
            self,
            Column::Bench | Column::Per | Column::WarmUp | Column::Change | Column::Status
        )
    }

    fn cell(self, r: &Row) -> String {
        match self {
            Column::Bench => r.name.clone(),
            Column::Time => r.time.clone(),
            Column::RunToRun => r.run_to_run.clone(),
            Column::Per => r.per.word().to_string(),
            Column::Throughput => r.throughput.clone(),
            Column::Allocations => r.allocations.clone(),
            Column::Instructions => r.instructions.clone(),
            Column::Cycles => r.cycles.clone(),
            Column::Samples => r.samples.clone(),
            Column::Subsession => r.subsession.clone(),
            Column::WarmUp => r.warm_up.clone(),
            Column::Cut => r.cut.clone(),
            Column::Outliers => r.outliers.clone(),
            Column::Rounds => r.rounds.clone(),
            Column::Processes => r.processes.clone(),
            Column::Wall => r.wall.clone(),
            Column::Change => r.change.clone(),
            Column::Status => r.status.clone(),
        }
    }
}

/// The columns shown for `rows`: `run to run` only when a row has learnt it, a `per` column only
/// when the rows mix iterations and units, throughput, allocations, instructions, estimated
/// cycles and change only when a row has one; with `wide`, the counting columns too
/// (`samples` the estimate is from, `q` the subsession size, the `warm-up` class, `readings
/// cut` as warm-up or cool-down, outliers, rounds, processes, wall time).
fn columns_of(rows: &[Row], wide: bool) -> Vec<Column> {
    let mixed = TimePer::title(rows.iter().map(|r| r.per)).is_none();
    let any = |f: fn(&Row) -> &String| rows.iter().any(|r| !f(r).is_empty());
    let mut out = vec![Column::Bench, Column::Time];
    if any(|r| &r.run_to_run) {
        out.push(Column::RunToRun);
    }
    if mixed {
        out.push(Column::Per);
    }
    if wide || any(|r| &r.throughput) {
        out.push(Column::Throughput);
    }
    if any(|r| &r.allocations) {
        out.push(Column::Allocations);
    }
    if any(|r| &r.instructions) {
        out.push(Column::Instructions);
    }
    if any(|r| &r.cycles) {
        out.push(Column::Cycles);
    }
    if wide {
        out.extend([
            Column::Samples,
            Column::Subsession,
            Column::WarmUp,
            Column::Cut,
            Column::Outliers,
            Column::Rounds,
            Column::Processes,
            Column::Wall,
        ]);
    }
    if any(|r| &r.change) {
        out.push(Column::Change);
    }
    out.push(Column::Status);
    out
}

/// The header, the cells and the left-aligned columns of the table: one layout for the
/// terminal and for Markdown. The header states the confidence level, that the interval is
/// this run's, and what the times are per (a `per` column when the rows mix iterations and
/// units).
fn layout(
    rows: &[Row],
    confidence: f64,
    wide: bool,
) -> (Vec<String>, Vec<Vec<String>>, Vec<usize>) {
    let title = TimePer::title(rows.iter().map(|r| r.per));
    let columns = columns_of(rows, wide);
    let header = columns
        .iter()
        .map(|c| match c {
            Column::Time => format!(
                "{} ({:.0}% CI, this run)",
                title.as_deref().unwrap_or("time"),
                100.0 * confidence
            ),
            Column::RunToRun => format!("run to run ({:.0}%)", 100.0 * confidence),
            c => c.title().to_string(),
        })
        .collect();
    let cells = rows
        .iter()
        .map(|r| columns.iter().map(|c| c.cell(r)).collect())
        .collect();
    let left = (0..columns.len()).filter(|&i| columns[i].left()).collect();
    (header, cells, left)
}

/// Lays rows out in aligned columns under the header of [`layout`]: the columns a person
/// compares, or every one (`wide`). Statuses and verdicts are coloured by `paint`.
pub fn render_table(rows: &[Row], confidence: f64, wide: bool, paint: Paint) -> String {
    let (header, cells, left) = layout(rows, confidence, wide);
    let text = crate::fmt::columns(&header, &cells, &left, "");
    if !paint.is_on() {
        return text;
    }
    // Colour after the layout, so escape codes never count towards a width: the status is
    // each row's last cell.
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        match i.checked_sub(1).and_then(|r| rows.get(r)) {
            Some(r) if line.ends_with(r.status.as_str()) => {
                let head = &line[..line.len() - r.status.len()];
                let head = match r.change.as_str() {
                    "" => head.to_string(),
                    change => match head.rfind(change) {
                        Some(at) => format!(
                            "{}{}{}",
                            &head[..at],
                            paint_change(change, r.verdict, paint),
                            &head[at + change.len()..]
                        ),
                        None => head.to_string(),
                    },
                };
                out.push_str(&format!("{head}{}\n", paint.status(&r.status)));
            }
            _ => out.push_str(&format!("{line}\n")),
        }
    }
    out
}

/// A change cell coloured by its `verdict`: regressed red, improved green.
fn paint_change(change: &str, verdict: Option<Verdict>, paint: Paint) -> String {
    match verdict {
        Some(Verdict::Regressed) => paint.bad(change),
        Some(Verdict::Improved) => paint.good(change),
        _ => change.to_string(),
    }
}

/// The allocations cell of a bench whose allocations and bytes per unit are `(mean, low,
/// high)` each: `3 allocs, 4,220 B` for exact counts, with the relative half-width where the
/// units counted differently (`3.10 ± 1.94% allocs, 4,220 B`).
pub(crate) fn allocations_cell(allocations: (f64, f64, f64), bytes: (f64, f64, f64)) -> String {
    let count =
        |(mean, low, high): (f64, f64, f64)| crate::fmt::format_count_estimate(mean, low, high);
    let one = allocations == (1.0, 1.0, 1.0);
    format!(
        "{} {}, {} B",
        count(allocations),
        if one { "alloc" } else { "allocs" },
        count(bytes)
    )
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
    let (header, cells, left) = layout(rows, confidence, true);
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
            run_to_run: String::new(),
            per: TimePer::Unit,
            throughput: String::new(),
            allocations: String::new(),
            instructions: String::new(),
            cycles: String::new(),
            samples: "86k".into(),
            subsession: "1".into(),
            warm_up: "flat".into(),
            cut: "0".into(),
            outliers: "2/5".into(),
            rounds: "12".into(),
            processes: "3".into(),
            wall: "1.5 s".into(),
            status: status.into(),
            change: String::new(),
            verdict: None,
        }
    }

    #[test]
    fn markdown_has_one_row_per_bench_and_escapes_bars() {
        let t = render_markdown(&[row("a|b", "84.90 µs ± 0.97%", "ok")], 0.95);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 3, "{t}");
        assert!(
            lines[0].starts_with("| bench | time per unit (95% CI, this run) | throughput |"),
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
            true,
            Paint::plain(),
        );
        let lines: Vec<&str> = t.lines().collect();
        assert!(
            lines[0].starts_with("bench     time per unit (99% CI, this run)"),
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
    fn the_compact_table_has_the_columns_a_person_compares() {
        let mut a = row("sort_10k", "84.90 µs ± 0.97%", "ok");
        a.throughput = "1.2 GiB/s".into();
        let b = row("a", "1.0 ns ± 1.00%", "time cap");
        let t = render_table(&[a.clone(), b.clone()], 0.95, false, Paint::plain());
        let header = t.lines().next().unwrap();
        let words: Vec<&str> = header.split("  ").filter(|w| !w.is_empty()).collect();
        assert_eq!(
            words,
            [
                "bench",
                " time per unit (95% CI, this run)",
                "throughput",
                "status"
            ],
            "{t}"
        );
        // Without throughput nor a baseline, neither column is shown.
        let t = render_table(std::slice::from_ref(&b), 0.95, false, Paint::plain());
        assert!(
            t.starts_with("bench  time per unit (95% CI, this run)  status\n"),
            "{t}"
        );
        // With a baseline, the change and its verdict, coloured by it.
        a.change = "+12.0% regressed".into();
        a.verdict = Some(Verdict::Regressed);
        let t = render_table(&[a, b], 0.95, false, Paint::new(true));
        assert!(t.lines().next().unwrap().contains("change"), "{t}");
        assert!(
            t.contains("\u{1b}[31m\u{1b}[1m+12.0% regressed\u{1b}[0m"),
            "{t:?}"
        );
        assert!(t.contains("\u{1b}[33mtime cap\u{1b}[0m"), "{t:?}");
    }

    #[test]
    fn the_run_to_run_column_shows_once_a_row_has_learnt_it() {
        let mut a = row("sort_10k", "84.90 µs ± 0.97%", "ok");
        let b = row("a", "1.0 ns ± 1.00%", "ok");
        let t = render_table(&[a.clone(), b.clone()], 0.95, false, Paint::plain());
        assert!(!t.contains("run to run"), "{t}");
        a.run_to_run = "±2.41%".into();
        let t = render_table(&[a, b], 0.95, false, Paint::plain());
        let lines: Vec<&str> = t.lines().collect();
        let words: Vec<&str> = lines[0].split("  ").filter(|w| !w.is_empty()).collect();
        assert_eq!(
            words,
            [
                "bench",
                " time per unit (95% CI, this run)",
                "run to run (95%)",
                "status"
            ],
            "{t}"
        );
        // Numbers right-aligned under their header, a row that has not learnt it blank.
        assert!(
            lines[1].contains("84.90 µs ± 0.97%            ±2.41%  ok"),
            "{t}"
        );
        assert!(
            lines[2].ends_with("1.0 ns ± 1.00%                    ok"),
            "{t}"
        );
    }

    #[test]
    fn allocations_show_when_a_bench_counted_them() {
        assert_eq!(
            allocations_cell((3.0, 3.0, 3.0), (4220.0, 4220.0, 4220.0)),
            "3 allocs, 4,220 B"
        );
        assert_eq!(
            allocations_cell((3.1, 3.04, 3.16), (24.0, 24.0, 24.0)),
            "3.10 ± 1.94% allocs, 24 B"
        );
        assert_eq!(
            allocations_cell((1.0, 1.0, 1.0), (800.0, 800.0, 800.0)),
            "1 alloc, 800 B"
        );
        let mut a = row("a", "1.0 ns ± 1.00%", "ok");
        let b = row("b", "1.0 ns ± 1.00%", "ok");
        a.allocations = "0 allocs, 0 B".into();
        let t = render_table(&[a, b.clone()], 0.95, false, Paint::plain());
        let words: Vec<&str> = t.lines().next().unwrap().split("  ").collect();
        assert!(words.contains(&"allocations"), "{t}");
        assert!(t.lines().nth(1).unwrap().contains("0 allocs, 0 B"), "{t}");
        let t = render_table(&[b], 0.95, true, Paint::plain());
        assert!(!t.contains("allocations"), "{t}");
    }

    #[test]
    fn the_time_column_says_what_it_is_per() {
        let micro = |name: &str| Row {
            per: TimePer::Iteration,
            ..row(name, "84.90 µs ± 0.97%", "ok")
        };
        let t = render_table(&[micro("a"), micro("b")], 0.95, true, Paint::plain());
        assert!(
            t.starts_with("bench  time per iteration (95% CI, this run)"),
            "{t}"
        );
        assert!(!t.contains("per unit"), "{t}");
        let t = render_table(
            &[row("a", "1.0 ns ± 1.00%", "ok")],
            0.95,
            true,
            Paint::plain(),
        );
        assert!(
            t.starts_with("bench  time per unit (95% CI, this run)"),
            "{t}"
        );
        // A mix: each row says what its time is per, in a column of its own.
        let t = render_table(
            &[micro("a"), row("b", "1.0 ns ± 1.00%", "ok")],
            0.95,
            true,
            Paint::plain(),
        );
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[0].starts_with("bench"), "{t}");
        assert!(lines[0].contains(" time (95% CI, this run)  per  "), "{t}");
        assert!(lines[1].contains("± 0.97%  iteration"), "{t}");
        assert!(lines[2].contains("± 1.00%  unit"), "{t}");
        assert!(
            lines[1].ends_with("ok") && lines[0].ends_with("status"),
            "{t}"
        );
    }
}
