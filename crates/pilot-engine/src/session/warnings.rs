//! What a session tells its user when it ends: zero readings, short readings-only rounds, no
//! steady state, the time cap and which least count was missing, an unbounded speed, a drift.

use super::readings::Readings;
use super::warmup::WarmUpClass;
use super::{Estimate, SessionResult, Status};
use crate::checks::{Kind, check, figure};
use pilot_format::CheckDoc;
use serde::{Deserialize, Serialize};

/// What the warning about readings of 0 ns says of them, after their count: the clock is too
/// coarse for the units.
const ZERO_READINGS: &str = "unit readings are 0 ns: units are shorter than the clock resolves";

/// One of a session's warnings, typed so that code decides by what a warning is, never by its
/// words: a check's, whose words are the check's own message (a check is the one source of
/// its warning), or a note that no check makes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Warning {
    /// The message of the session's check of this kind (its `kind` key): the warning says what
    /// the check says, advice and blame included, and goes when the check goes.
    Check(String),
    /// Readings of 0 ns: the clock is too coarse for the units. (`cargo pilot run` knows
    /// better where a program's runs read 0: the shell's start-up subtracted from them.)
    ZeroReadings(String),
    /// Any other note, in its words.
    Note(String),
}

impl Warning {
    /// The warning's words: a check's message is looked up among `checks` (`None` when the
    /// session has no check of its kind any more).
    pub(crate) fn text<'a>(&'a self, checks: &'a [CheckDoc]) -> Option<&'a str> {
        match self {
            Warning::Check(kind) => checks
                .iter()
                .find(|c| c.kind == *kind)
                .map(|c| c.message.as_str()),
            Warning::ZeroReadings(text) | Warning::Note(text) => Some(text),
        }
    }

    /// Whether this is the warning of a check of `kind`.
    pub(crate) fn is_check(&self, kind: &str) -> bool {
        matches!(self, Warning::Check(k) if k == kind)
    }
}

/// The words of `warnings`, in order, a check's taken from `checks`.
fn warning_texts(warnings: &[Warning], checks: &[CheckDoc]) -> Vec<String> {
    warnings
        .iter()
        .filter_map(|w| w.text(checks))
        .map(str::to_string)
        .collect()
}

/// How much the outliers may move the mean before the outliers check fires.
const OUTLIER_EFFECT: f64 = 0.01;

/// The warning of [`Status::Unresolved`]: a fitted time per unit of `slope_ns` over `rounds`.
pub(crate) fn unresolved_warning(slope_ns: f64, rounds: usize) -> Warning {
    Warning::Note(format!(
        "the round durations did not grow with the work amount (fitted time per unit {slope_ns:.4} \
         ns over {rounds} rounds): no estimate; raise the top of the work range or the time cap"
    ))
}

impl SessionResult {
    /// The words of the session's warnings, in order (see [`warning_texts`]).
    pub(crate) fn warning_texts(&self) -> Vec<String> {
        warning_texts(&self.warnings, &self.checks)
    }

    /// Adds check `c` and its warning.
    pub(crate) fn add_check(&mut self, c: CheckDoc) {
        self.warnings.push(Warning::Check(c.kind.clone()));
        self.checks.push(c);
    }

    /// Puts check `new` in the place of the session's check of `kind`, and its warning in the
    /// place of that check's; nothing without a check of `kind`.
    pub(crate) fn replace_check(&mut self, kind: &str, new: CheckDoc) {
        let Some(c) = self.checks.iter_mut().find(|c| c.kind == kind) else {
            return;
        };
        for w in self.warnings.iter_mut().filter(|w| w.is_check(kind)) {
            *w = Warning::Check(new.kind.clone());
        }
        *c = new;
    }
}

