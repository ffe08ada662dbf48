//! The allocation PIs of a result document (`allocations`, `allocated_bytes`) and its
//! `allocations` section, written from a session's estimate.

use crate::checks::figure;
use crate::session::Estimate;
use crate::session::allocations::{AllocationsEstimate, CountPi};
use pilot_format::{AllocationsDoc, CiDoc, PiDoc};

/// How the allocation PIs were counted, with the share of the time per unit that counting
/// costs (`cost_ns` per allocation, times the allocations per unit).
pub(super) fn allocations_doc(
    a: &AllocationsEstimate,
    estimate: Option<&Estimate>,
) -> AllocationsDoc {
    AllocationsDoc {
        reallocations: figure(a.reallocations),
        deallocations: figure(a.deallocations),
        cost_ns: a.cost_ns,
        share_of_unit: a
            .cost_ns
            .zip(estimate.filter(|e| e.mean > 0.0))
            .map(|(cost, e)| figure(cost * a.allocations.mean / e.mean)),
    }
}

/// The allocation PIs ([`pilot_format::ALLOCATION_PIS`]) of `a`.
pub(super) fn allocation_pis(a: &AllocationsEstimate) -> [PiDoc; 2] {
    let pi = |name: &str, unit: &str, c: &CountPi| PiDoc {
        name: name.to_string(),
        unit: unit.to_string(),
        mean: Some(c.mean),
        ci: CiDoc {
            low: Some(c.ci.low),
            high: Some(c.ci.high),
            confidence: c.ci.confidence,
        },
        n: c.n,
        subsession_size: c.subsession_size,
        autocorrelation: c.autocorrelation,
        required_n: None,
        interval_from: None,
        reproducibility: None,
        machine: None,
        estimator: None,
    };
    [
        pi("allocations", "allocs", &a.allocations),
        pi("allocated_bytes", "B", &a.bytes),
    ]
}
