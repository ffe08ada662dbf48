//! The bench binary's command line, compatible with how `cargo bench`, `cargo test --benches`
//! and cargo-nextest call a test harness (DESIGN §3).
//!
//! `cargo bench -- ARGS` passes `ARGS --bench`: benchmark mode. Without `--bench`, or with
//! `--test`, the binary is in test mode: every bench runs one tiny round to show it works.
//! libtest flags pilot has no use for are accepted and ignored, so tools that drive test
//! harnesses work unchanged. Every pilot flag can also be set by a `PILOT_*` environment
//! variable; a flag wins over the variable, the variable over the bench's attribute.

use std::ffi::OsString;

/// What the binary was asked to do.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Args {
    /// Benchmark mode (`--bench`); otherwise test mode.
    pub bench: bool,
    /// Print the benches instead of running them.
    pub list: bool,
    /// `--format terse`: one `NAME: benchmark` line per bench and nothing else.
    pub terse: bool,
    /// Positional filters: a bench runs when its name contains one (or equals one, `--exact`).
    pub filters: Vec<String>,
    pub exact: bool,
    pub skip: Vec<String>,
    /// Run only the ignored benches.
    pub ignored: bool,
    /// Run ignored benches too.
    pub include_ignored: bool,
    pub fail_fast: bool,
    /// Continue an interrupted run: benches it finished are not measured again.
    pub resume: bool,
    /// Target relative CI half-width.
    pub ci: Option<f64>,
    pub confidence: Option<f64>,
    /// Time cap in seconds.
    pub max_time: Option<f64>,
    pub min_time: Option<f64>,
    /// `--quick`: half-width 5%, cap 2 s (explicit values still win).
    pub quick: bool,
    /// Write the whole run as JSON to this file.
    pub json: Option<String>,
    /// Save the run as this named baseline.
    pub save_baseline: Option<String>,
    /// Compare the run with this saved baseline.
    pub baseline: Option<String>,
    /// Significance level of baseline comparisons (`--alpha`, default 0.01).
    pub alpha: Option<f64>,
    /// Noise threshold of baseline comparisons (`--noise`, relative, default 0.01).
    pub noise: Option<f64>,
    /// Leave the end-of-run table out (`PILOT_NO_TABLE`): `cargo pilot bench` prints one table
    /// across all bench targets instead.
    pub no_table: bool,
    /// The least process executions per bench (`--processes N`); more run while the combined
    /// interval is too wide and time remains. `None` is one, in this process.
    pub processes: Option<usize>,
    /// Set (through `PILOT_CHILD`) in the processes pilot starts to measure one bench: they
    /// run one session quietly and write its result document to `--json`.
    pub child: bool,
    /// `--sequential`: measure a group's members one after another, not interleaved.
    pub sequential: bool,
    /// Flags that were not understood (ignored, and mentioned once).
    pub unknown: Vec<String>,
}

/// libtest flags that take a value, which pilot ignores with it.
const IGNORED_WITH_VALUE: &[&str] = &[
    "--color",
    "--logfile",
    "--test-threads",
    "-Z",
    "--shuffle-seed",
    "--report-time-format",
];

/// libtest flags without a value that pilot ignores.
const IGNORED_FLAGS: &[&str] = &[
    "--nocapture",
    "--no-capture",
    "--show-output",
    "-q",
    "--quiet",
    "--report-time",
    "--ensure-time",
    "--shuffle",
    "--exclude-should-panic",
    "--force-run-in-process",
    "--test",
];

