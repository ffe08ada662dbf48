//! Accuracy checks (the book's "Accuracy checks" lists them): what can make a result wrong,
//! each a named [`Kind`] with its figures in the result's `checks` array and a plain-language
//! warning with its remedy.
//!
//! Some are found at start, once per run ([`system`]: frequency scaling, turbo, a debug build,
//! few cores, a virtual machine or CI runner); some by the session from its own readings
//! (outliers, drift, the warm-up class, no steady state); some from what the machine did while
//! the rounds ran ([`memory`]: a leak; [`sampler`]: a busy machine, steal, throttling, a
//! saturated device).

pub(crate) mod advice;
pub(crate) mod memory;
pub(crate) mod overhead;
pub(crate) mod sampler;
pub(crate) mod system;

pub use sampler::{Busy, BusyMeter};

use pilot_format::CheckDoc;

/// The kinds of check, as named in result documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Other processes kept cores busy during the rounds.
    BusyMachine,
    /// The hypervisor took CPU time from the virtual machine.
    CpuSteal,
    /// The process's cgroup ran out of CPU quota.
    Throttled,
    /// A disk or network link the bench used, and does not declare, was saturated.
    SaturatedDevice,
    /// The CPU frequency governor follows the load.
    FrequencyScaling,
    /// Turbo boost is on.
    Turbo,
    /// The bench was built without optimisations.
    DebugBuild,
    /// Fewer cores were free than the bench's threads.
    FewCores,
    /// A virtual machine, container or CI runner.
    VirtualMachine,
    /// Reading the clock costs more than 1% of a timed unit.
    ClockOverhead,
    /// Recording each unit costs more than 1% of it.
    InstrumentationOverhead,
    /// Outliers moved the mean.
    Outliers,
    /// The bench got slower from round to round, the machine's speed holding.
    Slowdown,
    /// The bench got faster from round to round, the machine's speed holding.
    Speedup,
    /// Memory grew from round to round.
    Leak,
    /// The bench drifted with the machine.
    MachineDrift,
    /// The readings never settled.
    NoSteadyState,
    /// The first unit of each round is much slower than the rest.
    ColdStart,
    /// Some processes ran at another speed and were left out.
    ProcessModes,
}

impl Kind {
    /// The name written in the `kind` key.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Kind::BusyMachine => "busy_machine",
            Kind::CpuSteal => "cpu_steal",
            Kind::Throttled => "throttled",
            Kind::SaturatedDevice => "saturated_device",
            Kind::FrequencyScaling => "frequency_scaling",
            Kind::Turbo => "turbo",
            Kind::DebugBuild => "debug_build",
            Kind::FewCores => "few_cores",
            Kind::VirtualMachine => "virtual_machine",
            Kind::ClockOverhead => "clock_overhead",
            Kind::InstrumentationOverhead => "instrumentation_overhead",
            Kind::Outliers => "outliers",
            Kind::Slowdown => "slowdown",
            Kind::Speedup => "speedup",
            Kind::Leak => "leak",
            Kind::MachineDrift => "machine_drift",
            Kind::NoSteadyState => "no_steady_state",
            Kind::ColdStart => "cold_start",
            Kind::ProcessModes => "process_modes",
        }
    }
}

/// Whether a check of `kind` (its `kind` key) is a trend of the workload's own, judged from one
/// process's rounds (a leak, a slowdown or speed-up, a cold start, outliers), rather than a
/// state of the machine or the build: over several processes, the bench has it only when most
/// of them found it.
pub(crate) fn is_workload_trend(kind: &str) -> bool {
    [
        Kind::Leak,
        Kind::Slowdown,
        Kind::Speedup,
        Kind::ColdStart,
        Kind::Outliers,
    ]
    .iter()
    .any(|k| k.as_str() == kind)
}

/// Appends to each check's message the remedy that fits `ctx` ([`Kind::advice`]), so that a
/// result document's advice is never one its bench already follows. A check's warning says
/// what its check says, advice included.
pub(crate) fn advise(checks: &mut [CheckDoc], ctx: &advice::Context) {
    for c in checks {
        let Some(advice) = Kind::parse(&c.kind)
            .filter(|k| k.remedy_fits_the_context())
            .and_then(|k| k.advice(ctx))
        else {
            continue;
        };
        c.message = format!("{}; {advice}", c.message);
    }
}

/// A check of `kind` with its `message` and `figures` (a JSON object; anything else adds no
/// figure).
pub(crate) fn check(kind: Kind, message: String, figures: serde_json::Value) -> CheckDoc {
    CheckDoc {
        kind: kind.as_str().to_string(),
        message,
        figures: match figures {
            serde_json::Value::Object(map) => map,
            _ => serde_json::Map::new(),
        },
    }
}

