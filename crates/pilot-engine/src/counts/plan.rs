//! What a counting process is asked to run (its [`CountPlan`], passed in `PILOT_COUNT`), and
//! the label of each of its rounds' dumps ([`RoundLabel`]), which says what the dump counted.

use std::fmt;
use std::str::FromStr;

/// The environment variable that carries a [`CountPlan`] to a bench binary started under
/// callgrind (with `PILOT_CHILD=1`).
pub(crate) const PLAN_VARIABLE: &str = "PILOT_COUNT";

/// How a counting process runs its bench: an uncounted warm-up round, a round of empty units
/// that measures what switching collection on and off costs, then `rounds` counted rounds.
///
/// The full form's rounds are of `work` units each. The micro form's are of `work` units of
/// `iters` iterations in odd rounds and `2 · iters` in even ones, and a readings-only bench's
/// rounds have work amounts `work` and `2 · work` in turn: the difference between two such
/// rounds is the count of the extra iterations alone, every cost of a unit or a round that does
/// not grow with them (the switches, the loop's set-up, the bench function's own set-up) taken
/// out exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountPlan {
    /// Counted rounds, after the warm-up.
    pub(crate) rounds: usize,
    /// Work units per round, or a readings-only bench's smaller work amount.
    pub(crate) work: u64,
    /// The micro form's iterations per unit in odd rounds (1 for the other forms).
    pub(crate) iters: u64,
}

impl fmt::Display for CountPlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "rounds={} work={} iters={}",
            self.rounds, self.work, self.iters
        )
    }
}

impl FromStr for CountPlan {
    type Err = String;

    /// Reads `rounds=R work=W iters=K` (each a whole number, 1 or more).
    fn from_str(s: &str) -> Result<Self, String> {
        let mut plan = CountPlan {
            rounds: 0,
            work: 0,
            iters: 0,
        };
        for word in s.split_whitespace() {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("`{word}` is not KEY=VALUE"))?;
            let n: u64 = value.parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
                format!("`{key}` is `{value}`, expected a whole number, 1 or more")
            })?;
            match key {
                "rounds" => plan.rounds = usize::try_from(n).map_err(|e| e.to_string())?,
                "work" => plan.work = n,
                "iters" => plan.iters = n,
                other => return Err(format!("unknown key `{other}`")),
            }
        }
        if plan.rounds == 0 || plan.work == 0 || plan.iters == 0 {
            return Err(format!(
                "`{s}` lacks one of rounds, work and iters (e.g. `{}`)",
                CountPlan {
                    rounds: 4,
                    work: 1000,
                    iters: 1
                }
            ));
        }
        Ok(plan)
    }
}

/// What one dump of a counting process counted: the label its `CALLGRIND_DUMP_STATS_AT`
/// request gives, `pilot-count KIND INDEX UNITS ITERATIONS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RoundLabel {
    /// The round of empty units (what a unit's two switches cost), or a counted round.
    pub(crate) kind: RoundKind,
    /// The round's number, from 1 (0 for the empty units).
    pub(crate) index: usize,
    /// Units counted: the workload's units, or 1 for a readings-only round counted whole.
    pub(crate) units: u64,
    /// Iterations in each unit: 1 in the full form, the micro form's count, or a
    /// readings-only round's work amount.
    pub(crate) iterations: u64,
}

/// Which round a dump counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RoundKind {
    /// Units with nothing in them: what switching collection on and off costs per unit.
    Empty,
    /// A round of the bench.
    Counted,
}

/// The first word of every label.
const PREFIX: &str = "pilot-count";

impl fmt::Display for RoundLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            RoundKind::Empty => "empty",
            RoundKind::Counted => "round",
        };
        write!(
            f,
            "{PREFIX} {kind} {} {} {}",
            self.index, self.units, self.iterations
        )
    }
}

impl FromStr for RoundLabel {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let [PREFIX, kind, index, units, iterations] = words[..] else {
            return Err(format!("`{s}` is not a pilot round's label"));
        };
        let number = |w: &str| {
            w.parse::<u64>()
                .map_err(|_| format!("`{w}` in the label `{s}` is not a count"))
        };
        Ok(RoundLabel {
            kind: match kind {
                "empty" => RoundKind::Empty,
                "round" => RoundKind::Counted,
                other => return Err(format!("`{other}` in the label `{s}` is not a round kind")),
            },
            index: usize::try_from(number(index)?).map_err(|e| e.to_string())?,
            units: number(units)?,
            iterations: number(iterations)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_reads_back_what_it_writes() {
        let p = CountPlan {
            rounds: 4,
            work: 2048,
            iters: 64,
        };
        assert_eq!(p.to_string(), "rounds=4 work=2048 iters=64");
        assert_eq!(p.to_string().parse::<CountPlan>(), Ok(p));
        assert_eq!(
            "rounds=4 work=0 iters=1".parse::<CountPlan>().unwrap_err(),
            "`work` is `0`, expected a whole number, 1 or more"
        );
        assert_eq!(
            "rounds=4 iters=1".parse::<CountPlan>().unwrap_err(),
            "`rounds=4 iters=1` lacks one of rounds, work and iters (e.g. `rounds=4 work=1000 \
             iters=1`)"
        );
        assert_eq!(
            "rounds=4 work=1 iters=1 speed=2"
                .parse::<CountPlan>()
                .unwrap_err(),
            "unknown key `speed`"
        );
    }

    #[test]
    fn a_label_reads_back_what_it_writes() {
        let l = RoundLabel {
            kind: RoundKind::Counted,
            index: 3,
            units: 1000,
            iterations: 512,
        };
        assert_eq!(l.to_string(), "pilot-count round 3 1000 512");
        assert_eq!(l.to_string().parse::<RoundLabel>(), Ok(l));
        let e = "pilot-count empty 0 1000 1".parse::<RoundLabel>().unwrap();
        assert_eq!(e.kind, RoundKind::Empty);
        assert!("pilot-count round 3 1000".parse::<RoundLabel>().is_err());
        assert!("other round 3 1000 1".parse::<RoundLabel>().is_err());
        assert!("pilot-count round x 1000 1".parse::<RoundLabel>().is_err());
    }
}
