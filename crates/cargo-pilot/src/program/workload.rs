//! A command-line program as a session's workload, in one of three modes:
//!
//! - **runs**: each run of the program is one unit reading, its wall time less the shell's own
//!   start-up time; a round is several runs;
//! - **work**: each run is one round, `{work}` in the command replaced by the round's work
//!   amount, timed whole by the session: the readings-only WPS fit `t = α + w/v`;
//! - **readings**: each run is one round whose unit readings are the numbers the program
//!   prints.
//!
//! `--prepare` runs before each run and `--conclude` after it, outside the time measured.
//!
//! A run (or its prepare or conclude command) still going at the workload's deadline is
//! killed; the round ends with the runs it completed, and the workload runs nothing more
//! ([`Workload::out_of_time`]), so the session ends with what it has.

use std::time::{Duration, Instant};

use super::spawn::{Outcome, Runner, Spawn};
use pilot_engine::session::{RoundData, Workload, stop_requested};

/// How a program's runs become readings.
#[derive(Debug, Clone, PartialEq)]
pub enum Mode {
    /// Each run is a unit reading.
    Runs,
    /// Each run is a round of `{work}` work units.
    Work,
    /// Each run is a round whose unit readings the program prints on standard output, one a
    /// line, or in CSV `column` (0-based) when given; `unit_ns` nanoseconds per printed unit.
    Readings {
        /// The CSV column to read (0-based); `None` for one number a line.
        column: Option<usize>,
        /// Nanoseconds in one unit of the printed numbers (1e9 for seconds).
        unit_ns: f64,
    },
}

/// What each run of a round cost: its wall time (less the shell's, in runs mode), the user
/// and system CPU time of that child (0 where the system cannot tell) and its peak memory (NaN
/// where it is unknown: see [`super::spawn`]), and its exit code; kept per round, in run order, so that the stable runs can be picked out
/// afterwards.
#[derive(Debug, Default, Clone)]
pub(crate) struct Extras {
    pub wall_ns: Vec<f64>,
    pub user_ns: Vec<f64>,
    pub sys_ns: Vec<f64>,
    pub peak_bytes: Vec<f64>,
    pub codes: Vec<Option<i32>>,
    /// The highest floor under the runs' peaks (see [`super::spawn::Outcome::peak_floor`]).
    pub peak_floor: f64,
}

impl Extras {
    fn push(&mut self, o: &Outcome, wall_ns: f64) {
        self.wall_ns.push(wall_ns);
        self.user_ns.push(o.user_ns.unwrap_or(0.0));
        self.sys_ns.push(o.sys_ns.unwrap_or(0.0));
        self.peak_bytes.push(o.peak_bytes.unwrap_or(f64::NAN));
        self.codes.push(o.code);
        self.peak_floor = self.peak_floor.max(o.peak_floor.unwrap_or(0.0));
    }

    /// Appends runs `range` of `other`.
    pub(crate) fn extend(&mut self, other: &Extras, range: std::ops::Range<usize>) {
        self.wall_ns
            .extend_from_slice(&other.wall_ns[range.clone()]);
        self.user_ns
            .extend_from_slice(&other.user_ns[range.clone()]);
        self.sys_ns.extend_from_slice(&other.sys_ns[range.clone()]);
        self.peak_bytes
            .extend_from_slice(&other.peak_bytes[range.clone()]);
        self.codes.extend_from_slice(&other.codes[range]);
        self.peak_floor = self.peak_floor.max(other.peak_floor);
    }
}

/// A command killed at its deadline.
#[derive(Debug, Clone)]
pub(crate) struct Killed {
    /// What it was: ``a run of `NAME` ``, ``the prepare command of `NAME` ``.
    pub what: String,
    /// How long it had run.
    pub ran: Duration,
}

