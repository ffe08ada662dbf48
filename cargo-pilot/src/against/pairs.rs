//! The pairs of processes of one bench: base and working tree started alternately, each a
//! short session of its own (the bench binary's child mode), until the change is settled.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pilot::cargo_api::compare::{CompareOptions, Verdict, compare_paired};
use pilot::cargo_api::processes::{ChildReport, now};

use super::{Bench, LEAST_PAIRS, Out};
use crate::bench::BenchArgs;
use crate::cargo::BenchExe;
use crate::interrupt;

/// How long one process's session may run: a hundredth of the bench's cap (0.1 s by default),
/// within these bounds. Short processes make many pairs in the cap (more degrees of freedom),
/// and leave less of the machine's drift inside a pair: measured on the fixture bench in a
/// noisy phase of this project's VM (four runs each), processes of 0.1 s settled an unchanged
/// bench in 1.6–3.0 s (7–13 pairs), processes of 0.2 s in 2.6–8.5 s (6–20 pairs) and of 0.5 s
/// in 4.8–26 s (6–33 pairs). A bench too slow for the cap (a process ends without an estimate)
/// gets processes twice as long, as often as needed.
const PROCESS_CAP: (Duration, Duration) = (Duration::from_millis(100), Duration::from_secs(1));

/// The default time cap of one bench (one build), as in `cargo pilot bench`.
const DEFAULT_CAP: Duration = Duration::from_secs(10);

/// How the benches are paired.
pub struct Plan {
    /// The least pairs (or, for a bench only in the working tree, processes).
    pub least: usize,
    /// The time one bench's pairs may take: the cap of a bench in each build.
    pub budget: Duration,
    /// The time cap of one process's session.
    pub process_cap: Duration,
    /// The target half-width of one process's session: the combined result's target widened
    /// by √(least pairs), since the mean over that many processes narrows it by as much.
    pub process_ci: f64,
    /// The target half-width a combined result is judged against.
    pub target_ci: f64,
    /// `--confidence`, passed on to the processes.
    pub confidence_flag: Option<f64>,
    /// Confidence level of the change's interval.
    pub confidence: f64,
    /// The verdict's thresholds, for the stop rule.
    pub options: CompareOptions,
}

impl Plan {
    pub fn from_args(args: &BenchArgs) -> Plan {
        let cap = args.max_time.map(|c| c.0).unwrap_or(if args.quick {
            Duration::from_secs(2)
        } else {
            DEFAULT_CAP
        });
        let target_ci = args
            .ci
            .map(|c| c.0)
            .unwrap_or(if args.quick { 0.05 } else { 0.01 });
        let least = args.processes.map_or(LEAST_PAIRS, |n| n.0).max(2);
        Plan {
            least,
            budget: 2 * cap,
            process_cap: (cap / 100).clamp(PROCESS_CAP.0, PROCESS_CAP.1),
            process_ci: (target_ci * (least as f64).sqrt()).min(0.5),
            target_ci,
            confidence_flag: args.confidence.map(|c| c.0),
            confidence: args.confidence.map_or(0.95, |c| c.0),
            options: args.thresholds.options(),
        }
    }
}

/// What the processes of one bench gave.
pub struct Outcome {
    /// The base's processes, in order (pair i is `base[i]`, `head[i]`).
    pub base: Vec<ChildReport>,
    /// The working tree's.
    pub head: Vec<ChildReport>,
    /// Why the bench could not be compared: a process failed or found no estimate.
    pub failure: Option<String>,
    pub elapsed: Duration,
    pub started: String,
    pub finished: String,
}