/// The process-modes check: the processes of a bench whose estimates lay far from the rest
/// (`means`, in order): those at indices `left_out`, left out of the `estimate`, and those at
/// `spanned`, far faster on a machine that was not quiet, which the interval spans because
/// the run cannot tell which speed is the code's. `None` when there are neither, or without
/// an estimate. Time: O(P).
pub(crate) fn process_modes(
    means: &[f64],
    left_out: &[usize],
    spanned: &[usize],
    estimate: f64,
) -> Option<CheckDoc> {
    if estimate.is_nan() || estimate <= 0.0 || (left_out.is_empty() && spanned.is_empty()) {
        return None;
    }
    let relative =
        |ix: &[usize]| -> Vec<f64> { ix.iter().map(|&i| means[i] / estimate - 1.0).collect() };
    let range = |xs: &[f64]| -> Option<String> {
        let least = xs
            .iter()
            .copied()
            .map(f64::abs)
            .fold(f64::INFINITY, f64::min);
        let most = xs.iter().copied().map(f64::abs).fold(0.0, f64::max);
        (!xs.is_empty()).then(|| {
            if (most - least).abs() < 0.005 {
                format!("{:.0}%", 100.0 * most)
            } else {
                format!("{:.0}% to {:.0}%", 100.0 * least, 100.0 * most)
            }
        })
    };
    let out = relative(left_out);
    let slower: Vec<f64> = out.iter().copied().filter(|r| *r > 0.0).collect();
    let faster: Vec<f64> = out.iter().copied().filter(|r| *r < 0.0).collect();
    let how = [
        range(&slower).map(|r| format!("{} ran {r} slower", slower.len())),
        range(&faster).map(|r| format!("{} ran {r} faster", faster.len())),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" and ");
    let mut parts = Vec::new();
    if !how.is_empty() {
        parts.push(format!(
            "{how} for their whole life and are left out of the estimate, which is the \
             typical process's: where a process's stack, heap and code land differs from start \
             to start (alignment), and a neighbour busy for a whole process slows it; the \
             processes' estimates in the result keep them"
        ));
    }
    let fast = relative(spanned);
    if let Some(r) = range(&fast) {
        parts.push(format!(
            "{} ran {r} faster than the estimate while the machine was busy beside the bench \
             (other processes, steal or throttling): the run cannot tell whether that speed is \
             the code's own (and a neighbour slowed the rest) or a lucky layout's, so the \
             interval spans both; measure on a quieter machine",
            fast.len()
        ));
    }
    let most = out
        .iter()
        .chain(&fast)
        .copied()
        .map(f64::abs)
        .fold(0.0, f64::max);
    Some(check(
        Kind::ProcessModes,
        format!("of {} processes, {}", means.len(), parts.join("; ")),
        serde_json::json!({
            "processes": means.len(),
            "slower": slower.len(),
            "faster": faster.len(),
            "spanned": fast.len(),
            "most": figure(most),
        }),
    ))
}

/// Share of a timed unit above which the clock's cost is a check.
const CLOCK_SHARE: f64 = 0.01;

/// The clock overhead check: two clock reads (one per unit boundary) cost more than 1% of a
/// timed unit (`iters` iterations of the estimated time per iteration, `estimate_ns`, in the
/// micro form, whose units are sized to keep it under 0.5%).
pub(crate) fn clock_overhead(
    estimate_ns: Option<f64>,
    clock: crate::record::ClockInfo,
    iters: Option<u64>,
) -> Option<CheckDoc> {
    let unit_ns = estimate_ns? * iters.unwrap_or(1) as f64;
    let share = 2.0 * clock.overhead_ns / unit_ns;
    // A micro-form unit this short holds few iterations because its batch size says so.
    let advice = match iters {
        Some(_) => {
            "let a unit hold more inputs (`BatchSize::SmallInput`, or `LargeInput` over \
             `PerIteration`)"
        }
        None => {
            "time more work per unit, or use the micro form (`b.iter`), which batches iterations"
        }
    };
    (unit_ns > 0.0 && share > CLOCK_SHARE).then(|| {
        check(
            Kind::ClockOverhead,
            format!(
                "reading the clock costs {} per read, {:.1}% of a timed unit ({}): every reading \
                 carries that cost; {advice}",
                crate::fmt::format_ns(clock.overhead_ns),
                100.0 * share,
                crate::fmt::format_ns(unit_ns)
            ),
            serde_json::json!({
                "clock_ns": figure(clock.overhead_ns),
                "unit_ns": figure(unit_ns),
                "share": figure(share),
            }),
        )
    })
}

