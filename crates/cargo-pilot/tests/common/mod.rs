//! Helpers shared by the end-to-end tests of the bench binary and of `cargo pilot`.

/// Whether the output says the verdict came from Welch's t over at least `least` process
/// estimates on each side (`how: Welch's t over A vs B process estimates`, where each count
/// may be a range over the benches, `3–4`).
#[allow(dead_code)]
pub fn welch_over_processes(out: &str, least: usize) -> bool {
    let fewest = |count: &str| count.split('–').next()?.parse::<usize>().ok();
    // `how: Welch's t over …`, or, when the benches were compared in more than one way, one
    // line per way: `how: 1 bench: Welch's t over …` and `     1 bench: …` under it.
    out.lines().any(|l| {
        welch_method(l)
            .map(|rest| rest.split_once(';').map_or(rest, |(test, _)| test))
            .and_then(|rest| rest.strip_suffix(" process estimates"))
            .and_then(|counts| counts.split_once(" vs "))
            .and_then(|(a, b)| Some((fewest(a)?, fewest(b)?)))
            .is_some_and(|(a, b)| a >= least && b >= least)
    })
}

/// The test of a comparison's method line (see [`welch_over_processes`]), when it is Welch's
/// t over process estimates: what follows `Welch's t over `.
#[allow(dead_code)]
fn welch_method(l: &str) -> Option<&str> {
    let l = l
        .strip_prefix("how: ")
        .or_else(|| l.strip_prefix("     "))?;
    let l = match l.split_once(": ") {
        Some((count, rest)) if count.ends_with(" bench") || count.ends_with(" benches") => rest,
        _ => l,
    };
    l.strip_prefix("Welch's t over ")
}

/// `EXE pilot` (the `cargo-pilot` binary, `env!("CARGO_BIN_EXE_cargo-pilot")` in the test
/// crates that have it), ready for a subcommand's arguments, with no `PILOT_*` setting of the
/// outer environment (a developer's `PILOT_MAX_TIME` must not change what a test measures).
#[allow(dead_code)]
pub fn cargo_pilot(exe: &str) -> std::process::Command {
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("pilot");
    for (k, _) in std::env::vars() {
        if k.starts_with("PILOT_") {
            cmd.env_remove(k);
        }
    }
    cmd
}

/// Standard output as a pipe whose reader has already closed it, as `| head -1` leaves it once
/// it has its line: every write to it fails with `EPIPE`.
#[cfg(unix)]
#[allow(dead_code)]
pub fn closed_pipe() -> std::process::Stdio {
    use std::os::fd::{FromRawFd, OwnedFd};
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe(2) writes.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: pipe(2) opened both descriptors, and each is owned once, here.
    let (reader, writer) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(reader);
    std::process::Stdio::from(writer)
}

