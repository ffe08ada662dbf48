//! The adaptive session (Pilot paper §III-E, DESIGN §4): run rounds until every performance
//! index's confidence interval is as narrow as asked, then stop; or stop at the time cap and say
//! how far the interval got.
//!
//! The session sees the workload through [`Workload`] and time through
//! [`Clock`](crate::record::Clock), so its decisions (round lengths, short rounds, stopping) are
//! tested with scripted durations.

pub(crate) mod group;
pub(crate) mod planner;
#[cfg(test)]
mod tests;

use std::time::Duration;

use crate::record::Clock;
use crate::stats::ConfidenceInterval;
use crate::stats::autocorr::{SubsessionAnalysis, subsession_analysis};
use crate::stats::changepoint::{ChangepointConfig, find_stable_segment};
use crate::stats::regression::{WpsFit, wps};
use planner::{FIRST_RESULT_ROUNDS, bisection_work, first_result_round, work_for};

/// What one round of the workload produced.
pub(crate) enum RoundData {
    /// Unit readings in nanoseconds. In the micro form each reading is per iteration, and a
    /// timed unit ran `iterations` of them (1 otherwise): the round took about
    /// `iterations × Σ readings` of unit time.
    Units { readings: Vec<f64>, iterations: u64 },
    /// Readings-only: the workload could not time its units; the session times the round.
    Whole,
}

/// The code under measurement, one round at a time.
pub(crate) trait Workload {
    /// Runs one round of `work` work units. An `Err` is a failure of the workload (a panic),
    /// with its message.
    fn round(&mut self, work: u64) -> Result<RoundData, String>;
}

/// Settings of one session.
#[derive(Debug, Clone)]
pub(crate) struct SessionConfig {
    /// Confidence level of every interval.
    pub confidence: f64,
    /// Target half-width of the time PI's interval, relative to its mean.
    pub target: f64,
    /// Time cap: the session stops here whatever its interval.
    pub max_time: Duration,
    /// The session runs at least this long even when the target is met earlier.
    pub min_time: Duration,
    /// |lag-1 autocorrelation| bound of subsession analysis.
    pub autocorrelation_limit: f64,
    /// Least number of subsession samples before the session may stop.
    pub min_subsessions: usize,
    /// Least number of analysed rounds with a stable phase before the session may stop: the
    /// round-level interval needs them (see [`Estimate::between_rounds`]).
    pub min_rounds: usize,
    /// A round shorter than this is kept in the record but not analysed, and the next one
    /// doubles its work amount.
    pub short_round: Duration,
    /// When the first rough estimate should be ready.
    pub first_result: Duration,
    /// Longest round the planner asks for (so progress shows and the cap is kept).
    pub max_round: Duration,
    /// Valid work amounts, inclusive.
    pub work_range: (u64, u64),
    /// Change-point detection settings for each round's unit readings.
    pub changepoints: ChangepointConfig,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            confidence: 0.95,
            target: 0.01,
            max_time: Duration::from_secs(10),
            min_time: Duration::ZERO,
            autocorrelation_limit: 0.1,
            min_subsessions: 30,
            min_rounds: 10,
            short_round: Duration::from_millis(2),
            first_result: Duration::from_secs(1),
            max_round: Duration::from_millis(250),
            work_range: (1, u64::MAX / 2),
            changepoints: ChangepointConfig::default(),
        }
    }
}

/// How a session ended.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Status {
    /// Every PI met its target.
    Converged,
    /// The time cap came first; the interval reached is reported.
    TimeCap,
    /// Most rounds had no dominant stable phase: the workload never settled.
    NoSteadyState,
    /// Most unit readings were 0 ns: the units are shorter than the clock resolves, and no
    /// amount of rounds makes the estimate meaningful.
    BelowResolution,
    /// A readings-only fit found no positive time per unit: the rounds' durations did not
    /// grow with their work amounts (noise swamped the work, or the range is too narrow).
    /// There is no estimate to report; it is not a failure of the workload.
    Unresolved,
    /// The workload failed (panicked), with the message.
    Failed(String),
}

