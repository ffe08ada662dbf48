//! The allocation performance indices of a session: `allocations` and `allocated_bytes` per
//! unit (per iteration in the micro form), from the counts a
//! [`CountingAlloc`](crate::allocations::CountingAlloc) kept of each unit, over the same
//! stable units as the time; and their combination over process executions.

use crate::record::AllocationReadings;
use pilot_stats::ConfidenceInterval;
use pilot_stats::subsession_analysis;
use pilot_stats::summary::t_critical;

use super::RoundRecord;

/// What one round's units allocated, and how many iterations each timed unit held (1 outside
/// the micro form).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RoundAllocations {
    /// Each timed unit's counts, and the round's reallocations and deallocations.
    pub(crate) readings: AllocationReadings,
    /// Iterations per timed unit.
    pub(crate) iterations: u64,
}

/// A count per unit with its interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct CountPi {
    /// Mean count per unit.
    pub(crate) mean: f64,
    /// Its interval: zero width when every unit counted the same.
    pub(crate) ci: ConfidenceInterval,
    /// Units behind it.
    pub(crate) n: usize,
    /// Subsession size of the interval (1 for an exact count).
    pub(crate) subsession_size: usize,
    /// Lag-1 autocorrelation of the subsession samples (0 for an exact count).
    pub(crate) autocorrelation: f64,
}

impl CountPi {
    /// Whether every unit counted the same: the interval has zero width.
    pub(crate) fn exact(&self) -> bool {
        self.ci.low == self.ci.high
    }
}

/// The allocation indices of a session.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct AllocationsEstimate {
    /// `alloc`, `alloc_zeroed` and `realloc` calls per unit.
    pub(crate) allocations: CountPi,
    /// Bytes those calls asked for, per unit.
    pub(crate) bytes: CountPi,
    /// `realloc` calls per unit (counted among `allocations` too), mean only.
    pub(crate) reallocations: f64,
    /// `dealloc` calls per unit, mean only.
    pub(crate) deallocations: f64,
    /// What counting one allocation costs, ns (measured at the start of the run), when known.
    pub(crate) cost_ns: Option<f64>,
}

/// Least `|r1|` subsession analysis accepts for a count's interval (the time's default).
const AUTOCORRELATION_LIMIT: f64 = 0.1;
/// Least subsession samples (the time's default).
const MIN_SUBSESSIONS: usize = 30;

/// The allocation indices of a session whose rounds are `rounds` and whose counts are `counted`
/// (one entry per round, in order, `None` for a round that was not counted): the counts per
/// iteration of each stable unit of the analysed rounds (the units the time's estimate is
/// from), their mean, and its interval at `confidence`. `None` when no stable unit was counted.
///
/// The interval is Pilot's over subsession means (the mean's Student-t interval at the
/// subsession size that leaves |r1| ≤ 0.1), widened for the correlation left; it has zero
/// width when every unit counted the same, as a deterministic workload's do. Time: O(n log n)
/// over the n counted units.
pub(crate) fn estimate_allocations(
    rounds: &[RoundRecord],
    counted: &[Option<RoundAllocations>],
    confidence: f64,
) -> Option<AllocationsEstimate> {
    let mut allocations = Vec::new();
    let mut bytes = Vec::new();
    let (mut reallocations, mut deallocations, mut units) = (0.0, 0.0, 0.0);
    for (record, round) in rounds.iter().zip(counted) {
        let (Some(round), Some((a, b)), true) = (round, record.stable, record.analysed) else {
            continue;
        };
        let r = &round.readings;
        let b = b.min(r.allocations.len()).min(r.bytes.len());
        if a >= b {
            continue;
        }
        let per = round.iterations.max(1) as f64;
        allocations.extend(r.allocations[a..b].iter().map(|&x| x as f64 / per));
        bytes.extend(r.bytes[a..b].iter().map(|&x| x as f64 / per));
        // Reallocations and deallocations are kept per round: spread over its iterations.
        let round_iterations = r.allocations.len() as f64 * per;
        let stable_iterations = (b - a) as f64 * per;
        reallocations += r.reallocations as f64 / round_iterations * stable_iterations;
        deallocations += r.deallocations as f64 / round_iterations * stable_iterations;
        units += stable_iterations;
    }
    Some(AllocationsEstimate {
        allocations: count_pi(&allocations, confidence)?,
        bytes: count_pi(&bytes, confidence)?,
        reallocations: reallocations / units,
        deallocations: deallocations / units,
        cost_ns: None,
    })
}