/// A finished command's standard output, then its standard error, for failure messages.
#[allow(dead_code)]
pub fn text(o: &std::process::Output) -> String {
    format!(
        "{}\n--- stderr ---\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// What the user of a finished command saw, for a snapshot: its exit code, then its standard
/// output and its standard error, each under a heading when it is not empty.
#[allow(dead_code)]
pub fn shown(o: &std::process::Output) -> String {
    let code = o.status.code().map_or_else(
        || "none (killed by a signal)".to_string(),
        |c| c.to_string(),
    );
    let mut s = format!("exit code: {code}\n");
    for (name, bytes) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
        if !bytes.is_empty() {
            s.push_str(&format!(
                "--- {name} ---\n{}",
                String::from_utf8_lossy(bytes)
            ));
            if !s.ends_with('\n') {
                s.push('\n');
            }
        }
    }
    s
}

/// A command line as a user types it, for a snapshot's first line: words with spaces quoted.
#[allow(dead_code)]
pub fn command_line(words: &[&str]) -> String {
    let quoted: Vec<String> = words
        .iter()
        .map(|w| {
            if w.is_empty() || w.contains(char::is_whitespace) {
                format!("'{w}'")
            } else {
                w.to_string()
            }
        })
        .collect();
    format!("$ {}", quoted.join(" "))
}

/// The statuses a result may have (`pilot::schema`'s list), as a regular expression.
const STATUSES: &str = "ok|time cap|out of reach|settled|no steady state|below clock resolution|below shell resolution|unresolved|failed";

/// The output of a timed run with what a real measurement makes vary from run to run redacted,
/// and its shape (the lines, the columns, the words) kept:
///
/// - Lines that come or go with the machine's state are dropped: the checks (`check (…)`), the
///   warnings and the measured recording overhead.
/// - Times, rates, sizes and timestamps become `[time]`, `[rate]`, `[size]`, `[timestamp]`, a
///   unit in a heading (`Mean [µs]`) `[unit]`, an interval's half-width `± 1.23%` `± [%]`, and
///   every other number `[n]`; a fixed percentage such as the confidence (`95%`) is kept.
/// - A status and a warm-up class become `[status]` and `[warm-up]`: a short session may end
///   `ok` or at its `time cap`, and its first rounds may or may not be slower.
/// - Runs of spaces that align columns become two spaces, since the redacted cells' widths
///   varied.
#[allow(dead_code)]
pub fn redact_timed(text: &str) -> String {
    use regex::Regex;
    use std::sync::LazyLock;
    static RULES: LazyLock<Vec<(Regex, &str)>> = LazyLock::new(|| {
        let number = r"-?\b\d+(?:\.\d+)?(?:e[-+]?\d+)?";
        [
            (
                r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ".to_string(),
                "[timestamp]",
            ),
            // `2.308 GiB/s`, `11.76 M units/s`, `4.3392e8 work/s`.
            (format!(r"{number} (?:[kKMGT]i?)? ?[A-Za-z]+/s\b"), "[rate]"),
            (format!(r"{number} ?(?:ns|µs|ms|s)\b"), "[time]"),
            (format!(r"{number} ?[KMGT]?i?B\b"), "[size]"),
            (r"\[(?:ns|µs|ms|s)\]".to_string(), "[unit]"),
            (format!(r"± {number}%"), "± [%]"),
            // A reproducibility band's half-width, `±2.41%`.
            (format!(r"±{number}%"), "±[%]"),
            // A program's user or system time is a bare `0.000 ns` when it is zero.
            (
                r"(user|system) \[time\](?: ± \[%\])?".to_string(),
                "$1 [time]",
            ),
            (format!(r"{number}[kMG]?\b([^%\w]|$)"), "[n]$1"),
            (format!(r"\[(?:{STATUSES})\]"), "[status]"),
            (format!(r"\((?:{STATUSES})\)"), "([status])"),
            // A status ends a bench's line, or is followed by the markers of the checks that
            // fired on it (which depend on the machine).
            (
                format!(r"  (?:{STATUSES})(?:  [a-z][a-z -]*)?$"),
                "  [status]",
            ),
            (
                r"(\[n\] +)(?:flat|warm-up|slowdown|no steady state)\b".to_string(),
                "${1}[warm-up]",
            ),
            (r"(\S) {2,}".to_string(), "$1  "),
        ]
        .into_iter()
        .map(|(re, with)| (Regex::new(&re).unwrap(), with))
        .collect()
    });
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        // What the checks found depends on the machine.
        if line.starts_with("check (")
            || line.starts_with("check: ")
            || t.starts_with("warning: ")
            || t.starts_with("recording overhead: ")
        {
            continue;
        }
        let mut line = line.to_string();
        for (re, with) in RULES.iter() {
            line = re.replace_all(&line, *with).into_owned();
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// [`shown`] of a timed run: its exit code as it is, its output through [`redact_timed`].
#[allow(dead_code)]
pub fn shown_timed(o: &std::process::Output) -> String {
    let redacted = std::process::Output {
        status: o.status,
        stdout: redact_timed(&String::from_utf8_lossy(&o.stdout)).into_bytes(),
        stderr: redact_timed(&String::from_utf8_lossy(&o.stderr)).into_bytes(),
    };
    shown(&redacted)
}

/// Whether the tests that count instructions can run: `valgrind` answers. Without it they
/// skip, saying so on standard error, unless `PILOT_REQUIRE_VALGRIND=1` (as CI sets it, after
/// installing Debian's `valgrind`), which makes its absence a failure.
#[allow(dead_code)]
pub fn valgrind_here() -> bool {
    let found = std::process::Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        let required = std::env::var("PILOT_REQUIRE_VALGRIND").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "PILOT_REQUIRE_VALGRIND=1 but no `valgrind` on the PATH"
        );
        use std::io::Write;
        // Straight to the terminal: the harness shows a passing test's own prints only with
        // --nocapture.
        let _ = writeln!(
            std::io::stderr(),
            "skipped: the instruction counts' tests need `valgrind` on the PATH \
             (PILOT_REQUIRE_VALGRIND=1 makes its absence a failure)"
        );
    }
    found
}

/// The build directory (cargo's `build-dir`) that every test's builds of the fixture workspace
/// `tests/fixture-bench` share, whatever target directory each keeps its results in: one build
/// of pilot and its dependencies serves them all. cargo locks it, so tests that build at once
/// wait for each other rather than build the same crates twice. Only for that folder: cargo
/// names a workspace's own executables by their path inside the workspace, so a copy of the
/// fixture elsewhere (a test's git repository) building here would overwrite them. (Stable
/// since Rust 1.91; an older cargo ignores the setting and builds in each target directory.)
#[allow(dead_code)]
pub fn fixture_build_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixture-build")
}

