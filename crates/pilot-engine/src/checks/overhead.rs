//! The instrumentation overhead of the full form (Pilot paper §III-C): what recording each
//! unit costs, measured rather than assumed, precisely enough to say whether it is 0.1% or 10%
//! of a unit.
//!
//! # Design
//! Between the session's rounds, **blocks** of four short extra rounds run the same work
//! amount `w` with unit recording on (A) and off (B, the closure runs without a clock read),
//! each timed whole, in the order A B B A, then B A A B in the next block. A block gives one
//! difference per unit, `d = ((on₁ + on₂) − (off₁ + off₂)) / 2w`, in which a drift of the
//! machine's speed that is linear over the block cancels. Two consecutive blocks (A B B A
//! B A A B, counterbalanced) are one **sample**, the mean of their differences: what the first
//! round of a block pays (a cold cache after a session round) falls on recording in one and on
//! no recording in the other, and cancels too. The overhead is the 20%-trimmed mean of the
//! samples, with the Tukey–McLaughlin interval over independent samples (Yuen's standard error,
//! Student's t with `h − 1` degrees of freedom, as [`trimmed_location`] computes it): a sample
//! that an interruption hit is trimmed, not averaged in. (With each block a sample, such a
//! first-round cost alternates in sign from block to block: the interval then holds it as
//! noise, and its 95% interval's coverage stays within the 93–99% that the Monte Carlo test
//! `the_interval_holds_the_overhead_95_percent_of_the_time_under_its_stopping_rule` asks.)
//!
//! Why short rounds, many of them: the first design ran one pair of rounds of a quarter of a
//! session round every third round, 3 or 4 pairs a session. A round's duration moves from one
//! round to the next on a shared machine by a share of the round, far more than recording
//! costs, and that moved each pair's difference by as much as a unit costs: a few pairs'
//! interval could not tell a recording cost from none. The noise
//! of a difference does not shrink with a longer round (it is a share of the round), but the
//! number of blocks grows as rounds shorten, and the interval with it: blocks of about a
//! millisecond give hundreds in a second's session.
//!
//! # When and for how long
//! Blocks run after a round of a full-form bench on one thread whose clock reads take at least
//! 0.1% of a unit (below that recording cannot matter at any target pilot accepts), while their
//! time stays under a sixth of the session's ([`BUDGET_SHARE`]) and until the interval is as
//! narrow as [`target_ns`] asks: ±2% of a unit, or two clock reads, whichever is larger, after
//! at least [`MIN_SAMPLES`] samples. A session too short for that reports the interval it reached and
//! says so (`reached: false`). A probe round lasts about [`PROBE_ROUND_NS`] of units, longer
//! when the bench's setup is long, so that the setup stays a small part of it.
//! `--no-overhead-check` skips it all.

use super::{Kind, check, figure};
use pilot_format::CheckDoc;
use pilot_stats::{DEFAULT_TRIM, trimmed_location};

/// Least samples (pairs of blocks) before the interval may stop the probe: the trimmed mean's
/// interval then has 7 degrees of freedom, and stopping at a lucky narrow interval barely moves
/// its coverage (the Monte Carlo test's "a target the first looks just reach").
pub(crate) const MIN_SAMPLES: usize = 12;
/// Most of a session's time the blocks may take.
pub(crate) const BUDGET_SHARE: f64 = 1.0 / 6.0;
/// The interval's target half-width, as a share of a unit.
pub(crate) const TARGET_SHARE: f64 = 0.02;
/// Share of a unit the clock must take for the blocks to run.
pub(crate) const MIN_CLOCK_SHARE: f64 = 0.001;
/// The time of units a probe round aims at, ns.
pub(crate) const PROBE_ROUND_NS: f64 = 250_000.0;
/// Share of a unit above which the overhead is a check.
const WARN_SHARE: f64 = 0.01;

/// One block: the work amount of its four rounds, and their durations in ns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Block {
    pub(crate) work: u64,
    pub(crate) on_ns: [f64; 2],
    pub(crate) off_ns: [f64; 2],
}

impl Block {
    /// What recording cost one unit in this block: `((on₁ + on₂) − (off₁ + off₂)) / 2w`.
    pub(crate) fn difference(&self) -> f64 {
        let on = self.on_ns[0] + self.on_ns[1];
        let off = self.off_ns[0] + self.off_ns[1];
        (on - off) / (2.0 * self.work.max(1) as f64)
    }
}

