//! pilot's settings, defined once: each setting's name, flag, `PILOT_*` variable, attribute key,
//! kind (its type and bounds), default and one line of help, in [`SETTINGS`].
//!
//! Everything that takes a setting reads it from this table: the bench binary's parser, its
//! environment variables and its `--help` (`pilot-engine`'s `cli`), `cargo pilot bench`'s flags
//! and what it forwards to each bench binary (`cargo-pilot`), the checks of
//! `#[pilot::bench(…)]`'s keys (`pilot-macros`), and the table of flags in the README
//! ([`markdown`]). A row added here appears in all of them.
//!
//! The crate has no dependencies: `pilot-macros` uses it at compile time, and a proc-macro's
//! dependencies are built for the host in every user's build.
#![deny(missing_docs)]

/// The longest time pilot accepts, in seconds (about 116 days): longer is a typo, and a cap far
/// beyond it cannot even be added to the clock.
pub const MAX_SECONDS: f64 = 1e7;

/// The estimators `--estimator` names: the trimmed mean of subsession means (the default), or
/// the mean of every unit.
pub const ESTIMATORS: &[&str] = &["trimmed", "mean"];

/// The output formats `--output-format` names.
pub const OUTPUT_FORMATS: &[&str] = &["pretty", "bencher"];

/// A setting's type and bounds: what [`Kind::check`] accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A number strictly between 0 and 1 (a relative half-width, a significance level).
    Fraction,
    /// A noise threshold: at least 0 and below 1.
    Noise,
    /// A confidence level: strictly between 0 and 1 (the engine also asks that its interval's
    /// quantile be finite).
    Confidence,
    /// Seconds, above 0 and at most [`MAX_SECONDS`].
    Seconds,
    /// Seconds, 0 or more and at most [`MAX_SECONDS`].
    SecondsOrZero,
    /// A whole number, 1 or more.
    Count,
    /// A baseline's name, which becomes a folder name: 1 to 64 of `A-Z a-z 0-9 - _ .`, not
    /// starting with `.`.
    BaselineName,
    /// One of these words.
    Choice(&'static [&'static str]),
    /// A path to a file.
    File,
    /// On or off: a bare flag, or a variable's `1`, `true`, `yes`, `on` / `0`, `false`, `no`,
    /// `off` (empty is off).
    Switch,
}

/// Who takes a setting besides the bench binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// `cargo pilot bench` takes the flag too and passes it on to every bench binary it runs.
    Forwarded,
    /// `cargo pilot bench` takes the flag and acts on it itself (baselines across targets, its
    /// own run document, resuming): not passed on as given.
    CargoPilot,
    /// Only the bench binary takes it.
    Binary,
}

/// `#[pilot::bench(…)]`'s key for a setting: what the compile error says about a bad value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attribute {
    /// What the value is, after "`key` is": `the time cap in seconds`.
    pub what: &'static str,
    /// A valid use, quoted in the error: `` `max_time = 5` or `max_time = 2.5` ``.
    pub example: &'static str,
}

/// One setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setting {
    /// Its name, in `snake_case`: the attribute's key where there is one.
    pub name: &'static str,
    /// The flag of the bench binary and of `cargo pilot bench`: `--max-time`.
    pub flag: &'static str,
    /// The environment variable: `PILOT_MAX_TIME`. A flag wins over its variable.
    pub env: &'static str,
    /// The value's type and bounds.
    pub kind: Kind,
    /// The value's name in help texts (`SECONDS`); empty for a switch.
    pub value_name: &'static str,
    /// The default as help texts state it; empty when there is none to state.
    pub default: &'static str,
    /// One line of help.
    pub help: &'static str,
    /// The attribute key, when `#[pilot::bench(…)]` takes the setting.
    pub attribute: Option<Attribute>,
    /// Who takes it besides the bench binary.
    pub scope: Scope,
}

