//! The adaptive session (Pilot paper §III-E): run rounds until every performance
//! index's confidence interval is as narrow as asked, then stop; or stop at the time cap and say
//! how far the interval got.
//!
//! The session sees the workload through [`Workload`] and time through
//! [`Clock`], so its decisions (round lengths, short rounds, stopping) are
//! tested with scripted durations.

pub(crate) mod allocations;
mod blame;
mod coldstart;
pub mod group_session;
mod judge;
pub(crate) mod planner;
pub(crate) mod process_estimate;
pub(crate) mod reach;
mod readings;
pub(crate) mod stop_request;
mod stopping;
#[cfg(test)]
mod tests;
pub(crate) mod warmup;
mod warnings;

use std::time::Duration;

use crate::record::Clock;
use pilot_stats::ChangepointConfig;
use pilot_stats::ConfidenceInterval;
use pilot_stats::WpsFit;
/// Whether Ctrl-C (or SIGTERM) asked the run to stop: a session ends its round and reports
/// what it has.
pub use stop_request::requested as stop_requested;
pub(crate) use stopping::Session;
pub(crate) use warmup::WarmUpClass;
pub use warnings::Warning;
pub(crate) use warnings::{Drift, drift_check, unresolved_warning};

/// What one round of the workload produced.
pub enum RoundData {
    /// Unit readings in nanoseconds. In the micro form each reading is per iteration, and a
    /// timed unit ran `iterations` of them (1 otherwise): the round took about
    /// `iterations × Σ readings` of unit time.
    Units {
        /// The round's unit readings, in nanoseconds.
        readings: Vec<f64>,
        /// Iterations per timed unit (1 outside the micro form).
        iterations: u64,
    },
    /// Readings-only: the workload could not time its units; the session times the round.
    Whole,
}

/// The code under measurement, one round at a time.
pub trait Workload {
    /// Runs one round of `work` work units. An `Err` is a failure of the workload (a panic),
    /// with its message.
    fn round(&mut self, work: u64) -> Result<RoundData, String>;

    /// Called after each round has been timed, before the next: room for what must not happen
    /// inside a round (sampling the machine's state).
    fn between_rounds(&mut self) {}

    /// Starts sampling the machine's state between rounds, where the workload can.
    fn start_sampling(&mut self) {}

    /// Whether the workload's own time ran out in its last round (a program's run killed at
    /// its deadline): that round's unit readings count, if it has any, and it runs no more.
    fn out_of_time(&self) -> bool {
        false
    }

    /// How many times longer the next round's units will be than the last round's: the micro
    /// form raises its iterations per unit when a warm-up ends and its units become too short
    /// to time (1 otherwise). The planner sizes the next round with it; without it, a round
    /// planned from short units runs as many times its planned length as its units grew.
    fn unit_growth(&self) -> f64 {
        1.0
    }
}

/// Settings of one session.
#[derive(Debug, Clone)]
pub struct SessionConfig {
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
    /// Reads the process's memory just before and just after each round's call (for the leak
    /// check, which weighs what the calls kept); `None` reads nothing (tests with scripted
    /// workloads).
    pub memory: Option<fn() -> crate::checks::memory::Memory>,
    /// Least units (rounds in readings-only mode) before the session may stop short of its
    /// time cap: a program's `--min-runs`.
    pub min_units: u64,
    /// Most units (rounds in readings-only mode): the session stops there as at its time cap.
    /// A program's `--max-runs`.
    pub max_units: Option<u64>,
    /// What the time PI estimates: the trimmed mean (the code's cost) or the mean of every
    /// reading (interruptions included).
    pub estimator: crate::settings::Estimator,
    /// The clock's resolution in nanoseconds (0 when unknown): unit readings come in steps of
    /// it (divided by the iterations per unit in the micro form), and the robust estimate's
    /// blocks must be long enough to average those steps away.
    pub resolution_ns: f64,
    /// Whether a session that reaches its time cap says so in a warning. A bench's process
    /// does not: the cap that matters is its parent's, whose combination says it once.
    pub time_cap_warning: bool,
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
            memory: None,
            min_units: 0,
            max_units: None,
            estimator: crate::settings::Estimator::default(),
            resolution_ns: 0.0,
            time_cap_warning: true,
        }
    }
}