/// One program under measurement.
pub(crate) struct ProgramWorkload {
    /// The program's name, for messages.
    pub name: String,
    runner: Runner,
    /// The command with `{work}` unreplaced (work mode).
    template: Vec<String>,
    prepare: Option<Runner>,
    conclude: Option<Runner>,
    /// The shell's start-up time, ns, subtracted from each run's wall time (runs mode).
    pub shell_ns: f64,
    ignore_failure: bool,
    mode: Mode,
    /// Each round's extras, in round order.
    pub extras: Vec<Extras>,
    /// Runs that exited non-zero and were accepted (`--ignore-failure`).
    pub failed_runs: u64,
    /// Runs whose wall time was below the shell's start-up time (their reading is 0).
    pub below_shell: u64,
    /// When a run still going is killed; `None`: never.
    pub deadline: Option<Instant>,
    /// The command killed at the deadline, if one was.
    pub killed: Option<Killed>,
    /// Set once the deadline has passed: no run starts after it.
    out_of_time: bool,
}

impl ProgramWorkload {
    /// A workload for the program `spawn` (its arguments may hold `{work}`), with the
    /// `prepare` and `conclude` commands.
    pub(crate) fn new(
        name: &str,
        spawn: Spawn,
        prepare: Option<Spawn>,
        conclude: Option<Spawn>,
        mode: Mode,
        ignore_failure: bool,
    ) -> Result<Self, String> {
        Ok(ProgramWorkload {
            name: name.to_string(),
            template: spawn.argv.clone(),
            runner: Runner::new(spawn)?,
            prepare: prepare.map(Runner::new).transpose()?,
            conclude: conclude.map(Runner::new).transpose()?,
            shell_ns: 0.0,
            ignore_failure,
            mode,
            extras: Vec::new(),
            failed_runs: 0,
            below_shell: 0,
            deadline: None,
            killed: None,
            out_of_time: false,
        })
    }

    /// Runs a `--prepare` or `--conclude` command until `deadline`; it must succeed. What was
    /// killed at the deadline, if it was.
    fn side(
        runner: &mut Option<Runner>,
        what: &str,
        name: &str,
        deadline: Option<Instant>,
    ) -> Result<Option<Killed>, String> {
        let Some(r) = runner else { return Ok(None) };
        let o = r
            .run(deadline)
            .map_err(|e| format!("{what} command of `{name}`: {e}"))?;
        if o.killed {
            Ok(Some(Killed {
                what: format!("the {what} command of `{name}`"),
                ran: Duration::from_nanos(o.wall_ns as u64),
            }))
        } else if o.success() {
            Ok(None)
        } else {
            Err(format!(
                "the {what} command of `{name}` failed with {}{}",
                o.ending(),
                tail(&r.stderr_tail(5))
            ))
        }
    }

    /// Notes `killed` and that the deadline has passed; no outcome.
    fn cut(&mut self, killed: Killed) -> Option<Outcome> {
        self.out_of_time = true;
        self.killed = Some(killed);
        None
    }

    /// One run at `work` (in work mode), between its prepare and conclude commands: its
    /// outcome, `None` when the deadline came first (nothing started after it, or a command
    /// was killed at it: [`ProgramWorkload::killed`]), or why it failed (a run that exits
    /// non-zero fails unless failures are ignored).
    pub(crate) fn run_once(&mut self, work: u64) -> Result<Option<Outcome>, String> {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.out_of_time = true;
            return Ok(None);
        }
        if self.mode == Mode::Work {
            let argv = self
                .template
                .iter()
                .map(|a| a.replace("{work}", &work.to_string()))
                .collect();
            self.runner.set_argv(argv);
        }
        if let Some(k) = Self::side(&mut self.prepare, "prepare", &self.name, self.deadline)? {
            return Ok(self.cut(k));
        }
        let o = self.runner.run(self.deadline)?;
        if o.killed {
            return Ok(self.cut(Killed {
                what: format!("a run of `{}`", self.name),
                ran: Duration::from_nanos(o.wall_ns as u64),
            }));
        }
        if !o.success() {
            if stop_requested() {
                return Err("interrupted".to_string());
            }
            if !self.ignore_failure {
                return Err(format!(
                    "`{}` failed with {} (-i/--ignore-failure measures failing runs){}",
                    self.name,
                    o.ending(),
                    tail(&self.runner.stderr_tail(10))
                ));
            }
            self.failed_runs += 1;
        }
        if let Some(k) = Self::side(&mut self.conclude, "conclude", &self.name, self.deadline)? {
            return Ok(self.cut(k));
        }
        Ok(Some(o))
    }

    /// The unit readings a run printed (readings mode), in ns: each line's number, or CSV
    /// column `column` of each line. Empty lines are skipped, as is a first line that is not
    /// a number in CSV (a header). Anything else that is not a positive finite number is an
    /// error naming the line.
    pub(crate) fn parse_readings(
        stdout: &[u8],
        column: Option<usize>,
        unit_ns: f64,
    ) -> Result<Vec<f64>, String> {
        let text = String::from_utf8_lossy(stdout);
        let mut out = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let field = match column {
                Some(c) => line.split(',').nth(c).map(str::trim).ok_or_else(|| {
                    format!(
                        "line {} of the output has no column {}: `{line}`",
                        i + 1,
                        c + 1
                    )
                })?,
                None => line,
            };
            match field.parse::<f64>() {
                Ok(x) if x.is_finite() && x >= 0.0 => out.push(x * unit_ns),
                _ if column.is_some() && i == 0 && out.is_empty() => continue,
                _ => {
                    return Err(format!(
                        "line {} of the output is not a reading (a non-negative number): `{line}`",
                        i + 1
                    ));
                }
            }
        }
        if out.is_empty() {
            return Err("the program printed no readings".to_string());
        }
        Ok(out)
    }
}