impl Status {
    /// The name used in output and in result documents.
    pub(crate) fn as_str(&self) -> &'static str {
        match self {
            Status::Converged => "ok",
            Status::TimeCap => "time cap",
            Status::NoSteadyState => "no steady state",
            Status::BelowResolution => "below clock resolution",
            Status::Unresolved => "unresolved",
            Status::Failed(_) => "failed",
        }
    }
}

/// The record of one round.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RoundRecord {
    /// Work amount.
    pub work: u64,
    /// Wall time of the round, setup included.
    pub duration: Duration,
    /// Number of unit readings (0 in readings-only mode).
    pub units: usize,
    /// The stable phase of the round's unit readings, when it was analysed and had one.
    pub stable: Option<(usize, usize)>,
    /// Whether the round went into the analysis (short rounds do not).
    pub analysed: bool,
    /// Mean of the round's unit readings in nanoseconds (unit-reading mode).
    pub mean_ns: Option<f64>,
}

/// The current estimate of the time PI.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Estimate {
    /// Mean time per unit, in nanoseconds.
    pub mean: f64,
    /// Its confidence interval.
    pub ci: ConfidenceInterval,
    /// Samples behind it: stable unit readings, or rounds in readings-only mode.
    pub n: usize,
    /// Subsession size.
    pub subsession_size: usize,
    /// Lag-1 autocorrelation of the subsession samples (of the residuals in WPS mode).
    pub autocorrelation: f64,
    /// Samples needed for the target; `None` when unknown.
    pub required_n: Option<usize>,
    /// Subsession samples (unit-reading mode), kept for comparisons.
    pub subsession_means: Vec<f64>,
    /// The WPS fit, in readings-only mode.
    pub wps: Option<WpsFit>,
    /// Factor by which the subsession samples' variance was inflated for the correlation left
    /// between them (1 in readings-only mode).
    pub variance_inflation: f64,
    /// Whether the interval comes from the variation between rounds rather than between
    /// readings: the machine's speed changed from round to round by more than the readings
    /// within a round vary.
    pub between_rounds: bool,
    /// Analysed rounds with a stable phase behind the estimate.
    pub rounds: usize,
}

impl Estimate {
    /// The time PI of a readings-only session: the WPS fit's slope, nanoseconds per work unit
    /// in the stable phase, with the slope's interval.
    pub(crate) fn from_wps(fit: WpsFit) -> Self {
        Estimate {
            mean: fit.fit.slope,
            ci: fit.slope_ci,
            n: fit.rounds_used,
            subsession_size: fit.subsession_size,
            autocorrelation: fit.residual_autocorrelation,
            required_n: None,
            subsession_means: Vec::new(),
            variance_inflation: 1.0,
            between_rounds: false,
            rounds: fit.rounds_used,
            wps: Some(fit),
        }
    }

    /// Half-width relative to the mean.
    pub(crate) fn relative_half_width(&self) -> f64 {
        if self.mean == 0.0 {
            f64::INFINITY
        } else {
            self.ci.half_width() / self.mean.abs()
        }
    }
}

/// What a session found.
#[derive(Debug, Clone)]
pub(crate) struct SessionResult {
    pub status: Status,
    /// The final estimate of the time PI; `None` when the session failed before one existed.
    pub estimate: Option<Estimate>,
    pub rounds: Vec<RoundRecord>,
    /// Unit readings removed as warm-up or cool-down, over all analysed rounds.
    pub removed: usize,
    /// Unit readings seen in analysed rounds.
    pub readings: usize,
    pub elapsed: Duration,
    pub warnings: Vec<String>,
    /// The estimate of each process execution, when the bench ran in several (see
    /// `runner::measure_in_processes`); empty for a session in one process.
    pub process_means: Vec<f64>,
    /// With [`Status::Unresolved`]: the readings-only fit whose slope was not positive. It is
    /// no result, but a process's draw that the combination over processes must not drop.
    pub unresolved_fit: Option<Estimate>,
}

/// Called after each round with the current estimate, the time used and the config.
pub(crate) type Progress<'a> = &'a mut dyn FnMut(&Estimate, Duration);

