//! The readings a session keeps: each round's stable phase (found by change-point detection),
//! compacted on long sessions, and the estimates made from them (subsession analysis, the
//! between-round interval, the WPS fit).

use super::coldstart::FirstUnits;
use super::warmup::WarmUpEvidence;
use super::{Estimate, MeanPi};
use super::{RoundRecord, SessionConfig};
use crate::record::Clock;
use crate::settings::Estimator;
use pilot_stats::cluster_mean_variance;
use pilot_stats::find_stable_segment;
use pilot_stats::wps;
use pilot_stats::{DEFAULT_TRIM, Trimmed, robust_location};
use pilot_stats::{OutlierCount, count_outliers};
use pilot_stats::{SubsessionAnalysis, subsession_analysis};

/// Stable readings kept before adjacent pairs are merged (see [`Readings::compact`]).
pub(super) const MAX_KEPT: usize = 1 << 20;

/// The readings a session has analysed, and the estimates made from them.
pub(super) struct Readings<'a> {
    pub(super) config: &'a SessionConfig,
    pub(super) clock: &'a dyn Clock,
    pub(super) rounds: Vec<RoundRecord>,
    /// Stable unit readings of all analysed rounds, in order; each entry is the mean of
    /// `premerged` consecutive readings once the session has compacted them.
    pub(super) stable: Vec<f64>,
    /// How many consecutive stable readings each entry of `stable` stands for (a power of 2).
    pub(super) premerged: usize,
    /// Stable readings seen (not entries of `stable`).
    pub(super) stable_count: usize,
    /// Sum of the last round's unit readings, in nanoseconds (for the planner's time model).
    pub(super) last_units_ns: f64,
    /// How many times longer the next round's units will be than the last round's (the micro
    /// form raised its iterations per unit), for the planner's time model.
    pub(super) unit_growth: f64,
    /// The least untimed part of any round with unit readings so far, in seconds: its wall
    /// time less its units' time. The planner's time model takes no more than this as a
    /// round's fixed cost; the rest of a round's untimed part grows with its work (a bench
    /// that makes each unit's inputs outside the timing).
    pub(super) least_untimed_s: f64,
    /// Each analysed round's location, in order: the trimmed mean of its stable readings'
    /// bin means with the trimmed-mean estimator (an interruption moves no round), their mean
    /// with the mean estimator. The between-round level, group rankings and the warm-up class
    /// are judged from these.
    pub(super) round_means: Vec<f64>,
    /// Each analysed round's plain mean of its stable readings (the mean PI's between-round
    /// level).
    pub(super) round_plain_means: Vec<f64>,
    /// The step of the last round's readings: the clock's resolution over the iterations per
    /// unit.
    pub(super) quantum: f64,
    /// Stable readings of each analysed round, in the order of `round_means`.
    pub(super) round_counts: Vec<usize>,
    /// (work, duration in ns) of analysed readings-only rounds.
    pub(super) whole: Vec<(f64, f64)>,
    pub(super) removed: usize,
    pub(super) readings: usize,
    pub(super) unstable_rounds: usize,
    pub(super) zero_readings: usize,
    pub(super) warnings: Vec<super::Warning>,
    pub(super) checks: Vec<pilot_format::CheckDoc>,
    /// Outliers among the stable readings, counted round by round.
    pub(super) outliers: OutlierCount,
    /// What the warm-up class is judged from.
    pub(super) warm_up: WarmUpEvidence,
    /// The first unit of each round against the rest (the cold-start check).
    pub(super) first_units: FirstUnits,
    /// The memory the bench held after each round (bytes; see
    /// [`Memory::held`](crate::checks::memory::Memory::held)), where it could be read.
    pub(super) memory: Vec<f64>,
    /// Leading analysed rounds left out as a warm-up that outlasted them (see
    /// [`Readings::cut_warm_up_rounds`]).
    pub(super) warm_up_rounds: usize,
    /// Bytes of `stable` reported to the leak check as pilot's own.
    kept_bytes: i64,
}

impl Drop for Readings<'_> {
    fn drop(&mut self) {
        crate::checks::memory::keep(-self.kept_bytes);
    }
}