/// Reads the arguments (without the program name) and the environment (`env(name)` returns a
/// variable's value). Errors name the flag or variable at fault.
pub(crate) fn parse(
    args: impl IntoIterator<Item = OsString>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Args, String> {
    let mut out = Args::default();
    let mut it = args.into_iter().map(|a| a.to_string_lossy().into_owned());
    let mut test_flag = false;
    while let Some(arg) = it.next() {
        // `--flag=value` is the same as `--flag value`.
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = |name: &str| -> Result<String, String> {
            inline
                .clone()
                .or_else(|| it.next())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag.as_str() {
            "--bench" => out.bench = true,
            "--test" => test_flag = true,
            "--list" => out.list = true,
            "--format" => out.terse = value("--format")? == "terse",
            "--exact" => out.exact = true,
            "--skip" => out.skip.push(value("--skip")?),
            "--ignored" => out.ignored = true,
            "--include-ignored" => out.include_ignored = true,
            "--fail-fast" => out.fail_fast = true,
            "--resume" => out.resume = true,
            "--quick" => out.quick = true,
            "--sequential" => out.sequential = true,
            "--ci" => out.ci = Some(number("--ci", &value("--ci")?, Bound::Fraction)?),
            "--confidence" => {
                out.confidence = Some(number(
                    "--confidence",
                    &value("--confidence")?,
                    Bound::Fraction,
                )?)
            }
            "--max-time" => {
                out.max_time = Some(number(
                    "--max-time",
                    &value("--max-time")?,
                    Bound::Positive,
                )?)
            }
            "--min-time" => {
                out.min_time = Some(number(
                    "--min-time",
                    &value("--min-time")?,
                    Bound::NonNegative,
                )?)
            }
            "--json" => out.json = Some(value("--json")?),
            "--processes" => out.processes = Some(count("--processes", &value("--processes")?)?),
            "--save-baseline" => {
                out.save_baseline = Some(name_value("--save-baseline", value("--save-baseline")?)?)
            }
            "--baseline" => out.baseline = Some(name_value("--baseline", value("--baseline")?)?),
            "--alpha" => out.alpha = Some(number("--alpha", &value("--alpha")?, Bound::Fraction)?),
            "--noise" => {
                out.noise = Some(number(
                    "--noise",
                    &value("--noise")?,
                    Bound::NonNegativeFraction,
                )?)
            }
            f if IGNORED_WITH_VALUE.contains(&f) => {
                value(f)?;
            }
            f if IGNORED_FLAGS.contains(&f) => {}
            f if f.starts_with('-') => out.unknown.push(arg.clone()),
            _ => out.filters.push(arg),
        }
    }
    if test_flag {
        out.bench = false;
    }
    // Environment variables fill what the flags left open.
    let from_env = |name: &str, bound: Bound| -> Result<Option<f64>, String> {
        env(name).map(|v| number(name, &v, bound)).transpose()
    };
    if out.ci.is_none() {
        out.ci = from_env("PILOT_CI", Bound::Fraction)?;
    }
    if out.confidence.is_none() {
        out.confidence = from_env("PILOT_CONFIDENCE", Bound::Fraction)?;
    }
    if out.max_time.is_none() {
        out.max_time = from_env("PILOT_MAX_TIME", Bound::Positive)?;
    }
    if out.min_time.is_none() {
        out.min_time = from_env("PILOT_MIN_TIME", Bound::NonNegative)?;
    }
    if out.json.is_none() {
        out.json = env("PILOT_JSON").filter(|v| !v.is_empty());
    }
    if out.save_baseline.is_none() {
        out.save_baseline = env("PILOT_SAVE_BASELINE")
            .filter(|v| !v.is_empty())
            .map(|v| name_value("PILOT_SAVE_BASELINE", v))
            .transpose()?;
    }
    if out.baseline.is_none() {
        out.baseline = env("PILOT_BASELINE")
            .filter(|v| !v.is_empty())
            .map(|v| name_value("PILOT_BASELINE", v))
            .transpose()?;
    }
    if out.alpha.is_none() {
        out.alpha = from_env("PILOT_ALPHA", Bound::Fraction)?;
    }
    if out.noise.is_none() {
        out.noise = from_env("PILOT_NOISE", Bound::NonNegativeFraction)?;
    }
    out.no_table = env("PILOT_NO_TABLE").is_some_and(|v| truthy(&v));
    if out.processes.is_none() {
        out.processes = env("PILOT_PROCESSES")
            .map(|v| count("PILOT_PROCESSES", &v))
            .transpose()?;
    }
    out.child = env("PILOT_CHILD").is_some_and(|v| truthy(&v));
    out.quick |= env("PILOT_QUICK").is_some_and(|v| truthy(&v));
    out.fail_fast |= env("PILOT_FAIL_FAST").is_some_and(|v| truthy(&v));
    out.resume |= env("PILOT_RESUME").is_some_and(|v| truthy(&v));
    out.sequential |= env("PILOT_SEQUENTIAL").is_some_and(|v| truthy(&v));
    Ok(out)
}

fn truthy(v: &str) -> bool {
    !matches!(v.trim(), "" | "0" | "false" | "no" | "off")
}

#[derive(Clone, Copy)]
enum Bound {
    /// Strictly between 0 and 1.
    Fraction,
    /// At least 0, below 1.
    NonNegativeFraction,
    Positive,
    NonNegative,
}

fn number(name: &str, raw: &str, bound: Bound) -> Result<f64, String> {
    let x: f64 = raw
        .trim()
        .parse()
        .map_err(|_| format!("{name}: `{raw}` is not a number"))?;
    let ok = match bound {
        Bound::Fraction => x > 0.0 && x < 1.0,
        Bound::NonNegativeFraction => (0.0..1.0).contains(&x),
        Bound::Positive => x > 0.0 && x.is_finite(),
        Bound::NonNegative => x >= 0.0 && x.is_finite(),
    };
    if ok {
        Ok(x)
    } else {
        let expected = match bound {
            Bound::Fraction => "strictly between 0 and 1",
            Bound::NonNegativeFraction => "at least 0 and below 1 (0.01 is 1%)",
            Bound::Positive => "a positive number of seconds",
            Bound::NonNegative => "a number of seconds, 0 or more",
        };
        Err(format!("{name}: `{raw}` must be {expected}"))
    }
}

fn count(name: &str, raw: &str) -> Result<usize, String> {
    match raw.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("{name}: `{raw}` must be a whole number, 1 or more")),
    }
}

/// A baseline name becomes a folder name: letters, digits, `-`, `_` and `.` only.
fn name_value(flag: &str, v: String) -> Result<String, String> {
    let ok = !v.is_empty()
        && !v.starts_with('.')
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(v)
    } else {
        Err(format!(
            "{flag}: `{v}` is not a valid name (use letters, digits, `-`, `_`, `.`)"
        ))
    }
}