/// How a session ended.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Status {
    /// Every PI met its target.
    Converged,
    /// The time cap came first while the interval was still converging; the interval reached
    /// is reported.
    TimeCap,
    /// More time could not buy the target: at the variation seen (readings, rounds or
    /// processes), the target needs far more time than the cap leaves. The interval reached
    /// is reported, and a warning names what stands in the way.
    OutOfReach,
    /// A group member whose group stopped once its ranking was settled: the interval is the one
    /// reached by then, which may be wider than the target (only an explicit `ci` makes a group
    /// wait for its members' targets).
    Settled,
    /// Most rounds had no dominant stable phase: the workload never settled.
    NoSteadyState,
    /// Most unit readings were 0 ns: the units are shorter than the clock resolves, and no
    /// amount of rounds makes the estimate meaningful. When every stable reading was 0 there is
    /// no estimate at all (a time of 0 is no time).
    BelowResolution,
    /// A program's runs (`cargo pilot run`) were mostly shorter than the shell's start-up time
    /// that is subtracted from each, or its time is within that start-up's uncertainty: the
    /// time cannot be told from 0 through the shell, and there is no estimate. The detail
    /// says the start-up time and the resolution it leaves.
    BelowShellResolution(String),
    /// A readings-only fit found no positive time per unit: the rounds' durations did not
    /// grow with their work amounts (noise swamped the work, or the range is too narrow).
    /// There is no estimate to report; it is not a failure of the workload.
    Unresolved,
    /// The workload failed (panicked), with the message.
    Failed(String),
    /// A stop was requested (Ctrl-C) and the session ended after its current round; its
    /// result is incomplete and is not saved.
    Interrupted,
}

impl Status {
    /// The name used in output and in result documents.
    pub(crate) fn as_str(&self) -> &'static str {
        match self {
            Status::Converged => "ok",
            Status::TimeCap => "time cap",
            Status::OutOfReach => "out of reach",
            Status::Settled => "settled",
            Status::NoSteadyState => "no steady state",
            Status::BelowResolution => "below clock resolution",
            Status::BelowShellResolution(_) => "below shell resolution",
            Status::Unresolved => "unresolved",
            Status::Failed(_) => "failed",
            Status::Interrupted => "interrupted",
        }
    }
}

/// Most bins a round's unit readings are summarised in ([`RoundRecord::bins`]).
pub(crate) const ROUND_BINS: usize = 64;

/// The record of one round.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RoundRecord {
    /// Work amount.
    pub(crate) work: u64,
    /// Wall time of the round, setup included.
    pub(crate) duration: Duration,
    /// Number of unit readings (0 in readings-only mode).
    pub units: usize,
    /// Iterations per timed unit (the micro form's; 1 otherwise, and where unknown).
    pub(crate) iterations: u64,
    /// The stable phase of the round's unit readings, when it was analysed and had one.
    pub stable: Option<(usize, usize)>,
    /// Whether the round went into the analysis (short rounds do not).
    pub analysed: bool,
    /// Mean of the round's unit readings in nanoseconds (unit-reading mode).
    pub(crate) mean_ns: Option<f64>,
    /// The round's unit readings in at most [`ROUND_BINS`] bins, for plots (unit-reading mode).
    pub(crate) bins: Option<pilot_format::ReadingBins>,
    /// The process's resident memory just after the round's call, in bytes, when it was read.
    pub(crate) rss_bytes: Option<u64>,
    /// When the round ended, from the start of the session.
    pub(crate) end: Duration,
    /// The states of the machine that touched the round (`busy_machine`, …).
    #[serde(with = "crate::checks::sampler::marks")]
    pub(crate) marks: Vec<&'static str>,
    /// The machine's state during the round, when it was sampled.
    pub(crate) machine: Option<crate::checks::sampler::Interval>,
}

