//! Helpers shared by the end-to-end tests of the bench binary and of `cargo pilot`.

/// Whether the output says the verdict came from Welch's t over at least `least` process
/// estimates on each side (`how: Welch's t over A vs B process estimates`).
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
