//! How the benches of `--against` are paired: the least pairs, each bench's time budget, and
//! what each process is asked for, from `cargo pilot bench`'s flags.

use std::time::Duration;

use pilot_engine::compare::CompareOptions;
use pilot_engine::settings::{Cap, Confidence, Count, Estimator, Fraction};

use crate::args::BenchArgs;

/// The least pairs of processes per bench (`--processes N` asks for more): six log ratios
/// give a t-test with five degrees of freedom, enough to call a clear change, and an even
/// count balances the ABBA order.
const LEAST_PAIRS: usize = 6;

/// How long one process's session may run: a hundredth of the bench's cap (0.1 s by default),
/// within these bounds. Short processes make many pairs in the cap (more degrees of freedom),
/// and leave less of the machine's drift inside a pair, so an unchanged bench settles sooner
/// than with longer ones (`tests/fixture-bench/against_bars.sh` measures what an unchanged and
/// a slower build cost to settle, and in how many pairs). A bench too slow for the cap (a
/// process ends without an estimate) gets processes twice as long, as often as needed.
pub(crate) const PROCESS_CAP: (Duration, Duration) =
    (Duration::from_millis(100), Duration::from_secs(1));

/// The default time cap of one bench (one build), as in `cargo pilot bench`.
const DEFAULT_CAP: Duration = Duration::from_secs(10);

/// How the benches are paired.
pub struct Plan {
    /// The least pairs (or, for a bench only in the working tree, processes).
    pub least: usize,
    /// The time one bench's pairs may take: the cap of a bench in each build.
    pub budget: Duration,
    /// The time cap of one process's session.
    pub process_cap: Duration,
    /// The target half-width of one process's session: the combined result's target widened
    /// by √(least pairs), since the mean over that many processes narrows it by as much.
    pub process_ci: f64,
    /// The target half-width a combined result is judged against.
    pub target_ci: f64,
    /// `--confidence`, passed on to the processes.
    pub confidence_flag: Option<f64>,
    /// `--no-sampling` and `--no-overhead-check`, passed on to the processes.
    pub no_sampling: bool,
    pub no_overhead_check: bool,
    /// `--estimator`, passed on to the processes.
    pub estimator: Option<Estimator>,
    /// Confidence level of the change's interval.
    pub confidence: f64,
    /// The verdict's thresholds, for the stop rule.
    pub options: CompareOptions,
    /// The benches the suite's rule adjusts over (`--correction`; 1 for none): a change stops
    /// a bench's pairing early only at a p that no bench of the suite would need smaller
    /// ([`pilot_engine::compare::compare_sequential`]).
    pub family: usize,
}

impl Plan {
    /// The plan `cargo pilot bench --against` flags ask for.
    pub fn from_args(args: &BenchArgs) -> Plan {
        let settings = &args.settings;
        let quick = settings.on("quick");
        let cap = settings
            .get::<Cap>("max_time")
            .map(|c| c.0)
            .unwrap_or(if quick {
                Duration::from_secs(2)
            } else {
                DEFAULT_CAP
            });
        let target_ci = settings
            .get::<Fraction>("ci")
            .map(|c| c.0)
            .unwrap_or(if quick { 0.05 } else { 0.01 });
        // `--processes N` asks for more pairs, never fewer: a verdict needs the least the book
        // documents (book/src/comparing.md).
        let least = settings
            .get::<Count>("processes")
            .map_or(LEAST_PAIRS, |n| n.0)
            .max(LEAST_PAIRS);
        let confidence = settings.get::<Confidence>("confidence").map(|c| c.0);
        Plan {
            least,
            budget: 2 * cap,
            process_cap: (cap / 100).clamp(PROCESS_CAP.0, PROCESS_CAP.1),
            process_ci: (target_ci * (least as f64).sqrt()).min(0.5),
            target_ci,
            confidence_flag: confidence,
            estimator: settings.get::<Estimator>("estimator"),
            no_sampling: settings.on("no_sampling"),
            no_overhead_check: settings.on("no_overhead_check"),
            confidence: confidence.unwrap_or(0.95),
            options: args.baselines.thresholds.options(),
            family: 1,
        }
    }
}

/// The time the benches of a suite left unused at their budgets, shared in turn by those
/// whose pairs ran to theirs (the stop rule had not settled them): each gets an equal share of
/// what is left (at most one budget more), and what one does not use goes to the ones after
/// it. The suite never takes more than its benches' budgets together.
pub struct Leftover {
    left: Duration,
    waiting: usize,
    budget: Duration,
}

impl Leftover {
    /// `paired` benches of `budget` each took `spent` in all; `waiting` of them ran to it.
    pub fn new(budget: Duration, paired: usize, spent: Duration, waiting: usize) -> Leftover {
        Leftover {
            left: (budget * paired as u32).saturating_sub(spent),
            waiting,
            budget,
        }
    }

    /// The time left to share.
    pub fn left(&self) -> Duration {
        self.left
    }

    /// The next waiting bench's share, for a bench whose pairs take `pair_time`: `None` when
    /// no bench is waiting or the share would not hold two more pairs (not worth starting).
    pub fn next(&mut self, pair_time: Duration) -> Option<Duration> {
        let share = (self.left / u32::try_from(self.waiting).ok()?.max(1)).min(self.budget);
        self.waiting = self.waiting.checked_sub(1)?;
        (share >= 2 * pair_time && !share.is_zero()).then_some(share)
    }

    /// A bench took `used` of its share.
    pub fn used(&mut self, used: Duration) {
        self.left = self.left.saturating_sub(used);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(secs: u64) -> Duration {
        Duration::from_secs(secs)
    }

    #[test]
    fn the_benches_at_their_budget_share_what_the_settled_left_in_turn() {
        // Ten benches of 20 s took 110 s: 90 s left for three at their budget, 30 s each at first
        // but at most one budget (20 s).
        let mut l = Leftover::new(s(20), 10, s(110), 3);
        assert_eq!(l.left(), s(90));
        assert_eq!(l.next(s(1)), Some(s(20)));
        // The first used only 5 s of its 20: the second gets 85 / 2, held to 20 s.
        l.used(s(5));
        assert_eq!(l.next(s(1)), Some(s(20)));
        l.used(s(20));
        // 65 s left for the last one: one budget.
        assert_eq!(l.next(s(1)), Some(s(20)));
        l.used(s(20));
        assert_eq!(l.next(s(1)), None, "nobody is waiting");
    }

    #[test]
    fn a_share_too_small_for_two_pairs_is_not_given_and_passes_on() {
        // 6 s left for three: 2 s each, and the first bench's pairs take 1.5 s.
        let mut l = Leftover::new(s(10), 2, s(14), 3);
        assert_eq!(l.next(Duration::from_millis(1500)), None);
        // What it did not take is shared by the other two: 3 s each.
        assert_eq!(l.next(Duration::from_millis(500)), Some(s(3)));
    }

    #[test]
    fn the_suite_never_takes_more_than_its_budgets() {
        // Whatever each bench uses of its share (here all of it), the extensions together stay
        // within what the first pass left.
        for spent in [0, 37, 120, 199, 200, 500] {
            let mut l = Leftover::new(s(20), 10, s(spent), 6);
            let mut given = Duration::ZERO;
            while let Some(share) = l.next(Duration::from_millis(100)) {
                given += share;
                l.used(share);
            }
            assert!(
                given <= s(200).saturating_sub(s(spent)),
                "{spent}: {given:?}"
            );
            assert!(given <= s(6 * 20));
        }
    }
}