/// The mean of every stable unit reading with its interval, kept beside a robust headline
/// estimate: it includes the units that interruptions made slow.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct MeanPi {
    /// Mean time per unit, in nanoseconds.
    pub(crate) mean: f64,
    /// Its interval (subsession analysis, between-round level).
    pub(crate) ci: ConfidenceInterval,
}

/// The current estimate of the time PI.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// Time per unit, in nanoseconds: the trimmed mean of subsession means, or the mean where
    /// the bench chose it (see [`Estimate::estimator`]), or the WPS slope.
    pub mean: f64,
    /// What [`mean`](Self::mean) is.
    pub(crate) estimator: crate::settings::Estimator,
    /// The mean of every stable reading, when the headline is the trimmed mean.
    pub(crate) plain: Option<MeanPi>,
    /// The trimmed mean's figures over the subsession means, when the headline is one (for
    /// Yuen's comparison of saved results).
    pub(crate) trimmed: Option<pilot_stats::Trimmed>,
    /// Its confidence interval.
    pub ci: ConfidenceInterval,
    /// Samples behind it: stable unit readings, or rounds in readings-only mode.
    pub(crate) n: usize,
    /// Subsession size.
    pub(crate) subsession_size: usize,
    /// Lag-1 autocorrelation of the subsession samples (of the residuals in WPS mode).
    pub(crate) autocorrelation: f64,
    /// Samples needed for the target; `None` when unknown.
    pub(crate) required_n: Option<usize>,
    /// Subsession samples (unit-reading mode), kept for comparisons.
    pub(crate) subsession_means: Vec<f64>,
    /// The WPS fit, in readings-only mode.
    pub wps: Option<WpsFit>,
    /// Factor by which the subsession samples' variance was inflated for the correlation left
    /// between them (1 in readings-only mode).
    pub(crate) variance_inflation: f64,
    /// Whether the interval comes from the variation between rounds rather than between
    /// readings: the machine's speed changed from round to round by more than the readings
    /// within a round vary.
    pub(crate) between_rounds: bool,
    /// Analysed rounds with a stable phase behind the estimate.
    pub(crate) rounds: usize,
    /// The between-round (or between-process) half-width over the readings' own, when the
    /// former decided the interval (1 otherwise): how much more the machine's speed varied
    /// from round to round than the readings alone would show.
    pub(crate) round_excess: f64,
    /// Degrees of freedom of this run's own interval: the independent samples of the
    /// variation that decided it (subsession samples, rounds, processes) less one, or the
    /// fitted points less two.
    pub(crate) dof: f64,
    /// Processes far faster than the rest, on a machine not quiet throughout, that the
    /// interval spans because the run cannot tell whether their speed or the rest's is the
    /// code's ([`process_estimate::split`]); 0 when none.
    pub(crate) modes: usize,
}

impl Estimate {
    /// The time PI of a readings-only session: the WPS fit's slope, nanoseconds per work unit
    /// in the stable phase, with the slope's interval.
    pub(crate) fn from_wps(fit: WpsFit) -> Self {
        Estimate {
            mean: fit.fit.slope,
            estimator: crate::settings::Estimator::Mean,
            plain: None,
            trimmed: None,
            ci: fit.slope_ci,
            n: fit.rounds_used,
            subsession_size: fit.subsession_size,
            autocorrelation: fit.residual_autocorrelation,
            required_n: None,
            subsession_means: Vec::new(),
            variance_inflation: 1.0,
            between_rounds: false,
            rounds: fit.rounds_used,
            round_excess: 1.0,
            dof: (fit.fit.n.max(3) - 2) as f64,
            modes: 0,
            wps: Some(fit),
        }
    }

