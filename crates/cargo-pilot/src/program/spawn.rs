//! One run of a command-line program: started, timed from before the spawn to the moment it is
//! reaped, and reaped with `wait4` so that its own user and system time and peak memory are
//! read. `getrusage(RUSAGE_CHILDREN)` would give the sum of all children's times and the
//! largest peak of any child so far (hyperfine's high-water-mark mistake: a small command run
//! after a big one shows the big one's memory).
//!
//! A child's peak memory has a floor on Linux: at `exec` the kernel keeps, as the new
//! program's peak, the resident size of the process image it replaces, which a child started
//! by `vfork` (as `std::process::Command` does) shares with its parent. A child whose own peak is
//! below pilot's own peak therefore reports pilot's; [`Outcome::peak_bytes`] is `None` then
//! (unknown, below [`Outcome::peak_floor`]), never pilot's size passed off as the program's.
//!
//! The child's standard error goes to a file pilot keeps (its last lines explain a failure),
//! or to the terminal with `--show-output`; standard output goes where `--output` says, or is
//! read whole when its numbers are the readings.
//!
//! Each program starts in a process group of its own, so that a run still going at its
//! deadline is killed whole, with whatever it started (see [`super::wait`]).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

#[cfg(unix)]
use super::wait;

/// Where a program's standard output goes (hyperfine's `--output`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Output {
    /// Discarded by the system (`/dev/null`): the default.
    #[default]
    Null,
    /// Through a pipe that pilot reads and discards: for programs that write differently to
    /// a pipe.
    Pipe,
    /// To pilot's own standard output.
    Inherit,
    /// Into this file, truncated before each run.
    File(PathBuf),
}

/// How to start a program.
#[derive(Debug, Clone)]
pub(crate) struct Spawn {
    /// The program and its arguments.
    pub argv: Vec<String>,
    /// A file to read as standard input (else none: `/dev/null`).
    pub input: Option<PathBuf>,
    pub output: Output,
    /// Shows standard error (and, with [`Output::Null`], standard output) on the terminal.
    pub show_output: bool,
    /// Reads standard output whole, for readings printed by the program.
    pub capture: bool,
}

/// What one run did and cost.
#[derive(Debug, Clone, Default)]
pub(crate) struct Outcome {
    /// From before the spawn to the reaping, ns.
    pub wall_ns: f64,
    /// The child's own user and system CPU time, ns (`None` where `wait4` is not available).
    pub user_ns: Option<f64>,
    pub sys_ns: Option<f64>,
    /// The child's peak resident memory, bytes; `None` when the system cannot tell, or when
    /// it was no more than [`Outcome::peak_floor`] (the child's own peak is then unknown).
    pub peak_bytes: Option<f64>,
    /// pilot's own peak resident memory when the child started, bytes: the least peak a
    /// child can report (see the module docs).
    pub peak_floor: Option<f64>,
    /// Its exit code, or the signal that ended it.
    pub code: Option<i32>,
    pub signal: Option<i32>,
    /// Standard output, when it was captured.
    pub stdout: Vec<u8>,
    /// Whether it was still running at its deadline and was killed (with its process group);
    /// `wall_ns` is then how long it had run.
    pub killed: bool,
}

impl Outcome {
    /// Whether the program exited with code 0.
    pub(crate) fn success(&self) -> bool {
        self.code == Some(0)
    }

    /// How it ended, in words: `exit code 2`, `killed by signal 9`.
    pub(crate) fn ending(&self) -> String {
        match (self.code, self.signal) {
            (Some(c), _) => format!("exit code {c}"),
            (None, Some(s)) => format!("killed by signal {s}"),
            (None, None) => "an unknown ending".to_string(),
        }
    }
}

/// Runs programs described by one [`Spawn`], keeping the file their standard error goes to.
pub(crate) struct Runner {
    spawn: Spawn,
    stderr: Option<File>,
}

