//! The allocation counts per unit of two results compared (`allocations`, `allocated_bytes`): each with
//! the same test as time ([`compare_estimates`] on the PI's mean and interval), where exact
//! counts (zero-width intervals) on both sides make any change beyond the noise threshold a
//! verdict; a side that counted none is compared by whether the other's interval leaves 0.

use super::{CompareOptions, PiChange, Verdict, compare_estimates};
use crate::store::{SavedPi, SavedResult};

/// The count PIs both `base` and `new` have, compared (in `new`'s order).
pub fn compare_allocations(
    base: &SavedResult,
    new: &SavedResult,
    options: &CompareOptions,
) -> Vec<PiChange> {
    new.counts
        .iter()
        .filter_map(|n| {
            let b = base.counts.iter().find(|b| b.name == n.name)?;
            Some(count_change(b, n, options))
        })
        .collect()
}

/// One count PI compared. A change relative to nothing has no relative size: from 0 to a
/// count whose interval leaves 0 is a regression (and back, an improvement); both 0 is no
/// change. Time: O(1).
pub(super) fn count_change(base: &SavedPi, new: &SavedPi, options: &CompareOptions) -> PiChange {
    let (b, n) = (&base.estimate, &new.estimate);
    let mut change = PiChange {
        name: new.name.clone(),
        unit: new.unit.clone(),
        base: (b.mean, b.low, b.high),
        new: (n.mean, n.low, n.high),
        change: None,
        change_ci: None,
        p: None,
        verdict: Verdict::Undecided,
        method: String::new(),
    };
    if b.mean == 0.0 || n.mean == 0.0 {
        let (zero, other) = if b.mean == 0.0 { (b, n) } else { (n, b) };
        change.verdict = if other.mean == 0.0 {
            change.change = Some(0.0);
            Verdict::NoChange
        } else if other.low > 0.0 && zero.high == 0.0 {
            if b.mean == 0.0 {
                Verdict::Regressed
            } else {
                Verdict::Improved
            }
        } else {
            Verdict::Undecided
        };
        change.method = "a side counted none: a change from or to none is judged by whether the \
                         other side's interval leaves 0"
            .to_string();
        return change;
    }
    let found = compare_estimates(b, n, options);
    let exact = b.low == b.high && n.low == n.high;
    change.change = Some(found.change);
    change.change_ci = found.change_ci;
    change.p = Some(found.p);
    change.verdict = found.verdict;
    change.method = if exact {
        "exact counts: every unit counted the same on both sides, so a change beyond the noise \
         threshold is a verdict"
            .to_string()
    } else {
        format!("{} (of the counts per unit)", found.method)
    };
    change
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn pi(name: &str, mean: f64, half: f64) -> SavedPi {
        SavedPi::of_count(
            name,
            "allocs",
            (mean, mean - half, mean + half, 0.95),
            1000,
            1,
        )
    }

    fn result(counts: Vec<SavedPi>) -> SavedResult {
        SavedResult {
            path: PathBuf::from("r.json"),
            name: "b".into(),
            target: String::new(),
            status: "ok".into(),
            status_detail: None,
            time: None,
            counts,
            finished: None,
            warnings: Vec::new(),
            machine: None,
            timer: "instant".into(),
            instructions: None,
        }
    }

    #[test]
    fn exact_counts_change_by_any_amount_past_the_noise_threshold() {
        let options = CompareOptions::default();
        // 3 to 4 allocations a unit, both exact: +33.3%, p = 0, regressed.
        let c = count_change(
            &pi("allocations", 3.0, 0.0),
            &pi("allocations", 4.0, 0.0),
            &options,
        );
        assert_eq!(c.verdict, Verdict::Regressed);
        assert!((c.change.unwrap() - 1.0 / 3.0).abs() < 1e-12);
        let (lo, hi) = c.change_ci.unwrap();
        assert!((lo - 1.0 / 3.0).abs() < 1e-12 && (hi - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(c.p, Some(0.0));
        assert!(c.method.starts_with("exact counts"), "{}", c.method);
        // Fewer is an improvement; the same count no change.
        let c = count_change(
            &pi("allocations", 4.0, 0.0),
            &pi("allocations", 3.0, 0.0),
            &options,
        );
        assert_eq!(c.verdict, Verdict::Improved);
        let c = count_change(
            &pi("allocations", 3.0, 0.0),
            &pi("allocations", 3.0, 0.0),
            &options,
        );
        assert_eq!((c.verdict, c.change), (Verdict::NoChange, Some(0.0)));
        // 1000 to 1005 is 0.5%: inside the 1% noise threshold, no change.
        let c = count_change(
            &pi("allocated_bytes", 1000.0, 0.0),
            &pi("allocated_bytes", 1005.0, 0.0),
            &options,
        );
        assert_eq!(c.verdict, Verdict::NoChange);
    }

    #[test]
    fn a_side_that_counted_none() {
        let options = CompareOptions::default();
        let c = count_change(
            &pi("allocations", 0.0, 0.0),
            &pi("allocations", 1.0, 0.0),
            &options,
        );
        assert_eq!((c.verdict, c.change), (Verdict::Regressed, None));
        let c = count_change(
            &pi("allocations", 1.0, 0.0),
            &pi("allocations", 0.0, 0.0),
            &options,
        );
        assert_eq!(c.verdict, Verdict::Improved);
        let c = count_change(
            &pi("allocations", 0.0, 0.0),
            &pi("allocations", 0.0, 0.0),
            &options,
        );
        assert_eq!((c.verdict, c.change), (Verdict::NoChange, Some(0.0)));
        // A count whose interval reaches 0 cannot be told from none.
        let c = count_change(
            &pi("allocations", 0.0, 0.0),
            &pi("allocations", 0.01, 0.02),
            &options,
        );
        assert_eq!(c.verdict, Verdict::Undecided);
    }

    #[test]
    fn only_the_counts_both_sides_have_are_compared() {
        let base = result(vec![pi("allocations", 3.0, 0.0)]);
        let new = result(vec![
            pi("allocations", 3.0, 0.0),
            pi("allocated_bytes", 24.0, 0.0),
        ]);
        let found = compare_allocations(&base, &new, &CompareOptions::default());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].name, "allocations");
        // A count with an interval is compared by Welch's t on the intervals' standard errors:
        // 3 ± 0.01 against 3.5 ± 0.01 is far beyond both.
        let c = count_change(
            &pi("allocations", 3.0, 0.01),
            &pi("allocations", 3.5, 0.01),
            &CompareOptions::default(),
        );
        assert_eq!(c.verdict, Verdict::Regressed);
        assert!(c.p.unwrap() < 1e-6);
    }
}
