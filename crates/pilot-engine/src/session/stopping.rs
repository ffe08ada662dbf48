//! The session advanced one round at a time, and its stopping rule: the target met with
//! enough samples and rounds, or the time cap.

use std::time::Duration;

use super::reach::{OutOfReach, judge, judged_after, out_of_reach_warning, resolved_from_zero};
use super::readings::Readings;
use super::warnings::{Warning, unresolved_warning};
use super::{
    Estimate, OnEstimate, RoundData, RoundRecord, SessionConfig, SessionResult, Status, WarmUpClass,
};
use crate::checks::memory::Memory;
use crate::record::Clock;

/// Most units one round may have (the readings of a round are held in memory at once).
pub(crate) const MAX_ROUND_UNITS: u64 = 1 << 21;

/// A session advanced one round at a time: [`Session::next_work`] says what the next round
/// should do, [`Session::record`] takes what it did and says whether the session is over.
/// [`run_session`] drives one to the end; an interleaved group
/// ([`group_session`](crate::session::group_session)) drives several, round by round, and may
/// keep a member going after it has met its own target.
pub(crate) struct Session<'a> {
    readings: Readings<'a>,
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
    /// Whether the last estimate had the least samples and rounds an interval needs.
    least_samples: bool,
    /// Set when more time cannot buy the target (see [`reach::judge`]).
    out_of_reach: Option<OutOfReach>,
    /// Set once an interval that could have been judged reached zero (a readings-only slope
    /// not yet told from none): from then on the session runs to its target or its cap, so
    /// that when it stops never hangs on its interval having just left zero, which would
    /// make a slope of nothing look measured one time in a few.
    reached_zero: bool,
    /// Units run so far (rounds in readings-only mode), for the least and most units.
    units: u64,
    /// The resident memory after the last round's call, for its record.
    resident: Option<u64>,
}

impl<'a> Session<'a> {
    /// A session that has run no round yet; its time starts now.
    pub(crate) fn new(config: &'a SessionConfig, clock: &'a dyn Clock) -> Self {
        let start = clock.now();
        Session {
            readings: Readings::new(config, clock),
            start,
            low: config.work_range.0,
            work: config.work_range.0,
            estimate: None,
            schedule: None,
            readings_only: false,
            short_rule: true,
            met_target: false,
            least_samples: false,
            reached_zero: false,
            out_of_reach: None,
            units: 0,
            resident: None,
        }
    }

    /// The work amount the next round should do.
    pub(crate) fn next_work(&self) -> u64 {
        // Unit readings are known after the first round (which does the least work): from
        // then on a round does no more units than the most leave.
        match self.readings.config.max_units {
            Some(most) if !self.readings_only && self.units > 0 => {
                self.work.min(most.saturating_sub(self.units).max(1))
            }
            _ => self.work,
        }
    }

    /// Whether the session has run its most units (a program's `--max-runs`): a group runs it
    /// no more.
    pub(crate) fn at_most_units(&self) -> bool {
        self.readings
            .config
            .max_units
            .is_some_and(|most| self.units >= most)
    }

    /// The current estimate of the time PI, if there is one yet.
    pub(crate) fn estimate(&self) -> Option<&Estimate> {
        self.estimate.as_ref()
    }

    /// Whether the current estimate meets the target and has enough samples and rounds.
    pub(crate) fn met_target(&self) -> bool {
        self.met_target
    }

    /// Whether the current estimate has the least samples and rounds an interval needs,
    /// whatever its width.
    pub(crate) fn has_least_samples(&self) -> bool {
        self.least_samples
    }

    /// Mean of each analysed round's stable unit readings, in order (empty in readings-only
    /// mode).
    pub(crate) fn round_means(&self) -> &[f64] {
        &self.readings.round_means
    }

    /// Whether the workload only gives whole-round readings (the WPS method).
    pub(crate) fn readings_only(&self) -> bool {
        self.readings_only
    }

    /// Tells the planner that the next round's units will last `growth` times the last
    /// round's (see [`Workload::unit_growth`](super::Workload::unit_growth)).
    pub(crate) fn set_unit_growth(&mut self, growth: f64) {
        self.readings.unit_growth = if growth.is_finite() && growth > 0.0 {
            growth
        } else {
            1.0
        };
    }