impl<'a> Readings<'a> {
    pub(super) fn new(config: &'a SessionConfig, clock: &'a dyn Clock) -> Self {
        Readings {
            config,
            clock,
            rounds: Vec::new(),
            stable: Vec::new(),
            premerged: 1,
            stable_count: 0,
            last_units_ns: 0.0,
            unit_growth: 1.0,
            least_untimed_s: f64::INFINITY,
            round_means: Vec::new(),
            round_plain_means: Vec::new(),
            quantum: 0.0,
            round_counts: Vec::new(),
            whole: Vec::new(),
            removed: 0,
            readings: 0,
            unstable_rounds: 0,
            zero_readings: 0,
            warnings: Vec::new(),
            checks: Vec::new(),
            outliers: OutlierCount::default(),
            warm_up: WarmUpEvidence::default(),
            first_units: FirstUnits::default(),
            memory: Vec::new(),
            warm_up_rounds: 0,
            kept_bytes: 0,
        }
    }

    /// Tells the leak check how much the session keeps now, so it is not blamed on the bench:
    /// the stable readings, the current estimate's subsession samples (`estimate_samples` of
    /// them), the early readings the warm-up class is judged from (they fill during the short
    /// first rounds, up to a few hundred KiB), and the rounds' records with their bins.
    pub(super) fn track_kept(&mut self, estimate_samples: usize) {
        let f64s = (self.stable.capacity() + estimate_samples) * std::mem::size_of::<f64>();
        let rounds = self.rounds.capacity() * std::mem::size_of::<super::RoundRecord>()
            + self
                .rounds
                .iter()
                .filter_map(|r| r.bins.as_ref())
                .map(|b| b.heap_bytes())
                .sum::<usize>();
        let now = (f64s + self.warm_up.kept_bytes() + rounds) as i64;
        crate::checks::memory::keep(now - self.kept_bytes);
        self.kept_bytes = now;
    }

    /// Runs non-stable phase removal on one round's readings (of `iterations` iterations a
    /// unit) and keeps its stable phase.
    pub(super) fn add_units(&mut self, units: &[f64], iterations: u64) -> Option<(usize, usize)> {
        self.quantum = self.config.resolution_ns / iterations.max(1) as f64;
        self.readings += units.len();
        self.last_units_ns = units.iter().sum();
        self.zero_readings += units.iter().filter(|&&x| x == 0.0).count();
        match find_stable_segment(units, &self.config.changepoints) {
            Ok(seg) if seg.dominant => {
                let kept = &units[seg.start..seg.end];
                self.outliers.add(&count_outliers(kept));
                self.warm_up
                    .add_round(units, iterations, Some((seg.start, seg.end)));
                self.first_units
                    .add_round(units, Some((seg.start, seg.end)));
                self.stable_count += kept.len();
                let plain = kept.iter().sum::<f64>() / kept.len() as f64;
                self.round_plain_means.push(plain);
                self.round_means.push(match self.config.estimator {
                    Estimator::Mean => plain,
                    Estimator::Trimmed => round_location(kept).unwrap_or(plain),
                });
                self.round_counts.push(kept.len());
                if self.premerged == 1 {
                    self.stable.extend_from_slice(kept);
                } else {
                    // Already compacted: add this round's readings as means of the same size
                    // (an incomplete last block is dropped, as subsession analysis would).
                    let q = self.premerged;
                    self.stable.extend(
                        kept.chunks_exact(q)
                            .map(|c| c.iter().sum::<f64>() / q as f64),
                    );
                }
                self.removed += units.len() - kept.len();
                self.cut_warm_up_rounds();
                self.compact();
                Some((seg.start, seg.end))
            }
            _ => {
                // No dominant stable phase: kept in the record, not in the estimate.
                self.unstable_rounds += 1;
                self.warm_up.add_round(units, iterations, None);
                self.removed += units.len();
                None
            }
        }
    }

