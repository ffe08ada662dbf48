//! Comparisons as the `pilot.compare/1` JSON document other tools read.

use crate::compare::{CompareOptions, Comparison};
use pilot_format::{
    COMPARE_SCHEMA, CompareBenchDoc, CompareCountDoc, CompareDoc, ComparePiDoc, RangeDoc,
};

/// The comparisons as a `pilot.compare/1` document:
///
/// ```text
/// {"schema": "pilot.compare/1", "alpha", "noise", "confidence", "correction",
///  "benches": [{"name", "target", "base", "new", "change", "change_ci": {"low", "high"},
///               "p", "p_adjusted", "verdict", "method"}]}
/// ```
///
/// `base` and `new` are mean times per unit in nanoseconds (`null` when absent); `change` is
/// relative, `new / base − 1` (+0.05 is 5% slower); `change_ci` is `null` when unbounded.
/// `p` is each bench's own; `p_adjusted` is it adjusted over the benches tested by
/// `correction` (`holm`, `bh`, `none`), the p its verdict was taken on.
/// With counts on both sides, `instructions` holds their comparison (the same keys, counts
/// per unit for `base` and `new`) and `changed` says what changed: `code`, `environment` or
/// `nothing`. `against` (what the new results were compared with) and `explained` (which
/// functions changed, from both sides' profiles) are the caller's to fill in.
pub fn comparison_doc(comparisons: &[Comparison], options: &CompareOptions) -> CompareDoc {
    let benches = comparisons
        .iter()
        .map(|c| CompareBenchDoc {
            name: c.name.clone(),
            target: c.target.clone(),
            base: c.base.as_ref().map(|e| e.mean),
            new: c.new.as_ref().map(|e| e.mean),
            change: c.change,
            change_ci: c.change_ci.map(|(low, high)| RangeDoc { low, high }),
            p: c.p,
            p_adjusted: c.p_adjusted,
            verdict: c.verdict.as_str().to_string(),
            method: c.method.clone(),
            pairs: c.pairs,
            reason: c.reason.clone(),
            pis: c
                .pis
                .iter()
                .map(|pi| ComparePiDoc {
                    name: pi.name.clone(),
                    unit: pi.unit.clone(),
                    base: pi.base.0,
                    new: pi.new.0,
                    change: pi.change,
                    change_ci: pi.change_ci.map(|(low, high)| RangeDoc { low, high }),
                    p: pi.p,
                    verdict: pi.verdict.as_str().to_string(),
                    method: pi.method.clone(),
                })
                .collect(),
            instructions: c.instructions.as_ref().map(|i| CompareCountDoc {
                base: i.base,
                new: i.new,
                change: i.change.change,
                change_ci: i.change.change_ci.map(|(low, high)| RangeDoc { low, high }),
                p: i.change.p,
                verdict: i.change.verdict.as_str().to_string(),
                method: i.change.method.clone(),
            }),
            changed: crate::compare::what_changed(c).map(|w| w.as_str().to_string()),
            explained: None,
        })
        .collect();
    CompareDoc {
        schema: COMPARE_SCHEMA.to_string(),
        alpha: options.alpha,
        noise: options.noise,
        confidence: comparisons.first().map_or(0.95, |c| c.confidence),
        correction: Some(options.rule.as_str().to_string()),
        method: comparisons
            .iter()
            .any(|c| c.pairs.is_some())
            .then(|| "paired".to_string()),
        against: None,
        benches,
    }
}
