//! The session settings of a bench, merged from flags, environment, attribute and defaults.

use std::time::Duration;

use crate::cli::Args;
use crate::entry::BenchDef;
use crate::session::SessionConfig;

/// The session settings of a bench: flags (and `PILOT_*` variables) over `--quick` over the
/// attribute over the defaults.
pub(super) fn session_config(args: &Args, def: &BenchDef) -> SessionConfig {
    let o = &def.options;
    let quick = |fast: f64| args.quick.then_some(fast);
    let mut c = SessionConfig {
        confidence: args.confidence.or(o.confidence).unwrap_or(0.95),
        target: args.ci.or(quick(0.05)).or(o.ci).unwrap_or(0.01),
        max_time: Duration::from_secs_f64(
            args.max_time.or(quick(2.0)).or(o.max_time).unwrap_or(10.0),
        ),
        min_time: Duration::from_secs_f64(args.min_time.or(o.min_time).unwrap_or(0.0)),
        ..SessionConfig::default()
    };
    if let Some((a, b)) = o.work {
        c.work_range = (a.max(1), b.max(a.max(1)));
    }
    if args.child {
        // One of several process executions: a short session. The first estimate comes early,
        // rounds are short, and fewer rounds are needed, since the process-level interval
        // (over the processes' estimates) is what decides.
        c.first_result = Duration::from_millis(300);
        c.max_round = Duration::from_millis(100);
        c.min_rounds = 6;
    }
    c.min_time = c.min_time.min(c.max_time);
    c
}
