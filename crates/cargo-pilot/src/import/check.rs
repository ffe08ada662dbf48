//! Checks of the values read from another harness's files, shared by its readers: a time
//! must be one a clock can have measured.

use std::path::Path;

use anyhow::bail;
use pilot_settings::MAX_SECONDS;

/// The shortest time pilot takes from another harness's file, in seconds: a picosecond. No
/// clock resolves less (the finest, a CPU's time-stamp counter, ticks about every 0.3 ns, and
/// a 5 GHz core's cycle is 200 ps), and an iteration takes at least a cycle, so a shorter
/// time, like a subnormal `1e-320`, is a damaged file, not a measurement, and would
/// otherwise be analysed as a perfect `0.000 ns ± 0.00%`.
pub const LEAST_SECONDS: f64 = 1e-12;

/// Checks a time of `path` at `key`, `value` in `unit` (`s` or `ns`): a positive number, at
/// least [`LEAST_SECONDS`] and at most [`MAX_SECONDS`] (pilot's longest time cap, about 116
/// days; a run that took longer is a damaged file too, and sums of such times overflow). The
/// error names the file, the key and the value.
pub fn check_time(path: &Path, key: &str, value: f64, unit: &str) -> anyhow::Result<()> {
    let (per_second, unit_name) = match unit {
        "ns" => (1e9, "nanoseconds"),
        _ => (1.0, "seconds"),
    };
    let at = format!("`{}`: `{key}` is {}", path.display(), shown(value));
    if !(value.is_finite() && value > 0.0) {
        bail!("{at}, expected a positive number of {unit_name}");
    }
    let (least, most) = (LEAST_SECONDS * per_second, MAX_SECONDS * per_second);
    if value < least {
        bail!(
            "{at} {unit}, below {} {unit} (a picosecond): no clock measures so short a time",
            shown(least)
        );
    }
    if value > most {
        bail!(
            "{at} {unit}, above {} {unit} (about 116 days): not the time of a benchmark",
            shown(most)
        );
    }
    Ok(())
}

/// A number as an error shows it: in full in the usual range, else with an exponent (Rust
/// writes `1e-320` out as 320 digits).
fn shown(x: f64) -> String {
    if x == 0.0 || (1e-4..1e6).contains(&x.abs()) {
        x.to_string()
    } else {
        format!("{x:e}")
    }
}