    /// Takes the outcome of one round of [`Session::next_work`] units, which took
    /// `duration`, and plans the next one. Returns the status when the session should stop:
    /// `Converged` or `TimeCap` (after which the round-by-round caller may still go on), or a
    /// failure, `BelowResolution` (final).
    /// The process's memory now, where the session reads it (see [`SessionConfig::memory`]):
    /// read just before and just after each round's call, never inside it.
    pub(crate) fn read_memory(&self) -> Option<Memory> {
        self.readings.config.memory.map(|read| read())
    }

    /// Notes the memory read just before (`before`) and just after (`after`) the call of the
    /// round whose `data` is about to be recorded: what the call kept goes into the leak
    /// check's series (cumulative, round by round), and the resident size after it into the
    /// round's record. The round's readings, which pilot made for the call and which outlive
    /// it, are not the bench's; what pilot keeps between calls (its analysis, its records) is
    /// not in the difference at all.
    pub(crate) fn saw_memory(
        &mut self,
        before: Memory,
        after: Memory,
        data: &Result<RoundData, String>,
    ) {
        let readings = match data {
            Ok(RoundData::Units { readings, .. }) => {
                (readings.capacity() * std::mem::size_of::<f64>()) as f64
            }
            _ => 0.0,
        };
        self.resident = after.resident;
        if let Some(kept) = crate::checks::memory::kept_by_call(&before, &after, readings) {
            let so_far = self.readings.memory.last().copied().unwrap_or(0.0);
            self.readings.memory.push(so_far + kept);
        }
    }

    pub(crate) fn record(
        &mut self,
        data: Result<RoundData, String>,
        duration: Duration,
        on_estimate: OnEstimate<'_>,
    ) -> Option<Status> {
        let cfg = self.readings.config;
        let high = cfg.work_range.1;
        let data = match data {
            Ok(d) => d,
            Err(message) => return Some(Status::Failed(message)),
        };
        // The round ran `next_work()` units: the planner's amount, or fewer at the most units.
        let ran = self.next_work();
        self.work = ran;
        self.readings_only |= matches!(data, RoundData::Whole);
        self.units += if self.readings_only { 1 } else { ran };
        let at_most = cfg.max_units.is_some_and(|most| self.units >= most);
        let elapsed = self.readings.clock.now().saturating_sub(self.start);
        if duration < cfg.short_round && self.work >= high {
            self.short_rule = false;
        }
        // A short round is set aside for a longer one only while the most units leave room
        // for it: else its readings are all there will be, and setting short rounds aside
        // would keep only the few that a disturbance made long (a biased estimate).
        let next = if self.readings_only {
            1
        } else {
            ran.saturating_mul(2)
        };
        let room = cfg
            .max_units
            .is_none_or(|most| self.units.saturating_add(next) <= most);
        let short = self.short_rule && room && duration < cfg.short_round && self.work < high;
        let analysed = match self.keep_round(data, duration, short, elapsed) {
            Ok(analysed) => analysed,
            Err(failed) => return Some(failed),
        };
        if short {
            self.after_short_round();
            return (elapsed >= cfg.max_time || at_most).then_some(Status::TimeCap);
        }
        if !analysed {
            return at_most.then_some(Status::TimeCap);
        }
        let rounds = self.readings.rounds.iter().filter(|r| r.analysed).count();
        if !self.readings_only
            && rounds >= 3
            && 2 * self.readings.zero_readings > self.readings.readings
        {
            return Some(Status::BelowResolution);
        }
        self.estimate_and_plan(duration, elapsed, on_estimate);
        if elapsed >= cfg.min_time && self.units >= cfg.min_units {
            if self.met_target {
                return Some(Status::Converged);
            }
            if self.out_of_reach.is_some() {
                return Some(Status::OutOfReach);
            }
        }
        (elapsed >= cfg.max_time || at_most).then_some(Status::TimeCap)
    }

    /// Takes the last round of a workload whose time ran out ([`Workload::out_of_time`]):
    /// its unit readings count if it has any, and the session ends, at its time cap unless
    /// that round ends it otherwise.
    ///
    /// [`Workload::out_of_time`]: super::Workload::out_of_time
    pub(crate) fn record_last(
        &mut self,
        data: Result<RoundData, String>,
        duration: Duration,
        on_estimate: OnEstimate<'_>,
    ) -> Status {
        match data {
            Ok(RoundData::Units { readings, .. }) if readings.is_empty() => Status::TimeCap,
            Ok(RoundData::Whole) => Status::TimeCap,
            data => self
                .record(data, duration, on_estimate)
                .unwrap_or(Status::TimeCap),
        }
    }