impl Readings<'_> {
    /// Adds the warnings of a session that ended with `status` and `estimate`.
    pub(super) fn finish_warnings(&mut self, status: &Status, estimate: Option<&Estimate>) {
        if *status == Status::BelowResolution || self.zero_readings * 10 > self.readings.max(1) {
            self.warnings.push(Warning::ZeroReadings(format!(
                "{} of {} {ZERO_READINGS}; time more work per unit (or use the micro form, which \
                 batches iterations)",
                self.zero_readings, self.readings
            )));
        }
        self.short_rounds_warning(estimate);
        if *status == Status::NoSteadyState {
            let analysed = self.rounds.iter().filter(|r| r.analysed).count();
            let message = format!(
                "{} of {} analysed rounds had no dominant stable phase: the workload never \
                 settled into a steady state",
                self.unstable_rounds, analysed
            );
            self.add_check(check(
                Kind::NoSteadyState,
                message,
                serde_json::json!({ "unstable_rounds": self.unstable_rounds, "rounds": analysed }),
            ));
        }
        self.time_cap_warnings(status, estimate);
        if let Some(e) = estimate
            && e.wps.as_ref().is_some_and(|w| w.v_ci.high.is_none())
        {
            self.warnings.push(Warning::Note(
                "the duration barely depends on the work amount: the speed has no upper \
                     bound; widen the work range"
                    .into(),
            ));
        }
        if let Some(d) = self.drift() {
            self.add_check(drift_check(d, None));
        }
        if let Some(c) = self.outliers_check() {
            self.add_check(c);
        }
        if let Some(c) = self.first_units.check(self.config.target) {
            self.add_check(c);
        }
        if let Some(c) = crate::checks::memory::leak(&self.memory) {
            self.add_check(c);
        }
    }

    /// The warning of readings-only rounds too short to outlast interruptions, at the top of
    /// the work range.
    fn short_rounds_warning(&mut self, estimate: Option<&Estimate>) {
        // Readings-only rounds are timed whole: one preemption or interrupt lands entirely in
        // one round's duration, and only rounds much longer than such blips average them out.
        if let Some(fit) = estimate.and_then(|e| e.wps.as_ref()) {
            let top = self.config.work_range.1;
            let top_ns = fit.fit.intercept + fit.fit.slope * top as f64;
            if top_ns < self.config.short_round.as_nanos() as f64 {
                self.warnings.push(Warning::Note(format!(
                    "a round at the top of the work range ({top}) takes about {}, shorter than \
                     the {} a round needs to outlast interruptions: raise the top of the range",
                    crate::fmt::format_ns(top_ns),
                    crate::fmt::format_ns(self.config.short_round.as_nanos() as f64),
                )));
            }
        }
    }

    /// The warning of a session that reached its time cap: with an estimate, how far its
    /// interval was from the target; without one, what the rounds took.
    fn time_cap_warnings(&mut self, status: &Status, estimate: Option<&Estimate>) {
        if !self.config.time_cap_warning {
            return;
        }
        match (status, estimate) {
            (Status::TimeCap, Some(e)) => {
                let warning = self.time_cap_warning(e);
                self.warnings.push(Warning::Note(warning));
            }
            (Status::TimeCap, None) => {
                // Not one estimate before the cap: say what the rounds took.
                let longest = self
                    .rounds
                    .iter()
                    .map(|r| r.duration)
                    .max()
                    .unwrap_or_default();
                self.warnings.push(Warning::Note(format!(
                    "time cap ({}) reached before a first estimate: {} round(s) ran, the longest \
                     took {}; raise --max-time (or the attribute's `max_time`), or give the \
                     bench less work per call",
                    crate::fmt::format_ns(self.config.max_time.as_nanos() as f64),
                    self.rounds.len(),
                    crate::fmt::format_ns(longest.as_nanos() as f64),
                )));
            }
            _ => {}
        }
    }

    /// Adds a check and its warning.
    fn add_check(&mut self, c: CheckDoc) {
        self.warnings.push(Warning::Check(c.kind.clone()));
        self.checks.push(c);
    }

    /// The outliers check: the stable readings beyond 3 standard deviations of their round's
    /// mean move the mean by more than 1% (or the target, if wider). Timing readings always
    /// have a few (interrupts, preemption); this fires when they matter to the mean. With the
    /// trimmed-mean estimator they are left out of `time` and kept in the mean's PI.
    fn outliers_check(&self) -> Option<CheckDoc> {
        let o = self.outliers;
        let share = o.z as f64 / o.readings.max(1) as f64;
        let effect = o.effect_on_mean();
        let whereabouts = match self.config.estimator {
            crate::settings::Estimator::Trimmed => {
                "the time (a trimmed mean) leaves the blocks that hold them out, \
                 `time_with_interruptions` keeps them"
            }
            crate::settings::Estimator::Mean => {
                "they are kept in the estimate (`estimator = mean`)"
            }
        };
        (o.readings >= 100 && effect.abs() > OUTLIER_EFFECT.max(self.config.target)).then(|| {
            check(
                Kind::Outliers,
                format!(
                    "{} of {} stable readings ({:.1}%) are outliers beyond 3 standard deviations \
                     ({} by the median-and-MAD rule), and they move the mean by {:+.1}%: \
                     interruptions by other work, or a workload with more than one speed; \
                     {whereabouts}",
                    o.z,
                    o.readings,
                    100.0 * share,
                    o.mad,
                    100.0 * effect
                ),
                serde_json::json!({
                    "z": o.z,
                    "mad": o.mad,
                    "readings": o.readings,
                    "share": figure(share),
                    "effect_on_mean": figure(effect),
                }),
            )
        })
    }

    /// The session's warm-up class (see [`super::warmup`]): `None` in readings-only mode
    /// without rounds to judge.
    pub(super) fn warm_up_class(
        &self,
        status: &Status,
        estimate: Option<&Estimate>,
        drift: Option<Drift>,
    ) -> Option<WarmUpClass> {
        if self.readings == 0 {
            // Readings-only: judged by the rounds' trend alone.
            estimate?;
            return Some(match drift {
                Some(d) if d.relative > 0.0 => WarmUpClass::Slowdown,
                _ => WarmUpClass::Flat,
            });
        }
        let steady = *status != Status::NoSteadyState;
        if steady && self.warm_up_rounds > 0 {
            // Whole rounds were slower before the session settled (and were cut).
            return Some(WarmUpClass::WarmUp);
        }
        Some(
            self.warm_up
                .classify(&self.round_means, steady, drift.map(|d| d.relative)),
        )
    }

    /// At the time cap: the interval reached against the target, and when it was narrow enough,
    /// which least count (subsession samples, rounds, fitted points) was missing.
    fn time_cap_warning(&self, e: &Estimate) -> String {
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
        match short {
            Some(what) if reached <= target => format!(
                "time cap reached with ±{reached:.2}% of the mean (target ±{target:.2}%), \
                 but with only {what}: slow units need a longer cap"
            ),
            _ => format!("time cap reached with ±{reached:.2}% of the mean (target ±{target:.2}%)"),
        }
    }

    /// Auto-pilot's drift check: a trend across the rounds' mean unit times (a slowdown, a
    /// leak, growing state), found even when each round looked stable. Returns the relative
    /// drift from the first analysed round to the last and its p-value.
    pub(super) fn drift(&self) -> Option<Drift> {
        let means: Vec<f64> = self
            .rounds
            .iter()
            .filter(|r| r.analysed)
            .filter_map(|r| r.mean_ns)
            .collect();
        if means.len() < 5 {
            return None;
        }
        let t = pilot_stats::trend(&means, self.config.confidence).ok()?;
        if t.p >= 0.001 || t.relative_drift.abs() <= 3.0 * self.config.target.max(0.01) {
            return None;
        }
        Some(Drift {
            relative: t.relative_drift,
            p: t.p,
        })
    }
}

