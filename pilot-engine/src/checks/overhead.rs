//! The instrumentation overhead of the full form (Pilot paper §III-C): what recording each
//! unit costs, measured rather than assumed. Between the session's rounds, pairs of extra
//! rounds run the same work with unit recording on and off (off: the closure runs without a
//! clock read), each timed whole; the overhead per unit is the mean of the pairs'
//! `(on − off) / work`, with Student's t interval over the pairs (they are independent: each
//! pair's two rounds run back to back, in alternating order, so the machine's drift cancels
//! within a pair).
//!
//! When: every third round of a full-form bench on one thread whose clock reads take at least
//! 0.1% of a unit (below that, recording cannot matter at any target pilot accepts), at a
//! quarter of the round's work amount. Cost: two quarter-rounds every three rounds, about a
//! sixth more time per session; `--no-overhead-check` skips it.

use super::{Kind, check, figure};
use crate::schema::CheckDoc;
use crate::stats::summary::Summary;

/// Rounds between pairs.
pub(crate) const EVERY: usize = 3;
/// Shortest pair round kept: shorter ones are mostly timer noise.
pub(crate) const MIN_ROUND_NS: f64 = 200_000.0;
/// Share of a unit the clock must take for the pairs to run.
pub(crate) const MIN_CLOCK_SHARE: f64 = 0.001;
/// Share of a unit above which the overhead is a check.
const WARN_SHARE: f64 = 0.01;

/// One pair: the work amount and the two rounds' durations in ns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Pair {
    pub work: u64,
    pub on_ns: f64,
    pub off_ns: f64,
}

/// The overhead per unit found from the pairs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Overhead {
    /// Mean of `(on − off) / work` over the pairs, ns per unit.
    pub per_unit_ns: f64,
    /// Its Student-t interval over the pairs.
    pub low: f64,
    pub high: f64,
    pub confidence: f64,
    pub pairs: usize,
}

/// The overhead from `pairs` at `confidence`; `None` with fewer than 2 pairs.
pub(crate) fn estimate(pairs: &[Pair], confidence: f64) -> Option<Overhead> {
    let d: Vec<f64> = pairs
        .iter()
        .map(|p| (p.on_ns - p.off_ns) / p.work as f64)
        .collect();
    if d.len() < 2 {
        return None;
    }
    let s = Summary::of(&d).ok()?;
    let ci = s.mean_ci(confidence).ok()?;
    Some(Overhead {
        per_unit_ns: s.mean,
        low: ci.low,
        high: ci.high,
        confidence,
        pairs: d.len(),
    })
}

/// The instrumentation overhead check: recording costs more than 1% of a unit (`unit_ns`), and
/// its interval excludes 0.
pub(crate) fn overhead_check(o: &Overhead, unit_ns: f64) -> Option<CheckDoc> {
    let share = o.per_unit_ns / unit_ns;
    (unit_ns > 0.0 && share > WARN_SHARE && o.low > 0.0).then(|| {
        check(
            Kind::InstrumentationOverhead,
            format!(
                "recording each unit costs {} ({}..{}, {} pairs of rounds with recording on and \
                 off), {:.1}% of a unit: the time per unit includes it; time more work per unit, \
                 or use the micro form (`b.iter`), which batches iterations",
                crate::fmt::format_ns(o.per_unit_ns),
                crate::fmt::format_ns(o.low),
                crate::fmt::format_ns(o.high),
                o.pairs,
                100.0 * share
            ),
            serde_json::json!({
                "per_unit_ns": figure(o.per_unit_ns),
                "low_ns": figure(o.low),
                "high_ns": figure(o.high),
                "share": figure(share),
                "pairs": o.pairs,
            }),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_overhead_is_the_mean_of_the_pairs_differences_per_unit() {
        // Differences per unit: (1100 − 1000)/10 = 10, (2300 − 2100)/20 = 10, (1250 − 1000)/10
        // = 25: mean 15, s = 8.660, t(0.975, 2) = 4.303, half-width 4.303 · 8.660 / √3 = 21.5.
        let pairs = [
            Pair {
                work: 10,
                on_ns: 1100.0,
                off_ns: 1000.0,
            },
            Pair {
                work: 20,
                on_ns: 2300.0,
                off_ns: 2100.0,
            },
            Pair {
                work: 10,
                on_ns: 1250.0,
                off_ns: 1000.0,
            },
        ];
        let o = estimate(&pairs, 0.95).unwrap();
        assert!((o.per_unit_ns - 15.0).abs() < 1e-12);
        assert!((o.high - o.per_unit_ns - 21.516).abs() < 1e-2, "{o:?}");
        assert_eq!(o.pairs, 3);
        assert!(estimate(&pairs[..1], 0.95).is_none());
        // 15 ns of 500 ns is 3%, but the interval holds 0: no check.
        assert!(overhead_check(&o, 500.0).is_none());
        let sure = Overhead { low: 5.0, ..o };
        assert_eq!(
            overhead_check(&sure, 500.0).unwrap().kind,
            "instrumentation_overhead"
        );
        assert!(overhead_check(&sure, 5000.0).is_none());
    }
}
