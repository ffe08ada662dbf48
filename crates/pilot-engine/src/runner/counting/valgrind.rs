//! Valgrind found on `PATH`, and one counting process run under its callgrind: the bench
//! binary started with a plan, its dumps read back into counts.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::error::CountError;
use super::message::{CountEnd, CountMessage};
use crate::counts::{CountPlan, Dump, PLAN_VARIABLE, ProcessCounts, process_counts};

/// Valgrind, found and answering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Valgrind {
    /// The program run (`valgrind`, found on `PATH`).
    pub(crate) program: PathBuf,
    /// What `valgrind --version` says: `valgrind-3.19.0`.
    pub version: String,
}

impl Valgrind {
    /// Finds Valgrind on `PATH` and asks its version. Errors name what is missing: Valgrind
    /// itself (with the package to install), or client requests on this architecture.
    pub fn find() -> Result<Valgrind, CountError> {
        if !crate::record::callgrind::SUPPORTED {
            return Err(CountError::Unsupported {
                arch: std::env::consts::ARCH,
            });
        }
        let program = PathBuf::from("valgrind");
        let out = match Command::new(&program)
            .arg("--version")
            .stdin(Stdio::null())
            .output()
        {
            Ok(out) => out,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(CountError::Missing),
            Err(e) => return Err(CountError::NoVersion(e.to_string())),
        };
        let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !out.status.success() || !version.starts_with("valgrind") {
            return Err(CountError::NotValgrind {
                status: out.status.to_string(),
                stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
            });
        }
        Ok(Valgrind { program, version })
    }
}

/// One counting process: which binary, which bench, how.
#[derive(Debug, Clone)]
pub struct CountRequest<'a> {
    /// The bench binary.
    pub exe: &'a Path,
    /// The bench's exact name.
    pub name: &'a str,
    /// What to run.
    pub plan: CountPlan,
    /// Ask callgrind for its cache simulation too (estimated cycles).
    pub cache_sim: bool,
    /// The working directory of the process (the bench's package, as cargo runs benches);
    /// `None` keeps this process's.
    pub dir: Option<&'a Path>,
}

/// Runs bench `req.name` of `req.exe` once under `valgrind --tool=callgrind`, collection off
/// except around its units (`--collect-atstart=no` and the bench's own switches), and reads
/// the counts of its rounds. Its dumps and messages go to a temporary folder, removed however
/// this ends. Errors say what the process said: the bench's own error, or Valgrind's.
pub fn count_process(
    valgrind: &Valgrind,
    req: &CountRequest<'_>,
) -> Result<ProcessCounts, CountError> {
    let scratch = tempfile::Builder::new()
        .prefix("pilot-count-")
        .tempdir()
        .map_err(|e| CountError::Scratch(e.to_string()))?;
    let dir = scratch.path();
    let stderr_path = dir.join("stderr");
    let stderr = std::fs::File::create(&stderr_path).map_err(|e| CountError::Create {
        path: stderr_path.clone(),
        message: e.to_string(),
    })?;
    let mut cmd = Command::new(&valgrind.program);
    cmd.arg("--tool=callgrind")
        .arg("--collect-atstart=no")
        .arg(arg_with_path(
            "--callgrind-out-file=",
            &dir.join("callgrind.out"),
        ))
        .arg(arg_with_path("--log-file=", &dir.join("valgrind.log")))
        .arg("--dump-line=no")
        // Rust's symbols are demangled by pilot (`counts::callgraph::demangle`), the same
        // whatever Valgrind's version knows of Rust's manglings.
        .arg("--demangle=no");
    if req.cache_sim {
        cmd.arg("--cache-sim=yes");
    }
    let message_path = dir.join("end.json");
    cmd.arg(req.exe)
        .args(["--bench", "--exact", req.name])
        .arg("--json")
        .arg(&message_path)
        .env("PILOT_CHILD", "1")
        .env(PLAN_VARIABLE, req.plan.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr);
    for var in [
        "PILOT_JSON",
        "PILOT_SAVE_BASELINE",
        "PILOT_BASELINE",
        "PILOT_INSTRUCTIONS",
        "PILOT_CACHE_SIM",
    ] {
        cmd.env_remove(var);
    }
    if let Some(d) = req.dir {
        cmd.current_dir(d);
    }
    let status = cmd.status().map_err(|e| CountError::Start {
        program: valgrind.program.clone(),
        message: e.to_string(),
    })?;
    if !status.success() {
        return Err(failure(dir, &message_path, &stderr_path, status));
    }
    process_counts(&read_dumps(dir)?).map_err(CountError::Dumps)
}