    /// Half-width relative to the mean.
    pub fn relative_half_width(&self) -> f64 {
        if self.mean == 0.0 {
            f64::INFINITY
        } else {
            self.ci.half_width() / self.mean.abs()
        }
    }
}

/// What a session found.
#[derive(Debug, Clone)]
pub struct SessionResult {
    /// How the session ended.
    pub status: Status,
    /// The final estimate of the time PI; `None` when the session failed before one existed.
    pub estimate: Option<Estimate>,
    /// Every round the session ran, in order.
    pub rounds: Vec<RoundRecord>,
    /// Unit readings removed as warm-up or cool-down, over all analysed rounds.
    pub(crate) removed: usize,
    /// Unit readings seen in analysed rounds.
    pub(crate) readings: usize,
    /// The session's wall time.
    pub elapsed: Duration,
    /// Plain-language warnings: of the checks that fired (their words are the checks'
    /// messages) and notes of the session's own.
    pub warnings: Vec<Warning>,
    /// The estimate of each process execution, when the bench ran in several (see
    /// `runner::measure_in_processes`); empty for a session in one process.
    pub(crate) process_means: Vec<f64>,
    /// With [`Status::Unresolved`]: the readings-only fit whose slope was not positive. It is
    /// no result, but a process's draw that the combination over processes must not drop.
    pub(crate) unresolved_fit: Option<Estimate>,
    /// A trend across the rounds, when there was one (its check's warning is among
    /// `warnings`).
    pub(crate) drift: Option<Drift>,
    /// The accuracy checks that fired (each one's [`Warning::Check`] is among `warnings`).
    pub(crate) checks: Vec<pilot_format::CheckDoc>,
    /// How the readings behaved over the session; `None` without readings to judge.
    pub(crate) warm_up: Option<WarmUpClass>,
    /// Outliers counted among the stable readings (unit-reading mode).
    pub(crate) outliers: Option<pilot_stats::OutlierCount>,
    /// What recording each unit cost, when it was measured (full form).
    pub(crate) overhead: Option<crate::checks::overhead::Overhead>,
    /// Allocations and bytes per unit, when a `CountingAlloc` counted them.
    pub(crate) allocations: Option<allocations::AllocationsEstimate>,
    /// Whether the machine's state was sampled; `None` where the question does not arise
    /// (scripted sessions).
    pub(crate) machine_state: Option<MachineState>,
    /// How far the readings' start lay outside the stable rounds' range (see
    /// [`warmup::WarmUpEvidence::start_change`]), when it did.
    pub(crate) warm_up_start: Option<f64>,
    /// The work the workload did before the first reading the estimate counts, when the
    /// session warmed up (class `warm-up`): a later process of the same bench runs as much
    /// unmeasured before its own session (see `runner::processes`).
    pub(crate) warm_up_work: Option<WarmUpWork>,
}

/// Whether a session sampled the machine's state between its rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum MachineState {
    /// It did.
    Sampled,
    /// It could not: the system has no /proc to read.
    NotSampled,
    /// It was told not to (`--no-sampling`).
    Off,
}

impl MachineState {
    /// The name used in result documents.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            MachineState::Sampled => "sampled",
            MachineState::NotSampled => "not sampled",
            MachineState::Off => "off",
        }
    }
}

/// The work a session's warm-up took: what a later process must run before its readings are
/// the steady state's.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct WarmUpWork {
    /// Iterations of the routine (units in the full form) run before the steady state.
    pub(crate) iterations: u64,
    /// The wall time they took.
    pub(crate) time: Duration,
}