/// A trend across a session's rounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Drift {
    /// Relative change from the first analysed round to the last: +0.1 is 10% slower.
    pub(crate) relative: f64,
    /// p-value of "no trend".
    pub(crate) p: f64,
}

/// The check of a drift, blaming what the speed probe says: `machine` is the relative change
/// of the probe's time from before the bench to after it (`None` when it was not probed). A
/// machine that moved the same way by at least half as much is the drift's cause
/// (`machine_drift`); otherwise the workload `slowdown`s or `speedup`s. A speed-up is never
/// called a leak.
pub(crate) fn drift_check(d: Drift, machine: Option<f64>) -> CheckDoc {
    let machine_moved =
        machine.is_some_and(|m| m * d.relative > 0.0 && m.abs() >= d.relative.abs() / 2.0);
    let kind = if machine_moved {
        Kind::MachineDrift
    } else if d.relative > 0.0 {
        Kind::Slowdown
    } else {
        Kind::Speedup
    };
    let mut figures = serde_json::json!({
        "relative": figure(d.relative),
        "p": figure(d.p),
    });
    if let Some(m) = machine {
        figures["machine_relative"] = serde_json::json!(figure(m));
    }
    check(kind, drift_warning(d, machine), figures)
}

/// The warning of a drift (see [`drift_check`]).
fn drift_warning(d: Drift, machine: Option<f64>) -> String {
    let pct = 100.0 * d.relative;
    let head = if d.relative > 0.0 {
        format!(
            "the bench got slower from round to round: {pct:+.1}% from the first analysed round to the last ({})",
            crate::fmt::p_clause(d.p)
        )
    } else {
        format!(
            "the bench got faster from round to round: {pct:+.1}% from the first analysed round to the last ({})",
            crate::fmt::p_clause(d.p)
        )
    };
    match machine {
        Some(m) if m * d.relative > 0.0 && m.abs() >= d.relative.abs() / 2.0 => format!(
            "{head}; the machine drifted with it (the speed probe's time changed {:+.1}% from \
             before the bench to after it): the machine's drift, not the workload's",
            100.0 * m
        ),
        Some(m) if d.relative > 0.0 => format!(
            "{head}, while the machine's speed held (speed probe {:+.1}%): a leak or growing \
             state?",
            100.0 * m
        ),
        Some(m) => format!(
            "{head}, while the machine's speed held (speed probe {:+.1}%): the workload itself \
             speeds up (caches, the allocator or branch predictors warming beyond the warm-up \
             that was cut)",
            100.0 * m
        ),
        None if d.relative > 0.0 => {
            format!("{head}: a leak or growing state, or the machine slowing down?")
        }
        None => {
            format!("{head}: warming beyond the warm-up that was cut, or the machine speeding up")
        }
    }
}
