//! The bench binary's command line: libtest's, as `cargo bench`, `cargo test --benches` and
//! cargo-nextest call a test harness, with pilot's own flags beside it.
//!
//! `cargo bench -- ARGS` passes `ARGS --bench`: benchmark mode. Without `--bench`, or with
//! `--test`, the binary is in test mode: every bench runs one tiny round to show it works.
//! libtest flags pilot has no use for are accepted and ignored, so tools that drive test
//! harnesses work unchanged; any other flag is an error, so a misspelt one is not taken for a
//! filter. Every pilot flag can also be set by a `PILOT_*` environment variable: [`parse`] is
//! the one place where a flag wins over its variable, and `runner::config` the one place where
//! those win over `--quick`, the bench's attribute and the defaults. Values are parsed and
//! bounded by the types of [`settings`](crate::settings), as `cargo pilot` parses them.

use std::ffi::OsString;
use std::time::Duration;

use crate::settings::{
    BaselineName, Cap, Confidence, Count, Fraction, MinTime, Noise, Switch, parse_as,
};

/// What the binary is asked to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Mode {
    /// Test mode: one tiny round of each bench (`cargo test --benches`, nextest).
    #[default]
    Test,
    /// Benchmark mode (`--bench`): an adaptive session per bench.
    Bench,
    /// One of the process executions pilot starts to measure one bench (`PILOT_CHILD`): one
    /// session, quietly, its result document written to `--json`.
    Child,
    /// `--list`: the benches, one `NAME: benchmark` line each, then a count.
    List,
    /// `--list --format terse`: the lines only.
    ListTerse,
    /// `--help`: the usage text.
    Help,
}

/// How benchmark mode prints its results (`--output-format`, as criterion names it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum OutputFormat {
    /// pilot's lines and its end-of-run table.
    #[default]
    Pretty,
    /// The same, plus libtest's `test NAME ... bench: N ns/iter (+/- D)` line per bench, for
    /// tools that parse `cargo bench`'s output.
    Bencher,
}

impl std::str::FromStr for OutputFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "pretty" => Ok(OutputFormat::Pretty),
            "bencher" => Ok(OutputFormat::Bencher),
            _ => Err(format!("`{s}` is not one of pretty, bencher")),
        }
    }
}

/// What the binary was asked to do, and how.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Args {
    pub mode: Mode,
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
    /// What the time PI estimates (`--estimator`); `None` takes the attribute's or the
    /// trimmed mean.
    pub estimator: Option<crate::settings::Estimator>,
    /// Time cap.
    pub max_time: Option<Duration>,
    pub min_time: Option<Duration>,
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
    /// `--sequential`: measure a group's members one after another, not interleaved.
    pub sequential: bool,
    /// `--compare-groups`: measure the members of each group announced at run time
    /// (pilot-criterion's benchmark groups) interleaved by processes, and rank them.
    pub compare_groups: bool,
    /// `--no-sampling`: do not sample the machine's state during sessions.
    pub no_sampling: bool,
    /// `--no-overhead-check`: do not measure the full form's instrumentation overhead.
    pub no_overhead_check: bool,
    /// `--output-format`: pilot's output alone, or with libtest's bench lines.
    pub output_format: OutputFormat,
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
];

/// libtest's output formats: `terse` lists names only; pilot prints the others alike.
const FORMATS: &[&str] = &["pretty", "terse", "json", "junit"];

/// The usage text of `--help`.
pub(crate) const HELP: &str = "\
A pilot bench binary: measures its #[pilot::bench] functions until each interval is as narrow as
asked. Run it through `cargo bench` (benchmark mode), `cargo test --benches` (test mode: one tiny
round of each bench) or `cargo pilot bench`.