/// Every setting, in the order help texts list them.
pub const SETTINGS: &[Setting] = &[
    Setting {
        name: "ci",
        flag: "--ci",
        env: "PILOT_CI",
        kind: Kind::Fraction,
        value_name: "X",
        default: "0.01",
        help: "target half-width relative to the mean, 0 < X < 1",
        attribute: Some(Attribute {
            what: "the target relative half-width of the confidence interval",
            example: "`ci = 0.01` for ±1%",
        }),
        scope: Scope::Forwarded,
    },
    Setting {
        name: "confidence",
        flag: "--confidence",
        env: "PILOT_CONFIDENCE",
        kind: Kind::Confidence,
        value_name: "X",
        default: "0.95",
        help: "confidence level, 0 < X < 1",
        attribute: Some(Attribute {
            what: "the confidence level",
            example: "`confidence = 0.99`",
        }),
        scope: Scope::Forwarded,
    },
    Setting {
        name: "estimator",
        flag: "--estimator",
        env: "PILOT_ESTIMATOR",
        kind: Kind::Choice(ESTIMATORS),
        value_name: "trimmed|mean",
        default: "trimmed",
        help: "what the time estimates: the code's cost, interrupted units left out (trimmed), \
               or the mean of every unit",
        attribute: Some(Attribute {
            what: "what the time estimates (`\"trimmed\"`: the code's cost, the default; \
                   `\"mean\"`: every unit, the interrupted ones included)",
            example: "`estimator = \"mean\"`",
        }),
        scope: Scope::Forwarded,
    },
    Setting {
        name: "max_time",
        flag: "--max-time",
        env: "PILOT_MAX_TIME",
        kind: Kind::Seconds,
        value_name: "SECONDS",
        default: "10",
        help: "time cap per bench",
        attribute: Some(Attribute {
            what: "the time cap in seconds",
            example: "`max_time = 5` or `max_time = 2.5`",
        }),
        scope: Scope::Forwarded,
    },
    Setting {
        name: "min_time",
        flag: "--min-time",
        env: "PILOT_MIN_TIME",
        kind: Kind::SecondsOrZero,
        value_name: "SECONDS",
        default: "0",
        help: "least time per bench, at most the time cap",
        attribute: Some(Attribute {
            what: "the least session time in seconds",
            example: "`min_time = 1`",
        }),
        scope: Scope::Forwarded,
    },
    Setting {
        name: "quick",
        flag: "--quick",
        env: "PILOT_QUICK",
        kind: Kind::Switch,
        value_name: "",
        default: "",
        help: "±5% and a 2 s cap, unless set otherwise",
        attribute: None,
        scope: Scope::Forwarded,
    },
    Setting {
        name: "processes",
        flag: "--processes",
        env: "PILOT_PROCESSES",
        kind: Kind::Count,
        value_name: "N",
        default: "8 when the time cap is at least 2 s, 3 from 1 s, else 1; 8 with a baseline \
                  flag",
        help: "least process executions per bench, combined; more run while the interval is \
               too wide and time remains (with `cargo pilot bench --against`: pairs of \
               processes, at least 6)",
        attribute: None,
        scope: Scope::Forwarded,
    },
    Setting {
        name: "sequential",
        flag: "--sequential",
        env: "PILOT_SEQUENTIAL",
        kind: Kind::Switch,
        value_name: "",
        default: "",
        help: "measure a group's members one after another, not interleaved",
        attribute: None,
        scope: Scope::Forwarded,
    },
    Setting {
        name: "compare_groups",
        flag: "--compare-groups",
        env: "PILOT_COMPARE_GROUPS",
        kind: Kind::Switch,
        value_name: "",
        default: "",
        help: "criterion benchmark groups (pilot-criterion): run each group's members \
               interleaved, one process each in turn, and rank them",
        attribute: None,
        scope: Scope::Forwarded,
    },
    Setting {
        name: "save_baseline",
        flag: "--save-baseline",
        env: "PILOT_SAVE_BASELINE",
        kind: Kind::BaselineName,
        value_name: "NAME",
        default: "",
        help: "save the results as baseline NAME",
        attribute: None,
        scope: Scope::CargoPilot,
    },
    Setting {
        name: "baseline",
        flag: "--baseline",
        env: "PILOT_BASELINE",
        kind: Kind::BaselineName,
        value_name: "NAME",
        default: "",
        help: "compare with baseline NAME; exit 3 on a regression",
        attribute: None,
        scope: Scope::CargoPilot,
    },
    Setting {
        name: "alpha",
        flag: "--alpha",
        env: "PILOT_ALPHA",
        kind: Kind::Fraction,
        value_name: "P",
        default: "0.01",
        help: "significance level: a change needs p below it",
        attribute: None,
        scope: Scope::CargoPilot,
    },
    Setting {
        name: "noise",
        flag: "--noise",
        env: "PILOT_NOISE",
        kind: Kind::Noise,
        value_name: "X",
        default: "0.01",
        help: "noise threshold: a change needs to be larger than this (0.01 is 1%)",
        attribute: None,
        scope: Scope::CargoPilot,
    },
    Setting {
        name: "json",
        flag: "--json",
        env: "PILOT_JSON",
        kind: Kind::File,
        value_name: "FILE",
        default: "",
        help: "write the whole run as a pilot.run/1 document",
        attribute: None,
        scope: Scope::CargoPilot,
    },
    Setting {
        name: "resume",
        flag: "--resume",
        env: "PILOT_RESUME",
        kind: Kind::Switch,
        value_name: "",
        default: "",
        help: "continue an interrupted run: benches it finished are not measured again",
        attribute: None,
        scope: Scope::CargoPilot,
    },
    Setting {
        name: "fail_fast",
        flag: "--fail-fast",
        env: "PILOT_FAIL_FAST",
        kind: Kind::Switch,
        value_name: "",
        default: "",
        help: "stop at the first failed bench",
        attribute: None,
        scope: Scope::Forwarded,
    },
    Setting {
        name: "no_sampling",
        flag: "--no-sampling",
        env: "PILOT_NO_SAMPLING",
        kind: Kind::Switch,
        value_name: "",
        default: "",
        help: "do not sample the machine's state (CPU, steal, throttling, disks, network) \
               during sessions",
        attribute: None,
        scope: Scope::Forwarded,
    },
    Setting {
        name: "no_overhead_check",
        flag: "--no-overhead-check",
        env: "PILOT_NO_OVERHEAD_CHECK",
        kind: Kind::Switch,
        value_name: "",
        default: "",
        help: "do not measure what recording each unit costs (full form)",
        attribute: None,
        scope: Scope::Forwarded,
    },
    Setting {
        name: "output_format",
        flag: "--output-format",
        env: "PILOT_OUTPUT_FORMAT",
        kind: Kind::Choice(OUTPUT_FORMATS),
        value_name: "FORMAT",
        default: "pretty",
        help: "pretty, or bencher: also libtest's `test NAME ... bench: N ns/iter (+/- D)` \
               line per bench",
        attribute: None,
        scope: Scope::Binary,
    },
];

