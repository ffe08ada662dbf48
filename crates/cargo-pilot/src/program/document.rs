//! What a program's session becomes: notes on its runs, its result document with the extra
//! performance indices (start-up, CPU time, peak memory), their table, and the comparison
//! with a baseline.

use super::workload::{self, Mode, ProgramWorkload};
use super::{Measured, Plan, Program, TARGET, killed_message};
use pilot_engine::fmt::format_ns;
use pilot_engine::probe::Reproducibility;
use pilot_engine::record::ClockInfo;
use pilot_engine::runner::compare_with_baseline;
use pilot_engine::session::{SessionConfig, SessionResult, Status, Warning};
use pilot_engine::store::{self, result};
use pilot_format::{CiDoc, MachineDoc, PiDoc, ResultDoc};
use pilot_stats::analysis::{AnalysisConfig, analyze};

/// Adds the subtracted shell start-up's uncertainty `shell_hw` (this run's half-width of it,
/// ns) to the time's interval: `√(h² + shell_hw²)`, the two being independent. How much the
/// shell's start-up moves between runs is not this run's uncertainty: it moves the program's
/// runs alike, and shows in the program's reproducibility. O(1).
pub(super) fn widen_for_shell(s: &mut SessionResult, shell_hw: f64) {
    let Some(e) = &mut s.estimate else { return };
    e.ci = widened(&e.ci, e.mean, shell_hw);
}

/// `ci` around `mean` with `extra` (a half-width) added in quadrature.
pub(super) fn widened(
    ci: &pilot_stats::summary::ConfidenceInterval,
    mean: f64,
    extra: f64,
) -> pilot_stats::summary::ConfidenceInterval {
    let h = ci.half_width().hypot(extra.max(0.0));
    pilot_stats::summary::ConfidenceInterval {
        low: mean - h,
        high: mean + h,
        ..*ci
    }
}

/// A session whose command was killed at its deadline: failed when no run completed, else
/// the result of the runs that did, with a warning.
pub(super) fn note_killed(plan: &Plan, w: &ProgramWorkload, s: &mut SessionResult) {
    let Some(k) = &w.killed else { return };
    let message = killed_message(k, plan.max_time);
    if w.extras.is_empty() {
        s.status = Status::Failed(format!("{message}; no run completed"));
        s.estimate = None;
    } else if !matches!(s.status, Status::Failed(_)) {
        s.warnings.push(Warning::Note(format!(
            "{message}; the result is from the runs completed before"
        )));
    }
}

/// A program whose time cannot be told from 0 through the shell: most of its runs were shorter
/// than the shell's start-up time subtracted from each (readings of 0, which the session took
/// for a clock too coarse: `below clock resolution`), or its mean is within `shell_hw`, that
/// start-up's uncertainty, the resolution the subtraction leaves. Its status then says so with
/// both figures, and it has no estimate: a time at or under the resolution is no time (a mean
/// of 0 could not even be saved). Only in runs mode through a shell. O(rounds).
pub(super) fn note_below_shell(
    plan: &Plan,
    w: &ProgramWorkload,
    shell_hw: f64,
    s: &mut SessionResult,
) {
    let Some(shell) = &plan.shell else { return };
    if plan.mode != Mode::Runs || w.shell_ns <= 0.0 || matches!(s.status, Status::Failed(_)) {
        return;
    }
    let within = s.estimate.as_ref().is_some_and(|e| e.mean <= shell_hw);
    if s.status != Status::BelowResolution && !within {
        return;
    }
    let runs: usize = w.extras.iter().map(|e| e.wall_ns.len()).sum();
    s.status = Status::BelowShellResolution(format!(
        "`{shell} -c ''` starts in {} ± {}, subtracted from each run; {} of {runs} runs of \
         `{}` were shorter, and a time within ±{} (the resolution through the shell) cannot \
         be told from 0; -N runs the command without a shell",
        format_ns(w.shell_ns),
        format_ns(shell_hw),
        w.below_shell,
        w.name,
        format_ns(shell_hw),
    ));
    s.estimate = None;
}

