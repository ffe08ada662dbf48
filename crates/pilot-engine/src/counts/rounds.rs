//! From a counted round's total to a count per iteration: what an empty unit counted taken
//! off, or a pair of rounds' slope. The bench's total and each function's go through it alike.

use super::error::DumpError;

/// A counted round: its units, iterations per unit, and an event's total over the round.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct CountedRound {
    /// Units counted in the round.
    pub(crate) units: u64,
    /// Iterations in each unit.
    pub(crate) iterations: u64,
    /// The event's total over the round (instructions, or estimated cycles).
    pub(crate) total: f64,
}

/// The per-iteration samples of one process's rounds, given what an empty unit counted
/// (`empty`: the switches around a unit, per unit).
///
/// Rounds are taken in consecutive pairs. A pair whose units hold different iteration counts
/// (the micro form's `k` and `2k`, a readings-only bench's `w` and `2w`) gives one sample, the
/// slope `(total_b/units_b − total_a/units_a) / (iterations_b − iterations_a)`: whatever a unit
/// or a round costs that does not grow with its iterations cancels exactly. Otherwise (the full
/// form, or a batch size that fixes a unit's iterations) each round gives one sample,
/// `(total/units − empty) / iterations`. Errors on a round without units or iterations.
/// Time: O(rounds).
pub(crate) fn per_iteration(empty: f64, rounds: &[CountedRound]) -> Result<Vec<f64>, DumpError> {
    if let Some(r) = rounds.iter().find(|r| r.units == 0 || r.iterations == 0) {
        return Err(DumpError::NothingToDivide {
            units: r.units,
            iterations: r.iterations,
        });
    }
    let per_unit = |r: &CountedRound| r.total / r.units as f64;
    let alone = |r: &CountedRound| (per_unit(r) - empty) / r.iterations as f64;
    let mut out = Vec::new();
    for pair in rounds.chunks(2) {
        match pair {
            [a, b] if a.iterations != b.iterations => {
                out.push((per_unit(b) - per_unit(a)) / (b.iterations as f64 - a.iterations as f64));
            }
            _ => out.extend(pair.iter().map(alone)),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(units: u64, iterations: u64, total: f64) -> CountedRound {
        CountedRound {
            units,
            iterations,
            total,
        }
    }

    #[test]
    fn full_form_rounds_lose_the_empty_units_count() {
        // 1000 units of 1010 instructions each, an empty unit 10: 1000 a unit.
        let s = per_iteration(10.0, &[round(1000, 1, 1_010_000.0); 4]).unwrap();
        assert_eq!(s, [1000.0; 4]);
        // A round of 3 units that counted 3 · 7 + 2 = 23 with empty units of 2: (23/3 − 2).
        let s = per_iteration(2.0, &[round(3, 1, 23.0)]).unwrap();
        assert!((s[0] - (23.0 / 3.0 - 2.0)).abs() < 1e-12);
    }

    #[test]
    fn pairs_of_iteration_counts_give_the_slope() {
        // Units of 100 and 200 iterations of 3 instructions, each unit with 25 of its own
        // (loop set-up, switches): 325 and 625 a unit; (625 − 325) / 100 = 3 exactly, whatever
        // `empty` says.
        let rounds = [
            round(50, 100, 50.0 * 325.0),
            round(50, 200, 50.0 * 625.0),
            round(50, 100, 50.0 * 325.0),
            round(50, 200, 50.0 * 625.0),
        ];
        assert_eq!(per_iteration(999.0, &rounds).unwrap(), [3.0, 3.0]);
        // Readings-only rounds of work 1000 and 2000, counted whole: 5 000 + 4 · 1000 and
        // 5 000 + 4 · 2000 instructions: 4 a unit.
        let rounds = [round(1, 1000, 9_000.0), round(1, 2000, 13_000.0)];
        assert_eq!(per_iteration(0.0, &rounds).unwrap(), [4.0]);
        // A batch size that fixes the iterations: each round alone, less the empty units.
        let rounds = [round(10, 8, 10.0 * 90.0), round(10, 8, 10.0 * 90.0)];
        assert_eq!(per_iteration(10.0, &rounds).unwrap(), [10.0, 10.0]);
        assert!(per_iteration(0.0, &[round(0, 1, 5.0)]).is_err());
    }
}