/// `: ` and the last lines of standard error on lines of their own, or nothing.
fn tail(text: &str) -> String {
    if text.trim().is_empty() {
        String::new()
    } else {
        let indented: Vec<String> = text.lines().map(|l| format!("    {l}")).collect();
        format!("; the end of its standard error:\n{}", indented.join("\n"))
    }
}

impl Workload for ProgramWorkload {
    fn round(&mut self, work: u64) -> Result<RoundData, String> {
        let mut extras = Extras::default();
        // A round the deadline cut before any run: no readings, and the session records none.
        let nothing = RoundData::Units {
            readings: Vec::new(),
            iterations: 1,
        };
        let data = match self.mode.clone() {
            Mode::Runs => {
                let mut readings = Vec::with_capacity(work as usize);
                for _ in 0..work {
                    if stop_requested() {
                        break;
                    }
                    let Some(o) = self.run_once(1)? else { break };
                    let net = o.wall_ns - self.shell_ns;
                    if net <= 0.0 {
                        self.below_shell += 1;
                    }
                    readings.push(net.max(0.0));
                    extras.push(&o, net.max(0.0));
                }
                if readings.is_empty() {
                    if self.out_of_time {
                        return Ok(nothing);
                    }
                    return Err("interrupted".to_string());
                }
                RoundData::Units {
                    readings,
                    iterations: 1,
                }
            }
            Mode::Work => {
                let Some(o) = self.run_once(work)? else {
                    return Ok(nothing);
                };
                extras.push(&o, o.wall_ns);
                RoundData::Whole
            }
            Mode::Readings { column, unit_ns } => {
                let Some(o) = self.run_once(1)? else {
                    return Ok(nothing);
                };
                extras.push(&o, o.wall_ns);
                RoundData::Units {
                    readings: Self::parse_readings(&o.stdout, column, unit_ns)?,
                    iterations: 1,
                }
            }
        };
        self.extras.push(extras);
        Ok(data)
    }

    fn out_of_time(&self) -> bool {
        self.out_of_time
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_are_parsed_per_line_or_per_column() {
        let p = ProgramWorkload::parse_readings;
        assert_eq!(p(b"1.5\n\n2\n", None, 1e9).unwrap(), [1.5e9, 2e9]);
        assert_eq!(
            p(b"name,time\na,3\nb,4\n", Some(1), 1.0).unwrap(),
            [3.0, 4.0]
        );
        let e = p(b"1\nfast\n", None, 1.0).unwrap_err();
        assert_eq!(
            e,
            "line 2 of the output is not a reading (a non-negative number): `fast`"
        );
        let e = p(b"1,2\n3\n", Some(1), 1.0).unwrap_err();
        assert_eq!(e, "line 2 of the output has no column 2: `3`");
        assert!(p(b"-1\n", None, 1.0).is_err());
        assert!(p(b"NaN\n", None, 1.0).is_err());
        assert_eq!(
            p(b"\n", None, 1.0).unwrap_err(),
            "the program printed no readings"
        );
    }
}