impl Runner {
    /// A runner for `spawn`; its standard-error file is created here, not at each run.
    pub(crate) fn new(spawn: Spawn) -> Result<Runner, String> {
        let stderr = if spawn.show_output {
            None
        } else {
            Some(
                tempfile::tempfile()
                    .map_err(|e| format!("failed to create a file for standard error: {e}"))?,
            )
        };
        Ok(Runner { spawn, stderr })
    }

    /// Starts `argv` from now on (the same program with other arguments).
    pub(crate) fn set_argv(&mut self, argv: Vec<String>) {
        self.spawn.argv = argv;
    }

    /// Runs the program once; one still running at `deadline` is killed with its process
    /// group ([`Outcome::killed`]). `Err` when it cannot be started (no such program, no
    /// permission, an input file that cannot be read), with what the system said.
    pub(crate) fn run(&mut self, deadline: Option<Instant>) -> Result<Outcome, String> {
        let mut command = self.command()?;
        let s = &self.spawn;
        let program = &s.argv[0];
        let start = Instant::now();
        let child = command
            .spawn()
            .map_err(|e| format!("failed to start `{program}`: {e}"))?;
        let mut captured = Vec::new();
        let mut outcome = reap(child, start, s.capture.then_some(&mut captured), deadline)?;
        // Read after the child is reaped, not before it starts: pilot's peak can grow meanwhile
        // (another thread's allocations), up to the moment of `exec`, and the child inherits
        // it. The peak never falls, so this bounds what the child can have inherited.
        let floor = own_peak();
        outcome.peak_floor = floor;
        // At the floor (a page of slack): the child's own peak was lower, and is unknown.
        if let (Some(peak), Some(floor)) = (outcome.peak_bytes, floor)
            && peak <= floor + 4096.0
        {
            outcome.peak_bytes = None;
        }
        outcome.stdout = captured;
        Ok(outcome)
    }

    /// The command to start, its standard input, output and error set.
    fn command(&mut self) -> Result<Command, String> {
        let s = &self.spawn;
        let (program, args) = s.argv.split_first().ok_or("an empty command")?;
        let mut command = Command::new(program);
        command.args(args);
        // Its own group, killed whole at a deadline.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        command.stdin(match &s.input {
            Some(path) => Stdio::from(
                File::open(path)
                    .map_err(|e| format!("failed to open the input `{}`: {e}", path.display()))?,
            ),
            None => Stdio::null(),
        });
        let stdout = if s.capture {
            Stdio::piped()
        } else {
            match &s.output {
                Output::Null if s.show_output => Stdio::inherit(),
                Output::Null => Stdio::null(),
                Output::Pipe => Stdio::piped(),
                Output::Inherit => Stdio::inherit(),
                Output::File(path) => Stdio::from(File::create(path).map_err(|e| {
                    format!("failed to create the output `{}`: {e}", path.display())
                })?),
            }
        };
        command.stdout(stdout);
        match &mut self.stderr {
            Some(file) => {
                file.set_len(0)
                    .and_then(|()| file.seek(SeekFrom::Start(0)).map(|_| ()))
                    .map_err(|e| format!("failed to reset the standard-error file: {e}"))?;
                let clone = file
                    .try_clone()
                    .map_err(|e| format!("failed to share the standard-error file: {e}"))?;
                command.stderr(Stdio::from(clone));
            }
            None => {
                command.stderr(Stdio::inherit());
            }
        }
        Ok(command)
    }

    /// The last `lines` lines of the last run's standard error (empty when it was shown).
    pub(crate) fn stderr_tail(&mut self, lines: usize) -> String {
        let Some(file) = &mut self.stderr else {
            return String::new();
        };
        let mut text = String::new();
        let len = file.metadata().map_or(0, |m| m.len());
        // The last 8 KiB hold the last lines of any reasonable message.
        let from = len.saturating_sub(8192);
        if file.seek(SeekFrom::Start(from)).is_err() {
            return text;
        }
        let mut bytes = Vec::new();
        let _ = file.read_to_end(&mut bytes);
        text.push_str(&String::from_utf8_lossy(&bytes));
        let all: Vec<&str> = text.lines().collect();
        all[all.len().saturating_sub(lines)..].join("\n")
    }
}

