//! The rounds of `cargo pilot noise`: two fresh processes of the plain program back to back,
//! a round started every few seconds, each process this executable again under the hidden
//! `noise-process` command, its reading one line of JSON on its standard output.
//!
//! No process is left behind: each is waited for before the next starts, and while it runs
//! an interrupt is passed on to it ([`crate::interrupt::watch`]; a Ctrl-C at a terminal reaches
//! it directly, in this process's group). After an interrupt no round starts.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow};
use pilot_engine::checks::{Busy, BusyMeter};
use pilot_engine::probe::plain::{PLAIN_WORKLOADS, PlainReading};

use crate::exit::Failure;
use crate::interrupt;

/// One round: two processes back to back.
#[derive(Debug, Clone)]
pub struct Round {
    /// When it started, seconds after the first round did.
    pub at_s: f64,
    /// The two processes' readings, in the order they ran.
    pub readings: [PlainReading; 2],
    /// Each process's wall time, from before its start to its end, seconds.
    pub process_s: [f64; 2],
    /// Other processes' load while the two ran (`None` where it cannot be read).
    pub busy: Option<Busy>,
}

/// What the rounds gave: the rounds, and other processes' load over the whole time.
pub struct Rounds {
    pub rounds: Vec<Round>,
    pub busy: Option<Busy>,
    /// From the first round's start to the last one's end, seconds.
    pub elapsed_s: f64,
}

/// Runs `count` rounds, round `i` starting `i · spacing` after the first (or as soon as the
/// one before has ended, when that is later), calling `progress(done)` after each. An
/// interrupt stops it between processes: [`Failure::Interrupted`], with nothing reported.
pub fn run_rounds(
    count: usize,
    spacing: Duration,
    progress: &dyn Fn(usize),
) -> Result<Rounds, Failure> {
    let exe = std::env::current_exe()
        .context("failed to find cargo-pilot's own executable, which runs the processes")?;
    let mut whole = BusyMeter::start();
    let origin = Instant::now();
    let mut rounds = Vec::with_capacity(count);
    for i in 0..count {
        sleep_until(origin + spacing * i as u32);
        let stopped = || {
            Failure::Interrupted(anyhow!(
                "interrupted after {i} of {count} rounds: nothing is reported"
            ))
        };
        if interrupt::happened() {
            return Err(stopped());
        }
        let at_s = origin.elapsed().as_secs_f64();
        let mut meter = BusyMeter::start();
        let (first, first_s) = run_process(&exe, 2 * i + 1)?;
        if interrupt::happened() {
            return Err(stopped());
        }
        let (second, second_s) = run_process(&exe, 2 * i + 2)?;
        rounds.push(Round {
            at_s,
            readings: [first, second],
            process_s: [first_s, second_s],
            busy: meter.as_mut().and_then(BusyMeter::busy),
        });
        progress(i + 1);
    }
    Ok(Rounds {
        rounds,
        busy: whole.as_mut().and_then(BusyMeter::busy),
        elapsed_s: origin.elapsed().as_secs_f64(),
    })
}

/// Sleeps until `at`, waking at least every 100 ms to see an interrupt (which ends it early).
fn sleep_until(at: Instant) {
    loop {
        let now = Instant::now();
        if now >= at || interrupt::happened() {
            return;
        }
        std::thread::sleep((at - now).min(Duration::from_millis(100)));
    }
}

/// Process `number` (1-based, for messages): `exe pilot noise-process`, waited for; its
/// reading and its wall time in seconds.
fn run_process(exe: &Path, number: usize) -> Result<(PlainReading, f64), Failure> {
    // From a copy of its own, as a bench's processes run: where the kernel put the code is
    // part of what moves a run from the next (`pilot_engine::runner::fresh_copy`).
    let copy = pilot_engine::runner::fresh_copy(exe);
    let start = Instant::now();
    let child = Command::new(copy.as_deref().unwrap_or(exe))
        .args(["pilot", "noise-process"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| {
            format!(
                "failed to start noise process {number} (`{}`)",
                exe.display()
            )
        })?;
    let output = {
        let _watched = interrupt::watch(&child);
        child
            .wait_with_output()
            .with_context(|| format!("failed to wait for noise process {number}"))?
    };
    let wall_s = start.elapsed().as_secs_f64();
    interrupt::note(&output.status);
    if interrupt::happened() {
        return Err(Failure::Interrupted(anyhow!(
            "interrupted in noise process {number}: nothing is reported"
        )));
    }
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr.lines().rev().find(|l| !l.trim().is_empty());
        return Err(Failure::Error(anyhow!(
            "noise process {number} failed ({}){}",
            output.status,
            last.map(|l| format!(": {l}")).unwrap_or_default()
        )));
    }
    let reading = parse_reading(&String::from_utf8_lossy(&output.stdout))
        .with_context(|| format!("failed to read the reading of noise process {number}"))?;
    Ok((reading, wall_s))
}

/// A process's reading: the last line of its standard output, with a time for each
/// workload, each positive and finite.
fn parse_reading(stdout: &str) -> anyhow::Result<PlainReading> {
    let line = stdout
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .ok_or_else(|| anyhow!("it printed nothing"))?;
    let reading: PlainReading = serde_json::from_str(line)
        .with_context(|| format!("`{}` is not a reading", line.trim()))?;
    let usable = |x: f64| x.is_finite() && x > 0.0;
    if reading.workloads.len() != PLAIN_WORKLOADS.len()
        || !reading
            .workloads
            .iter()
            .all(|w| usable(w.median_ns) && usable(w.min_ns))
    {
        return Err(anyhow!(
            "`{}` does not hold a positive time for each of the {} workloads",
            line.trim(),
            PLAIN_WORKLOADS.len()
        ));
    }
    Ok(reading)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reading_is_the_last_line_and_must_hold_every_workload() {
        let ok = "noise\n{\"calls\":3,\"workloads\":[{\"median_ns\":2.0,\"min_ns\":1.0},\
                  {\"median_ns\":4.0,\"min_ns\":3.0}]}\n\n";
        let r = parse_reading(ok).unwrap();
        assert_eq!(r.calls, 3);
        assert_eq!(r.workloads[1].median_ns, 4.0);
        let e = format!("{:#}", parse_reading("").unwrap_err());
        assert_eq!(e, "it printed nothing");
        let e = format!("{:#}", parse_reading("hello").unwrap_err());
        assert!(e.starts_with("`hello` is not a reading: "), "{e}");
        let one = "{\"calls\":3,\"workloads\":[{\"median_ns\":2.0,\"min_ns\":1.0}]}";
        let e = format!("{:#}", parse_reading(one).unwrap_err());
        assert!(
            e.ends_with("does not hold a positive time for each of the 2 workloads"),
            "{e}"
        );
        let zero = "{\"calls\":3,\"workloads\":[{\"median_ns\":0.0,\"min_ns\":0.0},\
                    {\"median_ns\":4.0,\"min_ns\":3.0}]}";
        assert!(parse_reading(zero).is_err());
    }
}
