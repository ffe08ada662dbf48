//! One bench's outcome as it is shown: its line when it finishes, and its row in the table at
//! the end.

use crate::fmt::{format_count, format_estimate, format_ns, format_throughput};
use crate::report::{Row, TimePer};
use crate::session::{SessionResult, Status};
use crate::store::result;

/// Prints bench `name`'s outcome as it finishes: its estimate (or why it has none), what
/// recording a unit cost, and its warnings.
pub fn print_outcome(name: &str, s: &SessionResult) {
    let name = crate::fmt::terminal(name);
    match (&s.status, &s.estimate) {
        (Status::Failed(msg), _) => println!("{name}: FAILED: {msg}"),
        (status, Some(e)) => println!(
            "{name}: {} ± {:.2}% [{}]",
            format_ns(e.mean),
            100.0 * e.relative_half_width(),
            status.as_str()
        ),
        (status, None) => println!("{name}: no estimate [{}]", status.as_str()),
    }
    if let Some(o) = &s.overhead {
        let share = s
            .estimate
            .as_ref()
            .filter(|e| e.mean > 0.0)
            .map(|e| format!(", {:.2}% of a unit", 100.0 * o.per_unit_ns / e.mean))
            .unwrap_or_default();
        println!(
            "  recording overhead: {} per unit ({} to {}, {} pairs of rounds on/off){share}",
            format_ns(o.per_unit_ns),
            format_ns(o.low),
            format_ns(o.high),
            o.pairs
        );
    }
    for w in &s.warnings {
        println!("  warning: {}", crate::fmt::terminal(w));
    }
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
    Row {
        name: name.to_string(),
        time,
        per,
        throughput,
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
    }
}