/// Linux and macOS give `ru_maxrss` in KiB and bytes.
#[cfg(unix)]
const PEAK_UNIT: f64 = if cfg!(target_os = "macos") || cfg!(target_os = "ios") {
    1.0
} else {
    1024.0
};

/// This process's own peak resident memory, bytes.
#[cfg(unix)]
fn own_peak() -> Option<f64> {
    // SAFETY: an all-zero rusage is a valid value of the plain C struct, and getrusage only
    // writes into it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is valid for writes.
    let r = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    (r == 0).then_some(usage.ru_maxrss as f64 * PEAK_UNIT)
}

/// No peak to read without `getrusage`.
#[cfg(not(unix))]
fn own_peak() -> Option<f64> {
    None
}

/// Waits for `child` (reading its piped output into `keep`, or discarding it) until it ends
/// or `deadline` passes, with `wait4`, which returns the child's own resource use.
#[cfg(unix)]
fn reap(
    mut child: std::process::Child,
    start: Instant,
    keep: Option<&mut Vec<u8>>,
    deadline: Option<Instant>,
) -> Result<Outcome, String> {
    let pid = child.id() as libc::pid_t;
    let waited = wait::wait(pid, child.stdout.take(), keep, deadline);
    // `child` is dropped without `wait`: it is reaped already (or lost to an error), and
    // dropping never kills.
    drop(child);
    let ended = waited.inspect_err(|_| wait::kill_group(pid, libc::SIGKILL))?;
    let wall_ns = ended.at.duration_since(start).as_nanos() as f64;
    let status = ended.status;
    let tv = |t: libc::timeval| t.tv_sec as f64 * 1e9 + t.tv_usec as f64 * 1e3;
    let (code, signal) = if libc::WIFEXITED(status) {
        (Some(libc::WEXITSTATUS(status)), None)
    } else if libc::WIFSIGNALED(status) {
        (None, Some(libc::WTERMSIG(status)))
    } else {
        (None, None)
    };
    Ok(Outcome {
        wall_ns,
        user_ns: Some(tv(ended.usage.ru_utime)),
        sys_ns: Some(tv(ended.usage.ru_stime)),
        peak_bytes: Some(ended.usage.ru_maxrss as f64 * PEAK_UNIT),
        peak_floor: None,
        code,
        signal,
        stdout: Vec::new(),
        killed: ended.killed,
    })
}

