//! What a step found: its verdict over the bisected benches, and each comparison's evidence
//! with the error rate of its verdict.

use pilot_engine::compare::{Comparison, Verdict};

/// A commit of GOOD..BAD and what is known of it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum State {
    Untested,
    Good,
    Bad,
    /// It did not build.
    Skipped,
}

/// A step's verdict over the bisected benches: bad when one is slower than GOOD, good when
/// none is; an undecided one (after measuring more) is classed by the nearer level, said so.
pub(super) fn classify(comparisons: &[Comparison], half: f64) -> (State, String) {
    if comparisons.iter().any(|c| c.verdict == Verdict::Regressed) {
        return (State::Bad, String::new());
    }
    if comparisons
        .iter()
        .all(|c| matches!(c.verdict, Verdict::NoChange | Verdict::Improved))
    {
        return (State::Good, String::new());
    }
    let state = if slower(comparisons, half).is_empty() {
        State::Good
    } else {
        State::Bad
    };
    (
        state,
        format!(
            "undecided after measuring more: classed by the nearer level (half the slowdown at \
             BAD is {:+.2}%); this step's error rate is not bounded",
            100.0 * half
        ),
    )
}

/// The comparisons that make a step bad (see [`classify`]): the slower ones, or where none is,
/// those nearer BAD's level than GOOD's (a change past `half`).
pub(super) fn slower(comparisons: &[Comparison], half: f64) -> Vec<&Comparison> {
    let regressed: Vec<&Comparison> = comparisons
        .iter()
        .filter(|c| c.verdict == Verdict::Regressed)
        .collect();
    if !regressed.is_empty() {
        return regressed;
    }
    comparisons
        .iter()
        .filter(|c| c.change.is_some_and(|x| x > half))
        .collect()
}

/// A comparison with its evidence and the error rate of its verdict.
pub(super) fn evidence(
    c: &Comparison,
    confidence: f64,
    options: &pilot_engine::compare::CompareOptions,
) -> String {
    let change = match (c.change, c.change_ci) {
        (Some(x), Some((lo, hi))) => format!(
            "{:+.2}% [{:+.2}%, {:+.2}%]",
            100.0 * x,
            100.0 * lo,
            100.0 * hi
        ),
        (Some(x), None) => format!("{:+.2}%", 100.0 * x),
        _ => "no change measured".into(),
    };
    let p =
        c.p.map_or(String::new(), |p| format!(", {}", pilot_stats::p_clause(p)));
    let error = match c.verdict {
        Verdict::Regressed | Verdict::Improved => {
            let p = pilot_stats::format_p(c.p.unwrap_or(options.alpha));
            let at_most = match p.strip_prefix('<') {
                Some(floor) => format!("< {floor}"),
                None => format!("≤ {p}"),
            };
            format!("error rate {at_most} (p < {})", options.alpha)
        }
        Verdict::NoChange => format!(
            "error rate ≤ {:.1}% (the {:.0}% interval lies within ±{}%)",
            100.0 * (1.0 - confidence) / 2.0,
            100.0 * confidence,
            100.0 * options.noise
        ),
        _ => "no verdict".into(),
    };
    format!(
        "{} ({}): {change}{p}, {} pairs: {}; {error}",
        pilot_engine::fmt::terminal(&c.name),
        pilot_engine::fmt::terminal(&c.target),
        c.pairs.unwrap_or(0),
        c.verdict.as_str()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmp(verdict: Verdict, change: f64) -> Comparison {
        Comparison {
            name: "b".into(),
            target: "t".into(),
            base: None,
            new: None,
            change: Some(change),
            change_ci: None,
            confidence: 0.95,
            p: Some(0.5),
            p_adjusted: None,
            verdict,
            method: String::new(),
            pairs: Some(6),
            reason: None,
            pis: Vec::new(),
            instructions: None,
        }
    }

    #[test]
    fn a_step_is_bad_when_a_bench_is_slower_and_good_when_none_is() {
        assert_eq!(
            classify(&[cmp(Verdict::Regressed, 0.08)], 0.04).0,
            State::Bad
        );
        assert_eq!(
            classify(
                &[cmp(Verdict::NoChange, 0.001), cmp(Verdict::Improved, -0.03)],
                0.04
            )
            .0,
            State::Good
        );
        let (s, how) = classify(&[cmp(Verdict::Undecided, 0.06)], 0.04);
        assert_eq!(s, State::Bad);
        assert!(how.contains("nearer level"), "{how}");
        assert_eq!(
            classify(&[cmp(Verdict::Undecided, 0.01)], 0.04).0,
            State::Good
        );
    }

    #[test]
    fn a_step_classed_bad_by_the_nearer_level_names_the_benches_that_made_it() {
        let both = [cmp(Verdict::Undecided, 0.06), cmp(Verdict::NoChange, 0.001)];
        let named: Vec<f64> = slower(&both, 0.04)
            .iter()
            .filter_map(|c| c.change)
            .collect();
        assert_eq!(named, [0.06]);
        let regressed = [cmp(Verdict::Undecided, 0.06), cmp(Verdict::Regressed, 0.05)];
        let named: Vec<f64> = slower(&regressed, 0.04)
            .iter()
            .filter_map(|c| c.change)
            .collect();
        assert_eq!(named, [0.05], "a slower one is named alone");
        assert!(slower(&[cmp(Verdict::Undecided, 0.01)], 0.04).is_empty());
    }

    #[test]
    fn each_verdict_states_its_error_rate() {
        let o = pilot_engine::compare::CompareOptions::default();
        let e = evidence(&cmp(Verdict::NoChange, 0.001), 0.95, &o);
        assert!(
            e.contains("error rate ≤ 2.5% (the 95% interval lies within ±1%)"),
            "{e}"
        );
        let mut r = cmp(Verdict::Regressed, 0.08);
        r.p = Some(1e-6);
        let e = evidence(&r, 0.95, &o);
        assert!(
            e.contains("p < 0.0001, 6 pairs: regressed; error rate < 0.0001 (p < 0.01)"),
            "{e}"
        );
        r.p = Some(0.003);
        let e = evidence(&r, 0.95, &o);
        assert!(e.contains("error rate ≤ 0.0030 (p < 0.01)"), "{e}");
    }
}
