//! The shell's start-up time: measured by a session over `SHELL -c ''` and subtracted from
//! every run, its uncertainty added to every interval.

use std::time::Duration;

use super::spawn::Spawn;
use super::workload::{Mode, ProgramWorkload};
use super::{Output, Plan, deadline, spawn_of};
use pilot_engine::fmt::format_ns;
use pilot_engine::record::RealClock;
use pilot_engine::runner::MachineSpeed;
use pilot_engine::session::{Estimate, SessionConfig, Status, run_session};

/// The shell's start-up time subtracted from every run (ns), and its uncertainty (a
/// half-width, ns). It shifts every reading of every program alike: this run's uncertainty of
/// it is added to each interval. How much it moves between runs is not: it moves each
/// program's runs alike, and the programs' reproducibility holds it. Both 0 without a shell,
/// or where the shell's start-up is part of what is fitted or outside the readings.
pub(super) fn shell_start_up(plan: &Plan, speed: &mut MachineSpeed) -> Result<(f64, f64), String> {
    match (&plan.shell, &plan.mode) {
        (Some(shell), Mode::Runs) => {
            let e = shell_time(plan, shell)?;
            let (mean, rel) = (e.mean, e.relative_half_width());
            let name = format!("{shell} -c ''");
            let shown = pilot_engine::fmt::terminal(shell);
            // Noted for the shift that the run's benches share (the machine's history); no
            // band is shown for it.
            let _ = speed.reproducibility(&name, &e);
            let shell_hw = mean * rel;
            pilot_engine::outln!(
                "shell: `{shown} -c` starts in {} ± {:.1}% (this run), subtracted from each run; \
                 the intervals include that uncertainty (-N runs without a shell)",
                format_ns(mean),
                100.0 * rel,
            );
            Ok((mean, shell_hw))
        }
        (Some(shell), _) => {
            pilot_engine::outln!(
                "shell: `{}-c`; its start-up time is {} (-N runs without a shell)",
                pilot_engine::fmt::terminal(&format!("{shell} ")),
                if plan.mode == Mode::Work {
                    "part of the fitted start-up α"
                } else {
                    "outside the program's own readings"
                }
            );
            Ok((0.0, 0.0))
        }
        (None, _) => {
            pilot_engine::outln!("no shell: commands are started directly (-N)");
            Ok((0.0, 0.0))
        }
    }
}

/// The shell's own start-up time: a session over `SHELL -c ''` capped at a second, its
/// estimate. Subtracted from each run, it leaves the program's own time.
fn shell_time(plan: &Plan, shell: &str) -> Result<Estimate, String> {
    let argv = vec![shell.to_string(), "-c".to_string(), String::new()];
    let mut w = ProgramWorkload::new(
        "the shell",
        Spawn {
            input: None,
            output: Output::Null,
            show_output: false,
            ..spawn_of(plan, &argv, false)
        },
        None,
        None,
        Mode::Runs,
        false,
    )?;
    let cap = Duration::from_secs(1);
    w.deadline = Some(deadline(cap));
    let checked = w
        .run_once(1)
        .map_err(|e| format!("the shell `{shell}` cannot run: {e}"))?;
    if checked.is_none() {
        return Err(format!(
            "the shell `{shell}` ran `{shell} -c ''` for over a second and was killed"
        ));
    }
    let config = SessionConfig {
        confidence: plan.confidence,
        target: 0.01,
        max_time: cap,
        estimator: pilot_engine::settings::Estimator::Mean,
        ..SessionConfig::default()
    };
    w.deadline = Some(deadline(cap));
    let s = run_session(&mut w, &RealClock::start(), &config, &mut |_, _| {});
    match (&s.status, s.estimate) {
        (Status::Failed(msg), _) => Err(format!("the shell `{shell}` failed: {msg}")),
        (_, Some(e)) => Ok(e),
        (_, None) => Err(format!(
            "the shell `{shell}`'s start-up time could not be measured in a second; -N runs \
             commands without it"
        )),
    }
}
