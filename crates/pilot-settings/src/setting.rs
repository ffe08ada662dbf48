//! What a setting is: its row's fields, its kind and who takes it.

use crate::bounds::MAX_SECONDS;
use crate::bounds::{baseline_name, choice, count, fraction, noise, open_unit, seconds, switch};

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
    /// A regular expression, not empty. Its syntax is checked where it is compiled: by the
    /// bench binary (pilot-engine's `regex` feature), as this crate has no dependencies.
    Pattern,
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
            Kind::Pattern if raw.is_empty() => Err("an empty pattern matches nothing".to_string()),
            Kind::Pattern => Ok(()),
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
            Kind::Pattern => "a regular expression".to_string(),
            Kind::Switch => "`true` or `false`".to_string(),
        }
    }
}