/// `flag` joined with `path` into one argument (`--log-file=/tmp/…`).
fn arg_with_path(flag: &str, path: &Path) -> std::ffi::OsString {
    let mut arg = std::ffi::OsString::from(flag);
    arg.push(path);
    arg
}

/// Why a counting process that exited with `status` failed: the bench's error from its
/// message ([`CountMessage`] at `message`), else the panic on its standard error (`stderr`, a
/// panic outside the bench's body that Rust's runtime reported), else the end of Valgrind's log.
fn failure(
    dir: &Path,
    message: &Path,
    stderr: &Path,
    status: std::process::ExitStatus,
) -> CountError {
    if let Some(CountMessage {
        end: CountEnd::Failed(e),
        ..
    }) = CountMessage::read(message)
    {
        return CountError::Failed(e);
    }
    let last = |path: &Path, pick: &dyn Fn(&str) -> bool| {
        std::fs::read_to_string(path).ok().and_then(|t| {
            t.lines()
                .rev()
                .map(str::trim)
                .find(|l| pick(l))
                .map(str::to_string)
        })
    };
    if let Some(p) = last(stderr, &|l: &str| l.contains("panicked")) {
        return CountError::Failed(p);
    }
    // Valgrind's own lines start `==PID== `.
    let log = last(&dir.join("valgrind.log"), &|l: &str| {
        l.split_once("== ")
            .is_some_and(|(_, rest)| !rest.trim().is_empty())
    });
    CountError::Exited {
        status: status.to_string(),
        valgrind: log.map(|l| {
            l.split_once("== ")
                .map_or(l.as_str(), |(_, rest)| rest)
                .to_string()
        }),
    }
}

/// The dumps callgrind wrote in `dir`, in the order it wrote them: `callgrind.out.1`,
/// `callgrind.out.2`, …, then `callgrind.out` (the program's end).
fn read_dumps(dir: &Path) -> Result<Vec<Dump>, CountError> {
    let unreadable = |path: &Path, e: std::io::Error| CountError::Read {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let entries = std::fs::read_dir(dir).map_err(|e| unreadable(dir, e))?;
    let mut parts: Vec<(u64, PathBuf)> = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let part = match name.strip_prefix("callgrind.out") {
            Some("") => u64::MAX,
            Some(rest) => match rest.strip_prefix('.').and_then(|n| n.parse().ok()) {
                Some(n) => n,
                None => continue,
            },
            None => continue,
        };
        parts.push((part, entry.path()));
    }
    if parts.is_empty() {
        return Err(CountError::NoDump);
    }
    parts.sort();
    parts
        .iter()
        .map(|(_, path)| {
            let text = std::fs::read_to_string(path).map_err(|e| unreadable(path, e))?;
            Dump::parse(&text).map_err(|problem| CountError::BadDump {
                path: path.clone(),
                problem,
            })
        })
        .collect()
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::process::ExitStatusExt;

    use super::*;

    #[test]
    fn a_failed_process_is_explained_by_its_message_not_by_its_words_on_stderr() {
        let dir = tempfile::tempdir().unwrap();
        let (message, stderr) = (dir.path().join("end.json"), dir.path().join("stderr"));
        let exited = std::process::ExitStatus::from_raw(1 << 8);
        // What the process printed for a person is not read back: a line that looks like an
        // error names nothing without a message.
        std::fs::write(&stderr, "error: words on standard error\n").unwrap();
        let unexplained = failure(dir.path(), &message, &stderr, exited);
        assert_eq!(
            unexplained,
            CountError::Exited {
                status: exited.to_string(),
                valgrind: None
            }
        );
        assert_eq!(
            unexplained.to_string(),
            format!("the counting process exited with {exited}")
        );
        CountMessage::new(CountEnd::Failed("the bench timed no unit".into()))
            .write(&message)
            .unwrap();
        let explained = failure(dir.path(), &message, &stderr, exited);
        assert_eq!(
            explained.to_string(),
            "the counting process failed: the bench timed no unit"
        );
        std::fs::write(
            dir.path().join("valgrind.log"),
            "==12== Memcheck\n==12== bad option\n==12== \n",
        )
        .unwrap();
        std::fs::remove_file(&message).unwrap();
        assert_eq!(
            failure(dir.path(), &message, &stderr, exited).to_string(),
            format!("the counting process exited with {exited}; valgrind: bad option")
        );
    }
}