/// The row of `table` called `name`.
pub fn by_name<'t>(table: &'t [Setting], name: &str) -> Option<&'t Setting> {
    table.iter().find(|s| s.name == name)
}

/// The row of `table` whose flag is `flag`.
pub fn by_flag<'t>(table: &'t [Setting], flag: &str) -> Option<&'t Setting> {
    table.iter().find(|s| s.flag == flag)
}

impl Kind {
    /// Whether the flag takes a value (every kind but [`Kind::Switch`]).
    pub fn takes_value(self) -> bool {
        self != Kind::Switch
    }

    /// Checks `raw` against the kind's bounds. The error names the value and what is accepted;
    /// the caller adds the flag or variable.
    pub fn check(self, raw: &str) -> Result<(), String> {
        match self {
            Kind::Fraction => fraction(raw).map(drop),
            Kind::Noise => noise(raw).map(drop),
            Kind::Confidence => open_unit(raw).map(drop),
            Kind::Seconds => seconds(raw, true).map(drop),
            Kind::SecondsOrZero => seconds(raw, false).map(drop),
            Kind::Count => count(raw).map(drop),
            Kind::BaselineName => baseline_name(raw),
            Kind::Choice(words) => choice(raw, words).map(drop),
            Kind::File => Ok(()),
            Kind::Switch => switch(raw).map(drop),
        }
    }

    /// What a value must be, as `#[pilot::bench]`'s errors say it after "expected".
    pub fn expected(self) -> String {
        match self {
            Kind::Fraction | Kind::Confidence => {
                "a number greater than 0 and less than 1".to_string()
            }
            Kind::Noise => "a number, 0 or more and less than 1".to_string(),
            Kind::Seconds => format!("a number greater than 0, at most {MAX_SECONDS:e}"),
            Kind::SecondsOrZero => format!("a number, 0 or more, at most {MAX_SECONDS:e}"),
            Kind::Count => "a whole number, 1 or more".to_string(),
            Kind::BaselineName => "a baseline name".to_string(),
            Kind::Choice(words) => {
                let quoted: Vec<String> = words.iter().map(|w| format!("`\"{w}\"`")).collect();
                format!("one of {}", quoted.join(", "))
            }
            Kind::File => "a path".to_string(),
            Kind::Switch => "`true` or `false`".to_string(),
        }
    }
}