/// Measures bench `b`: pairs while it is in both builds, else the working tree's processes
/// alone (a new bench); nothing for a bench only in the base.
pub fn measure(b: &Bench, plan: &Plan, out: &Out) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome {
        base: Vec::new(),
        head: Vec::new(),
        failure: None,
        elapsed: Duration::ZERO,
        started: now(),
        finished: String::new(),
    };
    let mut settled = None;
    let mut cap = plan.process_cap;
    match (b.base, b.head) {
        (Some(base), Some(head)) => {
            while o.failure.is_none() && !interrupt::happened() {
                let pair_start = Instant::now();
                // ABBA: the base first in even pairs, the working tree first in odd ones.
                let order = if o.base.len() % 2 == 0 {
                    [(base, true), (head, false)]
                } else {
                    [(head, false), (base, true)]
                };
                let mut got = Vec::new();
                for (exe, is_base) in order {
                    match run_child(exe, &b.name, cap, plan) {
                        Ok(r) => got.push((is_base, r)),
                        Err(e) if e.too_short && cap * 4 < plan.budget => {
                            // Too short for this bench: the pair again, with longer processes.
                            cap *= 2;
                            got.clear();
                            break;
                        }
                        Err(e) => {
                            let side = if is_base { "base" } else { "working tree" };
                            o.failure = Some(format!("{side}: {}", e.message));
                            break;
                        }
                    }
                }
                if o.failure.is_some() {
                    break;
                }
                for (is_base, r) in got {
                    if is_base {
                        o.base.push(r);
                    } else {
                        o.head.push(r);
                    }
                }
                if o.base.len() >= plan.least {
                    let pairs: Vec<(f64, f64)> = o
                        .base
                        .iter()
                        .zip(&o.head)
                        .map(|(b, h)| (b.mean(), h.mean()))
                        .collect();
                    let found = compare_paired(&pairs, plan.confidence, &plan.options);
                    settled = found.as_ref().map(|c| c.verdict);
                    if settled.is_some_and(|v| v != Verdict::Undecided) {
                        break;
                    }
                }
                // Another pair would end past the budget.
                if start.elapsed() + pair_start.elapsed() > plan.budget {
                    break;
                }
            }
        }
        (None, Some(head)) => {
            while o.head.len() < plan.least.min(5) && !interrupt::happened() {
                match run_child(head, &b.name, cap, plan) {
                    Ok(r) => o.head.push(r),
                    Err(e) if e.too_short && cap * 4 < plan.budget => cap *= 2,
                    Err(e) => {
                        o.failure = Some(format!("working tree: {}", e.message));
                        break;
                    }
                }
                if start.elapsed() > plan.budget / 2 {
                    break;
                }
            }
        }
        _ => {}
    }
    o.elapsed = start.elapsed();
    o.finished = now();
    let what = match (&o.failure, b.base, b.head) {
        (Some(f), _, _) => format!("FAILED: {f}"),
        (None, Some(_), Some(_)) => format!(
            "{} pairs, {}",
            o.base.len(),
            settled.map_or("undecided", |v| v.as_str())
        ),
        (None, None, _) => format!("new: {} processes of the working tree", o.head.len()),
        (None, _, None) => "missing in the working tree".to_string(),
    };
    if !interrupt::happened() {
        out.say(&format!(
            "{}/{}: {what} ({:.1} s)",
            b.target,
            b.name,
            o.elapsed.as_secs_f64()
        ));
    }
    o
}

/// Why a process gave no report.
struct NoReport {
    message: String,
    /// The session ran out of time before it had an estimate: a longer process may have one.
    too_short: bool,
}

impl From<String> for NoReport {
    fn from(message: String) -> Self {
        NoReport {
            message,
            too_short: false,
        }
    }
}

/// One process of `exe` measuring bench `name` alone (the binary's child mode) for at most
/// `cap`: its report, or what went wrong.
fn run_child(
    exe: &BenchExe,
    name: &str,
    cap: Duration,
    plan: &Plan,
) -> Result<ChildReport, NoReport> {
    // The child's result goes in a folder of its own, removed however this function returns.
    let scratch = tempfile::Builder::new()
        .prefix("cargo-pilot-pair-")
        .tempdir()
        .map_err(|e| format!("cannot make a temporary folder: {e}"))?;
    let path = scratch.path().join("result.json");
    let mut cmd = Command::new(&exe.path);
    cmd.args(["--bench", "--exact", name, "--json"])
        .arg(&path)
        .current_dir(&exe.package_dir)
        .env("PILOT_CHILD", "1")
        .env("PILOT_MAX_TIME", format!("{}", cap.as_secs_f64()))
        .env("PILOT_MIN_TIME", "0")
        .env("PILOT_CI", format!("{}", plan.process_ci))
        .env_remove("PILOT_JSON")
        .env_remove("PILOT_SAVE_BASELINE")
        .env_remove("PILOT_BASELINE")
        .stdin(Stdio::null())
        .stdout(Stdio::null());

    if let Some(c) = plan.confidence_flag {
        cmd.env("PILOT_CONFIDENCE", format!("{c}"));
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start `{}`: {e}", exe.path.display()))?;
    let status = interrupt::wait(&mut child)
        .map_err(|e| format!("failed to wait for `{}`: {e}", exe.path.display()))?;
    let text = std::fs::read_to_string(&path).map_err(|_| {
        format!(
            "`{}` exited with {status} without a result",
            short_path(&exe.path)
        )
    })?;
    ChildReport::parse(&text).map_err(|f| NoReport {
        too_short: f.status == "time cap",
        message: format!("{} ({})", f.message, f.status),
    })
}

/// The executable's file name, for messages.
fn short_path(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}