    /// Records the round and keeps its readings (its stable phase, or its whole-round reading)
    /// unless it is `short`. Returns whether it goes into the analysis, or a failure when a
    /// round timed no unit.
    fn keep_round(
        &mut self,
        data: RoundData,
        duration: Duration,
        short: bool,
        end: Duration,
    ) -> Result<bool, Status> {
        let work = self.work;
        // The first round of any session is a trial: it learns the time per unit, and
        // often pays one-time costs (lazy statics, page faults). Unit readings lose those to
        // change-point detection; a whole-round reading cannot, so it is kept out of the fit.
        let trial = self.readings_only && self.readings.rounds.is_empty();
        let mut record = RoundRecord {
            work,
            duration,
            units: 0,
            iterations: 1,
            stable: None,
            analysed: !short && !trial,
            mean_ns: None,
            bins: None,
            rss_bytes: None,
            end,
            marks: Vec::new(),
            machine: None,
        };
        match data {
            RoundData::Units {
                readings: units,
                iterations,
            } => {
                if units.is_empty() {
                    return Err(Status::Failed(
                        "the round timed no work unit (rec.unit / b.iter never called)".into(),
                    ));
                }
                record.units = units.len();
                record.iterations = iterations.max(1);
                record.mean_ns = Some(units.iter().sum::<f64>() / units.len() as f64);
                let timed_s = units.iter().sum::<f64>() * iterations.max(1) as f64 * 1e-9;
                let untimed_s = (duration.as_secs_f64() - timed_s).max(0.0);
                self.readings.least_untimed_s = self.readings.least_untimed_s.min(untimed_s);
                record.bins = pilot_format::ReadingBins::of(&units, super::ROUND_BINS);
                if short {
                    self.readings.warm_up.add_round(&units, iterations, None);
                } else {
                    record.stable = self.readings.add_units(&units, iterations);
                    self.readings.last_units_ns *= iterations.max(1) as f64;
                }
            }
            RoundData::Whole => {
                if record.analysed {
                    self.readings
                        .whole
                        .push((work as f64, duration.as_nanos() as f64));
                }
            }
        }
        let samples = self
            .estimate
            .as_ref()
            .map_or(0, |e| e.subsession_means.capacity());
        self.readings.track_kept(samples);
        record.rss_bytes = self.resident.take();
        let analysed = record.analysed;
        self.readings.rounds.push(record);
        Ok(analysed)
    }

    /// Pilot's short-round rule: a round too short to trust doubles the work and raises the
    /// floor. In readings-only mode the floor stays below a quarter of the range, or the
    /// regression would have no spread of work amounts left to fit.
    fn after_short_round(&mut self) {
        let cfg = self.readings.config;
        let high = cfg.work_range.1;
        self.work = self.work.saturating_mul(2).min(high);
        if self.readings_only && self.work > cfg.work_range.0.max(high / 4) {
            // Keeping the spread wins: rounds from here on are analysed even if short
            // (α absorbs their fixed cost).
            self.low = cfg.work_range.0.max(high / 4);
            self.short_rule = false;
        } else {
            self.low = self.work;
        }
    }

    /// After an analysed round: the new estimate, whether it meets the target with enough
    /// samples and rounds, and the next round's work amount.
    fn estimate_and_plan(
        &mut self,
        duration: Duration,
        elapsed: Duration,
        on_estimate: OnEstimate<'_>,
    ) {
        let cfg = self.readings.config;
        let readings_only = self.readings_only;
        let first_long = *self
            .schedule
            .get_or_insert((self.readings.rounds.len() - 1, duration));
        self.estimate = if readings_only {
            self.readings.wps_estimate()
        } else {
            self.readings.unit_estimate()
        };
        self.met_target = false;
        self.least_samples = false;
        self.out_of_reach = None;
        if let Some(e) = &self.estimate {
            on_estimate(e, elapsed);
            // A WPS fit needs as many rounds as a unit-reading session: over 3 or 4 rounds a
            // narrow slope interval is luck, and a noisy machine turns it into nonsense.
            // Its fitted points (rounds merged by subsession analysis) count likewise.
            self.least_samples = e.n >= 2
                && (readings_only || e.subsession_means.len() >= cfg.min_subsessions)
                && e.rounds >= cfg.min_rounds
                && e.wps.as_ref().is_none_or(|w| w.fit.n >= cfg.min_rounds);
            self.met_target = self.least_samples && e.relative_half_width() <= cfg.target;
            let analysed: Duration = self
                .readings
                .rounds
                .iter()
                .filter(|r| r.analysed)
                .map(|r| r.duration)
                .sum();
            // An interval whose samples are still correlated (subsession analysis has not
            // merged them far enough yet) is no basis for giving up: more time buys samples
            // far enough apart to trust the interval, even when it cannot buy the target.
            let trusted = e.wps.is_some() || e.autocorrelation.abs() <= cfg.autocorrelation_limit;
            if self.least_samples
                && !self.met_target
                && trusted
                && analysed >= judged_after(cfg.max_time)
            {
                self.reached_zero |= !resolved_from_zero(e);
                if !self.reached_zero {
                    let remaining = cfg.max_time.saturating_sub(elapsed);
                    self.out_of_reach = judge(e, cfg.target, analysed, (remaining, cfg.max_time));
                }
            }
        }
        // Planned even when stopping: a group may run this member on.
        self.work = self.readings.next_work(
            readings_only,
            self.work,
            duration,
            (self.low, cfg.work_range.1),
            first_long,
            self.estimate.as_ref(),
            cfg.max_time.saturating_sub(elapsed),
        );
    }