/// Rounds a figure to 4 significant digits for the document (figures are for reading, and a
/// p-value of 1.234567e-9 says no more than 1.235e-9).
pub(crate) fn figure(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let digits = 3 - x.abs().log10().floor() as i32;
    let scale = 10f64.powi(digits);
    (x * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_check_flattens_its_figures() {
        let c = check(
            Kind::Leak,
            "memory grew".into(),
            serde_json::json!({"bytes_per_round": 65536, "p": 1e-9}),
        );
        let text = serde_json::to_string(&c).unwrap();
        assert_eq!(
            text,
            r#"{"kind":"leak","message":"memory grew","bytes_per_round":65536,"p":1e-9}"#
        );
        let back: CheckDoc = serde_json::from_str(&text).unwrap();
        assert_eq!(back, c);
        assert_eq!(figure(0.012345678), 0.01235);
        assert_eq!(figure(123456.0), 123500.0);
    }

    #[test]
    fn the_clock_is_named_when_two_reads_pass_a_percent_of_a_unit() {
        let clock = |ns: f64| crate::record::ClockInfo {
            overhead_ns: ns,
            resolution_ns: 1.0,
            timer: crate::record::Timer::Instant,
        };
        // Full form, 50 ns units and 20 ns reads: two reads are 80% of a unit.
        let c = clock_overhead(Some(50.0), clock(20.0), None).unwrap();
        assert_eq!(c.kind, "clock_overhead");
        assert_eq!(c.figures["share"], 0.8);
        assert_eq!(c.figures["unit_ns"], 50.0);
        assert!(c.message.contains("80.0% of a timed unit"), "{}", c.message);
        assert!(c.message.contains("use the micro form"), "{}", c.message);
        // Micro form: the unit is the iterations a unit holds; its advice is the batch size.
        let c = clock_overhead(Some(50.0), clock(20.0), Some(4)).unwrap();
        assert_eq!(c.figures["unit_ns"], 200.0);
        assert_eq!(c.figures["share"], 0.2);
        assert!(c.message.contains("BatchSize::SmallInput"), "{}", c.message);
        // Exactly 1% is not more than 1%; just above it is.
        assert_eq!(clock_overhead(Some(4000.0), clock(20.0), None), None);
        assert!(clock_overhead(Some(3999.0), clock(20.0), None).is_some());
        // No estimate, or a unit of no time: nothing to judge.
        assert_eq!(clock_overhead(None, clock(20.0), None), None);
        assert_eq!(clock_overhead(Some(0.0), clock(20.0), None), None);
    }

    #[test]
    fn processes_left_out_are_named_with_their_side_and_size() {
        // Eight processes of a 12 ns bench: two at 21 and 21.6 (75% and 80% slower), one at
        // 11 (8.3% faster), left out; the estimate 12.
        let means = [12.0, 21.0, 12.1, 11.0, 11.9, 21.6, 12.0, 12.05];
        let c = process_modes(&means, &[1, 3, 5], &[], 12.0).unwrap();
        assert_eq!(c.kind, "process_modes");
        assert!(
            c.message
                .starts_with("of 8 processes, 2 ran 75% to 80% slower and 1 ran 8% faster"),
            "{}",
            c.message
        );
        assert_eq!(c.figures["slower"], 2);
        assert_eq!(c.figures["faster"], 1);
        assert_eq!(c.figures["most"], 0.8);
        assert_eq!(c.figures["spanned"], 0);
        assert!(process_modes(&means, &[], &[], 12.0).is_none());
        assert!(process_modes(&means, &[1], &[], f64::NAN).is_none());
    }

    #[test]
    fn processes_the_interval_spans_are_named_as_undecided() {
        // Eight processes of a 1 ms routine on a busy machine: one at 0.72 ms (28% faster
        // than the estimate 1.0), which the run cannot tell from the code's own speed, and one
        // at 1.5 (50% slower), left out.
        let means = [1.0, 0.72, 1.01, 0.99, 1.5, 1.0, 1.02, 0.98];
        let c = process_modes(&means, &[4], &[1], 1.0).unwrap();
        assert!(
            c.message.starts_with(
                "of 8 processes, 1 ran 50% slower for their whole life and are left out"
            ),
            "{}",
            c.message
        );
        assert!(
            c.message
                .contains("; 1 ran 28% faster than the estimate while the machine was busy"),
            "{}",
            c.message
        );
        assert!(
            c.message.contains("the interval spans both"),
            "{}",
            c.message
        );
        assert_eq!(c.figures["spanned"], 1);
        assert_eq!(c.figures["slower"], 1);
        assert_eq!(c.figures["most"], 0.5);
    }
}