/// Runs a session of `workload` with `config`, reading time from `clock`.
pub(crate) fn run_session(
    workload: &mut dyn Workload,
    clock: &dyn Clock,
    config: &SessionConfig,
    progress: Progress<'_>,
) -> SessionResult {
    let mut state = SessionState::new(config, clock);
    let status = loop {
        let work = state.next_work();
        let before = clock.now();
        let data = workload.round(work);
        let duration = clock.now().saturating_sub(before);
        if let Some(status) = state.record(data, duration, progress) {
            break status;
        }
    };
    state.finish(status)
}

/// Most units one round may have (the readings of a round are held in memory at once).
pub(crate) const MAX_ROUND_UNITS: u64 = 1 << 21;

/// Stable readings kept before adjacent pairs are merged (see [`Session::compact`]).
const MAX_KEPT: usize = 1 << 20;

/// A session advanced one round at a time: [`SessionState::next_work`] says what the next round
/// should do, [`SessionState::record`] takes what it did and says whether the session is over.
/// [`run_session`] drives one to the end; an interleaved group
/// ([`group`](crate::session::group)) drives several, round by round, and may keep a member
/// going after it has met its own target.
pub(crate) struct SessionState<'a> {
    session: Session<'a>,
    start: Duration,
    /// Lower end of the work range: raised by the short-round rule.
    low: u64,
    /// Work amount of the next round.
    work: u64,
    estimate: Option<Estimate>,
    /// Index of the first long-enough round, and its length: the start of eq. 5's schedule.
    schedule: Option<(usize, Duration)>,
    readings_only: bool,
    /// Pilot's short-round rule applies until a round at the top of the work range is still
    /// short: then no round can be long enough, and short rounds are all there is.
    short_rule: bool,
    /// Whether the last estimate met every condition to stop (target, sample counts).
    met_target: bool,
}

impl<'a> SessionState<'a> {
    /// A session that has run no round yet; its time starts now.
    pub(crate) fn new(config: &'a SessionConfig, clock: &'a dyn Clock) -> Self {
        let start = clock.now();
        SessionState {
            session: Session::new(config, clock),
            start,
            low: config.work_range.0,
            work: config.work_range.0,
            estimate: None,
            schedule: None,
            readings_only: false,
            short_rule: true,
            met_target: false,
        }
    }

    /// The work amount the next round should do.
    pub(crate) fn next_work(&self) -> u64 {
        self.work
    }

    /// The current estimate of the time PI, if there is one yet.
    pub(crate) fn estimate(&self) -> Option<&Estimate> {
        self.estimate.as_ref()
    }

    /// Whether the current estimate meets the target and has enough samples and rounds.
    pub(crate) fn met_target(&self) -> bool {
        self.met_target
    }

    /// Mean of each analysed round's stable unit readings, in order (empty in readings-only
    /// mode).
    pub(crate) fn round_means(&self) -> &[f64] {
        &self.session.round_means
    }

    /// Whether the workload only gives whole-round readings (the WPS method).
    pub(crate) fn readings_only(&self) -> bool {
        self.readings_only
    }

