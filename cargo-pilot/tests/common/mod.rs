//! Helpers shared by the end-to-end tests of the bench binary and of `cargo pilot`.

/// Whether the output says the verdict came from Welch's t over at least `least` process
/// estimates on each side (`how: Welch's t over A vs B process estimates`).
#[allow(dead_code)]
pub fn welch_over_processes(out: &str, least: usize) -> bool {
    out.lines().any(|l| {
        l.strip_prefix("how: Welch's t over ")
            .map(|rest| rest.split_once(';').map_or(rest, |(test, _)| test))
            .and_then(|rest| rest.strip_suffix(" process estimates"))
            .and_then(|counts| counts.split_once(" vs "))
            .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?)))
            .is_some_and(|(a, b)| a >= least && b >= least)
    })
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

/// A finished command's standard output, then its standard error, for failure messages.
#[allow(dead_code)]
pub fn text(o: &std::process::Output) -> String {
    format!(
        "{}\n--- stderr ---\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}