    /// Ends the session with `status` (from [`Session::record`], or the caller's own):
    /// the result, with its warnings.
    pub(crate) fn finish(self, status: Status) -> SessionResult {
        let Session {
            mut readings,
            start,
            estimate,
            readings_only,
            out_of_reach,
            ..
        } = self;
        let elapsed = readings.clock.now().saturating_sub(start);
        let analysed = readings.rounds.iter().filter(|r| r.analysed).count();
        let status = match status {
            Status::Converged | Status::TimeCap | Status::OutOfReach
                if !readings_only && analysed >= 3 && 2 * readings.unstable_rounds > analysed =>
            {
                Status::NoSteadyState
            }
            s => s,
        };
        // A readings-only fit whose slope is not positive has measured no time per unit: no
        // result, and the user is told why.
        let (status, estimate, unresolved_fit) = match estimate {
            Some(e) if readings_only && e.mean <= 0.0 => {
                readings.warnings.push(unresolved_warning(e.mean, e.rounds));
                (Status::Unresolved, None, Some(e))
            }
            // Every stable reading was 0 ns (a clock too coarse, or a program's runs all
            // shorter than the start-up subtracted from them): a mean of 0 is no time, and a
            // document holding it could not be read back.
            Some(e) if !readings_only && e.mean <= 0.0 => {
                let status = match status {
                    Status::Failed(msg) => Status::Failed(msg),
                    _ => Status::BelowResolution,
                };
                (status, None, None)
            }
            e => (status, e, None),
        };
        readings.finish_warnings(&status, estimate.as_ref());
        let drift = readings.drift();
        let warm_up = readings.warm_up_class(&status, estimate.as_ref(), drift);
        let warm_up_start = (readings.readings > 0)
            .then(|| readings.warm_up.start_change(&readings.round_means))
            .flatten();
        let outliers =
            (!readings_only && readings.outliers.readings > 0).then_some(readings.outliers);
        // A warm-up that ended among the short first rounds is measured where it ended; one
        // that reached the first stable phase, or cut whole rounds, by the rounds before it.
        let warm_up_work = (!readings_only && warm_up == Some(WarmUpClass::WarmUp))
            .then(|| {
                (readings.warm_up_rounds == 0)
                    .then(|| readings.warm_up.ended_early(&readings.round_means))
                    .flatten()
                    .or_else(|| {
                        super::WarmUpWork::of_rounds(&readings.rounds, readings.warm_up_rounds)
                    })
            })
            .flatten();
        if let (Status::OutOfReach, Some(e), Some(found)) = (&status, &estimate, &out_of_reach) {
            let target = readings.config.target;
            readings.warnings.push(Warning::Note(out_of_reach_warning(
                e, found, target, elapsed,
            )));
        }
        SessionResult {
            status,
            estimate,
            elapsed,
            rounds: std::mem::take(&mut readings.rounds),
            removed: readings.removed,
            readings: readings.readings,
            warnings: std::mem::take(&mut readings.warnings),
            process_means: Vec::new(),
            unresolved_fit,
            drift,
            checks: std::mem::take(&mut readings.checks),
            warm_up,
            outliers,
            overhead: None,
            machine_state: None,
            warm_up_start,
            warm_up_work,
            allocations: None,
        }
    }
}
