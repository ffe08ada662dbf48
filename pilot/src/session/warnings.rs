//! What a session tells its user when it ends: zero readings, short readings-only rounds, no
//! steady state, the time cap and which least count was missing, an unbounded speed, a drift.

use super::readings::Readings;
use super::{Estimate, Status};

/// The warning of [`Status::Unresolved`]: a fitted time per unit of `slope_ns` over `rounds`.
pub(crate) fn unresolved_warning(slope_ns: f64, rounds: usize) -> String {
    format!(
        "the round durations did not grow with the work amount (fitted time per unit {slope_ns:.4} \
         ns over {rounds} rounds): no estimate; raise the top of the work range or the time cap"
    )
}

impl Readings<'_> {
    /// Adds the warnings of a session that ended with `status` and `estimate`.
    pub(super) fn finish_warnings(&mut self, status: &Status, estimate: Option<&Estimate>) {
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
                    crate::fmt::format_ns(top_ns),
                    crate::fmt::format_ns(self.config.short_round.as_nanos() as f64),
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
        match (status, estimate) {
            (Status::TimeCap, Some(e)) => {
                let warning = self.time_cap_warning(e);
                self.warnings.push(warning);
            }
            (Status::TimeCap, None) => {
                // Not one estimate before the cap: say what the rounds took.
                let longest = self
                    .rounds
                    .iter()
                    .map(|r| r.duration)
                    .max()
                    .unwrap_or_default();
                self.warnings.push(format!(
                    "time cap ({}) reached before a first estimate: {} round(s) ran, the longest \
                     took {}; raise --max-time (or the attribute's `max_time`), or give the \
                     bench less work per call",
                    crate::fmt::format_ns(self.config.max_time.as_nanos() as f64),
                    self.rounds.len(),
                    crate::fmt::format_ns(longest.as_nanos() as f64),
                ));
            }
            _ => {}
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
        if let Some(d) = self.drift() {
            self.warnings.push(drift_warning(d, None));
        }
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
        let t = crate::stats::trend::trend(&means, self.config.confidence).ok()?;
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
    pub relative: f64,
    /// p-value of "no trend".
    pub p: f64,
}

/// The warning of a drift, blaming what the speed probe says: `machine` is the relative change
/// of the probe's time from before the bench to after it (`None` when it was not probed). A
/// machine that moved the same way by at least half as much is the drift's cause; a speed-up is
/// never called a leak.
pub(crate) fn drift_warning(d: Drift, machine: Option<f64>) -> String {
    let pct = 100.0 * d.relative;
    let head = if d.relative > 0.0 {
        format!(
            "the bench got slower from round to round: {pct:+.1}% from the first analysed round to the last (p = {:.1e})",
            d.p
        )
    } else {
        format!(
            "the bench got faster from round to round: {pct:+.1}% from the first analysed round to the last (p = {:.1e})",
            d.p
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
