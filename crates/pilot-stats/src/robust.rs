//! A robust location of unit readings: the trimmed mean of subsession means, with an interval
//! that stays valid when readings are autocorrelated and a few of them were interrupted.
//!
//! Why not the mean: on a shared machine a unit that the scheduler interrupts for a time slice
//! reads thousands of times its cost, and a share `f` of readings at `K` times the cost moves
//! the mean by `f·(K − 1)`: one in a thousand at a thousand times doubles it. The mean then
//! measures how often the bench was interrupted, which changes from
//! run to run, and its variance is dominated by those few readings. A trimmed mean of block
//! means, the blocks far out left out first, leaves the blocks that held an interruption out,
//! whatever their size, and keeps the efficiency of a mean on the rest (94% of the mean's at
//! normal data for a 20% trim).
//!
//! Why blocks: readings are autocorrelated and, for short units, quantised by the clock's
//! resolution. Means of `q` consecutive readings are (nearly) independent once `q` is large
//! enough (Pilot's subsession analysis) and continuous once `q` averages the quantisation away,
//! as the mean of dithered readings does; a trimmed mean or median of raw quantised readings
//! would sit on one clock tick.
//!
//! [`trimmed`] holds the trimmed mean and its tests, [`subsession`] the block sizes,
//! [`far_out`](mod@far_out) the values left out before trimming, [`location`] the robust
//! locations built from them.

mod far_out;
mod location;
mod subsession;
mod trimmed;

pub use far_out::{FAR_OUT, FarOut, Sides, far_out};
pub use location::{
    IndependentLocation, PROCESS_FAR_SHARE, RobustLocation, independent_location, robust_location,
    trimmed_location,
};
pub use subsession::robust_subsession_analysis;
pub use trimmed::{Trimmed, trimmed_mean_ci, yuen_test};

/// The share of subsession means trimmed from each end (20%: Wilcox's and scipy's default; it
/// survives up to a fifth of the blocks being interrupted, at 94% of the mean's efficiency on
/// normal data).
pub const DEFAULT_TRIM: f64 = 0.2;

/// The (upper) median by selection, reordering `v`. Time: O(n).
fn select_median(v: &mut [f64]) -> f64 {
    let mid = v.len() / 2;
    *v.select_nth_unstable_by(mid, f64::total_cmp).1
}