    /// Leaves out leading rounds that were a warm-up longer than a round. Change-point
    /// detection finds a warm-up within a round; one that lasts several rounds (a workload that
    /// fills a cache or a table over its first tens of milliseconds, while the first rounds are
    /// short) leaves whole rounds at a slower level, each stable in itself, and the between-round
    /// interval would then span both levels. The first analysed round is cut while at least two
    /// rounds follow it and its location is more than 10% (Barrett et al.'s least tolerance, as
    /// the warm-up class uses) and more than 5 robust standard deviations (1.4826 MADs) above
    /// the (lower) median of the later half of the rounds; then the next, and so on. Its readings count
    /// as removed, like any non-stable phase. Only before the readings are compacted (the first
    /// 2^20 stable readings), where a warm-up is. Time: O(rounds) per round.
    fn cut_warm_up_rounds(&mut self) {
        // The lower median: of two later rounds, one may still be in the warm-up's tail.
        let lower_median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[(v.len() - 1) / 2]
        };
        while self.premerged == 1 && self.round_means.len() >= 3 {
            let r = self.round_means.len();
            let mut later = self.round_means[r / 2..].to_vec();
            let settled = lower_median(&mut later);
            for x in later.iter_mut() {
                *x = (*x - settled).abs();
            }
            let spread = 1.482_602_218_505_602 * lower_median(&mut later);
            let first = self.round_means[0];
            let slower = first > settled * (1.0 + super::warmup::MIN_TOLERANCE)
                && first - settled > 5.0 * spread;
            if !slower {
                return;
            }
            let n = self.round_counts.remove(0);
            self.round_means.remove(0);
            self.round_plain_means.remove(0);
            self.stable.drain(..n);
            self.stable_count -= n;
            self.removed += n;
            self.warm_up_rounds += 1;
        }
    }

    /// Keeps memory bounded on long sessions of short units: past [`MAX_KEPT`] entries, adjacent
    /// pairs are replaced by their means. Subsession analysis of the compacted series with size
    /// q is subsession analysis of the original with size `q · premerged` (a mean of means of
    /// equal-size blocks is the block mean), so only subsession sizes below `premerged` are lost,
    /// and those are the ones a long session no longer needs.
    pub(super) fn compact(&mut self) {
        if self.stable.len() <= MAX_KEPT {
            return;
        }
        self.stable = self
            .stable
            .chunks_exact(2)
            .map(|p| (p[0] + p[1]) / 2.0)
            .collect();
        self.premerged *= 2;
    }

    /// The time PI from the stable readings so far: the trimmed mean of subsession means (or
    /// the mean, where the bench chose it), with the between-round level; with the trimmed
    /// mean, the plain mean beside it.
    pub(super) fn unit_estimate(&self) -> Option<Estimate> {
        if self.stable.len() < 2 {
            return None;
        }
        let plain = self.mean_estimate()?;
        if self.config.estimator == Estimator::Mean {
            return Some(plain);
        }
        let cfg = self.config;
        let quantum = self.quantum / self.premerged as f64;
        let loc = robust_location(
            &self.stable,
            DEFAULT_TRIM,
            cfg.confidence,
            cfg.autocorrelation_limit,
            cfg.min_subsessions,
            quantum,
        )
        .ok()?;
        let q = loc.subsession.size * self.premerged;
        let required_n = loc
            .required_count(cfg.target * loc.value.abs())
            .map(|h| h * q);
        let mut e = Estimate {
            mean: loc.value,
            estimator: Estimator::Trimmed,
            plain: Some(MeanPi {
                mean: plain.mean,
                ci: plain.ci,
            }),
            trimmed: Some(loc.trimmed),
            ci: loc.ci,
            between_rounds: false,
            rounds: self.round_means.len(),
            n: self.stable_count,
            subsession_size: q,
            autocorrelation: loc.subsession.autocorrelation,
            required_n,
            variance_inflation: loc.subsession.variance_inflation(),
            subsession_means: loc.subsession.means,
            wps: None,
            dof: loc.dof,
            round_excess: 1.0,
            modes: 0,
        };
        self.between_rounds(&mut e, &self.round_means);
        Some(e)
    }

    /// The mean of the stable readings: Pilot's subsession interval with the between-round
    /// level.
    fn mean_estimate(&self) -> Option<Estimate> {
        let cfg = self.config;
        let s: SubsessionAnalysis =
            subsession_analysis(&self.stable, cfg.autocorrelation_limit, cfg.min_subsessions)
                .ok()?;
        let mean = s.mean();
        let q = s.size * self.premerged;
        let mut e = Estimate {
            mean,
            estimator: Estimator::Mean,
            plain: None,
            trimmed: None,
            ci: s.adjusted_mean_ci(cfg.confidence).ok()?,
            between_rounds: false,
            rounds: self.round_plain_means.len(),
            n: self.stable_count,
            subsession_size: q,
            autocorrelation: s.autocorrelation,
            required_n: s
                .required_count(cfg.target * mean.abs(), cfg.confidence)
                .map(|h| h * q),
            variance_inflation: s.variance_inflation(),
            dof: (s.means.len().max(2) - 1) as f64,
            subsession_means: s.means,
            wps: None,
            round_excess: 1.0,
            modes: 0,
        };
        self.between_rounds(&mut e, &self.round_plain_means);
        Some(e)
    }

    /// Widens `e` to the between-round level when that is wider.
    ///
    /// The readings of one round share the machine's state during that round: frequency, the
    /// load of neighbours, where memory landed. When that state drifts or switches between
    /// rounds (on shared machines it does, over seconds), the readings'
    /// interval cannot see it. The rounds' locations (`rounds`, one per analysed round) can:
    /// the between-round interval is Student's t over the rounds (r − 1 degrees of freedom)
    /// with the cluster-robust variance of their mean (each round weighed by its readings, so
    /// a short early round counts as little as it should), centred on the estimate, and the
    /// wider of the two is reported. Time: O(rounds).
    fn between_rounds(&self, e: &mut Estimate, rounds: &[f64]) {
        let cfg = self.config;
        if rounds.len() < 2 {
            return;
        }
        let Ok((_, variance_of_mean)) = cluster_mean_variance(rounds, &self.round_counts) else {
            return;
        };
        let r = rounds.len() as f64;
        let half =
            pilot_stats::summary::t_critical(cfg.confidence, r - 1.0) * variance_of_mean.sqrt();
        let within = e.ci.half_width();
        if half <= within {
            return;
        }
        e.between_rounds = true;
        e.dof = r - 1.0;
        e.round_excess = half / within;
        e.ci = pilot_stats::ConfidenceInterval {
            low: e.mean - half,
            high: e.mean + half,
            confidence: cfg.confidence,
        };
        // Rounds, not readings, are then what the target needs more of: express the need in
        // readings at the current readings per round (`r · Var(mean)` is the variance of one
        // round of average length).
        let per_round = self.stable_count as f64 / r;
        e.required_n = pilot_stats::required_for_half_width(
            variance_of_mean * r,
            r - 1.0,
            cfg.target * e.mean.abs(),
            cfg.confidence,
        )
        .map(|rounds_needed| (rounds_needed as f64 * per_round).ceil() as usize);
    }

    pub(super) fn wps_estimate(&self) -> Option<Estimate> {
        if self.whole.len() < 3 {
            return None;
        }
        let (w, t): (Vec<f64>, Vec<f64>) = self.whole.iter().copied().unzip();
        let fit = wps(
            &w,
            &t,
            self.config.confidence,
            self.config.autocorrelation_limit,
        )
        .ok()?;
        // The time PI is the slope: nanoseconds per work unit in the stable phase.
        Some(Estimate::from_wps(fit))
    }
}

/// A round's robust location: the trimmed mean of its stable readings' means in up to 64 bins
/// (bins of consecutive readings, so that a clock's ticks average out within each); `None`
/// for fewer than 2 readings. Time: O(n log n) over the bins.
fn round_location(kept: &[f64]) -> Option<f64> {
    let bins = pilot_format::ReadingBins::of(kept, super::ROUND_BINS)?;
    Trimmed::of(&bins.mean, DEFAULT_TRIM).ok().map(|t| t.mean)
}