/// The build directory that the bases of `--against` and `bisect` runs on copies of the
/// fixture share (each copy's working tree builds in [`fixture_build_dir`]): one build of
/// pilot and its dependencies for every test's base. The copies keep their executables apart
/// by their versions (see [`fixture_copy_files`]); a base and its working tree, whose versions
/// are the same, never share a build directory, as `cargo pilot` itself insists.
#[allow(dead_code)]
pub fn fixture_base_build_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixture-base-build")
}

/// The fixture's manifest and lock file for a copy of it in a repository of its own: its
/// pilot dependencies (`../../crates/…`) at this checkout's `crates`, and its package's
/// version given the pre-release `tag` (`0.1.0-TAG`). cargo names a workspace's own
/// executables by their path inside the workspace, the package's name and its version, so
/// copies with tags of their own share [`fixture_build_dir`] with the fixture (and
/// [`fixture_base_build_dir`] with each other's bases) without running each other's
/// executables, while pilot and its dependencies are built once for all of them.
#[allow(dead_code)]
pub fn fixture_copy_files(tag: &str) -> (String, String) {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = here.join("../../tests/fixture-bench");
    let crates = std::fs::canonicalize(here.join("..")).unwrap();
    let version = format!("version = \"0.1.0-{tag}\"");
    let manifest = std::fs::read_to_string(src.join("Cargo.toml")).unwrap();
    assert_eq!(manifest.matches("\nversion = \"0.1.0\"\n").count(), 1);
    let manifest = manifest
        .replace("\nversion = \"0.1.0\"\n", &format!("\n{version}\n"))
        // pilot, pilot-criterion and pilot-divan (`../../crates/pilot…`) are all under `../../crates`.
        .replace(
            "path = \"../../crates",
            &format!("path = \"{}", crates.display()),
        );
    assert!(
        !manifest.contains("../../"),
        "a path left relative: {manifest}"
    );
    let package = "name = \"pilot-fixture\"\nversion = \"0.1.0\"\n";
    let lock = std::fs::read_to_string(src.join("Cargo.lock")).unwrap();
    assert_eq!(
        lock.matches(package).count(),
        1,
        "the fixture's lock file changed"
    );
    let lock = lock.replace(package, &format!("name = \"pilot-fixture\"\n{version}\n"));
    (manifest, lock)
}

/// The executable cargo builds for bench target `bench` of the fixture workspace at `manifest`
/// with `features`, built now into the shared build directory (results under `target_dir`),
/// found from cargo's own report of what it built.
#[allow(dead_code)]
pub fn fixture_bench_executable(
    manifest: &std::path::Path,
    features: &str,
    bench: &str,
    target_dir: &std::path::Path,
) -> std::path::PathBuf {
    std::fs::create_dir_all(target_dir).unwrap();
    let o = std::process::Command::new(env!("CARGO"))
        .args(["bench", "--no-run", "--message-format=json", "--features"])
        .args([features, "--bench", bench, "--manifest-path"])
        .arg(manifest)
        .env("CARGO_TARGET_DIR", target_dir)
        .env("CARGO_BUILD_BUILD_DIR", fixture_build_dir())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == bench)
        .find_map(|m| m["executable"].as_str().map(std::path::PathBuf::from))
        .unwrap_or_else(|| panic!("cargo built no executable for `{bench}`: {}", text(&o)))
}

/// The raw control bytes a name may carry to a terminal found in `out`: ESC (a CSI or OSC
/// starts with it), BEL (ends an OSC), and the C1 forms of CSI and OSC as UTF-8.
#[allow(dead_code)]
pub fn control_bytes(out: &[u8]) -> Vec<&'static str> {
    let text = String::from_utf8_lossy(out);
    [
        ('\u{1b}', "ESC"),
        ('\u{7}', "BEL"),
        ('\u{9b}', "CSI"),
        ('\u{9d}', "OSC"),
    ]
    .into_iter()
    .filter(|(c, _)| text.contains(*c))
    .map(|(_, name)| name)
    .collect()
}

/// `git -C DIR ARGS` as a fixed committer, which must succeed: its standard output, trimmed.
#[allow(dead_code)]
pub fn git(dir: &std::path::Path, args: &[&str]) -> String {
    let o = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=pilot",
            "-c",
            "user.email=pilot@example.com",
        ])
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "git {args:?}: {}", text(&o));
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}