Usage: BINARY [OPTIONS] [FILTER]...

  FILTER                  run benches whose names contain one of these (equal with --exact)
  --bench                 benchmark mode (cargo bench passes it); without it, test mode
  --exact                 FILTER matches whole names
  --skip FILTER           leave out benches whose names contain FILTER (repeatable)
  --list [--format terse] list the benches (terse: names only)
  --ignored               only the ignored benches; --include-ignored: those too
  --ci X                  target half-width relative to the mean, 0 < X < 1 [PILOT_CI]
  --confidence X          confidence level, 0 < X < 1 (default 0.95) [PILOT_CONFIDENCE]
  --estimator trimmed|mean  what the time estimates: the code's cost, interrupted units left
                          out (default), or the mean of every unit [PILOT_ESTIMATOR]
  --max-time SECONDS      time cap per bench (default 10) [PILOT_MAX_TIME]
  --min-time SECONDS      least time per bench (default 0) [PILOT_MIN_TIME]
  --quick                 ±5% and a 2 s cap, unless set otherwise [PILOT_QUICK]
  --processes N           least process executions per bench (default 8 when the time cap
                          is at least 2 s, 3 from 1 s, else 1; 8 with a baseline flag)
                          [PILOT_PROCESSES]
  --sequential            measure a group's members one after another [PILOT_SEQUENTIAL]
  --compare-groups        criterion benchmark groups (pilot-criterion): run each group's
                          members interleaved, one process each in turn, and rank them
                          [PILOT_COMPARE_GROUPS]
  --save-baseline NAME    save the results as baseline NAME [PILOT_SAVE_BASELINE]
  --baseline NAME         compare with baseline NAME; exit 3 on a regression [PILOT_BASELINE]
  --alpha P               significance level of a verdict (default 0.01) [PILOT_ALPHA]
  --noise X               least change a verdict needs (default 0.01, 1%) [PILOT_NOISE]
  --json FILE             write the whole run as a pilot.run/1 document [PILOT_JSON]
  --resume                continue an interrupted run [PILOT_RESUME]
  --fail-fast             stop at the first failed bench [PILOT_FAIL_FAST]
  --no-sampling           do not sample the machine's state (CPU, steal, throttling, disks,
                          network) during sessions [PILOT_NO_SAMPLING]
  --no-overhead-check     do not measure what recording each unit costs (full form)
                          [PILOT_NO_OVERHEAD_CHECK]
  --output-format FORMAT  pretty (default), or bencher: also libtest's line per bench,
                          `test NAME ... bench: N ns/iter (+/- D)` [PILOT_OUTPUT_FORMAT]
  -h, --help              this text

Accepted and ignored, for tools that drive test harnesses: --test (test mode), --nocapture,
--show-output, --color WHEN, --test-threads N, --format FORMAT, -q, --quiet, --logfile,
--report-time, --ensure-time, --shuffle, --shuffle-seed, -Z, --exclude-should-panic.

Exit codes: 0 ok, 1 a bench failed or an error, 2 usage, 3 regression, 130 interrupted.
";

/// Reads the arguments (without the program name) and the environment (`env(name)` returns a
/// variable's value). Errors name the flag or variable at fault.
pub(crate) fn parse(
    args: impl IntoIterator<Item = OsString>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Args, String> {
    let mut out = Args::default();
    let mut flags = Flags::default();
    let mut it = args.into_iter().map(|a| a.to_string_lossy().into_owned());
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
        flags.take(&mut out, &flag, &arg, &mut value)?;
    }
    fill_from_env(&mut out, &env)?;
    out.output_format = match flags.output_format {
        Some(f) => f,
        None => env("PILOT_OUTPUT_FORMAT")
            .filter(|v| !v.trim().is_empty())
            .map(|v| output_format(("PILOT_OUTPUT_FORMAT".to_string(), v)))
            .transpose()?
            .unwrap_or_default(),
    };
    out.mode = flags.mode(&env)?;
    if let (Some(min), Some(max)) = (out.min_time, out.max_time) {
        if min > max {
            return Err(format!(
                "--min-time ({} s) is above --max-time ({} s)",
                min.as_secs_f64(),
                max.as_secs_f64()
            ));
        }
    }
    Ok(out)
}

/// The flags that decide the mode, as given.
#[derive(Default)]
struct Flags {
    bench: bool,
    test: bool,
    list: bool,
    format: Option<String>,
    help: bool,
    /// `--output-format`, when given (it wins over `PILOT_OUTPUT_FORMAT`).
    output_format: Option<OutputFormat>,
}

