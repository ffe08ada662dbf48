//! How long the next round should be: trial rounds, short-round doubling, the growing rounds of
//! Pilot's eq. 5 until a first rough result, then rounds sized from the required sample size.

use std::time::Duration;

use super::Estimate;
use super::readings::Readings;
use super::stopping::MAX_ROUND_UNITS;

/// Rounds planned for the first rough result (Pilot eq. 5's `n`).
pub(crate) const FIRST_RESULT_ROUNDS: u32 = 5;

/// Round lengths `s, s + k, s + 2k, …` such that `n` rounds fill `t` (Pilot eq. 5:
/// `k = (2t − 2sn)/(n² − n)`), never shrinking (k ≥ 0). Returns the length of round `i`
/// (0-based) of that schedule.
pub(crate) fn first_result_round(s: Duration, t: Duration, n: u32, i: u32) -> Duration {
    let (s, t, nf) = (s.as_secs_f64(), t.as_secs_f64(), f64::from(n));
    let k = if n > 1 {
        ((2.0 * t - 2.0 * s * nf) / (nf * nf - nf)).max(0.0)
    } else {
        0.0
    };
    Duration::from_secs_f64(s + k * f64::from(i))
}

/// The work amount whose round should last `target`, from the last round's time per work unit
/// (setup included), kept inside `[low, high]` and growing at most ×16 per round so a mistaken
/// estimate cannot cost a whole time cap.
pub(crate) fn work_for(
    target: Duration,
    per_unit: Duration,
    last_work: u64,
    low: u64,
    high: u64,
) -> u64 {
    let per_unit = per_unit.as_secs_f64().max(1e-12);
    let want = (target.as_secs_f64() / per_unit).ceil();
    let capped = want.min(last_work as f64 * 16.0).max(1.0);
    (capped as u64).clamp(low, high.max(low))
}

/// The Pilot paper's sequence of work amounts over `[a, b]` for readings-only workloads: the
/// midpoint, then the midpoints of the two halves, then of the four quarters, … (Fig. 3).
/// Returns the `i`-th (0-based) amount; amounts repeat once the interval is exhausted.
pub(crate) fn bisection_work(a: u64, b: u64, i: u64) -> u64 {
    // Round i sits at level L = floor(log2(i + 1)), position j = i + 1 − 2^L among the 2^L
    // midpoints of that level: a + (2j + 1)(b − a) / 2^(L+1).
    let level = 63 - (i + 1).leading_zeros() as u64;
    let j = i + 1 - (1 << level);
    let span = (b - a) as f64;
    let at = a as f64 + (2 * j + 1) as f64 * span / (1u64 << (level + 1).min(63)) as f64;
    (at.round() as u64).clamp(a, b)
}

impl Readings<'_> {
    /// The work amount of the next round, from the time model of the last one and the samples
    /// the target still needs.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn next_work(
        &self,
        readings_only: bool,
        work: u64,
        duration: Duration,
        (low, high): (u64, u64),
        (first_index, first_len): (usize, Duration),
        estimate: Option<&Estimate>,
        remaining: Duration,
    ) -> u64 {
        let cfg = self.config;
        // Time model of a round: a fixed cost (setup, clock reads) plus the work units. In
        // unit-reading mode the readings say what the units' timed part costs; of the rest of
        // the round's duration, no more than the least untimed part any round had is fixed,
        // and the remainder is paid per unit (inputs made for each unit outside the timing:
        // taken as fixed, it planned rounds many times their length). A round whose
        // units read 0 ns costs its fixed part only, so the model never promises a free round
        // of unbounded work.
        let work_f = work.max(1) as f64;
        let total = duration.as_secs_f64();
        let (fixed, per_unit_s) = if readings_only || self.last_units_ns <= 0.0 {
            (0.0, total / work_f)
        } else {
            let units = (self.last_units_ns * 1e-9).min(total);
            let fixed = (total - units).min(self.least_untimed_s).max(0.0);
            let untimed_per_unit = (total - units - fixed) / work_f;
            (fixed, units / work_f * self.unit_growth + untimed_per_unit)
        };
        let per_unit = Duration::from_secs_f64(per_unit_s.max(1e-12));
        let high = if readings_only {
            high
        } else {
            high.min(MAX_ROUND_UNITS.max(low))
        };
        if readings_only {
            // Bisection over [a, b]; without a user range, b is what a `max_round` round can do.
            let b = if high < u64::MAX / 2 {
                high
            } else {
                work_for(cfg.max_round, per_unit, u64::MAX / 64, low, high)
                    .max(low.saturating_mul(4))
            };
            return bisection_work(low, b.max(low + 1), self.whole.len() as u64);
        }
        let index = (self.rounds.len() - first_index) as u32;
        let target = if index < FIRST_RESULT_ROUNDS {
            first_result_round(first_len, cfg.first_result, FIRST_RESULT_ROUNDS, index)
        } else {
            // Size from the required sample size: the stable readings still missing, scaled up
            // by the share of readings that survive non-stable phase removal; at least a
            // quarter more than we have, so a noisy estimate cannot stall the session.
            let have = self.stable_count as f64;
            if have == 0.0 {
                // Nothing stable yet: longer rounds give a steady state more room to show.
                duration * 2
            } else {
                let kept = (have / self.readings.max(1) as f64).max(0.05);
                let need = estimate
                    .and_then(|e| e.required_n)
                    .map_or(2.0 * have, |n| n as f64);
                let units = (need - have).max(have / 4.0) / kept;
                Duration::from_secs_f64(units * per_unit.as_secs_f64())
            }
        };
        let target = target
            .clamp(cfg.short_round, cfg.max_round)
            .min(remaining.max(cfg.short_round));
        let for_units = Duration::from_secs_f64((target.as_secs_f64() - fixed).max(0.0));
        work_for(for_units.max(per_unit), per_unit, work, low, high)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eq5_fills_the_first_result_time() {
        let s = Duration::from_millis(10);
        let t = Duration::from_secs(1);
        let total: f64 = (0..5)
            .map(|i| first_result_round(s, t, 5, i).as_secs_f64())
            .sum();
        assert!((total - 1.0).abs() < 1e-9, "{total}");
        // k = (2 − 0.1)/(25 − 5) = 0.095: round 1 lasts 0.105 s.
        assert!((first_result_round(s, t, 5, 1).as_secs_f64() - 0.105).abs() < 1e-12);
        // A trial round already longer than t/n: no growth, no shrinking.
        let long = Duration::from_millis(400);
        assert_eq!(first_result_round(long, t, 5, 3), long);
    }

    #[test]
    fn bisection_sequence_matches_fig3() {
        // [0, 16]: 8, then 4 and 12, then 2, 6, 10, 14, then 1, 3, …
        let seq: Vec<u64> = (0..8).map(|i| bisection_work(0, 16, i)).collect();
        assert_eq!(seq, vec![8, 4, 12, 2, 6, 10, 14, 1]);
        assert!((0..200).all(|i| (5..=9).contains(&bisection_work(5, 9, i))));
    }

    #[test]
    fn work_amount_tracks_the_target_duration() {
        let us = Duration::from_micros(1);
        assert_eq!(
            work_for(Duration::from_millis(10), us, 1000, 1, u64::MAX),
            10_000
        );
        // Growth is capped at ×16 of the last round.
        assert_eq!(
            work_for(Duration::from_secs(10), us, 1000, 1, u64::MAX),
            16_000
        );
        assert_eq!(work_for(Duration::from_millis(10), us, 1000, 1, 500), 500);
    }
}