/// `raw` as a number; NaN is not one.
pub fn number(raw: &str) -> Result<f64, String> {
    match raw.trim().parse::<f64>() {
        Ok(x) if !x.is_nan() => Ok(x),
        _ => Err(format!("`{raw}` is not a number")),
    }
}

/// A number strictly between 0 and 1.
pub fn fraction(raw: &str) -> Result<f64, String> {
    open_unit(raw)
}

/// A number strictly between 0 and 1 (the bounds of a confidence level).
pub fn open_unit(raw: &str) -> Result<f64, String> {
    match number(raw)? {
        x if x > 0.0 && x < 1.0 => Ok(x),
        _ => Err(format!("`{raw}` must be strictly between 0 and 1")),
    }
}

/// A noise threshold: at least 0 and below 1.
pub fn noise(raw: &str) -> Result<f64, String> {
    match number(raw)? {
        x if (0.0..1.0).contains(&x) => Ok(x),
        _ => Err(format!(
            "`{raw}` must be at least 0 and below 1 (0.01 is 1%)"
        )),
    }
}

/// Seconds: above 0 (`positive`) or 0 and more, at most [`MAX_SECONDS`].
pub fn seconds(raw: &str, positive: bool) -> Result<f64, String> {
    let x = number(raw)?;
    let (ok, least) = if positive {
        (x > 0.0, "above 0")
    } else {
        (x >= 0.0, "0 or more")
    };
    if !ok || x > MAX_SECONDS {
        return Err(format!(
            "`{raw}` must be a number of seconds, {least} and at most {MAX_SECONDS:e}"
        ));
    }
    Ok(x)
}

/// A whole number, 1 or more.
pub fn count(raw: &str) -> Result<usize, String> {
    match raw.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("`{raw}` must be a whole number, 1 or more")),
    }
}