impl Args {
    /// Whether a bench called `name`, ignored or not, is selected by the filters.
    pub(crate) fn selects(&self, name: &str, ignored: bool) -> bool {
        let matches = |f: &String| {
            if self.exact {
                name == f
            } else {
                name.contains(f.as_str())
            }
        };
        if !self.filters.is_empty() && !self.filters.iter().any(matches) {
            return false;
        }
        if self.skip.iter().any(|s| {
            if self.exact {
                name == s
            } else {
                name.contains(s.as_str())
            }
        }) {
            return false;
        }
        if self.ignored {
            ignored
        } else {
            self.include_ignored || !ignored
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Result<Args, String> {
        parse(a.iter().map(OsString::from), |_| None)
    }

    #[test]
    fn cargo_bench_and_cargo_test_modes() {
        assert!(args(&["--bench"]).unwrap().bench);
        assert!(!args(&[]).unwrap().bench);
        assert!(!args(&["--bench", "--test"]).unwrap().bench);
    }

    #[test]
    fn nextest_listing_and_exact_runs() {
        let a = args(&["--list", "--format", "terse", "--ignored"]).unwrap();
        assert!(a.list && a.terse && a.ignored);
        let a = args(&["sort", "--exact", "--nocapture"]).unwrap();
        assert!(a.selects("sort", false));
        assert!(!a.selects("sort_10k", false));
    }

    #[test]
    fn filters_skips_and_ignored() {
        let a = args(&["sort", "--skip", "slow"]).unwrap();
        assert!(a.selects("sort_10k", false));
        assert!(!a.selects("sort_slow", false));
        assert!(!a.selects("hash", false));
        assert!(
            !a.selects("sort_10k", true),
            "ignored benches need --ignored"
        );
        assert!(args(&["--include-ignored"]).unwrap().selects("x", true));
        assert!(!args(&["--ignored"]).unwrap().selects("x", false));
    }

    #[test]
    fn unknown_libtest_flags_are_accepted() {
        let a = args(&[
            "--color",
            "never",
            "--test-threads=1",
            "--show-output",
            "--frob",
        ])
        .unwrap();
        assert!(a.filters.is_empty());
        assert_eq!(a.unknown, vec!["--frob"]);
    }

    #[test]
    fn pilot_flags_and_their_errors_name_the_flag() {
        let a = args(&["--ci", "0.02", "--max-time=3", "--json", "out.json"]).unwrap();
        assert_eq!(
            (a.ci, a.max_time, a.json.as_deref()),
            (Some(0.02), Some(3.0), Some("out.json"))
        );
        assert_eq!(
            args(&["--ci", "2"]).unwrap_err(),
            "--ci: `2` must be strictly between 0 and 1"
        );
        assert_eq!(
            args(&["--max-time"]).unwrap_err(),
            "--max-time needs a value"
        );
        assert!(
            args(&["--save-baseline", "../x"])
                .unwrap_err()
                .contains("--save-baseline")
        );
    }

    #[test]
    fn flags_win_over_environment() {
        let env = |k: &str| match k {
            "PILOT_CI" => Some("0.05".to_string()),
            "PILOT_MAX_TIME" => Some("4".to_string()),
            "PILOT_QUICK" => Some("1".to_string()),
            _ => None,
        };
        let a = parse(["--ci", "0.02"].map(OsString::from), env).unwrap();
        assert_eq!((a.ci, a.max_time, a.quick), (Some(0.02), Some(4.0), true));
        let bad = parse(Vec::<OsString>::new(), |k| {
            (k == "PILOT_CONFIDENCE").then(|| "x".into())
        });
        assert_eq!(bad.unwrap_err(), "PILOT_CONFIDENCE: `x` is not a number");
    }

    #[test]
    fn baseline_flags() {
        let a = args(&["--baseline", "main", "--noise", "0.02", "--alpha=0.05"]).unwrap();
        assert_eq!(
            (a.baseline.as_deref(), a.noise, a.alpha),
            (Some("main"), Some(0.02), Some(0.05))
        );
        assert_eq!(
            args(&["--noise", "5"]).unwrap_err(),
            "--noise: `5` must be at least 0 and below 1 (0.01 is 1%)"
        );
        let env = parse(Vec::<OsString>::new(), |k| {
            (k == "PILOT_BASELINE").then(|| "pr-12".into())
        });
        assert_eq!(env.unwrap().baseline.as_deref(), Some("pr-12"));
        assert!(args(&["--baseline", ".hidden"]).is_err());
    }

    #[test]
    fn process_count_and_child_mode() {
        assert_eq!(args(&["--processes", "1"]).unwrap().processes, Some(1));
        assert_eq!(
            args(&["--processes", "0"]).unwrap_err(),
            "--processes: `0` must be a whole number, 1 or more"
        );
        let child = parse(Vec::<OsString>::new(), |k| {
            (k == "PILOT_CHILD").then(|| "1".into())
        });
        assert!(child.unwrap().child);
        assert!(!args(&[]).unwrap().child);
    }
}