    /// Takes the outcome of one round of [`SessionState::next_work`] units, which took
    /// `duration`, and plans the next one. Returns the status when the session should stop:
    /// `Converged` or `TimeCap` (after which the round-by-round caller may still go on), or a
    /// failure, `BelowResolution` (final).
    pub(crate) fn record(
        &mut self,
        data: Result<RoundData, String>,
        duration: Duration,
        progress: Progress<'_>,
    ) -> Option<Status> {
        let cfg = self.session.config;
        let high = cfg.work_range.1;
        let work = self.work;
        let data = match data {
            Ok(d) => d,
            Err(message) => return Some(Status::Failed(message)),
        };
        self.readings_only |= matches!(data, RoundData::Whole);
        let readings_only = self.readings_only;
        let elapsed = self.session.clock.now().saturating_sub(self.start);
        if duration < cfg.short_round && work >= high {
            self.short_rule = false;
        }
        let short = self.short_rule && duration < cfg.short_round && work < high;
        // The first round of any session is a trial: it learns the time per unit, and
        // often pays one-time costs (lazy statics, page faults). Unit readings lose those to
        // change-point detection; a whole-round reading cannot, so it is kept out of the fit.
        let trial = readings_only && self.session.rounds.is_empty();
        let mut record = RoundRecord {
            work,
            duration,
            units: 0,
            stable: None,
            analysed: !short && !trial,
            mean_ns: None,
        };
        match data {
            RoundData::Units {
                readings: units,
                iterations,
            } => {
                record.units = units.len();
                record.mean_ns = Some(units.iter().sum::<f64>() / units.len().max(1) as f64);
                if units.is_empty() {
                    return Some(Status::Failed(
                        "the round timed no work unit (rec.unit / b.iter never called)".into(),
                    ));
                }
                if !short {
                    record.stable = self.session.add_units(&units);
                    self.session.last_units_ns *= iterations.max(1) as f64;
                }
            }
            RoundData::Whole => {
                if !short && !trial {
                    self.session
                        .whole
                        .push((work as f64, duration.as_nanos() as f64));
                }
            }
        }
        let analysed_round = record.analysed;
        self.session.rounds.push(record);
        if !analysed_round && !short {
            return None;
        }
        if short {
            // Pilot's short-round rule: too short to trust; double and raise the floor. In
            // readings-only mode the floor stays below a quarter of the range, or the
            // regression would have no spread of work amounts left to fit.
            self.work = work.saturating_mul(2).min(high);
            if readings_only && self.work > cfg.work_range.0.max(high / 4) {
                // Keeping the spread wins: rounds from here on are analysed even if short
                // (α absorbs their fixed cost).
                self.low = cfg.work_range.0.max(high / 4);
                self.short_rule = false;
            } else {
                self.low = self.work;
            }
            return (elapsed >= cfg.max_time).then_some(Status::TimeCap);
        }
        let analysed = self.session.rounds.iter().filter(|r| r.analysed).count();
        if !readings_only && analysed >= 3 && 2 * self.session.zero_readings > self.session.readings
        {
            return Some(Status::BelowResolution);
        }
        let first_long = *self
            .schedule
            .get_or_insert((self.session.rounds.len() - 1, duration));
        self.estimate = if readings_only {
            self.session.wps_estimate()
        } else {
            self.session.unit_estimate()
        };
        self.met_target = false;
        if let Some(e) = &self.estimate {
            progress(e, elapsed);
            // A WPS fit needs as many rounds as a unit-reading session: over 3 or 4 rounds a
            // narrow slope interval is luck, and a noisy machine turns it into nonsense.
            // Its fitted points (rounds merged by subsession analysis) count likewise.
            self.met_target = e.n >= 2
                && (readings_only || e.subsession_means.len() >= cfg.min_subsessions)
                && e.rounds >= cfg.min_rounds
                && e.wps.as_ref().is_none_or(|w| w.fit.n >= cfg.min_rounds)
                && (e.relative_half_width() <= cfg.target);
        }
        // Planned even when stopping: a group may run this member on.
        self.work = self.session.next_work(
            readings_only,
            work,
            duration,
            (self.low, high),
            first_long,
            self.estimate.as_ref(),
            cfg.max_time.saturating_sub(elapsed),
        );
        if self.met_target && elapsed >= cfg.min_time {
            return Some(Status::Converged);
        }
        (elapsed >= cfg.max_time).then_some(Status::TimeCap)
    }

    /// Ends the session with `status` (from [`SessionState::record`], or the caller's own):
    /// the result, with its warnings.
    pub(crate) fn finish(self, status: Status) -> SessionResult {
        let SessionState {
            mut session,
            start,
            estimate,
            readings_only,
            ..
        } = self;
        let analysed = session.rounds.iter().filter(|r| r.analysed).count();
        let status = match status {
            Status::Converged | Status::TimeCap
                if !readings_only && analysed >= 3 && 2 * session.unstable_rounds > analysed =>
            {
                Status::NoSteadyState
            }
            s => s,
        };
        // A readings-only fit whose slope is not positive has measured no time per unit: no
        // result, and the user is told why.
        let (status, estimate, unresolved_fit) = match estimate {
            Some(e) if readings_only && e.mean <= 0.0 => {
                session.warnings.push(unresolved_warning(e.mean, e.rounds));
                (Status::Unresolved, None, Some(e))
            }
            e => (status, e, None),
        };
        session.finish_warnings(&status, estimate.as_ref());
        SessionResult {
            status,
            estimate,
            elapsed: session.clock.now().saturating_sub(start),
            rounds: session.rounds,
            removed: session.removed,
            readings: session.readings,
            warnings: session.warnings,
            process_means: Vec::new(),
            unresolved_fit,
        }
    }
}

