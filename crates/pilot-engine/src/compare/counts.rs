//! Two sides' instruction counts compared: Welch's t over their counting processes, Fieller's
//! interval of the relative change, and a verdict that needs a change beyond the counts' own
//! threshold ([`INSTRUCTIONS_NOISE`]).

use super::estimates::{student_t_sf, verdict_of};
use super::{Change, CompareOptions, Comparison, Verdict};
use pilot_stats::Summary;
use pilot_stats::fieller_interval;
use pilot_stats::summary::t_critical;

/// The noise threshold of instruction counts: a change of 0.1% or less is no change. Counts
/// carry no machine noise; what moves them between processes of the same build (addresses,
/// the environment's size, hash seeds) is seen in the processes' spread, which the test
/// weighs. The threshold is for code whose count moves by a few instructions in thousands
/// with the layout, and makes "no change" mean what a reader expects.
pub(crate) const INSTRUCTIONS_NOISE: f64 = 0.001;

/// One bench's instruction counts compared.
#[derive(Debug, Clone, PartialEq)]
pub struct CountComparison {
    /// The base's count per unit (per iteration in the micro form).
    pub(crate) base: f64,
    /// The new count.
    pub(crate) new: f64,
    /// The change and its verdict.
    pub(crate) change: Change,
}

/// Compares the counts of two sides, each the counts per unit of its counting processes
/// (`base` and `new`), at `confidence`, with the verdict's rule of
/// [`compare_estimates`](super::compare_estimates) and `options.instructions_noise` for its
/// threshold.
///
/// Welch's t over the two sides' process counts, with Welch–Satterthwaite's degrees of
/// freedom; a side of one process is one draw from the other side's spread (its variance is
/// the other's, with the other's degrees of freedom); two sides that do not vary at all give
/// p = 0 when their counts differ and 1 when they are equal, and a zero-width interval:
/// their change is then judged by the threshold alone, which is what an exact count allows.
/// Two sides of one process each do the same, the spread unseen (the method says so).
/// `None` when a side is empty, a count is not finite, or the base's is not positive.
/// Time: O(processes).
pub fn compare_counts(
    base: &[f64],
    new: &[f64],
    confidence: f64,
    options: &CompareOptions,
) -> Option<CountComparison> {
    let (b, n) = (Summary::of(base).ok()?, Summary::of(new).ok()?);
    if b.mean <= 0.0 || !n.mean.is_finite() {
        return None;
    }
    // Each side's variance and its degrees of freedom; a single process borrows the other's.
    let spread = |own: &Summary, other: &Summary| match (own.n, other.n) {
        (1, 1) => (0.0, 1.0),
        (1, m) => (other.variance, (m - 1) as f64),
        (k, _) => (own.variance, (k - 1) as f64),
    };
    let (vb, db) = spread(&b, &n);
    let (vn, dn) = spread(&n, &b);
    let (se2_b, se2_n) = (vb / b.n as f64, vn / n.n as f64);
    let total = se2_b + se2_n;
    let dof = if total > 0.0 {
        let denom = se2_b * se2_b / db + se2_n * se2_n / dn;
        if denom > 0.0 {
            total * total / denom
        } else {
            1.0
        }
    } else {
        (db + dn).max(1.0)
    };
    let difference = n.mean - b.mean;
    let p = if total > 0.0 {
        2.0 * student_t_sf((difference / total.sqrt()).abs(), dof)
    } else if difference == 0.0 {
        1.0
    } else {
        0.0
    };
    let change = n.mean / b.mean - 1.0;
    let t = t_critical(confidence, dof);
    let change_ci =
        fieller_interval(n.mean, se2_n, b.mean, se2_b, t).map(|(lo, hi)| (lo - 1.0, hi - 1.0));
    let threshold = CompareOptions {
        noise: options.instructions_noise,
        ..*options
    };
    let method = match (b.n, n.n) {
        (1, 1) => "instructions: one counting process each, their spread between processes \
                   unseen: judged by the threshold alone"
            .to_string(),
        (x, y) => format!("instructions: Welch's t over {x} vs {y} counting processes"),
    };
    Some(CountComparison {
        base: b.mean,
        new: n.mean,
        change: Change {
            change,
            change_ci,
            p: p.min(1.0),
            verdict: verdict_of(change, change_ci, p, &threshold),
            method,
        },
    })
}

