//! One bench's outcome as it is shown: its line when it finishes, and its row in the table at
//! the end.

use crate::fmt::{format_count, format_estimate, format_ns, format_throughput};
use crate::report::{Row, TimePer};
use crate::session::{SessionResult, Status};
use crate::store::result;

/// How a bench's line is shown: its name padded to `width` (the longest name of the run), in
/// colour or not, with its warnings in full under it (`verbose`) or as markers on it.
#[derive(Debug, Clone, Copy, Default)]
pub struct LineStyle {
    /// Columns the name is padded to.
    pub width: usize,
    /// Colours, or none.
    pub paint: crate::fmt::Paint,
    /// Every warning in full under the line, and what recording a unit cost.
    pub verbose: bool,
}

/// Columns of the estimate on a bench's line (`12.35 µs ± 0.41%` and room for a wider one).
const TIME_WIDTH: usize = 18;

/// Columns of the throughput on a bench's line, when it has one (`1.234 GiB/s`).
const THROUGHPUT_WIDTH: usize = 13;

/// A bench's line: its name, estimate ± this run's interval and where the next run lands (once
/// learnt), throughput, allocations, instructions and estimated cycles when counted, status,
/// and a marker per check
/// that fired on it (`markers`, see [`crate::report::markers`]); a failed bench's line says
/// why (`failure`).
pub fn line(row: &Row, markers: &[&str], failure: Option<&str>, style: LineStyle) -> String {
    let name = crate::fmt::terminal(&row.name);
    let pad = style.width.saturating_sub(name.chars().count());
    let mut out = format!("{name}{}", " ".repeat(pad));
    if let Some(why) = failure {
        let why = crate::fmt::terminal(why.lines().next().unwrap_or(""));
        out.push_str(&format!("  {}: {why}", style.paint.status("FAILED")));
        return out;
    }
    let time_pad = TIME_WIDTH.saturating_sub(row.time.chars().count());
    out.push_str(&format!("  {}{}", " ".repeat(time_pad), row.time));
    if row.time != "-" {
        out.push_str(" this run");
        if !row.run_to_run.is_empty() {
            out.push_str(&format!(", {} run to run", row.run_to_run));
        }
    }
    if !row.throughput.is_empty() {
        let pad = THROUGHPUT_WIDTH.saturating_sub(row.throughput.chars().count());
        out.push_str(&format!("  {}{}", " ".repeat(pad), row.throughput));
    }
    if !row.allocations.is_empty() {
        out.push_str(&format!("  {}", row.allocations));
    }
    if !row.instructions.is_empty() {
        out.push_str(&format!("  instr {}", row.instructions));
    }
    if !row.cycles.is_empty() {
        out.push_str(&format!("  est. cycles {}", row.cycles));
    }
    out.push_str(&format!("  {}", style.paint.status(&row.status)));
    if !markers.is_empty() {
        out.push_str(&format!("  {}", style.paint.warn(&markers.join(" "))));
    }
    out
}

/// Prints bench `row`'s line as it finishes (see [`line()`]), and under it why a program below
/// the shell's resolution has no time; with `style.verbose`, what recording a unit cost and
/// its `warnings` in full (its result document's).
pub fn print_outcome(
    row: &Row,
    markers: &[&str],
    s: &SessionResult,
    warnings: &[String],
    style: LineStyle,
) {
    let failure = match &s.status {
        Status::Failed(msg) => Some(msg.as_str()),
        _ => None,
    };
    crate::outln!("{}", line(row, markers, failure, style));
    if let Status::BelowShellResolution(why) = &s.status {
        // Why there is no time: said whatever the verbosity, as a failure's reason is.
        crate::outln!("  {}", crate::fmt::terminal(why));
    }
    if !style.verbose {
        return;
    }
    if let Some(o) = &s.overhead {
        crate::outln!(
            "  {}",
            overhead_line(o, s.estimate.as_ref().map(|e| e.mean))
        );
    }
    if let Some(a) = &s.allocations {
        crate::outln!(
            "  {}",
            allocations_line(a, s.estimate.as_ref().map(|e| e.mean))
        );
    }
    for w in warnings {
        crate::outln!("  warning: {}", crate::fmt::terminal(w));
    }
}

