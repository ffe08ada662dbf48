//! Values far out from their median in robust standard deviations: the subsession means that
//! held an interruption, or the processes of a minority mode, left out while they are few.

use super::select_median;

/// How far from the median of the subsession means, in robust standard deviations
/// (`1.4826 · MAD`), a mean counts as interrupted and is left out before trimming. Block means of
/// uninterrupted readings are nearly normal (each is the mean of `q` readings), so a clean one
/// lies beyond 5 of them about once in 1.7 million.
pub const FAR_OUT: f64 = 5.0;

/// The subsession means less those beyond [`FAR_OUT`] robust standard deviations above their
/// median, when they are fewer than `trim` of the means; all of them otherwise, and when the MAD
/// is 0 (over half the means equal). Time: O(h).
///
/// Why: trimming a fixed share from each end is not leaving the interrupted blocks out. Each
/// interrupted block takes one of the `g` places cut from the top, so one more clean block is
/// cut from the bottom than from the top: the kept window shifts up by about half a block per
/// interrupted block. The bias this leaves is a fixed fraction of the spread of the block means
/// while the interval shrinks as `1/√h`, so long sessions missed: with one reading in 1000 at
/// 51 times its cost on AR(1) φ = 0.7 readings, the 95% interval held the truth in 91.9% of
/// 1000 series of 20 000 readings and in 67% of 200 series of 100 000, against 95.5% and 96%
/// with the far-out blocks left out first (tests/tests/robust_validity.rs).
///
/// Why only above, and only a few: an interruption adds time, it never takes any away, and it
/// is rare. Blocks far *below* the rest, or far-out blocks making up a fifth of the session or
/// more, are a second state of the machine or of the workload (a neighbour that came and went
/// for seconds, a frequency switch), not interruptions: leaving them out would report whichever
/// state held the majority of the blocks, with an interval around it alone. They stay, and the
/// trimmed mean and its winsorized variance see both states.
pub(crate) fn without_far_out(means: &[f64], trim: f64) -> Vec<f64> {
    far_out(means, Sides::Above, 0.0).without(trim)
}

/// Which side of the median a value may lie far out on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sides {
    /// Above only: interruptions add time, never take any away.
    Above,
    /// Above or below: a process's layout, or a run's machine state, can be luckier than the
    /// rest as well as unluckier.
    Both,
}

/// The values of a sample that lie far out (see [`far_out`]).
#[derive(Debug, Clone, PartialEq)]
pub struct FarOut {
    /// The values, in their order.
    values: Vec<f64>,
    /// Whether each is far out.
    far: Vec<bool>,
}

impl FarOut {
    /// Whether each value is far out, in the values' order.
    pub fn flags(&self) -> &[bool] {
        &self.far
    }

    /// How many values are far out.
    pub fn count(&self) -> usize {
        self.far.iter().filter(|f| **f).count()
    }

    /// The values less the far-out ones when those are fewer than `share` of all; all of them
    /// otherwise (then they are no minority: a second state or mode, which stays).
    pub fn without(&self, share: f64) -> Vec<f64> {
        if (self.count() as f64) < share * self.values.len() as f64 {
            self.values
                .iter()
                .zip(&self.far)
                .filter(|(_, f)| !**f)
                .map(|(v, _)| *v)
                .collect()
        } else {
            self.values.clone()
        }
    }
}

/// Which of `values` lie more than [`FAR_OUT`] robust standard deviations (1.4826 MADs), and
/// more than `floor`, from their median on the `sides` given. None does when the MAD is 0 with
/// no floor (over half the values equal). Time: O(n).
pub fn far_out(values: &[f64], sides: Sides, floor: f64) -> FarOut {
    let mut v = values.to_vec();
    let med = select_median(&mut v);
    for x in v.iter_mut() {
        *x = (*x - med).abs();
    }
    let reach = (FAR_OUT * 1.482_602_218_505_602 * select_median(&mut v)).max(floor);
    let far = values
        .iter()
        .map(|&m| {
            reach > 0.0
                && match sides {
                    Sides::Above => m - med > reach,
                    Sides::Both => (m - med).abs() > reach,
                }
        })
        .collect();
    FarOut {
        values: values.to_vec(),
        far,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn far_out_blocks_are_left_out_only_above_and_only_when_rare() {
        // 20 blocks around 100 (spread 1, MAD 0.5) and far-out ones: by hand, the reach is
        // 5 · 1.4826 · MAD from the median.
        let base: Vec<f64> = (0..20).map(|i| 99.0 + (i % 3) as f64).collect();
        // Two slow blocks in 22 (9%, under a fifth): left out.
        let mut slow = base.clone();
        slow.extend([150.0, 160.0]);
        assert_eq!(without_far_out(&slow, 0.2).len(), 20);
        // Two fast blocks: a faster state, not an interruption; kept.
        let mut fast = base.clone();
        fast.extend([50.0, 40.0]);
        assert_eq!(without_far_out(&fast, 0.2).len(), 22);
        // Eight slow blocks in 28 (29%): a second state of the machine; all kept.
        let mut state = base.clone();
        state.extend([130.0; 8]);
        assert_eq!(without_far_out(&state, 0.2).len(), 28);
    }
}