/// The mean of `xs` (counts per unit, in order) with its interval (see
/// [`estimate_allocations`]); `None` with fewer than 2.
pub(crate) fn count_pi(xs: &[f64], confidence: f64) -> Option<CountPi> {
    if xs.len() < 2 {
        return None;
    }
    if xs.iter().all(|&x| x == xs[0]) {
        return Some(CountPi {
            mean: xs[0],
            ci: ConfidenceInterval {
                low: xs[0],
                high: xs[0],
                confidence,
            },
            n: xs.len(),
            subsession_size: 1,
            autocorrelation: 0.0,
        });
    }
    let s = subsession_analysis(xs, AUTOCORRELATION_LIMIT, MIN_SUBSESSIONS).ok()?;
    let ci = s.adjusted_mean_ci(confidence).ok()?;
    Some(CountPi {
        mean: s.mean(),
        ci,
        n: xs.len(),
        subsession_size: s.size,
        autocorrelation: s.autocorrelation,
    })
}

/// The allocation indices over process executions, each one's estimate in `each`: the mean of
/// the processes' means, exact when every process counted the same exactly, else the wider of
/// Student's t over the process means (k − 1 degrees of freedom) and the processes' own
/// intervals combined (`√(Σ hᵢ²) / k`). `None` unless every process has its estimate.
/// Time: O(k).
pub(crate) fn combine_allocations(
    each: &[Option<AllocationsEstimate>],
    confidence: f64,
) -> Option<AllocationsEstimate> {
    let each: Vec<AllocationsEstimate> = each.iter().copied().collect::<Option<_>>()?;
    let first = *each.first()?;
    let k = each.len() as f64;
    let mean = |f: &dyn Fn(&AllocationsEstimate) -> f64| each.iter().map(f).sum::<f64>() / k;
    let combine = |pick: &dyn Fn(&AllocationsEstimate) -> CountPi| -> CountPi {
        let pis: Vec<CountPi> = each.iter().map(pick).collect();
        let m = pis.iter().map(|p| p.mean).sum::<f64>() / k;
        let n = pis.iter().map(|p| p.n).sum();
        if pis.iter().all(|p| p.exact() && p.mean == pis[0].mean) {
            return CountPi {
                mean: pis[0].mean,
                ci: ConfidenceInterval {
                    low: pis[0].mean,
                    high: pis[0].mean,
                    confidence,
                },
                n,
                subsession_size: 1,
                autocorrelation: 0.0,
            };
        }
        let own = pis
            .iter()
            .map(|p| p.ci.half_width().powi(2))
            .sum::<f64>()
            .sqrt()
            / k;
        let between = if pis.len() >= 2 {
            let var = pis.iter().map(|p| (p.mean - m).powi(2)).sum::<f64>() / (k - 1.0);
            t_critical(confidence, k - 1.0) * (var / k).sqrt()
        } else {
            0.0
        };
        let half = own.max(between);
        CountPi {
            mean: m,
            ci: ConfidenceInterval {
                low: m - half,
                high: m + half,
                confidence,
            },
            n,
            subsession_size: pis.iter().map(|p| p.subsession_size).max().unwrap_or(1),
            autocorrelation: pis[0].autocorrelation,
        }
    };
    Some(AllocationsEstimate {
        allocations: combine(&|e| e.allocations),
        bytes: combine(&|e| e.bytes),
        reallocations: mean(&|e| e.reallocations),
        deallocations: mean(&|e| e.deallocations),
        cost_ns: first.cost_ns,
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn round(stable: Option<(usize, usize)>, analysed: bool) -> RoundRecord {
        RoundRecord {
            work: 4,
            duration: Duration::from_millis(1),
            units: 4,
            iterations: 4,
            stable,
            analysed,
            mean_ns: None,
            bins: None,
            rss_bytes: None,
            end: Duration::ZERO,
            marks: Vec::new(),
            machine: None,
        }
    }

    fn counts(allocations: &[u64], bytes: &[u64], iterations: u64) -> Option<RoundAllocations> {
        Some(RoundAllocations {
            readings: AllocationReadings {
                allocations: allocations.to_vec(),
                bytes: bytes.to_vec(),
                reallocations: 4,
                deallocations: 8,
            },
            iterations,
        })
    }

    #[test]
    fn the_counts_of_stable_units_are_exact_when_every_unit_counted_the_same() {
        // A short round (not analysed) and a warm-up unit (outside the stable range) allocate
        // more: neither is counted. 3 allocations of 4 220 bytes in each stable unit.
        let rounds = [round(None, false), round(Some((1, 4)), true)];
        let counted = [
            counts(&[9, 9, 9, 9], &[1, 1, 1, 1], 1),
            counts(&[7, 3, 3, 3], &[9999, 4220, 4220, 4220], 1),
        ];
        let e = estimate_allocations(&rounds, &counted, 0.95).unwrap();
        assert_eq!(e.allocations.mean, 3.0);
        assert_eq!(e.bytes.mean, 4220.0);
        assert!(e.allocations.exact() && e.bytes.exact());
        assert_eq!((e.allocations.n, e.allocations.ci.low), (3, 3.0));
        // The round's 4 reallocations and 8 deallocations over its 4 units: 1 and 2 a unit.
        assert_eq!((e.reallocations, e.deallocations), (1.0, 2.0));
    }

    #[test]
    fn the_micro_forms_counts_are_per_iteration() {
        let rounds = [round(Some((0, 3)), true)];
        let counted = [counts(&[3000, 3000, 3000], &[0, 0, 0], 1000)];
        let e = estimate_allocations(&rounds, &counted, 0.95).unwrap();
        assert_eq!((e.allocations.mean, e.bytes.mean), (3.0, 0.0));
        assert!(e.bytes.exact());
        // No counted round: no estimate.
        assert!(estimate_allocations(&rounds, &[None], 0.95).is_none());
    }

    #[test]
    fn varying_counts_get_pilots_interval_over_subsession_means() {
        // Units alternate 2 and 4 allocations: mean 3, and a lag-1 autocorrelation of -1 that
        // pairs of units remove (q = 2, every block mean 3): the interval closes on 3.
        let xs: Vec<f64> = (0..100)
            .map(|i| if i % 2 == 0 { 2.0 } else { 4.0 })
            .collect();
        let pi = count_pi(&xs, 0.95).unwrap();
        assert_eq!((pi.mean, pi.subsession_size), (3.0, 2));
        assert!(pi.ci.half_width() < 1e-12, "{:?}", pi.ci);
        // 1 in 10 units allocates once more (units 0, 5, 6, 20, 33, 47, 58, 71, 84, 97): by
        // hand, mean 3.1, s = √(9/99) = 0.301511, r1 = 0.01 so q = 1, and the interval
        // t(0.975, 99) · s/√100 = 1.984217 · 0.0301511, widened by √((1 + ρ)/(1 − ρ)) for the
        // residual correlation ρ = r1 + (1 + 3·r1)/100 = 0.0203: half-width 0.0610534.
        let fours = [0, 5, 6, 20, 33, 47, 58, 71, 84, 97];
        let xs: Vec<f64> = (0..100)
            .map(|i| if fours.contains(&i) { 4.0 } else { 3.0 })
            .collect();
        let pi = count_pi(&xs, 0.95).unwrap();
        assert!((pi.mean - 3.1).abs() < 1e-12);
        assert_eq!(pi.subsession_size, 1);
        assert!((pi.ci.half_width() - 0.0610534).abs() < 1e-6, "{:?}", pi.ci);
        assert!(!pi.exact());
        assert!(count_pi(&[3.0], 0.95).is_none());
    }

    #[test]
    fn processes_combine_exactly_only_when_all_agree_exactly() {
        let rounds = [round(Some((0, 4)), true)];
        let exact = estimate_allocations(&rounds, &[counts(&[3; 4], &[24; 4], 1)], 0.95);
        let both = combine_allocations(&[exact, exact], 0.95).unwrap();
        assert!(both.allocations.exact());
        assert_eq!(both.allocations.n, 8);
        let other = estimate_allocations(&rounds, &[counts(&[5; 4], &[24; 4], 1)], 0.95);
        let mixed = combine_allocations(&[exact, other], 0.95).unwrap();
        // Means 3 and 5: mean 4, sd √2, t(0.975, 1) = 12.706, half-width 12.706 · √2/√2.
        assert_eq!(mixed.allocations.mean, 4.0);
        assert!((mixed.allocations.ci.half_width() - 12.7062).abs() < 1e-3);
        assert!(mixed.bytes.exact());
        assert!(combine_allocations(&[exact, None], 0.95).is_none());
    }
}