/// The warning of [`Status::Unresolved`]: a fitted time per unit of `slope_ns` over `rounds`.
pub(crate) fn unresolved_warning(slope_ns: f64, rounds: usize) -> String {
    format!(
        "the round durations did not grow with the work amount (fitted time per unit {slope_ns:.4} \
         ns over {rounds} rounds): no estimate; raise the top of the work range or the time cap"
    )
}

struct Session<'a> {
    config: &'a SessionConfig,
    clock: &'a dyn Clock,
    rounds: Vec<RoundRecord>,
    /// Stable unit readings of all analysed rounds, in order; each entry is the mean of
    /// `premerged` consecutive readings once the session has compacted them.
    stable: Vec<f64>,
    /// How many consecutive stable readings each entry of `stable` stands for (a power of 2).
    premerged: usize,
    /// Stable readings seen (not entries of `stable`).
    stable_count: usize,
    /// Sum of the last round's unit readings, in nanoseconds (for the planner's time model).
    last_units_ns: f64,
    /// Mean of each analysed round's stable readings, in order.
    round_means: Vec<f64>,
    /// (work, duration in ns) of analysed readings-only rounds.
    whole: Vec<(f64, f64)>,
    removed: usize,
    readings: usize,
    unstable_rounds: usize,
    zero_readings: usize,
    warnings: Vec<String>,
}

impl<'a> Session<'a> {
    fn new(config: &'a SessionConfig, clock: &'a dyn Clock) -> Self {
        Session {
            config,
            clock,
            rounds: Vec::new(),
            stable: Vec::new(),
            premerged: 1,
            stable_count: 0,
            last_units_ns: 0.0,
            round_means: Vec::new(),
            whole: Vec::new(),
            removed: 0,
            readings: 0,
            unstable_rounds: 0,
            zero_readings: 0,
            warnings: Vec::new(),
        }
    }

    /// Runs non-stable phase removal on one round's readings and keeps its stable phase.
    fn add_units(&mut self, units: &[f64]) -> Option<(usize, usize)> {
        self.readings += units.len();
        self.last_units_ns = units.iter().sum();
        self.zero_readings += units.iter().filter(|&&x| x == 0.0).count();
        match find_stable_segment(units, &self.config.changepoints) {
            Ok(seg) if seg.dominant => {
                let kept = &units[seg.start..seg.end];
                self.stable_count += kept.len();
                self.round_means
                    .push(kept.iter().sum::<f64>() / kept.len() as f64);
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
                self.compact();
                Some((seg.start, seg.end))
            }
            _ => {
                // No dominant stable phase: kept in the record, not in the estimate.
                self.unstable_rounds += 1;
                self.removed += units.len();
                None
            }
        }
    }

