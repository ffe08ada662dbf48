//! Benches the machine's changes leave where they were. The machine's series is the benches'
//! median shift, and a host's states do not move every workload alike: a memory-bound bench
//! can swing by a fifth between two states of the host while a loop that stays in registers
//! does not move. A change of such a bench beside a machine change is its own, and reading it
//! as the machine's hides the commit that made it: a new build lays out every bench of its
//! executable anew, so the neighbours of a bench whose code changed often move in the same
//! runs, and their median reads as a machine change at the very commit.

use pilot_stats::summary::t_quantile;

use super::Axis;

/// Least steps of one executable the slope is read from.
const MIN_STEPS: usize = 8;

/// Least machine changes among those steps: one change read alone is one step of the bench's
/// noise, which a busier host makes larger than the quiet steps the bound's `s` is read from.
const MIN_CHANGES: usize = 2;

/// The slope's upper bound, below which the machine leaves a bench where it was.
const MOVED: f64 = 0.5;

/// Whether the machine's changes leave member `m` where it was: over its successive values
/// measured by one executable (`digests`, where its code did not change), the least-squares
/// slope through zero of its steps `y` on the machine's fitted steps `x` at the same positions
/// (`step`, the machine series' level between its changes), `β = Σxy / Σx²`, has its one-sided
/// 95% upper bound, `β + t(0.95, n − 1) · s / √Σx²` with `s² = Σ(y − βx)² / (n − 1)`, under
/// [`MOVED`]: the machine moves the bench by less than half of what it moves the median bench,
/// with the bench's own noise counted. `false` with fewer than [`MIN_STEPS`] such steps, with
/// fewer than [`MIN_CHANGES`] machine changes among them, or with no digests: then every
/// machine change is taken to move it, as before digests were recorded.
///
/// `x` is the fitted level, not the machine series' raw steps: those are mostly the median's
/// own noise, which a bench's noise does not follow, and a slope on them reads "unmoved" for a
/// bench the machine's one change moved in full. Assumes the steps' noise is independent of
/// the machine's changes. Time: O(n · c) for n values and c machine changes.
pub(super) fn unmoved(
    axis: &Axis,
    step: &impl Fn(usize) -> f64,
    digests: &[Option<&str>],
    m: usize,
) -> bool {
    let vals = &axis.vals[m];
    let steps: Vec<(f64, f64)> = (1..vals.len())
        .filter(|&k| digests[k].is_some() && digests[k] == digests[k - 1])
        .map(|k| {
            (
                step(vals[k].0) - step(vals[k - 1].0),
                vals[k].2 - vals[k - 1].2,
            )
        })
        .collect();
    slope_bound(&steps).is_some_and(|upper| upper < MOVED)
}

/// The one-sided 95% upper bound of the slope through zero of `y` on `x` over `steps`; `None`
/// with fewer than [`MIN_STEPS`] steps or none where `x` moved.
fn slope_bound(steps: &[(f64, f64)]) -> Option<f64> {
    let n = steps.len();
    let sxx: f64 = steps.iter().map(|(x, _)| x * x).sum();
    let changes = steps.iter().filter(|(x, _)| *x != 0.0).count();
    if n < MIN_STEPS || changes < MIN_CHANGES {
        return None;
    }
    let beta = steps.iter().map(|(x, y)| x * y).sum::<f64>() / sxx;
    let dof = (n - 1) as f64;
    let s2 = steps
        .iter()
        .map(|(x, y)| (y - beta * x).powi(2))
        .sum::<f64>()
        / dof;
    Some(beta + t_quantile(0.95, dof) * (s2 / sxx).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slope_bound_is_least_squares_through_zero_with_students_t() {
        // By hand: x = (1, -1, 2, -2, 1, -1, 2, -2), y = (0.6, -0.4, 1.0, -1.2, 0.4, -0.6, 1.2,
        // -0.8): Σx² = 20, Σxy = 0.6 + 0.4 + 2.0 + 2.4 + 0.4 + 0.6 + 2.4 + 1.6 = 10.4, β = 0.52;
        // residuals y − 0.52x: 0.08, 0.12, -0.04, -0.16, -0.12, -0.08, 0.16, 0.24, whose squares
        // sum to 0.0064 + 0.0144 + 0.0016 + 0.0256 + 0.0144 + 0.0064 + 0.0256 + 0.0576 = 0.152;
        // s² = 0.152 / 7; t(0.95, 7) = 1.894579 (scipy.stats.t.ppf(0.95, 7)).
        let x = [1.0, -1.0, 2.0, -2.0, 1.0, -1.0, 2.0, -2.0];
        let y = [0.6, -0.4, 1.0, -1.2, 0.4, -0.6, 1.2, -0.8];
        let steps: Vec<(f64, f64)> = x.into_iter().zip(y).collect();
        let want = 0.52 + 1.894_579 * (0.152f64 / 7.0 / 20.0).sqrt();
        let got = slope_bound(&steps).unwrap();
        assert!((got - want).abs() < 1e-5, "{got} against {want}");
        assert_eq!(slope_bound(&steps[..7]), None, "seven steps are too few");
        let still: Vec<(f64, f64)> = y.into_iter().map(|y| (0.0, y)).collect();
        assert_eq!(
            slope_bound(&still),
            None,
            "a machine that never moved says nothing"
        );
        let mut once = still.clone();
        once[3].0 = 2.0;
        assert_eq!(
            slope_bound(&once),
            None,
            "one machine change is one noisy step"
        );
        once[5].0 = -1.0;
        assert!(slope_bound(&once).is_some(), "two are read");
    }
}
