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

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::time::Duration;

use pilot_settings::{SETTINGS, Setting, by_flag};

use crate::settings::{
    BaselineName, Cap, Confidence, Count, Fraction, MinTime, Noise, Switch, UsageError, parse_as,
};

/// What the binary is asked to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Test mode: one tiny round of each bench (`cargo test --benches`, nextest).
    #[default]
    Test,
    /// Benchmark mode (`--bench`): an adaptive session per bench.
    Bench,
    /// One of the process executions pilot starts to measure one bench (`PILOT_CHILD`): one
    /// session, quietly, its message to its parent written to `--json`.
    Child,
    /// `--list`: the benches, one `NAME: benchmark` line each, then a count.
    List,
    /// `--list --format terse`: the lines only.
    ListTerse,
    /// `--help`: the usage text.
    Help,
}

/// How a bench binary reads its positional filters and `--skip` values: the syntax of the front
/// end a bench is written with, which it passes to `runner::main_with` or
/// `runner::driven::start_with` (`runner::Selection` compiles the filters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FilterSyntax {
    /// libtest's: a bench is selected when its name contains a filter (`#[pilot::bench]`).
    #[default]
    Substring,
    /// criterion's and divan's: each filter is a regular expression in the `regex` crate's
    /// syntax, and selects the benches whose names it matches anywhere (`^` and `$` anchor
    /// it). Needs pilot-engine's `regex` feature, which the front ends that ask for it enable.
    Regex,
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
        match pilot_settings::choice(s, pilot_settings::OUTPUT_FORMATS)? {
            "bencher" => Ok(OutputFormat::Bencher),
            _ => Ok(OutputFormat::Pretty),
        }
    }
}

/// What the binary was asked to do, and how.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Args {
    /// What the binary is asked to do.
    pub mode: Mode,
    /// Positional filters: a bench runs when it matches one (or equals one, `--exact`), read in
    /// its front end's syntax (`runner::FilterSyntax`: libtest's substrings for
    /// `#[pilot::bench]`, regular expressions for pilot-criterion).
    pub filters: Vec<String>,
    /// `--exact`: a filter matches a whole name.
    pub exact: bool,
    /// `--skip`: benches that match one of these are left out (read as the filters are).
    pub skip: Vec<String>,
    /// Run only the ignored benches.
    pub ignored: bool,
    /// Run ignored benches too.
    pub include_ignored: bool,
    /// Stop at the first failed bench.
    pub(crate) fail_fast: bool,
    /// Continue an interrupted run: benches it finished are not measured again.
    pub(crate) resume: bool,
    /// Target relative CI half-width.
    pub(crate) ci: Option<f64>,
    /// Confidence level of the intervals.
    pub(crate) confidence: Option<f64>,
    /// What the time PI estimates (`--estimator`); `None` takes the attribute's or the
    /// trimmed mean.
    pub(crate) estimator: Option<crate::settings::Estimator>,
    /// Time cap.
    pub(crate) max_time: Option<Duration>,
    /// Least time per bench.
    pub(crate) min_time: Option<Duration>,
    /// `--quick`: half-width 5%, cap 2 s (explicit values still win).
    pub(crate) quick: bool,
    /// Write the whole run as JSON to this file.
    pub(crate) json: Option<String>,
    /// Save the run as this named baseline.
    pub(crate) save_baseline: Option<String>,
    /// Compare the run with this saved baseline.
    pub(crate) baseline: Option<String>,
    /// Significance level of baseline comparisons (`--alpha`, default 0.01).
    pub(crate) alpha: Option<f64>,
    /// Noise threshold of baseline comparisons (`--noise`, relative, default 0.01).
    pub(crate) noise: Option<f64>,
    /// How baseline comparisons adjust each bench's p for the benches tested
    /// (`--correction`); `None` is Holm's.
    pub(crate) correction: Option<crate::settings::SuiteRule>,
    /// Leave the end-of-run table out (`PILOT_NO_TABLE`): `cargo pilot bench` prints one table
    /// across all bench targets instead.
    pub(crate) no_table: bool,
    /// The least process executions per bench (`--processes N`); more run while the combined
    /// interval is too wide and time remains. `None` is one, in this process.
    pub(crate) processes: Option<usize>,
    /// `--sequential`: measure a group's members one after another, not interleaved.
    pub(crate) sequential: bool,
    /// `--compare-groups`: measure the members of each group announced at run time
    /// (pilot-criterion's benchmark groups) interleaved by processes, and rank them.
    pub(crate) compare_groups: bool,
    /// `--compare-across PATTERN`: rank benches announced at run time whose names are the same
    /// once the pattern's matches (a regular expression) are set aside, interleaved by
    /// processes (`runner::Pairing`).
    pub(crate) compare_across: Option<String>,
    /// `--no-sampling`: do not sample the machine's state during sessions.
    pub(crate) no_sampling: bool,
    /// `--no-overhead-check`: do not measure the full form's instrumentation overhead.
    pub(crate) no_overhead_check: bool,
    /// `--timer`: what times units (`Instant` unless `tsc` is asked for).
    pub(crate) timer: crate::settings::TimerChoice,
    /// `--instructions`: also count each bench's instructions per unit under callgrind.
    pub(crate) instructions: bool,
    /// `--cache-sim`: with `--instructions`, callgrind's cache simulation and estimated cycles.
    pub(crate) cache_sim: bool,
    /// In a process started under callgrind to count one bench (`PILOT_CHILD` with
    /// `PILOT_COUNT`): what to run.
    pub(crate) count: Option<crate::counts::CountPlan>,
    /// `--output-format`: pilot's output alone, or with libtest's bench lines.
    pub(crate) output_format: OutputFormat,
    /// `--color`: when to colour the output.
    pub(crate) color: crate::fmt::ColorChoice,
    /// `--verbose`, or `--format wide`: the end table's every column, and with `--verbose`
    /// every bench's warnings in full under its line.
    pub(crate) verbose: bool,
    /// `--format wide` (or `--verbose`): the end table's every column.
    pub(crate) wide: bool,
    /// Every setting of the table that was given, by name: its raw value as checked against
    /// its kind (`1` for a switch that is on). The typed fields above are read from it.
    pub(crate) settings: BTreeMap<&'static str, String>,
}

