//! The checks summary printed after the end table: each kind of check that fired, and each
//! status other than `ok`, once: on which benches, what it means, and the remedy that fits
//! them all ([`crate::checks::advice`]). A bench's line shows a marker per check that fired on
//! it; `--verbose` prints each bench's messages in full; the result documents keep every
//! figure.
//!
//! A kind already explained earlier in the same job (an earlier bench target of one
//! `cargo bench`) is not explained again: the markers on the benches' lines say where it
//! fired.

use std::collections::BTreeSet;

use crate::checks::Kind;
use crate::checks::advice::Context;
use crate::fmt::Paint;
use pilot_format::ResultDoc;

/// Statuses the summary explains, with what they mean (the remedy is [`status_advice`]'s).
const STATUSES: [(&str, &str); 6] = [
    (
        "failed",
        "the bench panicked or returned an error: its line says why",
    ),
    (
        "time cap",
        "the time cap ended the session before the interval reached its target",
    ),
    (
        "out of reach",
        "the session stopped early: at the rate its interval narrowed, the target was out of \
         reach within the time cap (--verbose says what stood in the way)",
    ),
    (
        "below clock resolution",
        "the units are shorter than the clock resolves",
    ),
    (
        "below shell resolution",
        "the program's runs were mostly shorter than the shell's start-up time subtracted from \
         each: its time cannot be told from 0 through the shell, and has no estimate",
    ),
    (
        "unresolved",
        "the rounds' durations did not grow with the work amount: no estimate",
    ),
];

/// What is being explained: a kind of check, or a status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Topic {
    Check(Kind),
    Status(&'static str, &'static str),
}

impl Topic {
    fn key(self) -> &'static str {
        match self {
            Topic::Check(k) => k.as_str(),
            Topic::Status(s, _) => s,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Topic::Check(k) => k.label(),
            Topic::Status(s, _) => s,
        }
    }

    fn meaning(self) -> &'static str {
        match self {
            Topic::Check(k) => k.meaning(),
            Topic::Status(_, m) => m,
        }
    }

    fn advice(self, ctx: &Context) -> Option<String> {
        match self {
            Topic::Check(k) => k.advice(ctx),
            Topic::Status(s, _) => status_advice(s, ctx),
        }
    }

    /// Whether result document `d` has it.
    fn on(self, d: &ResultDoc) -> bool {
        match self {
            Topic::Check(k) => d.checks.iter().any(|c| c.kind == k.as_str()),
            Topic::Status(s, _) => d.status == s,
        }
    }
}

/// The remedy for a session that ended with `status`.
fn status_advice(status: &str, ctx: &Context) -> Option<String> {
    match status {
        "time cap" => Some(
            "raise --max-time (or the bench's `max_time`), or accept a wider interval (--ci)"
                .into(),
        ),
        "out of reach" if ctx.grouped || ctx.against => Some("raise --max-time".into()),
        "out of reach" => Some(
            "raise --max-time, or compare alternatives in a group (interleaving cancels the \
             machine's state)"
                .into(),
        ),
        "below clock resolution" => Some(
            "time more work per unit, or use the micro form (`b.iter`), which batches iterations"
                .into(),
        ),
        "below shell resolution" => {
            Some("run the command without a shell (-N), or give each run more work".into())
        }
        "unresolved" => Some("raise the top of the work range, or the time cap".into()),
        _ => None,
    }
}

/// The topics that `documents` have, in the summary's order: statuses first, then kinds of
/// check in [`Kind::ALL`]'s order.
fn topics(documents: &[ResultDoc]) -> Vec<Topic> {
    let statuses = STATUSES.iter().map(|&(s, m)| Topic::Status(s, m));
    let kinds = Kind::ALL.into_iter().map(Topic::Check);
    statuses
        .chain(kinds)
        .filter(|t| documents.iter().any(|d| t.on(d)))
        .collect()
}

/// The context of result document `d` as far as documents tell it: a member of one of
/// `groups` (by name), its threads, a CI runner; `against` when the run compared two builds.
pub fn context_of(d: &ResultDoc, groups: &[pilot_format::GroupDoc], against: bool) -> Context {
    Context {
        grouped: groups.iter().any(|g| g.ranking.contains(&d.name)),
        threads: d.threads.as_ref().map_or(1, |t| t.count),
        against,
        ci: d.machine.as_ref().is_some_and(|m| m.ci.is_some()),
    }
}