impl WarmUpWork {
    /// The warm-up in `rounds` when the first `cut` rounds with a stable phase were cut as a
    /// warm-up that outlasted them: every unit before the stable phase of the next one.
    /// `None` when no round has a stable phase after the cut. Time: O(rounds).
    pub(crate) fn of_rounds(rounds: &[RoundRecord], cut: usize) -> Option<WarmUpWork> {
        let first = rounds
            .iter()
            .enumerate()
            .filter(|(_, r)| r.analysed && r.stable.is_some())
            .nth(cut)?
            .0;
        let before = &rounds[..first];
        let mut iterations: u64 = before
            .iter()
            .map(|r| (r.units as u64).saturating_mul(r.iterations))
            .fold(0, u64::saturating_add);
        let mut time: Duration = before.iter().map(|r| r.duration).sum();
        let r = &rounds[first];
        let (start, _) = r.stable?;
        iterations = iterations.saturating_add((start as u64).saturating_mul(r.iterations));
        if r.units > 0 {
            time += r.duration.mul_f64(start as f64 / r.units as f64);
        }
        Some(WarmUpWork { iterations, time })
    }
}

/// Called after each round with the current estimate, the time used and the config.
pub(crate) type OnEstimate<'a> = &'a mut dyn FnMut(&Estimate, Duration);

/// Runs a session of `workload` with `config`, reading time from `clock`.
pub fn run_session(
    workload: &mut dyn Workload,
    clock: &dyn Clock,
    config: &SessionConfig,
    on_estimate: OnEstimate<'_>,
) -> SessionResult {
    let mut state = Session::new(config, clock);
    let status = loop {
        if stop_request::requested() {
            break Status::Interrupted;
        }
        let work = state.next_work();
        let held = state.read_memory();
        let before = clock.now();
        let data = workload.round(work);
        let duration = clock.now().saturating_sub(before);
        // A round that failed while Ctrl-C was asked for failed of it (a program's run that
        // got the terminal's SIGINT too): the session was interrupted, nothing of it is kept.
        if data.is_err() && stop_request::requested() {
            break Status::Interrupted;
        }
        if let (Some(held), Some(now)) = (held, state.read_memory()) {
            state.saw_memory(held, now, &data);
        }
        workload.between_rounds();
        state.set_unit_growth(workload.unit_growth());
        if workload.out_of_time() {
            break state.record_last(data, duration, on_estimate);
        }
        if let Some(status) = state.record(data, duration, on_estimate) {
            break status;
        }
    };
    state.finish(status)
}

#[cfg(test)]
mod warm_up_work_tests {
    use super::*;

    fn round(
        units: usize,
        iterations: u64,
        ms: u64,
        stable: Option<(usize, usize)>,
    ) -> RoundRecord {
        RoundRecord {
            work: units as u64,
            duration: Duration::from_millis(ms),
            units,
            iterations,
            stable,
            analysed: stable.is_some(),
            mean_ns: None,
            bins: None,
            rss_bytes: None,
            end: Duration::ZERO,
            marks: Vec::new(),
            machine: None,
        }
    }

    #[test]
    fn the_work_before_the_first_kept_stable_phase_is_counted_by_hand() {
        // Two short rounds (not analysed), one analysed round cut as a warm-up, then the
        // first kept round, whose stable phase starts at its fourth unit.
        let rounds = [
            round(4, 10, 1, None),
            round(8, 10, 2, None),
            round(16, 10, 4, Some((2, 16))),
            round(20, 20, 10, Some((3, 20))),
            round(40, 20, 20, Some((0, 40))),
        ];
        let w = WarmUpWork::of_rounds(&rounds, 1).unwrap();
        // 4·10 + 8·10 + 16·10 + 3·20 = 340 iterations; 1 + 2 + 4 ms and 3/20 of 10 ms.
        assert_eq!(w.iterations, 340);
        assert_eq!(w.time, Duration::from_micros(8_500));
        // Nothing cut: up to the first stable phase's start, 2 units into the third round.
        let w = WarmUpWork::of_rounds(&rounds, 0).unwrap();
        assert_eq!(w.iterations, 40 + 80 + 20);
        assert_eq!(w.time, Duration::from_micros(3_500));
        // More cut than there are stable rounds: no steady state to start from.
        assert_eq!(WarmUpWork::of_rounds(&rounds, 3), None);
    }
}
