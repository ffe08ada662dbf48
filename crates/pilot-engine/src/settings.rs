//! Settings as types: every value pilot takes from a flag, a `PILOT_*` variable or `cargo
//! pilot`'s command line is parsed and bounded here, once, by `FromStr`, so the bench binary and
//! every `cargo pilot` subcommand accept the same values and say the same thing about a bad one.
//! Errors name the value and the accepted range; the caller adds the flag or variable. The
//! bounds themselves are `pilot_settings`'s, the table every flag, variable and attribute key
//! comes from.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use pilot_stats::t_quantile;

mod usage;
pub use usage::UsageError;

/// A number strictly between 0 and 1: a target half-width (`--ci`, relative to the mean) or a
/// significance level (`--alpha`).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Fraction(pub f64);

/// A noise threshold (`--noise`): at least 0 and below 1, relative (0.01 is 1%).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Noise(pub f64);

/// A confidence level (`--confidence`): strictly between 0 and 1, and such that the interval's
/// Student-t quantile exists (`0.9999999999999999` rounds to a quantile of infinity).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Confidence(pub f64);

/// A time cap (`--max-time`): more than 0 and at most [`MAX_SECONDS`](pilot_settings::MAX_SECONDS).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Cap(pub Duration);

/// A least time (`--min-time`): 0 or more, at most [`MAX_SECONDS`](pilot_settings::MAX_SECONDS).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct MinTime(pub Duration);

/// A count of 1 or more (`--processes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Count(pub usize);

/// A baseline's name (`--save-baseline`, `--baseline`): it becomes a folder name, so 1 to 64
/// characters of `A-Z a-z 0-9 - _ .`, not starting with `.`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct BaselineName(pub String);

/// What a bench's `time` estimates (`--estimator`, `PILOT_ESTIMATOR`, the attribute's
/// `estimator`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Estimator {
    /// The code's cost per unit: the 20%-trimmed mean of subsession means, which leaves out
    /// the units an interruption (a time slice given to another process, a page fault storm)
    /// made many times slower. The default.
    #[default]
    Trimmed,
    /// The mean of every stable unit reading, interruptions included: for workloads whose rare
    /// slow units are their real cost (a collector's pause, an allocator's refill).
    Mean,
}

impl Estimator {
    /// The name used on the command line, in attributes and in result documents.
    pub fn as_str(self) -> &'static str {
        match self {
            Estimator::Trimmed => "trimmed",
            Estimator::Mean => "mean",
        }
    }
}

impl FromStr for Estimator {
    type Err = String;

    fn from_str(raw: &str) -> Result<Self, String> {
        match pilot_settings::choice(raw, pilot_settings::ESTIMATORS)? {
            "mean" => Ok(Estimator::Mean),
            _ => Ok(Estimator::Trimmed),
        }
    }
}

/// How the p-values of a suite's benches are adjusted before their verdicts (`--correction`).
///
/// With `m` benches each tested at `alpha`, unchanged code is flagged somewhere in the suite
/// with probability up to `1 − (1 − alpha)^m` (two runs in three for 100 benches at 0.01);
/// a CI job that fails on any regression needs the suite's rate, not each bench's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SuiteRule {
    /// Holm's step-down rule ([`pilot_stats::holm`]): the chance that a run of unchanged code
    /// flags any bench at all (the family-wise error rate) is at most `alpha`, whatever the
    /// dependence between the benches. What "fail CI on a regression" needs; the default.
    #[default]
    Holm,
    /// Benjamini–Hochberg's step-up rule ([`pilot_stats::benjamini_hochberg`]): of the benches
    /// flagged, the expected share that did not change (the false-discovery rate) is at most
    /// `alpha`. More powerful when many benches really changed (a refactoring's report), and
    /// the same rate as Holm's when none did.
    BenjaminiHochberg,
    /// No adjustment: each bench at `alpha` alone, as before; `m · alpha` false alarms
    /// expected over a suite of unchanged benches.
    PerBench,
}

impl SuiteRule {
    /// The rule `--correction` names; `None` for another word.
    pub(crate) fn parse(name: &str) -> Option<SuiteRule> {
        match name {
            "holm" => Some(SuiteRule::Holm),
            "bh" => Some(SuiteRule::BenjaminiHochberg),
            "none" => Some(SuiteRule::PerBench),
            _ => None,
        }
    }

    /// The rule's word, as `--correction` and the `pilot.compare/1` document's `correction`
    /// write it.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            SuiteRule::Holm => "holm",
            SuiteRule::BenjaminiHochberg => "bh",
            SuiteRule::PerBench => "none",
        }
    }
}

impl FromStr for SuiteRule {
    type Err = String;

    fn from_str(raw: &str) -> Result<Self, String> {
        let name = pilot_settings::choice(raw, pilot_settings::CORRECTIONS)?;
        Ok(SuiteRule::parse(name).expect("the table's choices are the rule's names"))
    }
}

/// What times units (`--timer`, `PILOT_TIMER`): the choice as given; the TSC is calibrated (or
/// refused) when a run starts ([`crate::record::Timer::named`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum TimerChoice {
    /// `std::time::Instant`, the default.
    #[default]
    Instant,
    /// x86-64's invariant time-stamp counter.
    Tsc,
}

impl TimerChoice {
    /// The name used on the command line: `instant` or `tsc`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            TimerChoice::Instant => "instant",
            TimerChoice::Tsc => "tsc",
        }
    }
}

impl FromStr for TimerChoice {
    type Err = String;

    fn from_str(raw: &str) -> Result<Self, String> {
        match pilot_settings::choice(raw, pilot_settings::TIMERS)? {
            "tsc" => Ok(TimerChoice::Tsc),
            _ => Ok(TimerChoice::Instant),
        }
    }
}

