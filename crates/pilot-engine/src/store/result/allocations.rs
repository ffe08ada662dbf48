//! The allocation PIs of a result document (`allocations`, `allocated_bytes`) and its
//! `allocations` section, written from a session's estimate and read back for the combination
//! of a bench's processes.

use crate::checks::figure;
use crate::session::Estimate;
use crate::session::allocations::{AllocationsEstimate, CountPi};
use pilot_format::{AllocationsDoc, CiDoc, PiDoc, ResultDoc};

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

/// The allocation estimate a result document's PIs and `allocations` section state, for the
/// combination of a bench's processes; `None` when the document has none.
pub(crate) fn allocations_of(doc: &ResultDoc) -> Option<AllocationsEstimate> {
    let count = |name: &str| -> Option<CountPi> {
        let pi = doc.pis.iter().find(|p| p.name == name)?;
        Some(CountPi {
            mean: pi.mean?,
            ci: pilot_stats::ConfidenceInterval {
                low: pi.ci.low?,
                high: pi.ci.high?,
                confidence: pi.ci.confidence,
            },
            n: pi.n,
            subsession_size: pi.subsession_size,
            autocorrelation: pi.autocorrelation,
        })
    };
    let section = doc.allocations?;
    Some(AllocationsEstimate {
        allocations: count("allocations")?,
        bytes: count("allocated_bytes")?,
        reallocations: section.reallocations,
        deallocations: section.deallocations,
        cost_ns: section.cost_ns,
    })
}