/// A baseline's name: 1 to 64 of `A-Z a-z 0-9 - _ .`, not starting with `.`.
pub fn baseline_name(raw: &str) -> Result<(), String> {
    let ok = !raw.is_empty()
        && raw.len() <= 64
        && !raw.starts_with('.')
        && raw
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{raw}` is not a valid baseline name (1 to 64 letters, digits, `-`, `_` or `.`, \
             not starting with `.`)"
        ))
    }
}

/// One of `words`, as given (surrounding blanks aside).
pub fn choice(raw: &str, words: &'static [&'static str]) -> Result<&'static str, String> {
    if let Some(w) = words.iter().find(|w| **w == raw.trim()) {
        return Ok(w);
    }
    let quoted: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
    let list = match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => quoted.join(""),
    };
    Err(format!("`{raw}` must be {list}"))
}

/// On or off: `1`, `true`, `yes`, `on` / `0`, `false`, `no`, `off`, or empty (off).
pub fn switch(raw: &str) -> Result<bool, String> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "" | "0" | "false" | "no" | "off" => Ok(false),
        "1" | "true" | "yes" | "on" => Ok(true),
        _ => Err(format!(
            "`{raw}` is not on or off (use 1, true, yes, on, or 0, false, no, off)"
        )),
    }
}

/// The lines `--help` shows for `table`: the flag and its value, then the help, the default and
/// the variable, wrapped to 96 columns.
pub fn help_lines(table: &[Setting]) -> String {
    const INDENT: usize = 26;
    const WIDTH: usize = 96;
    let mut out = String::new();
    for s in table {
        let mut head = format!("  {}", s.flag);
        if s.kind.takes_value() {
            head.push(' ');
            head.push_str(s.value_name);
        }
        let mut body = s.help.to_string();
        if !s.default.is_empty() {
            body.push_str(&format!(" (default {})", s.default));
        }
        body.push_str(&format!(" [{}]", s.env));
        let mut line = if head.chars().count() + 2 <= INDENT {
            format!("{head:<INDENT$}")
        } else {
            format!("{head}  ")
        };
        let mut width = line.chars().count();
        for word in body.split(' ') {
            let len = word.chars().count();
            if width + len > WIDTH && width > INDENT {
                out.push_str(line.trim_end());
                out.push('\n');
                line = " ".repeat(INDENT);
                width = INDENT;
            }
            line.push_str(word);
            line.push(' ');
            width += len + 1;
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The rows of the README's table of flags for `table`: `| flag | variable | meaning | default |`.
/// Pipes in the text are escaped for Markdown.
pub fn markdown(table: &[Setting]) -> String {
    let cell = |s: &str| s.replace('|', "\\|");
    let mut out = String::new();
    for s in table {
        let flag = if s.kind.takes_value() {
            format!("{} {}", s.flag, s.value_name)
        } else {
            s.flag.to_string()
        };
        let mut meaning = cell(s.help);
        if s.attribute.is_some() {
            meaning.push_str(&format!("; attribute `{}`", s.name));
        }
        out.push_str(&format!(
            "| `{}` | `{}` | {} | {} |\n",
            cell(&flag),
            s.env,
            meaning,
            cell(s.default)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_flags_and_variables_follow_one_another() {
        for s in SETTINGS {
            assert_eq!(
                s.flag,
                format!("--{}", s.name.replace('_', "-")),
                "{}",
                s.name
            );
            assert_eq!(
                s.env,
                format!("PILOT_{}", s.name.to_ascii_uppercase()),
                "{}",
                s.name
            );
            assert_eq!(s.kind.takes_value(), !s.value_name.is_empty(), "{}", s.name);
            assert_eq!(SETTINGS.iter().filter(|t| t.name == s.name).count(), 1);
        }
    }

    #[test]
    fn bounds_hold_at_their_edges() {
        assert!(Kind::Fraction.check("0.5").is_ok());
        for bad in ["0", "1", "-0.1", "NaN", "x", "inf"] {
            assert!(Kind::Fraction.check(bad).is_err(), "{bad}");
        }
        assert!(Kind::Noise.check("0").is_ok());
        assert!(Kind::Noise.check("1").is_err());
        assert!(Kind::Seconds.check("0").is_err());
        assert!(Kind::Seconds.check("1e7").is_ok());
        assert!(Kind::Seconds.check("1.1e7").is_err());
        assert!(Kind::SecondsOrZero.check("0").is_ok());
        assert!(Kind::SecondsOrZero.check("-1").is_err());
        assert!(Kind::Count.check("1").is_ok());
        assert!(Kind::Count.check("0").is_err());
        assert!(Kind::Count.check("1.5").is_err());
        assert_eq!(
            Kind::Choice(&["trimmed", "mean"]).check("median"),
            Err("`median` must be `trimmed` or `mean`".to_string())
        );
        assert_eq!(choice(" mean ", &["trimmed", "mean"]), Ok("mean"));
        assert!(Kind::BaselineName.check("../x").is_err());
        assert!(Kind::BaselineName.check("v1.2-rc_3").is_ok());
        assert_eq!(switch("ON"), Ok(true));
        assert_eq!(switch(""), Ok(false));
        assert!(switch("banana").is_err());
    }

    #[test]
    fn help_lines_wrap_under_their_column() {
        let text = help_lines(SETTINGS);
        for line in text.lines() {
            assert!(line.chars().count() <= 96, "{line}");
        }
        assert!(text.contains(
            "  --max-time SECONDS      time cap per bench (default 10) [PILOT_MAX_TIME]\n"
        ));
        // A long head puts the help two spaces after it.
        assert!(
            text.contains("  --estimator trimmed|mean  what the time estimates:"),
            "{text}"
        );
        // A wrapped line continues under the help's column.
        let processes: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("  --processes"))
            .take(3)
            .collect();
        assert!(processes[1].starts_with(&" ".repeat(26)), "{processes:?}");
        assert!(!processes[1].starts_with(&" ".repeat(27)), "{processes:?}");
    }

    #[test]
    fn markdown_rows_escape_pipes() {
        let text = markdown(SETTINGS);
        assert!(
            text.contains("| `--estimator trimmed\\|mean` | `PILOT_ESTIMATOR` |"),
            "{text}"
        );
        assert_eq!(text.lines().count(), SETTINGS.len());
    }
}