/// An on/off switch from the environment: `1`, `true`, `yes`, `on` or `0`, `false`, `no`,
/// `off`, or empty (off).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Switch(pub bool);

impl FromStr for Fraction {
    type Err = String;

    fn from_str(raw: &str) -> Result<Self, String> {
        pilot_settings::fraction(raw).map(Fraction)
    }
}

impl FromStr for Noise {
    type Err = String;

    fn from_str(raw: &str) -> Result<Self, String> {
        pilot_settings::noise(raw).map(Noise)
    }
}

impl FromStr for Confidence {
    type Err = String;
    fn from_str(raw: &str) -> Result<Self, String> {
        let x = pilot_settings::open_unit(raw)?;
        // The widest quantile an interval can need: one degree of freedom.
        let p = (1.0 + x) / 2.0;
        if p >= 1.0 || !t_quantile(p, 1.0).is_finite() {
            return Err(format!(
                "`{raw}` is too close to 1: its interval would be infinitely wide"
            ));
        }
        Ok(Confidence(x))
    }
}

/// Seconds as a duration: above 0 (`positive`) or 0 and more, at most [`MAX_SECONDS`](pilot_settings::MAX_SECONDS).
fn seconds(raw: &str, positive: bool) -> Result<Duration, String> {
    let x = pilot_settings::seconds(raw, positive)?;
    Duration::try_from_secs_f64(x).map_err(|e| format!("`{raw}`: {e}"))
}

impl FromStr for Cap {
    type Err = String;
    fn from_str(raw: &str) -> Result<Self, String> {
        seconds(raw, true).map(Cap)
    }
}

impl FromStr for MinTime {
    type Err = String;
    fn from_str(raw: &str) -> Result<Self, String> {
        seconds(raw, false).map(MinTime)
    }
}

impl FromStr for Count {
    type Err = String;

    fn from_str(raw: &str) -> Result<Self, String> {
        pilot_settings::count(raw).map(Count)
    }
}

impl FromStr for BaselineName {
    type Err = String;

    fn from_str(raw: &str) -> Result<Self, String> {
        pilot_settings::baseline_name(raw).map(|()| BaselineName(raw.to_string()))
    }
}

impl FromStr for Switch {
    type Err = String;

    fn from_str(raw: &str) -> Result<Self, String> {
        pilot_settings::switch(raw).map(Switch)
    }
}

impl std::ops::Deref for BaselineName {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<std::path::Path> for BaselineName {
    fn as_ref(&self) -> &std::path::Path {
        self.0.as_ref()
    }
}

impl fmt::Display for BaselineName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Checks `raw` as a value of `kind`: the table's bounds, and for a confidence level the
/// finite quantile [`Confidence`] asks for too. For `cargo pilot`'s flags, which take the same
/// values as the bench binary's.
pub fn check(kind: pilot_settings::Kind, raw: &str) -> Result<(), String> {
    match kind {
        pilot_settings::Kind::Confidence => raw.parse::<Confidence>().map(drop),
        _ => kind.check(raw),
    }
}

/// Parses `raw` as a `T`, the error naming `name` (a flag, a variable or an attribute's key).
pub(crate) fn parse_as<T: FromStr<Err = String>>(name: &str, raw: &str) -> Result<T, UsageError> {
    raw.parse().map_err(|problem| UsageError::Invalid {
        given_as: name.to_string(),
        problem,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_hold_at_their_edges() {
        assert!("0.5".parse::<Fraction>().is_ok());
        for bad in ["0", "1", "-0.1", "NaN", "x", "inf"] {
            assert!(bad.parse::<Fraction>().is_err(), "{bad}");
        }
        assert_eq!("0".parse::<Noise>(), Ok(Noise(0.0)));
        assert!("1".parse::<Noise>().is_err());
        assert!("0.95".parse::<Confidence>().is_ok());
        assert!("0.999999".parse::<Confidence>().is_ok());
        let e = "0.9999999999999999".parse::<Confidence>().unwrap_err();
        assert!(e.contains("too close to 1"), "{e}");
        assert_eq!("2".parse::<Count>(), Ok(Count(2)));
        assert!("0".parse::<Count>().is_err());
    }

    #[test]
    fn times_never_overflow_a_duration() {
        assert_eq!("0.5".parse::<Cap>(), Ok(Cap(Duration::from_millis(500))));
        for bad in ["0", "-1", "1e30", "1e99", "inf", "NaN", "1e7.5"] {
            let e = bad.parse::<Cap>().unwrap_err();
            assert!(e.starts_with(&format!("`{bad}`")), "{bad}: {e}");
        }
        assert_eq!("0".parse::<MinTime>(), Ok(MinTime(Duration::ZERO)));
        assert!("1e99".parse::<MinTime>().is_err());
        assert!("-1".parse::<MinTime>().is_err());
    }

    #[test]
    fn baseline_names_become_safe_folder_names() {
        assert!("main".parse::<BaselineName>().is_ok());
        assert!("v1.2-rc_3".parse::<BaselineName>().is_ok());
        let long = "x".repeat(300);
        for bad in ["a/b", "../../etc", "", ".hidden", "naïve", long.as_str()] {
            assert!(bad.parse::<BaselineName>().is_err(), "{bad}");
        }
    }

    #[test]
    fn switches_are_on_or_off_and_nothing_else() {
        assert_eq!("yes".parse::<Switch>(), Ok(Switch(true)));
        assert_eq!("".parse::<Switch>(), Ok(Switch(false)));
        assert_eq!("OFF".parse::<Switch>(), Ok(Switch(false)));
        assert!("banana".parse::<Switch>().is_err());
    }
}
