//! The cold-start check: the first unit of each round slower than the rest.
//!
//! A bench's setup runs once per round (a micro bench's body once per call, pilot-criterion's
//! closure once per round), and work it leaves undone lands in the round's first unit: memory
//! allocated in setup and touched for the first time (`vec![0; n]` maps zero pages lazily),
//! a cache filled, a lazy value initialised. One slow unit at the start of a round is too short
//! for change-point detection (a phase needs 30 readings), so it stays in the stable phase and
//! in the estimate, where its share depends on how many units a round runs. That is worth
//! knowing: the mean is then not the unit's steady cost, and a harness that runs fewer units per
//! call reports more (criterion, which calls a long bench's function anew for every sample of a
//! few iterations, reported base64's `decode_slice` of a large buffer markedly slower than pilot
//! for this reason; `tests/criterion_bars.sh` runs such benches under both). The readings stay
//! in the estimate; the check says how much they move it.

use super::warmup::median;
use crate::checks::{Kind, check, figure};
use pilot_format::CheckDoc;

/// Least units in a round for its first unit to be judged against the rest.
const MIN_UNITS: usize = 5;
/// A first unit this many times the median of the rest is slow.
const SLOW: f64 = 1.5;
/// Least judged rounds for the check to fire.
const MIN_ROUNDS: usize = 3;
/// Least share of the judged rounds whose first unit was slow.
const MOST_ROUNDS: f64 = 0.8;
/// Least effect on the mean for the check to fire (or the session's target, if wider).
const MIN_EFFECT: f64 = 0.01;

/// The first units of the rounds whose stable phase started at their first unit.
#[derive(Debug, Default)]
pub(crate) struct FirstUnits {
    /// Rounds judged, and among them those whose first unit was slow.
    rounds: usize,
    slow: usize,
    /// Over the slow rounds: the first units' time above the median of the rest, the rounds'
    /// units, their time at that median, and the sum of first / median.
    excess_ns: f64,
    units: usize,
    level_ns: f64,
    ratios: f64,
    /// Over all judged rounds: their time at the median of the rest.
    all_level_ns: f64,
}

impl FirstUnits {
    /// Takes one analysed round's unit readings and its stable phase. Only rounds whose stable
    /// phase includes the first unit are judged (else change-point detection cut it already).
    /// O(n) with a sort of at most 1024 values.
    pub(crate) fn add_round(&mut self, units: &[f64], stable: Option<(usize, usize)>) {
        let Some((0, end)) = stable else {
            return;
        };
        if end < MIN_UNITS {
            return;
        }
        let Some(level) = median(&units[1..end]).filter(|m| *m > 0.0) else {
            return;
        };
        self.rounds += 1;
        let round_level = level * end as f64;
        self.all_level_ns += round_level;
        if units[0] > SLOW * level {
            self.slow += 1;
            self.excess_ns += units[0] - level;
            self.units += end;
            self.level_ns += round_level;
            self.ratios += units[0] / level;
        }
    }

    /// The check, when the first unit was slow in most judged rounds and its excess moves the
    /// mean by more than 1% (or `target`).
    pub(crate) fn check(&self, target: f64) -> Option<CheckDoc> {
        if self.rounds < MIN_ROUNDS || (self.slow as f64) < MOST_ROUNDS * self.rounds as f64 {
            return None;
        }
        let effect = self.excess_ns / self.all_level_ns;
        if effect <= MIN_EFFECT.max(target) {
            return None;
        }
        let ratio = self.ratios / self.slow as f64;
        let per_round = self.units as f64 / self.slow as f64;
        Some(check(
            Kind::ColdStart,
            format!(
                "the first unit of a round took {ratio:.1}× the median of the rest in {} of {} \
                 rounds: work left for it after each setup (memory touched for the first time, \
                 a cache or a lazy value filled); it adds {:+.1}% to the mean at about {per_round:.0} \
                 units a round, so the mean depends on how many units a round runs, and a \
                 harness that runs fewer per call reports more; do that work before timing \
                 starts (e.g. write a buffer once before `b.iter`), or time it on purpose with \
                 `iter_batched`",
                self.slow,
                self.rounds,
                100.0 * effect
            ),
            serde_json::json!({
                "rounds": self.rounds,
                "slow_rounds": self.slow,
                "ratio": figure(ratio),
                "units_per_round": figure(per_round),
                "effect_on_mean": figure(effect),
            }),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rounds of `n` units of 10 ns each, the first `first` ns.
    fn rounds(f: &mut FirstUnits, count: usize, n: usize, first: f64) {
        for _ in 0..count {
            let mut units = vec![10.0; n];
            units[0] = first;
            f.add_round(&units, Some((0, n)));
        }
    }

    #[test]
    fn a_slow_first_unit_in_every_round_is_found_with_its_effect_on_the_mean() {
        let mut f = FirstUnits::default();
        rounds(&mut f, 4, 10, 30.0);
        let c = f.check(0.01).unwrap();
        assert_eq!(c.kind, "cold_start");
        // By hand: each round's excess 20 ns over 10 units at 10 ns (100 ns): +20%.
        assert_eq!(c.figures["effect_on_mean"], 0.2);
        assert_eq!(c.figures["ratio"], 3.0);
        assert_eq!(c.figures["units_per_round"], 10.0);
        assert!(c.message.contains("4 of 4 rounds"), "{}", c.message);
        assert!(c.message.contains("+20.0%"), "{}", c.message);
    }

    #[test]
    fn a_small_effect_few_rounds_or_a_cut_first_unit_do_not_fire() {
        // 3× slower first unit, but 1000 units a round: +0.2%.
        let mut f = FirstUnits::default();
        rounds(&mut f, 5, 1000, 30.0);
        assert!(f.check(0.01).is_none());
        // Two rounds only.
        let mut f = FirstUnits::default();
        rounds(&mut f, 2, 10, 30.0);
        assert!(f.check(0.01).is_none());
        // Slow in half of the rounds only.
        let mut f = FirstUnits::default();
        rounds(&mut f, 3, 10, 30.0);
        rounds(&mut f, 3, 10, 10.0);
        assert!(f.check(0.01).is_none());
        // The stable phase starts after the first unit: change-point detection cut it.
        let mut f = FirstUnits::default();
        for _ in 0..5 {
            let mut units = vec![10.0; 10];
            units[0] = 30.0;
            f.add_round(&units, Some((1, 10)));
        }
        assert!(f.check(0.01).is_none());
        // A wider target than the effect.
        let mut f = FirstUnits::default();
        rounds(&mut f, 4, 10, 30.0);
        assert!(f.check(0.25).is_none());
    }
}