/// The samples of a probe whose blocks gave `differences` (in order): the mean of each two
/// consecutive blocks' (an odd last block waits for its pair).
pub(crate) fn samples(differences: &[f64]) -> Vec<f64> {
    differences
        .chunks_exact(2)
        .map(|pair| (pair[0] + pair[1]) / 2.0)
        .collect()
}

/// The overhead per unit found from the blocks.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Overhead {
    /// The 20%-trimmed mean of the samples (pairs of blocks), ns per unit.
    pub(crate) per_unit_ns: f64,
    /// Its interval's lower bound, ns.
    pub(crate) low: f64,
    /// Its interval's upper bound, ns.
    pub(crate) high: f64,
    /// The interval's confidence level.
    pub(crate) confidence: f64,
    /// Blocks it came from (two a sample).
    pub(crate) blocks: usize,
    /// The half-width the probe aimed at, ns ([`target_ns`]).
    pub(crate) target_ns: f64,
    /// Each sample's difference per unit, ns, in order: what a bench's processes pool.
    pub(crate) samples: Vec<f64>,
    /// Time the blocks took, in seconds (in all of a bench's processes).
    pub(crate) time_s: f64,
}

impl Overhead {
    /// Whether the interval is as narrow as the target.
    pub(crate) fn reached(&self) -> bool {
        (self.high - self.low) / 2.0 <= self.target_ns
    }
}

/// The half-width the overhead's interval aims at for units of `unit_ns` timed by a clock whose
/// read costs `clock_ns`: 2% of a unit, or two clock reads, whichever is larger.
pub(crate) fn target_ns(unit_ns: f64, clock_ns: f64) -> f64 {
    (TARGET_SHARE * unit_ns).max(2.0 * clock_ns)
}

/// The overhead from the `samples` (ns per unit, see [`samples`]) at `confidence`, aiming at
/// `target_ns`: the 20%-trimmed mean and its Tukey–McLaughlin interval (see the module docs).
/// `None` with fewer than 2 samples, or values that are not finite.
///
/// Assumes the samples independent and symmetric about the overhead (each is of two sums of
/// four rounds of like distribution, recording on and off). Time: O(n log n).
pub(crate) fn estimate(samples: &[f64], confidence: f64, target_ns: f64) -> Option<Overhead> {
    let loc = trimmed_location(samples, DEFAULT_TRIM, confidence).ok()?;
    Some(Overhead {
        per_unit_ns: loc.value,
        low: loc.ci.low,
        high: loc.ci.high,
        confidence,
        blocks: 2 * samples.len(),
        target_ns,
        samples: samples.to_vec(),
        time_s: 0.0,
    })
}

/// Whether the probe looks at its interval once it has `n` samples: from [`MIN_SAMPLES`] on,
/// at every sample up to 32, then every fourth (so the looks stay a small part of the blocks'
/// time).
pub(crate) fn due(n: usize) -> bool {
    n >= MIN_SAMPLES && (n < 32 || n.is_multiple_of(4))
}

/// Whether the probe may stop: at least [`MIN_SAMPLES`] samples and an interval at
/// `confidence` within `target_ns`. Time: O(n log n).
pub(crate) fn reached(samples: &[f64], confidence: f64, target_ns: f64) -> bool {
    samples.len() >= MIN_SAMPLES
        && estimate(samples, confidence, target_ns).is_some_and(|o| o.reached())
}

/// The instrumentation overhead check: recording costs more than 1% of a unit (`unit_ns`), and
/// its interval excludes 0.
pub(crate) fn overhead_check(o: &Overhead, unit_ns: f64) -> Option<CheckDoc> {
    let share = o.per_unit_ns / unit_ns;
    (unit_ns > 0.0 && share > WARN_SHARE && o.low > 0.0).then(|| {
        check(
            Kind::InstrumentationOverhead,
            format!(
                "recording each unit costs {} ({}..{}, {} blocks of rounds with recording on \
                 and off), {:.1}% of a unit: the time per unit includes it; time more work per \
                 unit, or use the micro form (`b.iter`), which batches iterations",
                crate::fmt::format_ns(o.per_unit_ns),
                crate::fmt::format_ns(o.low),
                crate::fmt::format_ns(o.high),
                o.blocks,
                100.0 * share
            ),
            serde_json::json!({
                "per_unit_ns": figure(o.per_unit_ns),
                "low_ns": figure(o.low),
                "high_ns": figure(o.high),
                "share": figure(share),
                "blocks": o.blocks,
            }),
        )
    })
}

#[cfg(test)]
mod tests;