impl Flags {
    /// Takes one flag (or a filter) into `out`; `value` gives its value.
    fn take(
        &mut self,
        out: &mut Args,
        flag: &str,
        arg: &str,
        value: &mut dyn FnMut(&str) -> Result<String, String>,
    ) -> Result<(), String> {
        let mut v = |name: &str| value(name).map(|raw| (name.to_string(), raw));
        match flag {
            "--bench" => self.bench = true,
            "--test" => self.test = true,
            "--list" => self.list = true,
            "-h" | "--help" => self.help = true,
            "--format" => self.format = Some(v("--format")?.1),
            "--exact" => out.exact = true,
            "--skip" => out.skip.push(v("--skip")?.1),
            "--ignored" => out.ignored = true,
            "--include-ignored" => out.include_ignored = true,
            "--fail-fast" => out.fail_fast = true,
            "--resume" => out.resume = true,
            "--quick" => out.quick = true,
            "--sequential" => out.sequential = true,
            "--compare-groups" => out.compare_groups = true,
            "--no-sampling" => out.no_sampling = true,
            "--no-overhead-check" => out.no_overhead_check = true,
            "--json" => out.json = Some(v("--json")?.1),
            "--ci" => out.ci = Some(typed::<Fraction>(v("--ci")?)?.0),
            "--confidence" => {
                out.confidence = Some(typed::<Confidence>(v("--confidence")?)?.0);
            }
            "--estimator" => out.estimator = Some(typed(v("--estimator")?)?),
            "--max-time" => out.max_time = Some(typed::<Cap>(v("--max-time")?)?.0),
            "--min-time" => out.min_time = Some(typed::<MinTime>(v("--min-time")?)?.0),
            "--processes" => out.processes = Some(typed::<Count>(v("--processes")?)?.0),
            "--save-baseline" => {
                out.save_baseline = Some(typed::<BaselineName>(v("--save-baseline")?)?.0);
            }
            "--baseline" => out.baseline = Some(typed::<BaselineName>(v("--baseline")?)?.0),
            "--alpha" => out.alpha = Some(typed::<Fraction>(v("--alpha")?)?.0),
            "--noise" => out.noise = Some(typed::<Noise>(v("--noise")?)?.0),
            "--output-format" => self.output_format = Some(output_format(v("--output-format")?)?),
            f if IGNORED_WITH_VALUE.contains(&f) => {
                v(f)?;
            }
            f if IGNORED_FLAGS.contains(&f) => {}
            f if f.starts_with('-') && f.len() > 1 => {
                return Err(format!(
                    "unknown flag `{arg}` (see --help for pilot's flags and the libtest flags \
                     it accepts)"
                ));
            }
            _ => out.filters.push(arg.to_string()),
        }
        Ok(())
    }

    /// The mode the flags (and `PILOT_CHILD`) ask for.
    fn mode(&self, env: &impl Fn(&str) -> Option<String>) -> Result<Mode, String> {
        if let Some(f) = self.format.as_deref().filter(|f| !FORMATS.contains(f)) {
            return Err(format!(
                "--format: `{f}` is not one of {}",
                FORMATS.join(", ")
            ));
        }
        let child = switch(env, "PILOT_CHILD")?;
        Ok(if self.help {
            Mode::Help
        } else if self.list && self.format.as_deref() == Some("terse") {
            Mode::ListTerse
        } else if self.list {
            Mode::List
        } else if self.bench && !self.test && child {
            Mode::Child
        } else if self.bench && !self.test {
            Mode::Bench
        } else {
            Mode::Test
        })
    }
}

/// `--output-format`'s (or `PILOT_OUTPUT_FORMAT`'s) value, the error naming it.
fn output_format((name, raw): (String, String)) -> Result<OutputFormat, String> {
    raw.parse().map_err(|e| format!("{name}: {e}"))
}

/// `(name, raw)` as a `T`, the error naming the flag.
fn typed<T: std::str::FromStr<Err = String>>((name, raw): (String, String)) -> Result<T, String> {
    parse_as(&name, &raw)
}

/// A switch variable: off when unset.
fn switch(env: &impl Fn(&str) -> Option<String>, name: &str) -> Result<bool, String> {
    env(name)
        .map(|v| parse_as::<Switch>(name, &v).map(|s| s.0))
        .transpose()
        .map(|s| s.unwrap_or(false))
}

