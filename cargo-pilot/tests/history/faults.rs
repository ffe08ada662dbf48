//! What a hostile sweep found (issue 40), each a real `cargo pilot` process: Ctrl-C during
//! `bisect`'s build, which leaves no compiler or build script behind.
//!
//! The waits are bounded far above what a run needs, so that only a hang reaches a bound.

use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use super::*;

/// `cargo pilot ARGS` in `dir`, started with its output piped, no `PILOT_*` of the outer
/// environment but `env`.
fn spawn(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Child {
    let mut cmd = common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"));
    cmd.args(args)
        .current_dir(dir)
        .env_remove("CI")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.spawn().unwrap()
}

/// `child`'s output once it ends; a child still running after `limit` (a bound far above
/// what it needs: only a hang reaches it) is killed, and the test fails.
fn finish_within(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let o = child.wait_with_output().unwrap();
            panic!("still running after {limit:?}:\n{}", text(&o));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// Sends `signal` (`INT`, `TERM`) to process `pid` alone.
fn signal(pid: u32, signal: &str) {
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

/// Waits until `path` exists, up to `limit`.
fn wait_for(path: &Path, limit: Duration) {
    let start = Instant::now();
    while !path.exists() {
        assert!(
            start.elapsed() < limit,
            "`{}` never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// SIGINT to `cargo pilot bisect` alone while cargo builds (a build script running) ends the
/// command with 130, and no process of the build outlives it: cargo runs in a group of its
/// own, which the interrupt reaches whole.
#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_bisect_build_leaves_no_process() {
    let dir = tmp("bisect-sigint");
    let repo_dir = dir.join("repo");
    copy_fixture(&repo_dir);
    // A build script that says its process id and then takes long.
    std::fs::write(
        repo_dir.join("build.rs"),
        "fn main() {\n    if let Some(f) = std::env::var_os(\"FIXTURE_BUILD_PID\") {\n        \
         std::fs::write(f, std::process::id().to_string()).unwrap();\n        \
         std::thread::sleep(std::time::Duration::from_secs(300));\n    }\n}\n",
    )
    .unwrap();
    edit(
        &repo_dir.join("Cargo.toml"),
        "edition = \"2024\"",
        "edition = \"2024\"\nbuild = \"build.rs\"",
    );
    git(&repo_dir, &["init", "--quiet", "--initial-branch=main"]);
    git(&repo_dir, &["add", "-A"]);
    git(&repo_dir, &["commit", "--quiet", "-m", "base"]);
    let good = git(&repo_dir, &["rev-parse", "HEAD"]);
    git(
        &repo_dir,
        &["commit", "--quiet", "--allow-empty", "-m", "next"],
    );
    let pid_file = dir.join("build-script.pid");
    let target = dir.join("target");
    let child = spawn(
        &repo_dir,
        &["bisect", &good, "HEAD", "--history", "off"],
        &[
            ("CARGO_TARGET_DIR", target.to_str().unwrap()),
            ("FIXTURE_BUILD_PID", pid_file.to_str().unwrap()),
        ],
    );
    wait_for(&pid_file, Duration::from_secs(300));
    let script: u32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    signal(child.id(), "INT");
    let o = finish_within(child, Duration::from_secs(60));
    // Alive: there, and not a zombie waiting to be reaped.
    let alive = std::fs::read_to_string(format!("/proc/{script}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit_once(')')
                .map(|(_, rest)| rest.trim_start().chars().next())
        })
        .flatten()
        .is_some_and(|state| state != 'Z' && state != 'X');
    if alive {
        let _ = Command::new("kill")
            .args(["-KILL", &script.to_string()])
            .status();
    }
    assert!(
        !alive,
        "the build script outlived the command: {}",
        text(&o)
    );
    assert_eq!(o.status.code(), Some(130), "{}", text(&o));
}
