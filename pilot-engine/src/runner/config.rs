//! The session settings of a bench, merged from flags, environment, attribute and defaults.

use std::time::Duration;

use crate::cli::{Args, Mode};
use crate::entry::BenchDef;
use crate::session::SessionConfig;
use crate::settings::{MinTime, parse_as};

/// The timer `args` ask for (`--timer`, `PILOT_TIMER`), with its cost and resolution measured:
/// the TSC calibrated against `Instant`, or an error saying why it cannot be used here.
pub(super) fn measure_clock_of(args: &Args) -> Result<crate::record::ClockInfo, String> {
    let timer = crate::record::Timer::named(args.timer.as_str()).map_err(|why| {
        format!(
            "the TSC timer (`--timer tsc`, `PILOT_TIMER=tsc`) cannot be used on this machine: \
             {why}; time with `Instant`, the default, instead (`--timer instant`)"
        )
    })?;
    Ok(crate::record::measure_timer(timer))
}

/// The session settings of a bench (checked by [`check_session_config`] before the run).
pub(super) fn session_config(args: &Args, def: &BenchDef) -> SessionConfig {
    check_session_config(args, def).expect("settings checked before the run")
}

/// The session settings of a bench: flags (and `PILOT_*` variables, merged in `cli::parse`)
/// over `--quick` over the attribute over the defaults. The attribute's values were checked
/// when the bench compiled, but a time beyond what a session can keep is refused here.
pub(super) fn check_session_config(args: &Args, def: &BenchDef) -> Result<SessionConfig, String> {
    let o = &def.options;
    let quick = |fast: f64| args.quick.then_some(fast);
    let attribute = |name: &str, x: Option<f64>| -> Result<Option<Duration>, String> {
        x.map(|s| {
            parse_as::<MinTime>(
                &format!("`{name}` of the bench's attribute"),
                &s.to_string(),
            )
        })
        .transpose()
        .map(|t| t.map(|t| t.0))
    };
    let max_time = match args.max_time {
        Some(t) => t,
        None => match quick(2.0) {
            Some(s) => Duration::from_secs_f64(s),
            None => attribute("max_time", o.max_time)?.unwrap_or(Duration::from_secs(10)),
        },
    };
    let min_time = match args.min_time {
        Some(t) => t,
        None => attribute("min_time", o.min_time)?.unwrap_or(Duration::ZERO),
    };
    let mut c = SessionConfig {
        confidence: args.confidence.or(o.confidence).unwrap_or(0.95),
        estimator: match (args.estimator, o.estimator) {
            (Some(e), _) => e,
            (None, Some(e)) => {
                crate::settings::parse_as("`estimator` of the bench's attribute", e)?
            }
            (None, None) => crate::settings::Estimator::default(),
        },
        target: args.ci.or(quick(0.05)).or(o.ci).unwrap_or(0.01),
        max_time,
        min_time,
        memory: Some(crate::checks::memory::read),
        ..SessionConfig::default()
    };
    if let Some((a, b)) = o.work {
        c.work_range = (a.max(1), b.max(a.max(1)));
    }
    if args.mode == Mode::Child {
        // One of several process executions: a short session. The first estimate comes early,
        // rounds are short, and fewer rounds are needed, since the process-level interval
        // (over the processes' estimates) is what decides.
        c.first_result = Duration::from_millis(300);
        c.max_round = Duration::from_millis(100);
        c.min_rounds = 6;
    }
    c.min_time = c.min_time.min(c.max_time);
    Ok(c)
}