/// Warnings about the runs themselves: failures accepted, runs faster than the shell, peak
/// memory below what can be seen, and the run cap.
pub(super) fn note_runs(plan: &Plan, w: &ProgramWorkload, s: &mut SessionResult) {
    let floor = w.extras.iter().map(|e| e.peak_floor).fold(0.0, f64::max);
    let unknown = w
        .extras
        .iter()
        .flat_map(|e| &e.peak_bytes)
        .filter(|p| p.is_nan())
        .count();
    if unknown > 0 && plan.mode != Mode::Work {
        s.warnings.push(Warning::Note(format!(
            "peak memory not measured: {unknown} run(s) peaked at or below pilot's own {:.1} MiB, \
             which on Linux a child inherits as its peak when it starts; `/usr/bin/time -v` \
             (a smaller parent) can tell",
            floor / 1048576.0
        )));
    }
    if w.failed_runs > 0 {
        s.warnings.push(Warning::Note(format!(
            "{} run(s) exited non-zero and were measured anyway (--ignore-failure)",
            w.failed_runs
        )));
    }
    if w.below_shell > 0 {
        drop_clock_warning(&mut s.warnings);
    }
    if w.below_shell > 0 && !matches!(s.status, Status::BelowShellResolution(_)) {
        s.warnings.push(Warning::Note(format!(
            "{} run(s) took less than the shell's own start-up time and count as 0: the \
             program is too short to measure through a shell; -N runs it directly",
            w.below_shell
        )));
    }
    if let Some(most) = plan.max_runs {
        let runs: usize = s
            .rounds
            .iter()
            .map(|r| if plan.mode == Mode::Runs { r.units } else { 1 })
            .sum();
        if runs as u64 >= most && s.status == Status::TimeCap {
            s.warnings.push(Warning::Note(format!(
                "stopped at --max-runs {most} before the target was met"
            )));
        }
    }
}

/// Drops the session's warning about readings of 0 ns from `warnings`, by its kind, for a
/// program whose runs read 0 because they were shorter than the shell's start-up subtracted
/// from them: that is the shell's doing, not the clock's (a run takes far longer than the
/// clock's step), and the warning about the clock would mislead.
fn drop_clock_warning(warnings: &mut Vec<Warning>) {
    warnings.retain(|x| !matches!(x, Warning::ZeroReadings(_)));
}

/// The result document of one program, from its session `s` and where its next run lands: a
/// bench's, with the extra performance indices; `at` is the clock's cost, the machine and
/// when the run started.
pub(super) fn document(
    plan: &Plan,
    p: &Program,
    (s, reproducibility): (&SessionResult, Option<&Reproducibility>),
    config: &SessionConfig,
    w: &ProgramWorkload,
    (clock, machine, started): (ClockInfo, &MachineDoc, &str),
) -> ResultDoc {
    let work = result::Rate::units("work");
    let record = result::BenchRecord {
        name: &p.name,
        target: TARGET,
        form: match plan.mode {
            Mode::Work => pilot_format::Form::ReadingsOnly,
            _ => pilot_format::Form::Full,
        },
        // Work mode's speed v is work units per second: the document's throughput.
        throughput: (plan.mode == Mode::Work).then_some(&work),
        config,
        session: s,
        iterations_per_unit: None,
        clock,
        machine: Some(machine),
        reproducibility,
        started: started.to_string(),
        finished: pilot_engine::runner::now(),
    };
    let mut doc = result::document(&record);
    if let (Some(k), None) = (&w.killed, &doc.status_detail) {
        // The status (a time cap) says that the session was cut; this says by what.
        doc.status_detail = Some(killed_message(k, plan.max_time));
    }
    if s.estimate.is_some() {
        doc.pis.extend(startup_pi(plan, s));
        doc.pis.extend(extra_pis(plan, s, w));
    }
    doc
}

/// Work mode's start-up time α, the fit's intercept, with its Student-t interval over the
/// fitted points (n − 2 degrees of freedom): what a run costs before its first unit of work.
fn startup_pi(plan: &Plan, s: &SessionResult) -> Option<PiDoc> {
    let fit = &s.estimate.as_ref()?.wps.as_ref()?.fit;
    let t =
        pilot_stats::summary::t_critical(plan.confidence, fit.n.saturating_sub(2).max(1) as f64);
    Some(PiDoc {
        name: "startup".to_string(),
        unit: "ns".to_string(),
        mean: Some(fit.intercept),
        ci: CiDoc {
            low: Some(fit.intercept - t * fit.intercept_se),
            high: Some(fit.intercept + t * fit.intercept_se),
            confidence: plan.confidence,
        },
        n: fit.n,
        subsession_size: s.estimate.as_ref()?.wps.as_ref()?.subsession_size,
        autocorrelation: s.estimate.as_ref()?.wps.as_ref()?.residual_autocorrelation,
        required_n: None,
        interval_from: Some("regression".to_string()),
        reproducibility: None,
        machine: None,
        estimator: None,
    })
}

/// The runs the estimate came from: each analysed round's stable runs (every run of an
/// analysed round when a run is a round, or in work mode).
pub(crate) fn stable_runs(mode: &Mode, s: &SessionResult, w: &ProgramWorkload) -> workload::Extras {
    let mut picked = workload::Extras::default();
    for (record, extras) in s.rounds.iter().zip(&w.extras) {
        if !record.analysed {
            continue;
        }
        let n = extras.wall_ns.len();
        let range = match (mode == &Mode::Runs, record.stable) {
            (true, Some((a, b))) => a.min(n)..b.min(n),
            (true, None) => continue,
            (false, _) => 0..n,
        };
        picked.extend(extras, range);
    }
    picked
}