/// The line under a bench (with `--verbose`) that says what recording a unit cost, with its
/// interval and whether that reached its target; `unit_ns` is the time per unit.
pub(crate) fn overhead_line(o: &crate::checks::overhead::Overhead, unit_ns: Option<f64>) -> String {
    let share = unit_ns
        .filter(|&u| u > 0.0)
        .map(|u| format!(", {:.2}% of a unit", 100.0 * o.per_unit_ns / u))
        .unwrap_or_default();
    let reach = if o.reached() {
        String::new()
    } else {
        format!(
            "; wider than the ±{} aimed at: the session was too short for it (a longer \
             --max-time narrows it)",
            format_ns(o.target_ns)
        )
    };
    format!(
        "recording overhead: {} per unit ({} to {}, {} blocks of rounds on/off){share}{reach}",
        format_ns(o.per_unit_ns),
        format_ns(o.low),
        format_ns(o.high),
        o.blocks
    )
}

/// The line under a bench (with `--verbose`) that says what it allocated per unit, its
/// deallocations and reallocations, and what counting cost; `unit_ns` is the time per unit.
pub(crate) fn allocations_line(
    a: &crate::session::allocations::AllocationsEstimate,
    unit_ns: Option<f64>,
) -> String {
    let cost = match (a.cost_ns, unit_ns.filter(|&u| u > 0.0)) {
        (Some(cost), Some(u)) => format!(
            "; counting costs {cost:.2} ns per allocation, {:.2}% of the time per unit",
            100.0 * cost * a.allocations.mean / u
        ),
        (Some(cost), None) => format!("; counting costs {cost:.2} ns per allocation"),
        _ => String::new(),
    };
    let count = |c: &crate::session::allocations::CountPi| {
        crate::fmt::format_count_estimate(c.mean, c.ci.low, c.ci.high)
    };
    format!(
        "allocations per unit: {} ({} B), {} reallocations among them, {} deallocations{cost}",
        count(&a.allocations),
        count(&a.bytes),
        crate::fmt::format_amount(a.reallocations),
        crate::fmt::format_amount(a.deallocations),
    )
}

/// The table row of a session: bench `name`, its time `per` unit or iteration, its throughput
/// in what `rate` counts.
pub fn row(name: &str, per: TimePer, rate: Option<&result::Rate>, s: &SessionResult) -> Row {
    let (time, throughput, samples, q) = match &s.estimate {
        Some(e) => {
            let time = format_estimate(e.mean, e.ci.low, e.ci.high);
            let throughput = match rate.map(|r| (r, r.bounds(e.mean, e.ci.low, e.ci.high).0)) {
                Some((r, Some(t))) => format_throughput(t, &r.unit),
                _ => String::new(),
            };
            (
                time,
                throughput,
                format_count(e.n),
                e.subsession_size.to_string(),
            )
        }
        None => ("-".into(), String::new(), "-".into(), "-".into()),
    };
    let status = match &s.status {
        Status::Failed(_) => "FAILED".to_string(),
        other => other.as_str().to_string(),
    };
    let allocations = s.allocations.as_ref().map_or(String::new(), |a| {
        let bounds = |c: &crate::session::allocations::CountPi| (c.mean, c.ci.low, c.ci.high);
        crate::report::allocations_cell(bounds(&a.allocations), bounds(&a.bytes))
    });
    Row {
        name: name.to_string(),
        time,
        run_to_run: String::new(),
        per,
        throughput,
        allocations,
        instructions: String::new(),
        cycles: String::new(),
        samples,
        subsession: q,
        warm_up: s.warm_up.map_or("-", |w| w.as_str()).to_string(),
        cut: format_count(s.removed),
        outliers: s.outliers.map_or("-".into(), |o| {
            format!("{}/{}", format_count(o.z), format_count(o.mad))
        }),
        rounds: s.rounds.len().to_string(),
        processes: s.process_means.len().max(1).to_string(),
        wall: format!("{:.1} s", s.elapsed.as_secs_f64()),
        status,
        change: String::new(),
        verdict: None,
    }
}