/// libtest flags that take a value, which pilot ignores with it.
const IGNORED_WITH_VALUE: &[&str] = &[
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

/// libtest's output formats, and pilot's `wide`: `terse` lists names only, `wide` gives the
/// end table every column; pilot prints the others alike.
const FORMATS: &[&str] = &["pretty", "terse", "json", "junit", "wide"];

/// The usage text of `--help`: the selection flags (filters read in `syntax`), then every
/// setting of `table`.
pub(crate) fn help(table: &[Setting], syntax: FilterSyntax) -> String {
    let (filter, skip) = match syntax {
        FilterSyntax::Substring => (
            "run benches whose names contain one of these (equal with --exact)",
            "leave out benches whose names contain FILTER (repeatable)",
        ),
        FilterSyntax::Regex => (
            "run benches whose names match one of these regular expressions, as\n\
             \x20                         criterion reads them (equal with --exact)",
            "leave out benches whose names match FILTER (repeatable)",
        ),
    };
    format!(
        "\
A pilot bench binary: measures its #[pilot::bench] functions until each interval is as narrow as
asked. Run it through `cargo bench` (benchmark mode), `cargo test --benches` (test mode: one tiny
round of each bench) or `cargo pilot bench`.

Usage: BINARY [OPTIONS] [FILTER]...

  FILTER                  {filter}
  --bench                 benchmark mode (cargo bench passes it); without it, test mode
  --exact                 FILTER matches whole names
  --skip FILTER           {skip}
  --list [--format terse] list the benches (terse: names only)
  --format wide           the end table with every column (samples, q, warm-up, cut, outliers,
                          rounds, processes, wall time)
  --ignored               only the ignored benches; --include-ignored: those too
{}  -h, --help              this text

Accepted and ignored, for tools that drive test harnesses: --test (test mode), --nocapture,
--show-output, --test-threads N, --format pretty|terse|json|junit, -q, --quiet, --logfile,
--report-time, --ensure-time, --shuffle, --shuffle-seed, -Z, --exclude-should-panic.

Exit codes: 0 ok, 1 a bench failed or an error, 2 usage, 3 regression, 130 interrupted.
",
        pilot_settings::help_lines(table)
    )
}

/// Reads the arguments (without the program name) and the environment (`env(name)` returns a
/// variable's value). Errors name the flag or variable at fault.
pub fn parse(
    args: impl IntoIterator<Item = OsString>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Args, UsageError> {
    parse_with(SETTINGS, args, env)
}

/// [`parse`] with the settings of `table`: a setting's flag and variable, checked against its
/// kind, land in [`Args::settings`] (and in the typed field of a setting pilot knows).
pub(crate) fn parse_with(
    table: &'static [Setting],
    args: impl IntoIterator<Item = OsString>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Args, UsageError> {
    let mut out = Args::default();
    let mut flags = Flags::default();
    // Each given setting's source (its flag or variable, for errors) and raw value.
    let mut given: BTreeMap<&'static str, (String, String)> = BTreeMap::new();
    let mut it = args.into_iter().map(|a| a.to_string_lossy().into_owned());
    while let Some(arg) = it.next() {
        // `--flag=value` is the same as `--flag value`.
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = |name: &str| -> Result<String, UsageError> {
            inline
                .clone()
                .or_else(|| it.next())
                .ok_or_else(|| UsageError::NeedsValue {
                    flag: name.to_string(),
                })
        };
        if let Some(setting) = by_flag(table, &flag) {
            let raw = if setting.kind.takes_value() {
                value(setting.flag)?
            } else {
                "1".to_string()
            };
            crate::settings::check(setting.kind, &raw).map_err(|problem| UsageError::Invalid {
                given_as: flag.clone(),
                problem,
            })?;
            given.insert(setting.name, (flag, raw));
            continue;
        }
        flags.take(&mut out, &flag, &arg, &mut value)?;
    }
    from_env(table, &mut given, &env)?;
    check_together(|name| given.get(name).map(|(source, _)| source.clone()))?;
    out.no_table = switch(&env, "PILOT_NO_TABLE")?;
    out.fill(&given)?;
    out.settings = given.into_iter().map(|(k, (_, v))| (k, v)).collect();
    out.mode = flags.mode(&env)?;
    if out.mode == Mode::Child {
        let var = crate::counts::PLAN_VARIABLE;
        out.count = env(var)
            .filter(|v| !v.trim().is_empty())
            .map(|v| parse_as(var, &v))
            .transpose()?;
    }
    out.wide |= flags.format.as_deref() == Some("wide");
    if let (Some(min), Some(max)) = (out.min_time, out.max_time)
        && min > max
    {
        return Err(UsageError::MinAboveMax { min, max });
    }
    Ok(out)
}

/// Settings that mean nothing without another, refused rather than ignored: `--cache-sim`
/// is a setting of the counting processes that only `--instructions` starts. `source(name)`
/// is the flag or variable that gave setting `name`, `None` when it was not given; the error
/// names both. The bench binary checks its own arguments with it, and `cargo pilot bench`
/// those it is given, before anything is built.
pub fn check_together(source: impl Fn(&str) -> Option<String>) -> Result<(), UsageError> {
    if let (Some(cache_sim), None) = (source("cache_sim"), source("instructions")) {
        return Err(UsageError::CacheSimAlone {
            given_as: cache_sim,
        });
    }
    Ok(())
}

/// The flags that decide the mode, as given.
#[derive(Default)]
struct Flags {
    bench: bool,
    test: bool,
    list: bool,
    format: Option<String>,
    help: bool,
}

impl Flags {
    /// Takes one flag (or a filter) into `out`; `value` gives its value.
    fn take(
        &mut self,
        out: &mut Args,
        flag: &str,
        arg: &str,
        value: &mut dyn FnMut(&str) -> Result<String, UsageError>,
    ) -> Result<(), UsageError> {
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
            f if IGNORED_WITH_VALUE.contains(&f) => {
                v(f)?;
            }
            f if IGNORED_FLAGS.contains(&f) => {}
            f if f.starts_with('-') && f.len() > 1 => {
                return Err(UsageError::UnknownFlag {
                    arg: arg.to_string(),
                });
            }
            _ => out.filters.push(arg.to_string()),
        }
        Ok(())
    }

    /// The mode the flags (and `PILOT_CHILD`) ask for.
    fn mode(&self, env: &impl Fn(&str) -> Option<String>) -> Result<Mode, UsageError> {
        if let Some(f) = self.format.as_deref().filter(|f| !FORMATS.contains(f)) {
            return Err(UsageError::Format {
                given: f.to_string(),
                known: FORMATS.join(", "),
            });
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

/// A switch variable: off when unset.
fn switch(env: &impl Fn(&str) -> Option<String>, name: &str) -> Result<bool, UsageError> {
    env(name)
        .map(|v| parse_as::<Switch>(name, &v).map(|s| s.0))
        .transpose()
        .map(|s| s.unwrap_or(false))
}

/// Environment variables fill what the flags left open: a variable that is unset or blank
/// gives nothing, and a switch's variable that says off gives nothing either.
fn from_env(
    table: &[Setting],
    given: &mut BTreeMap<&'static str, (String, String)>,
    env: &impl Fn(&str) -> Option<String>,
) -> Result<(), UsageError> {
    let invalid = |setting: &Setting, problem| UsageError::Invalid {
        given_as: setting.env.to_string(),
        problem,
    };
    for setting in table {
        if given.contains_key(setting.name) {
            continue;
        }
        let Some(raw) = env(setting.env).filter(|v| !v.trim().is_empty()) else {
            continue;
        };
        crate::settings::check(setting.kind, &raw).map_err(|e| invalid(setting, e))?;
        if setting.kind.takes_value()
            || pilot_settings::switch(&raw).map_err(|e| invalid(setting, e))?
        {
            given.insert(setting.name, (setting.env.to_string(), raw));
        }
    }
    Ok(())
}

impl Args {
    /// The typed fields of the settings pilot knows, from what was given (the error names the
    /// flag or variable).
    fn fill(&mut self, given: &BTreeMap<&'static str, (String, String)>) -> Result<(), UsageError> {
        fn get<T: std::str::FromStr<Err = String>>(
            given: &BTreeMap<&'static str, (String, String)>,
            name: &str,
        ) -> Result<Option<T>, UsageError> {
            given
                .get(name)
                .map(|(source, raw)| parse_as(source, raw))
                .transpose()
        }
        let on = |name: &str| given.contains_key(name);
        self.ci = get::<Fraction>(given, "ci")?.map(|x| x.0);
        self.confidence = get::<Confidence>(given, "confidence")?.map(|x| x.0);
        self.estimator = get(given, "estimator")?;
        self.max_time = get::<Cap>(given, "max_time")?.map(|x| x.0);
        self.min_time = get::<MinTime>(given, "min_time")?.map(|x| x.0);
        self.processes = get::<Count>(given, "processes")?.map(|x| x.0);
        self.save_baseline = get::<BaselineName>(given, "save_baseline")?.map(|x| x.0);
        self.baseline = get::<BaselineName>(given, "baseline")?.map(|x| x.0);
        self.alpha = get::<Fraction>(given, "alpha")?.map(|x| x.0);
        self.noise = get::<Noise>(given, "noise")?.map(|x| x.0);
        self.correction = get(given, "correction")?;
        self.json = given.get("json").map(|(_, raw)| raw.clone());
        self.compare_across = given.get("compare_across").map(|(_, raw)| raw.clone());
        self.output_format = get(given, "output_format")?.unwrap_or_default();
        self.timer = get(given, "timer")?.unwrap_or_default();
        self.color = get(given, "color")?.unwrap_or_default();
        self.verbose = on("verbose");
        self.wide = self.verbose;
        self.quick = on("quick");
        self.resume = on("resume");
        self.fail_fast = on("fail_fast");
        self.sequential = on("sequential");
        self.compare_groups = on("compare_groups");
        self.no_sampling = on("no_sampling");
        self.no_overhead_check = on("no_overhead_check");
        self.instructions = on("instructions");
        self.cache_sim = on("cache_sim");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The arguments `a` parsed, or the message of the usage error.
    fn args(a: &[&str]) -> Result<Args, String> {
        parse(a.iter().map(OsString::from), |_| None).map_err(|e| e.to_string())
    }

    fn with_env(a: &[&str], vars: &[(&str, &str)]) -> Result<Args, String> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        parse(a.iter().map(OsString::from), move |k| {
            vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
        })
        .map_err(|e| e.to_string())
    }

    #[test]
    fn each_mistake_is_its_own_variant() {
        let parsed = |a: &[&str]| parse(a.iter().map(OsString::from), |_| None).unwrap_err();
        assert_eq!(
            parsed(&["--min-time", "5", "--max-time", "2"]),
            UsageError::MinAboveMax {
                min: Duration::from_secs(5),
                max: Duration::from_secs(2)
            }
        );
        assert!(
            matches!(parsed(&["--max-time"]), UsageError::NeedsValue { flag } if flag == "--max-time")
        );
        assert!(matches!(
            parsed(&["--max-tme"]),
            UsageError::UnknownFlag { .. }
        ));
        assert!(
            matches!(parsed(&["--ci", "2"]), UsageError::Invalid { given_as, .. } if given_as == "--ci")
        );
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
            "--output-format: `xml` must be `pretty` or `bencher`"
        );
        assert_eq!(
            with_env(&[], &[("PILOT_OUTPUT_FORMAT", "json")]).unwrap_err(),
            "PILOT_OUTPUT_FORMAT: `json` must be `pretty` or `bencher`"
        );
    }

    /// The table with one more setting, as a contributor would add it.
    fn with_knob() -> &'static [Setting] {
        let mut table = SETTINGS.to_vec();
        table.push(Setting {
            name: "example_knob",
            flag: "--example-knob",
            env: "PILOT_EXAMPLE_KNOB",
            kind: pilot_settings::Kind::Count,
            value_name: "N",
            default: "2",
            help: "a knob added to the table",
            attribute: None,
            scope: pilot_settings::Scope::Forwarded,
        });
        Box::leak(table.into_boxed_slice())
    }

    #[test]
    fn a_setting_added_to_the_table_is_a_flag_a_variable_and_a_help_line() {
        let table = with_knob();
        let parse = |a: &[&str], vars: &'static [(&'static str, &'static str)]| {
            parse_with(table, a.iter().map(OsString::from), move |k| {
                vars.iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            })
            .map_err(|e| e.to_string())
        };
        let a = parse(&["--bench", "--example-knob", "3"], &[]).unwrap();
        assert_eq!(a.settings["example_knob"], "3");
        let a = parse(&["--example-knob=4"], &[]).unwrap();
        assert_eq!(a.settings["example_knob"], "4");
        let a = parse(&[], &[("PILOT_EXAMPLE_KNOB", "5")]).unwrap();
        assert_eq!(a.settings["example_knob"], "5");
        let a = parse(&["--example-knob", "6"], &[("PILOT_EXAMPLE_KNOB", "5")]).unwrap();
        assert_eq!(
            a.settings["example_knob"], "6",
            "the flag wins over its variable"
        );
        assert_eq!(
            parse(&["--example-knob", "0"], &[]).unwrap_err(),
            "--example-knob: `0` must be a whole number, 1 or more"
        );
        assert_eq!(
            parse(&[], &[("PILOT_EXAMPLE_KNOB", "x")]).unwrap_err(),
            "PILOT_EXAMPLE_KNOB: `x` must be a whole number, 1 or more"
        );
        // Without the row, the flag is unknown.
        assert!(args(&["--example-knob", "3"]).is_err());
        let text = help(table, FilterSyntax::Substring);
        assert!(
            text.contains(
                "  --example-knob N        a knob added to the table (default 2) [PILOT_EXAMPLE_KNOB]\n"
            ),
            "{text}"
        );
        assert!(!help(SETTINGS, FilterSyntax::Substring).contains("--example-knob"));
    }

    #[test]
    fn every_setting_is_in_the_help_and_taken_from_its_flag_and_variable() {
        let text = help(SETTINGS, FilterSyntax::Substring);
        let regex = help(SETTINGS, FilterSyntax::Regex);
        assert!(
            regex.contains("match one of these regular expressions, as\n"),
            "{regex}"
        );
        for s in SETTINGS {
            assert!(text.contains(s.flag) && text.contains(s.env), "{}", s.name);
            let value = match s.kind {
                pilot_settings::Kind::Choice(words) => words[words.len() - 1],
                pilot_settings::Kind::BaselineName | pilot_settings::Kind::File => "main",
                pilot_settings::Kind::Count | pilot_settings::Kind::Seconds => "2",
                _ => "0.5",
            };
            // A setting that means nothing without another comes with it (`check_together`).
            let with: &[&str] = if s.name == "cache_sim" {
                &["--instructions"]
            } else {
                &[]
            };
            let given = if s.kind.takes_value() {
                vec![s.flag, value]
            } else {
                vec![s.flag]
            };
            let flag = args(&[&given[..], with].concat()).unwrap();
            let raw = if s.kind.takes_value() { value } else { "1" };
            assert_eq!(flag.settings[s.name], raw, "{}", s.name);
            let var = with_env(with, &[(s.env, raw)]).unwrap();
            assert_eq!(var.settings[s.name], raw, "{}", s.name);
            assert_eq!(
                flag, var,
                "{}: its flag and its variable say the same",
                s.name
            );
        }
    }

    #[test]
    fn nextest_listing_and_exact_runs() {
        let a = args(&["--list", "--format", "terse", "--ignored"]).unwrap();
        assert_eq!(a.mode, Mode::ListTerse);
        assert!(a.ignored);
        assert_eq!(args(&["--list"]).unwrap().mode, Mode::List);
        assert!(args(&["--format", "wide"]).unwrap().wide);
        let a = args(&["--verbose", "--color", "never"]).unwrap();
        assert!(a.wide && a.verbose);
        assert_eq!(a.color, crate::fmt::ColorChoice::Never);
        assert!(args(&["--color", "blue"]).unwrap_err().contains("--color"));
        let a = args(&["sort", "--exact", "--nocapture"]).unwrap();
        assert_eq!((a.filters, a.exact), (vec!["sort".to_string()], true));
        assert_eq!(
            args(&["--list", "--format", "xml"]).unwrap_err(),
            "--format: `xml` is not one of pretty, terse, json, junit, wide"
        );
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
    fn cache_sim_without_instructions_is_refused_naming_both() {
        let e = args(&["--bench", "--cache-sim"]).unwrap_err();
        assert!(e.starts_with("--cache-sim needs --instructions"), "{e}");
        let e = with_env(&["--bench"], &[("PILOT_CACHE_SIM", "1")]).unwrap_err();
        assert!(e.starts_with("PILOT_CACHE_SIM needs --instructions"), "{e}");
        let a = args(&["--bench", "--cache-sim", "--instructions"]).unwrap();
        assert!(a.cache_sim && a.instructions);
        let a = with_env(&["--cache-sim"], &[("PILOT_INSTRUCTIONS", "1")]).unwrap();
        assert!(a.cache_sim && a.instructions);
        // A variable that says off gives nothing, so it asks for no cache simulation.
        assert!(with_env(&[], &[("PILOT_CACHE_SIM", "off")]).is_ok());
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