/// The extra performance indices over the same runs as the time (see [`stable_runs`]). None
/// in work mode, where each run does a different amount of work.
fn extra_pis(plan: &Plan, s: &SessionResult, w: &ProgramWorkload) -> Vec<PiDoc> {
    if plan.mode == Mode::Work {
        return Vec::new();
    }
    let picked = stable_runs(&plan.mode, s, w);
    let config = AnalysisConfig {
        confidence: plan.confidence,
        changepoints: None,
        ..AnalysisConfig::default()
    };
    // A peak at pilot's own floor is unknown: no index rather than pilot's size as the
    // program's (see `spawn`'s docs).
    let peaks = if picked.peak_bytes.iter().any(|p| p.is_nan()) {
        &[][..]
    } else {
        &picked.peak_bytes[..]
    };
    [
        ("user_time", "ns", &picked.user_ns[..]),
        ("system_time", "ns", &picked.sys_ns[..]),
        ("peak_memory", "bytes", peaks),
    ]
    .into_iter()
    .filter_map(|(name, unit, xs)| {
        let a = analyze(xs, &config).ok()?;
        Some(PiDoc {
            name: name.to_string(),
            unit: unit.to_string(),
            mean: Some(a.mean),
            ci: CiDoc {
                low: Some(a.ci.low),
                high: Some(a.ci.high),
                confidence: plan.confidence,
            },
            n: xs.len(),
            subsession_size: a.subsession.size,
            autocorrelation: a.subsession.autocorrelation,
            required_n: None,
            interval_from: None,
            reproducibility: None,
            machine: None,
            estimator: None,
        })
    })
    .collect()
}

/// The extra indices as a table: CPU time and peak memory of each program.
pub(super) fn extras_table(measured: &[Measured]) -> String {
    let mut out = String::new();
    for m in measured {
        let pi = |name: &str| m.doc.pis.iter().find(|p| p.name == name);
        if let (Some(a), Some(v)) = (pi("startup"), pi("throughput")) {
            let range = |p: &PiDoc, f: &dyn Fn(f64) -> String| match (p.mean, p.ci.low, p.ci.high) {
                (Some(m), Some(l), Some(h)) => format!("{} [{}, {}]", f(m), f(l), f(h)),
                (Some(m), ..) => f(m),
                _ => "-".to_string(),
            };
            out.push_str(&format!(
                "{}: fit t = α + w/v: start-up α = {}, speed v = {}\n",
                pilot_engine::fmt::terminal(&m.program.name),
                range(a, &format_ns),
                range(v, &|x| format!(
                    "{}work/s",
                    pilot_engine::fmt::format_rate(x)
                ))
            ));
        }
        let (Some(user), Some(sys)) = (pi("user_time"), pi("system_time")) else {
            continue;
        };
        let est = |p: &PiDoc, f: &dyn Fn(f64) -> String| match (p.mean, p.ci.low, p.ci.high) {
            (Some(m), Some(l), Some(h)) if m > 0.0 => {
                format!("{} ± {:.1}%", f(m), 50.0 * (h - l) / m)
            }
            (Some(m), ..) => f(m),
            _ => "-".to_string(),
        };
        let mib = |b: f64| format!("{:.2} MiB", b / 1048576.0);
        let peak = pi("peak_memory").map_or("not measured".to_string(), |p| est(p, &mib));
        out.push_str(&format!(
            "{}: user {}, system {}, peak memory {peak}\n",
            pilot_engine::fmt::terminal(&m.program.name),
            est(user, &format_ns),
            est(sys, &format_ns),
        ));
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// Compares this run's results with the baseline's and prints the table.
pub(super) fn compare(
    plan: &Plan,
    base: &[store::SavedResult],
    measured: &[Measured],
) -> (pilot_format::CompareDoc, bool) {
    let docs: Vec<ResultDoc> = measured.iter().map(|m| m.doc.clone()).collect();
    let options = pilot_engine::compare::CompareOptions {
        alpha: plan.alpha,
        noise: plan.noise,
        confidence: None,
        ..Default::default()
    };
    compare_with_baseline(
        (&plan.root, TARGET),
        &docs,
        base,
        &|name| measured.iter().any(|m| m.program.name == name),
        &options,
        plan.baseline.as_deref().unwrap_or(""),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_below_the_shell_drop_the_clock_warning_by_its_kind_not_its_words() {
        let note = "quoted: 2 of 9 unit readings are 0 ns: units are shorter than the clock \
                    resolves";
        let mut warnings = vec![
            Warning::ZeroReadings("reworded: the clock is too coarse".into()),
            Warning::Note(note.into()),
            Warning::Check("outliers".into()),
        ];
        drop_clock_warning(&mut warnings);
        assert_eq!(
            warnings,
            [
                Warning::Note(note.into()),
                Warning::Check("outliers".into())
            ]
        );
    }
}