/// What a bench's two verdicts, on time and on instructions, say changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WhatChanged {
    /// Instructions and time moved together (the same way): the work the code does changed.
    Code,
    /// Instructions moved and time did not (within its noise, or undecided): the code changed,
    /// by less than the time can show.
    CodeNotTime,
    /// Instructions and time moved opposite ways: the code does more (less) work, yet faster
    /// (slower): its memory or branches changed more than its count.
    CodeAgainstTime,
    /// Time moved and instructions did not: the machine, or the code's layout in memory, not
    /// the work it does.
    Environment,
    /// Neither moved.
    Nothing,
}

impl WhatChanged {
    /// The word tables and documents use: `code`, `environment`, `nothing`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            WhatChanged::Code | WhatChanged::CodeNotTime | WhatChanged::CodeAgainstTime => "code",
            WhatChanged::Environment => "environment",
            WhatChanged::Nothing => "nothing",
        }
    }
}

/// What changed in bench `c`, from its time verdict and its instructions verdict; `None`
/// without counts on both sides, or when either verdict is not a comparison's (a failed, new
/// or missing bench) or instructions are undecided.
pub(crate) fn what_changed(c: &Comparison) -> Option<WhatChanged> {
    let counted = c.instructions.as_ref()?;
    let moved = |v: Verdict| match v {
        Verdict::Regressed => Some(Some(1)),
        Verdict::Improved => Some(Some(-1)),
        Verdict::Environment => Some(Some(if c.change? > 0.0 { 1 } else { -1 })),
        Verdict::NoChange | Verdict::Undecided => Some(None),
        _ => None,
    };
    let time = moved(c.verdict)?;
    let instructions = match counted.change.verdict {
        Verdict::Undecided => return None,
        v => moved(v)?,
    };
    Some(match (instructions, time) {
        (Some(i), Some(t)) if i == t => WhatChanged::Code,
        (Some(_), Some(_)) => WhatChanged::CodeAgainstTime,
        (Some(_), None) => WhatChanged::CodeNotTime,
        (None, Some(_)) => WhatChanged::Environment,
        (None, None) => WhatChanged::Nothing,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::Verdict;

    fn verdict(base: &[f64], new: &[f64]) -> Verdict {
        compare_counts(base, new, 0.95, &CompareOptions::default())
            .unwrap()
            .change
            .verdict
    }

    #[test]
    fn exact_counts_are_judged_by_the_threshold_alone() {
        // 12 519 → 12 582: +0.503%, above 0.1%, no spread: regressed, p = 0, interval a point.
        let c = compare_counts(
            &[12_519.0; 3],
            &[12_582.0; 3],
            0.95,
            &CompareOptions::default(),
        )
        .unwrap();
        assert_eq!(c.change.verdict, Verdict::Regressed);
        assert_eq!(c.change.p, 0.0);
        let (lo, hi) = c.change.change_ci.unwrap();
        let expected = 12_582.0 / 12_519.0 - 1.0;
        assert!((c.change.change - expected).abs() < 1e-15);
        assert!((lo - expected).abs() < 1e-12 && (hi - expected).abs() < 1e-12);
        // The same count: no change, p = 1.
        let same =
            compare_counts(&[12_519.0; 3], &[12_519.0; 3], 0.95, &Default::default()).unwrap();
        assert_eq!(
            (same.change.verdict, same.change.p),
            (Verdict::NoChange, 1.0)
        );
        // 0.08% fewer: within the threshold, no change though significant.
        assert_eq!(verdict(&[10_000.0; 3], &[9_992.0; 3]), Verdict::NoChange);
        assert_eq!(verdict(&[10_000.0; 3], &[9_950.0; 3]), Verdict::Improved);
    }

    #[test]
    fn a_spread_between_processes_must_be_exceeded() {
        // Base 1000, 1002, 1004 (mean 1002, s² = 4); new 1005, 1007, 1009 (mean 1007, s² = 4):
        // difference 5, se² = 4/3 + 4/3 = 8/3, t = 5 / 1.63299 = 3.0619, ν = 4: two-sided
        // p = 0.03759 (Student's t density integrated numerically). +0.499% but p ≥ 0.01, and
        // the interval is not inside ±0.1%: undecided.
        let c = compare_counts(
            &[1000.0, 1002.0, 1004.0],
            &[1005.0, 1007.0, 1009.0],
            0.95,
            &CompareOptions::default(),
        )
        .unwrap();
        assert!((c.change.p - 0.03759).abs() < 1e-4, "{c:?}");
        assert_eq!(c.change.verdict, Verdict::Undecided);
        assert!(c.change.method.contains("3 vs 3 counting processes"));
        // Ten times the difference: significant and beyond the threshold.
        assert_eq!(
            verdict(&[1000.0, 1002.0, 1004.0], &[1050.0, 1052.0, 1054.0]),
            Verdict::Regressed
        );
    }

    #[test]
    fn which_changed_reads_both_verdicts() {
        let with = |time: Verdict, instructions: Option<Verdict>| {
            let c = Comparison {
                name: "a".into(),
                target: String::new(),
                base: None,
                new: None,
                change: None,
                change_ci: None,
                confidence: 0.95,
                p: None,
                p_adjusted: None,
                verdict: time,
                method: String::new(),
                pairs: None,
                reason: None,
                pis: Vec::new(),
                instructions: instructions.map(|v| CountComparison {
                    base: 1.0,
                    new: 1.0,
                    change: Change {
                        change: 0.0,
                        change_ci: None,
                        p: 1.0,
                        verdict: v,
                        method: String::new(),
                    },
                }),
            };
            what_changed(&c)
        };
        use Verdict::*;
        assert_eq!(with(Regressed, Some(Regressed)), Some(WhatChanged::Code));
        assert_eq!(with(Improved, Some(Improved)), Some(WhatChanged::Code));
        assert_eq!(
            with(Improved, Some(Regressed)),
            Some(WhatChanged::CodeAgainstTime)
        );
        assert_eq!(
            with(NoChange, Some(Regressed)),
            Some(WhatChanged::CodeNotTime)
        );
        assert_eq!(
            with(Undecided, Some(Improved)),
            Some(WhatChanged::CodeNotTime)
        );
        assert_eq!(
            with(Regressed, Some(NoChange)),
            Some(WhatChanged::Environment)
        );
        assert_eq!(with(NoChange, Some(NoChange)), Some(WhatChanged::Nothing));
        assert_eq!(with(Regressed, Some(Undecided)), None);
        assert_eq!(with(Regressed, None), None);
        assert_eq!(with(Failed, Some(Regressed)), None);
        assert_eq!(WhatChanged::CodeNotTime.as_str(), "code");
    }

    #[test]
    fn one_process_borrows_the_other_sides_spread() {
        // New is one process at 1010 against 1000, 1002, 1004 (s² = 4): se² = 4/3 + 4 = 16/3,
        // t = 8 / 2.3094 = 3.4641; each side has the base's 2 degrees of freedom, so
        // ν = (16/3)² / ((4/3)²/2 + 4²/2) = 3.2: p = 0.03664 (integrated numerically).
        let c = compare_counts(
            &[1000.0, 1002.0, 1004.0],
            &[1010.0],
            0.95,
            &CompareOptions::default(),
        )
        .unwrap();
        assert!((c.change.p - 0.03664).abs() < 1e-4, "{c:?}");
        let one = compare_counts(&[1000.0], &[1010.0], 0.95, &Default::default()).unwrap();
        assert_eq!(one.change.verdict, Verdict::Regressed);
        assert!(
            one.change
                .method
                .contains("spread between processes unseen")
        );
        assert!(compare_counts(&[], &[1.0], 0.95, &Default::default()).is_none());
        assert!(compare_counts(&[0.0], &[1.0], 0.95, &Default::default()).is_none());
    }
}