    /// Keeps memory bounded on long sessions of short units: past [`MAX_KEPT`] entries, adjacent
    /// pairs are replaced by their means. Subsession analysis of the compacted series with size
    /// q is subsession analysis of the original with size `q · premerged` (a mean of means of
    /// equal-size blocks is the block mean), so only subsession sizes below `premerged` are lost,
    /// and those are the ones a long session no longer needs.
    fn compact(&mut self) {
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

    fn unit_estimate(&self) -> Option<Estimate> {
        if self.stable.len() < 2 {
            return None;
        }
        let cfg = self.config;
        let s: SubsessionAnalysis =
            subsession_analysis(&self.stable, cfg.autocorrelation_limit, cfg.min_subsessions)
                .ok()?;
        let mean = s.mean();
        let within = s.adjusted_mean_ci(cfg.confidence).ok()?;
        let q = s.size * self.premerged;
        let mut required_n = s
            .required_count(cfg.target * mean.abs(), cfg.confidence)
            .map(|h| h * q);
        // The readings of one round share the machine's state during that round: frequency,
        // the load of neighbours, where memory landed. When that state drifts or switches
        // between rounds (on shared machines it does, by tens of percent over seconds), the
        // readings' interval cannot see it. The rounds' means can: Student's t over them is
        // the between-round interval, and the wider of the two is reported.
        let mut ci = within;
        let mut between_rounds = false;
        if self.round_means.len() >= 2 {
            let rounds = crate::stats::Summary::of(&self.round_means).ok()?;
            let r = rounds.n as f64;
            let half = crate::stats::summary::t_critical(cfg.confidence, r - 1.0)
                * (rounds.variance / r).sqrt();
            if half > within.half_width() {
                between_rounds = true;
                ci = crate::stats::ConfidenceInterval {
                    low: mean - half,
                    high: mean + half,
                    confidence: cfg.confidence,
                };
                // Rounds, not readings, are then what the target needs more of: express the
                // need in readings at the current readings per round.
                let per_round = self.stable_count as f64 / r;
                required_n = crate::stats::samplesize::required_for_half_width(
                    rounds.variance,
                    r - 1.0,
                    cfg.target * mean.abs(),
                    cfg.confidence,
                )
                .map(|rounds_needed| (rounds_needed as f64 * per_round).ceil() as usize);
            }
        }
        Some(Estimate {
            mean,
            ci,
            between_rounds,
            rounds: self.round_means.len(),
            n: self.stable_count,
            subsession_size: q,
            autocorrelation: s.autocorrelation,
            required_n,
            variance_inflation: s.variance_inflation(),
            subsession_means: s.means,
            wps: None,
        })
    }

    fn wps_estimate(&self) -> Option<Estimate> {
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

    #[allow(clippy::too_many_arguments)]
    fn next_work(
        &self,
        readings_only: bool,
        work: u64,
        duration: Duration,
        (low, high): (u64, u64),
        (first_index, first_len): (usize, Duration),
        estimate: Option<&Estimate>,
        remaining: Duration,
    ) -> u64 {
        let cfg = self.config;
        // Time model of a round: a fixed cost (setup, clock reads) plus the work units. In
        // unit-reading mode the readings say what the units cost; the rest of the round's
        // duration is the fixed cost. A round whose units read 0 ns costs its fixed part only,
        // so the model never promises a free round of unbounded work.
        let work_f = work.max(1) as f64;
        let total = duration.as_secs_f64();
        let (fixed, per_unit_s) = if readings_only || self.last_units_ns <= 0.0 {
            (0.0, total / work_f)
        } else {
            let units = (self.last_units_ns * 1e-9).min(total);
            (total - units, units / work_f)
        };
        let per_unit = Duration::from_secs_f64(per_unit_s.max(1e-12));
        let high = if readings_only {
            high
        } else {
            high.min(MAX_ROUND_UNITS.max(low))
        };
        if readings_only {
            // Bisection over [a, b]; without a user range, b is what a `max_round` round can do.
            let b = if high < u64::MAX / 2 {
                high
            } else {
                work_for(cfg.max_round, per_unit, u64::MAX / 64, low, high)
                    .max(low.saturating_mul(4))
            };
            return bisection_work(low, b.max(low + 1), self.whole.len() as u64);
        }
        let index = (self.rounds.len() - first_index) as u32;
        let target = if index < FIRST_RESULT_ROUNDS {
            first_result_round(first_len, cfg.first_result, FIRST_RESULT_ROUNDS, index)
        } else {
            // Size from the required sample size: the stable readings still missing, scaled up
            // by the share of readings that survive non-stable phase removal; at least a
            // quarter more than we have, so a noisy estimate cannot stall the session.
            let have = self.stable_count as f64;
            if have == 0.0 {
                // Nothing stable yet: longer rounds give a steady state more room to show.
                duration * 2
            } else {
                let kept = (have / self.readings.max(1) as f64).max(0.05);
                let need = estimate
                    .and_then(|e| e.required_n)
                    .map_or(2.0 * have, |n| n as f64);
                let units = (need - have).max(have / 4.0) / kept;
                Duration::from_secs_f64(units * per_unit.as_secs_f64())
            }
        };
        let target = target
            .clamp(cfg.short_round, cfg.max_round)
            .min(remaining.max(cfg.short_round));
        let for_units = Duration::from_secs_f64((target.as_secs_f64() - fixed).max(0.0));
        work_for(for_units.max(per_unit), per_unit, work, low, high)
    }

    fn finish_warnings(&mut self, status: &Status, estimate: Option<&Estimate>) {
        if *status == Status::BelowResolution || self.zero_readings * 10 > self.readings.max(1) {
            self.warnings.push(format!(
                "{} of {} unit readings are 0 ns: units are shorter than the clock resolves; \
                 time more work per unit (or use the micro form, which batches iterations)",
                self.zero_readings, self.readings
            ));
        }
        // Readings-only rounds are timed whole: one preemption or interrupt lands entirely in
        // one round's duration, and only rounds much longer than such blips average them out.
        if let Some(fit) = estimate.and_then(|e| e.wps.as_ref()) {
            let top = self.config.work_range.1;
            let top_ns = fit.fit.intercept + fit.fit.slope * top as f64;
            if top_ns < self.config.short_round.as_nanos() as f64 {
                self.warnings.push(format!(
                    "a round at the top of the work range ({top}) takes about {}, shorter than \
                     the {} a round needs to outlast interruptions: raise the top of the range",
                    crate::report::format_ns(top_ns),
                    crate::report::format_ns(self.config.short_round.as_nanos() as f64),
                ));
            }
        }
        if *status == Status::NoSteadyState {
            self.warnings.push(format!(
                "{} of {} analysed rounds had no dominant stable phase: the workload never \
                 settled into a steady state",
                self.unstable_rounds,
                self.rounds.iter().filter(|r| r.analysed).count()
            ));
        }
        if let (Status::TimeCap, Some(e)) = (status, estimate) {
            let reached = 100.0 * e.relative_half_width();
            let target = 100.0 * self.config.target;
            let cfg = self.config;
            // The interval can be narrow enough while the samples behind it are too few to
            // trust it: say which least count was missing.
            let short = if e.wps.is_none() && e.subsession_means.len() < cfg.min_subsessions {
                Some(format!(
                    "{} of the least {} subsession samples",
                    e.subsession_means.len(),
                    cfg.min_subsessions
                ))
            } else if e.rounds < cfg.min_rounds {
                Some(format!(
                    "{} of the least {} rounds",
                    e.rounds, cfg.min_rounds
                ))
            } else {
                e.wps
                    .as_ref()
                    .filter(|w| w.fit.n < cfg.min_rounds)
                    .map(|w| {
                        format!(
                            "{} of the least {} fitted points (rounds merged {} at a time for \
                         their correlation)",
                            w.fit.n, cfg.min_rounds, w.subsession_size
                        )
                    })
            };
            self.warnings.push(match short {
                Some(what) if reached <= target => format!(
                    "time cap reached with ±{reached:.2}% of the mean (target ±{target:.2}%), \
                     but with only {what}: slow units need a longer cap"
                ),
                _ => format!(
                    "time cap reached with ±{reached:.2}% of the mean (target ±{target:.2}%)"
                ),
            });
        }
        if let Some(e) = estimate {
            if e.wps.as_ref().is_some_and(|w| w.v_ci.high.is_none()) {
                self.warnings.push(
                    "the duration barely depends on the work amount: the speed has no upper \
                     bound; widen the work range"
                        .into(),
                );
            }
        }
        // Auto-pilot's drift check: a trend across the rounds' mean unit times (a slowdown, a
        // leak, growing state) is warned about even when each round looked stable.
        let means: Vec<f64> = self
            .rounds
            .iter()
            .filter(|r| r.analysed)
            .filter_map(|r| r.mean_ns)
            .collect();
        if means.len() >= 5 {
            if let Ok(t) = crate::stats::trend::trend(&means, self.config.confidence) {
                if t.p < 0.001 && t.relative_drift.abs() > 3.0 * self.config.target.max(0.01) {
                    let dir = if t.relative_drift > 0.0 {
                        "slower"
                    } else {
                        "faster"
                    };
                    self.warnings.push(format!(
                        "the workload gets {dir} from round to round: {:+.1}% from the first \
                         analysed round to the last (p = {:.1e}); a leak or growing state?",
                        100.0 * t.relative_drift,
                        t.p
                    ));
                }
            }
        }
    }
}