/// Waits for `child`, reading its output through a fixed buffer; without `wait4` there is no
/// per-child resource use, and no deadline.
#[cfg(not(unix))]
fn reap(
    mut child: std::process::Child,
    start: Instant,
    keep: Option<&mut Vec<u8>>,
    _deadline: Option<Instant>,
) -> Result<Outcome, String> {
    if let Some(mut out) = child.stdout.take() {
        let read = match keep {
            Some(k) => out.read_to_end(k).map(|_| ()),
            None => std::io::copy(&mut out, &mut std::io::sink()).map(|_| ()),
        };
        if let Err(e) = read {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("failed to read the program's output: {e}"));
        }
    }
    let status = child
        .wait()
        .map_err(|e| format!("failed to wait for the program: {e}"))?;
    Ok(Outcome {
        wall_ns: start.elapsed().as_nanos() as f64,
        code: status.code(),
        ..Outcome::default()
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str) -> Spawn {
        Spawn {
            argv: vec!["sh".into(), "-c".into(), script.into()],
            input: None,
            output: Output::Null,
            show_output: false,
            capture: false,
        }
    }

    #[test]
    fn exit_codes_signals_and_stderr_are_reported() {
        let mut r = Runner::new(sh("echo one >&2; echo two >&2; exit 3")).unwrap();
        let o = r.run(None).unwrap();
        assert_eq!(o.code, Some(3));
        assert!(!o.success());
        assert_eq!(o.ending(), "exit code 3");
        assert_eq!(r.stderr_tail(1), "two");
        assert_eq!(r.stderr_tail(5), "one\ntwo");
        let o = Runner::new(sh("kill -9 $$")).unwrap().run(None).unwrap();
        assert_eq!(o.signal, Some(9));
        assert_eq!(o.ending(), "killed by signal 9");
        let e = Runner::new(Spawn {
            argv: vec!["/no/such/program".into()],
            ..sh("")
        })
        .unwrap()
        .run(None)
        .unwrap_err();
        assert!(e.contains("failed to start `/no/such/program`"), "{e}");
    }

    #[test]
    fn a_run_past_its_deadline_is_killed_with_what_it_started() {
        let dir = tempfile::tempdir().unwrap();
        let pid = dir.path().join("pid");
        let script = format!("sleep 1000 & echo $! > {}; wait", pid.display());
        let mut r = Runner::new(Spawn {
            output: Output::Pipe,
            ..sh(&script)
        })
        .unwrap();
        let o = r
            .run(Some(Instant::now() + std::time::Duration::from_millis(300)))
            .unwrap();
        assert!(o.killed && o.signal == Some(libc::SIGKILL), "{o:?}");
        assert!((0.29e9..5e9).contains(&o.wall_ns), "{}", o.wall_ns);
        // The shell's child went with it (a zombie no one reaps holds nothing).
        let child = std::fs::read_to_string(&pid).unwrap();
        let gone = || {
            std::fs::read_to_string(format!("/proc/{}/stat", child.trim())).map_or(true, |s| {
                s.rsplit_once(") ").is_some_and(|(_, r)| r.starts_with('Z'))
            })
        };
        let start = Instant::now();
        while !gone() && start.elapsed().as_secs() < 5 {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(gone(), "process {child} still runs");
        // One that ends before its deadline is not killed.
        let o = Runner::new(sh("echo hi"))
            .unwrap()
            .run(Some(Instant::now() + std::time::Duration::from_secs(5)))
            .unwrap();
        assert!(!o.killed && o.success(), "{o:?}");
    }

    #[test]
    fn captured_output_and_input_file_are_passed() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.txt");
        std::fs::write(&input, "4\n5\n").unwrap();
        let mut r = Runner::new(Spawn {
            input: Some(input),
            capture: true,
            ..sh("cat; echo 6")
        })
        .unwrap();
        let o = r.run(None).unwrap();
        assert!(o.success());
        assert_eq!(String::from_utf8_lossy(&o.stdout), "4\n5\n6\n");
    }

    #[test]
    fn each_child_reports_its_own_peak_memory() {
        // A big child first, then a small one: the small one's peak is its own, not the
        // high-water mark of all children (what RUSAGE_CHILDREN would give). The big one holds
        // 150 MB more than this test process has ever held, whatever the tests beside it in
        // this process allocated (it inherits that peak at `exec`).
        let size = own_peak().unwrap() as u64 + 150_000_000;
        let big = Runner::new(sh(&format!(
            "x=$(head -c {size} /dev/zero | tr '\\0' a); echo ${{#x}}"
        )))
        .unwrap()
        .run(None)
        .unwrap();
        let small = Runner::new(sh("true")).unwrap().run(None).unwrap();
        let b = big
            .peak_bytes
            .expect("the big child's peak is above the test process's own");
        assert!(b > size as f64, "big child's peak {b}, its string {size}");
        // `true` stays below this test process's own size: its peak is unknown, not the big
        // one's, nor the floor passed off as its own.
        let floor = small.peak_floor.unwrap();
        match small.peak_bytes {
            Some(s) => assert!(
                s > floor && s < b / 2.0,
                "small {s}, floor {floor}, big {b}"
            ),
            None => assert!(floor < b, "floor {floor}"),
        }
        assert!(big.user_ns.unwrap() + big.sys_ns.unwrap() > 0.0);
    }
}
