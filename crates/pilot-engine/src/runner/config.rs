//! The session settings of a bench, merged from flags, environment, attribute and defaults.

use std::time::Duration;

use crate::cli::{Args, Mode};
use crate::entry::BenchDef;
use crate::session::SessionConfig;
use crate::settings::{MinTime, UsageError, parse_as};

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

/// When a child process's session, measuring for `max_time`, reaches its first estimate:
/// within about half of it, at least 40 ms and at most 0.3 s.
pub(super) fn child_first_result(max_time: Duration) -> Duration {
    (max_time / 2).clamp(Duration::from_millis(40), Duration::from_millis(300))
}

/// The session settings of a bench: flags (and `PILOT_*` variables, merged in `cli::parse`)
/// over `--quick` over the attribute over the defaults. The attribute's values were checked
/// when the bench compiled, but a time beyond what a session can keep is refused here.
pub(super) fn check_session_config(
    args: &Args,
    def: &BenchDef,
) -> Result<SessionConfig, UsageError> {
    let o = &def.options;
    let defaults = SessionConfig::default();
    let quick = |fast: f64| args.quick.then_some(fast);
    let (quick_ci, quick_max_time) = pilot_settings::QUICK;
    let attribute = |name: &str, x: Option<f64>| -> Result<Option<Duration>, UsageError> {
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
        None => match quick(quick_max_time) {
            Some(s) => Duration::from_secs_f64(s),
            None => attribute("max_time", o.max_time)?.unwrap_or(defaults.max_time),
        },
    };
    let min_time = match args.min_time {
        Some(t) => t,
        None => attribute("min_time", o.min_time)?.unwrap_or(defaults.min_time),
    };
    let mut c = SessionConfig {
        confidence: args
            .confidence
            .or(o.confidence)
            .unwrap_or(defaults.confidence),
        estimator: match (args.estimator, o.estimator) {
            (Some(e), _) => e,
            (None, Some(e)) => {
                crate::settings::parse_as("`estimator` of the bench's attribute", e)?
            }
            (None, None) => crate::settings::Estimator::default(),
        },
        target: args
            .ci
            .or(quick(quick_ci))
            .or(o.ci)
            .unwrap_or(defaults.target),
        max_time,
        min_time,
        memory: Some(crate::checks::memory::read),
        ..defaults
    };
    if let Some((a, b)) = o.work {
        c.work_range = (a.max(1), b.max(a.max(1)));
    }
    if args.mode == Mode::Child {
        // One of several process executions: a short session. The first estimate comes early,
        // rounds are short, and fewer rounds are needed, since the process-level interval
        // (over the processes' estimates) is what decides.
        // Its first estimate within about half its share (a later process of a bench with
        // short units is given a tenth of a second).
        c.first_result = child_first_result(c.max_time);
        c.max_round = Duration::from_millis(100);
        c.min_rounds = 6;
    }
    c.min_time = c.min_time.min(c.max_time);
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::{BenchBody, BenchOptions};
    use crate::session::process_estimate::auto_processes;

    fn body(_: usize, _: &mut crate::record::Bencher) {}

    /// The setting `name`'s default, as the table states it, parsed as seconds or a number.
    fn stated(name: &str) -> f64 {
        let text = pilot_settings::default_of(name);
        text.parse()
            .unwrap_or_else(|_| panic!("`{name}`'s default `{text}` is not a number"))
    }

    /// What `--help`, the book and `cargo pilot`'s flags say a bench gets without flags,
    /// attribute or `--quick` is what the engine runs it with.
    #[test]
    fn a_bench_told_nothing_runs_by_the_tables_defaults() {
        let def = BenchDef {
            name: "b",
            module_path: "",
            file: "",
            line: 0,
            body: BenchBody::Micro(body),
            options: BenchOptions::DEFAULT,
            args: None,
        };
        let c = check_session_config(&Args::default(), &def).unwrap();
        assert_eq!(c.target, stated("ci"));
        assert_eq!(c.confidence, stated("confidence"));
        assert_eq!(c.max_time.as_secs_f64(), stated("max_time"));
        assert_eq!(c.min_time.as_secs_f64(), stated("min_time"));
        let quick = Args {
            quick: true,
            ..Args::default()
        };
        let q = check_session_config(&quick, &def).unwrap();
        assert_eq!((q.target, q.max_time.as_secs_f64()), pilot_settings::QUICK);
        let options = crate::compare::CompareOptions::default();
        assert_eq!(options.alpha, stated("alpha"));
        assert_eq!(options.noise, stated("noise"));
        // `--processes`' default as the table words it, from the counts the runner uses.
        let s = |secs: u64| std::time::Duration::from_secs(secs);
        let p = pilot_settings::PROCESSES;
        assert_eq!(auto_processes(s(p.many_from_s)), p.many);
        assert_eq!(
            auto_processes(s(p.many_from_s) - std::time::Duration::from_millis(1)),
            p.few
        );
        assert_eq!(auto_processes(s(p.few_from_s)), p.few);
        assert_eq!(
            auto_processes(s(p.few_from_s) - std::time::Duration::from_millis(1)),
            1
        );
        assert_eq!(crate::compare::BASELINE_PROCESSES, p.baseline);
        assert_eq!(
            pilot_settings::default_of("processes"),
            pilot_settings::processes_default()
        );
    }
}
