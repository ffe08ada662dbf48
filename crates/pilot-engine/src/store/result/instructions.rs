//! The counts a bench's result gains under callgrind (`--instructions`): the `instructions`
//! PI, and `estimated_cycles` with a cache simulation.

use crate::counts::CountEstimate;
use pilot_format::{CYCLES_PI, CiDoc, CountsDoc, INSTRUCTIONS_PI, PiDoc, ResultDoc};

/// A count's PI: `name` (`instructions` or `estimated_cycles`) in `unit` per unit, from
/// estimate `e` at `confidence`.
pub(crate) fn count_pi(name: &str, unit: &str, e: &CountEstimate, confidence: f64) -> PiDoc {
    PiDoc {
        name: name.to_string(),
        unit: unit.to_string(),
        mean: Some(e.mean),
        ci: CiDoc {
            low: Some(e.low),
            high: Some(e.high),
            confidence,
        },
        n: e.n,
        subsession_size: 1,
        autocorrelation: 0.0,
        required_n: None,
        interval_from: Some(e.interval_from.to_string()),
        reproducibility: None,
        machine: None,
        estimator: None,
    }
}

/// Adds a bench's counts to its result document `doc`: the `instructions` PI, and
/// `estimated_cycles` with a cache simulation, after the PIs of time; and how they were taken
/// (`counts`). Counts already there are replaced.
pub(crate) fn add_counts(
    doc: &mut ResultDoc,
    instructions: &CountEstimate,
    cycles: Option<&CountEstimate>,
    how: CountsDoc,
    confidence: f64,
) {
    doc.pis
        .retain(|pi| pi.name != INSTRUCTIONS_PI && pi.name != CYCLES_PI);
    doc.pis.push(count_pi(
        INSTRUCTIONS_PI,
        "instructions",
        instructions,
        confidence,
    ));
    if let Some(c) = cycles {
        doc.pis.push(count_pi(CYCLES_PI, "cycles", c, confidence));
    }
    doc.counts = Some(how);
    // Allocation sites only where the timed processes counted allocations (a `CountingAlloc`
    // is installed), as the allocations indices are.
    if doc.allocations.is_none()
        && let Some(p) = doc.counts.as_mut().and_then(|c| c.profile.as_mut())
    {
        p.allocation_sites = None;
    }
}