/// The markers of the checks that fired on `d` (not the run's own state, which every bench
/// shares: the summary says it once), in [`Kind::ALL`]'s order.
pub fn markers(d: &ResultDoc) -> Vec<&'static str> {
    Kind::ALL
        .into_iter()
        .filter(|k| !k.is_run_wide())
        .filter(|k| d.checks.iter().any(|c| c.kind == k.as_str()))
        .map(Kind::marker)
        .collect()
}

/// The checks summary of `documents`: a line per topic not in `explained` (which it then
/// joins); those already explained are left to the benches' markers. `context` gives each bench's context; the
/// advice fits the context the benches of a topic share. Empty when nothing fired.
pub fn summary(
    documents: &[ResultDoc],
    context: &dyn Fn(&ResultDoc) -> Context,
    explained: &mut BTreeSet<String>,
    paint: Paint,
) -> String {
    let mut lines = Vec::new();
    for topic in topics(documents) {
        let on: Vec<&ResultDoc> = documents.iter().filter(|d| topic.on(d)).collect();
        let count = if matches!(topic, Topic::Check(k) if k.is_run_wide()) {
            String::new()
        } else {
            format!(" ({})", benches(&on, documents.len()))
        };
        if !explained.insert(topic.key().to_string()) {
            // Explained by an earlier target of the job; each line's markers say where it
            // fired here.
            continue;
        }
        let figures = spread(topic, &on).map_or(String::new(), |s| format!(" [{s}]"));
        let ctx = Context::common(on.iter().map(|d| context(d)));
        let advice = topic
            .advice(&ctx)
            .map_or(String::new(), |a| format!("; {a}"));
        lines.push(format!(
            "{} {}{count}{figures}: {}{advice}",
            paint.warn("check:"),
            topic.label(),
            topic.meaning()
        ));
    }
    let mut out = String::new();
    for l in lines {
        out.push_str(&crate::fmt::terminal(&l));
        out.push('\n');
    }
    out
}

/// `3 of 12 benches: a, b, c`, names given when there are at most three.
fn benches(on: &[&ResultDoc], total: usize) -> String {
    let n = on.len();
    let of = if n == total && total > 1 {
        format!("all {n} benches")
    } else if total > 1 {
        format!("{n} of {total} benches")
    } else {
        "1 bench".to_string()
    };
    if n <= 3 && total > 1 {
        let names: Vec<&str> = on.iter().map(|d| d.name.as_str()).collect();
        format!("{of}: {}", names.join(", "))
    } else {
        of
    }
}

/// The least and most of the figure that says how much, for the topics that have one:
/// `1.0 to 1.8 cores busy`, `+2.4% to +54%`.
fn spread(topic: Topic, on: &[&ResultDoc]) -> Option<String> {
    let figure = |d: &ResultDoc| -> Option<f64> {
        match topic {
            Topic::Status("time cap" | "out of reach", _) => {
                let pi = d.time()?;
                Some((pi.ci.high? - pi.ci.low?) / 2.0 / pi.mean?.abs())
            }
            Topic::Check(k) => {
                let key = match k {
                    Kind::BusyMachine => "mean",
                    Kind::Outliers => "effect_on_mean",
                    Kind::Slowdown | Kind::Speedup | Kind::MachineDrift => "relative",
                    _ => return None,
                };
                let c = d.checks.iter().find(|c| c.kind == k.as_str())?;
                c.figures.get(key)?.as_f64()
            }
            Topic::Status(..) => None,
        }
    };
    let xs: Vec<f64> = on.iter().filter_map(|d| figure(d)).collect();
    let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if xs.is_empty() || !lo.is_finite() || !hi.is_finite() {
        return None;
    }
    let range = |f: &dyn Fn(f64) -> String| {
        if f(lo) == f(hi) {
            f(lo)
        } else {
            format!("{} to {}", f(lo), f(hi))
        }
    };
    Some(match topic {
        Topic::Status(..) => format!("reached {}", range(&|x| format!("±{:.1}%", 100.0 * x))),
        Topic::Check(Kind::BusyMachine) => {
            format!("{} cores busy", range(&|x| format!("{x:.1}")))
        }
        Topic::Check(_) => range(&|x| format!("{:+.1}%", 100.0 * x)),
    })
}

#[cfg(test)]
mod tests;