/// Environment variables fill what the flags left open.
fn fill_from_env(out: &mut Args, env: &impl Fn(&str) -> Option<String>) -> Result<(), String> {
    let var = |name: &str| env(name).filter(|v| !v.trim().is_empty());
    let get = |name: &str| var(name).map(|v| (name.to_string(), v));
    if out.ci.is_none() {
        out.ci = get("PILOT_CI")
            .map(typed::<Fraction>)
            .transpose()?
            .map(|x| x.0);
    }
    if out.confidence.is_none() {
        out.confidence = get("PILOT_CONFIDENCE")
            .map(typed::<Confidence>)
            .transpose()?
            .map(|x| x.0);
    }
    if out.estimator.is_none() {
        out.estimator = get("PILOT_ESTIMATOR").map(typed).transpose()?;
    }
    if out.max_time.is_none() {
        out.max_time = get("PILOT_MAX_TIME")
            .map(typed::<Cap>)
            .transpose()?
            .map(|x| x.0);
    }
    if out.min_time.is_none() {
        out.min_time = get("PILOT_MIN_TIME")
            .map(typed::<MinTime>)
            .transpose()?
            .map(|x| x.0);
    }
    if out.json.is_none() {
        out.json = var("PILOT_JSON");
    }
    if out.save_baseline.is_none() {
        out.save_baseline = get("PILOT_SAVE_BASELINE")
            .map(typed::<BaselineName>)
            .transpose()?
            .map(|x| x.0);
    }
    if out.baseline.is_none() {
        out.baseline = get("PILOT_BASELINE")
            .map(typed::<BaselineName>)
            .transpose()?
            .map(|x| x.0);
    }
    if out.alpha.is_none() {
        out.alpha = get("PILOT_ALPHA")
            .map(typed::<Fraction>)
            .transpose()?
            .map(|x| x.0);
    }
    if out.noise.is_none() {
        out.noise = get("PILOT_NOISE")
            .map(typed::<Noise>)
            .transpose()?
            .map(|x| x.0);
    }
    if out.processes.is_none() {
        out.processes = get("PILOT_PROCESSES")
            .map(typed::<Count>)
            .transpose()?
            .map(|x| x.0);
    }
    out.no_table = switch(env, "PILOT_NO_TABLE")?;
    out.quick |= switch(env, "PILOT_QUICK")?;
    out.fail_fast |= switch(env, "PILOT_FAIL_FAST")?;
    out.resume |= switch(env, "PILOT_RESUME")?;
    out.sequential |= switch(env, "PILOT_SEQUENTIAL")?;
    out.compare_groups |= switch(env, "PILOT_COMPARE_GROUPS")?;
    out.no_sampling |= switch(env, "PILOT_NO_SAMPLING")?;
    out.no_overhead_check |= switch(env, "PILOT_NO_OVERHEAD_CHECK")?;
    Ok(())
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
        if self.skip.iter().any(matches) {
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

    fn with_env(a: &[&str], vars: &[(&str, &str)]) -> Result<Args, String> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        parse(a.iter().map(OsString::from), move |k| {
            vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
        })
    }

    #[test]
    fn cargo_bench_and_cargo_test_modes() {
        assert_eq!(args(&["--bench"]).unwrap().mode, Mode::Bench);
        assert_eq!(args(&[]).unwrap().mode, Mode::Test);
        assert_eq!(args(&["--bench", "--test"]).unwrap().mode, Mode::Test);
        assert_eq!(args(&["--bench", "--help"]).unwrap().mode, Mode::Help);
        assert_eq!(args(&["-h"]).unwrap().mode, Mode::Help);
        let child = with_env(&["--bench"], &[("PILOT_CHILD", "1")]).unwrap();
        assert_eq!(child.mode, Mode::Child);
    }

    #[test]
    fn output_format_bencher_as_criterion_names_it() {
        assert_eq!(args(&[]).unwrap().output_format, OutputFormat::Pretty);
        let a = args(&["--bench", "--output-format", "bencher"]).unwrap();
        assert_eq!(a.output_format, OutputFormat::Bencher);
        let a = args(&["--output-format=bencher"]).unwrap();
        assert_eq!(a.output_format, OutputFormat::Bencher);
        let a = with_env(&[], &[("PILOT_OUTPUT_FORMAT", "bencher")]).unwrap();
        assert_eq!(a.output_format, OutputFormat::Bencher);
        let a = with_env(
            &["--output-format", "pretty"],
            &[("PILOT_OUTPUT_FORMAT", "bencher")],
        )
        .unwrap();
        assert_eq!(a.output_format, OutputFormat::Pretty);
        assert_eq!(
            args(&["--output-format", "xml"]).unwrap_err(),
            "--output-format: `xml` is not one of pretty, bencher"
        );
        assert_eq!(
            with_env(&[], &[("PILOT_OUTPUT_FORMAT", "json")]).unwrap_err(),
            "PILOT_OUTPUT_FORMAT: `json` is not one of pretty, bencher"
        );
    }

    #[test]
    fn nextest_listing_and_exact_runs() {
        let a = args(&["--list", "--format", "terse", "--ignored"]).unwrap();
        assert_eq!(a.mode, Mode::ListTerse);
        assert!(a.ignored);
        assert_eq!(args(&["--list"]).unwrap().mode, Mode::List);
        let a = args(&["sort", "--exact", "--nocapture"]).unwrap();
        assert!(a.selects("sort", false));
        assert!(!a.selects("sort_10k", false));
        assert_eq!(
            args(&["--list", "--format", "xml"]).unwrap_err(),
            "--format: `xml` is not one of pretty, terse, json, junit"
        );
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
    fn libtest_flags_are_accepted_and_misspelt_flags_are_not() {
        let a = args(&["--color", "never", "--test-threads=1", "--show-output"]).unwrap();
        assert!(a.filters.is_empty());
        let e = args(&["--max-tme", "0.5"]).unwrap_err();
        assert!(e.starts_with("unknown flag `--max-tme`"), "{e}");
    }

    #[test]
    fn pilot_flags_and_their_errors_name_the_flag() {
        let a = args(&["--ci", "0.02", "--max-time=3", "--json", "out.json"]).unwrap();
        assert_eq!(
            (a.ci, a.max_time, a.json.as_deref()),
            (Some(0.02), Some(Duration::from_secs(3)), Some("out.json"))
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
        for huge in ["1e30", "1e99"] {
            let e = args(&["--max-time", huge]).unwrap_err();
            assert!(e.starts_with("--max-time: "), "{e}");
            let e = with_env(&[], &[("PILOT_MAX_TIME", huge)]).unwrap_err();
            assert!(e.starts_with("PILOT_MAX_TIME: "), "{e}");
        }
        let e = args(&["--confidence", "0.9999999999999999"]).unwrap_err();
        assert!(e.contains("too close to 1"), "{e}");
        assert_eq!(
            args(&["--min-time", "5", "--max-time", "2"]).unwrap_err(),
            "--min-time (5 s) is above --max-time (2 s)"
        );
    }

    #[test]
    fn flags_win_over_environment() {
        let env = [
            ("PILOT_CI", "0.05"),
            ("PILOT_MAX_TIME", "4"),
            ("PILOT_QUICK", "1"),
        ];
        let a = with_env(&["--ci", "0.02"], &env).unwrap();
        assert_eq!(
            (a.ci, a.max_time, a.quick),
            (Some(0.02), Some(Duration::from_secs(4)), true)
        );
        let bad = with_env(&[], &[("PILOT_CONFIDENCE", "x")]);
        assert_eq!(bad.unwrap_err(), "PILOT_CONFIDENCE: `x` is not a number");
        let bad = with_env(&[], &[("PILOT_QUICK", "banana")]);
        assert!(
            bad.unwrap_err()
                .starts_with("PILOT_QUICK: `banana` is not on or off")
        );
        assert!(!with_env(&[], &[("PILOT_QUICK", "off")]).unwrap().quick);
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
        let env = with_env(&[], &[("PILOT_BASELINE", "pr-12")]);
        assert_eq!(env.unwrap().baseline.as_deref(), Some("pr-12"));
        assert!(args(&["--baseline", ".hidden"]).is_err());
    }

    #[test]
    fn process_count() {
        assert_eq!(args(&["--processes", "1"]).unwrap().processes, Some(1));
        assert_eq!(
            args(&["--processes", "0"]).unwrap_err(),
            "--processes: `0` must be a whole number, 1 or more"
        );
    }
}
