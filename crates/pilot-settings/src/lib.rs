//! pilot's settings, defined once: each setting's name, flag, `PILOT_*` variable, attribute key,
//! kind (its type and bounds), default and one line of help, in [`SETTINGS`].
//!
//! Everything that takes a setting reads it from this table: the bench binary's parser, its
//! environment variables and its `--help` (`pilot-engine`'s `cli`), `cargo pilot bench`'s flags
//! and what it forwards to each bench binary (`cargo-pilot`), the checks of
//! `#[pilot::bench(…)]`'s keys (`pilot-macros`), and the table of flags in the book's reference
//! (`book/src/reference.md`, [`markdown`]). A row added here appears in all of them.
//!
//! The crate has no dependencies: `pilot-macros` uses it at compile time, and a proc-macro's
//! dependencies are built for the host in every user's build.
#![deny(missing_docs)]

mod bounds;
mod render;
mod setting;
mod table;

pub use bounds::{
    MAX_SECONDS, baseline_name, choice, count, fraction, noise, number, open_unit, seconds, switch,
};
pub use render::{help_lines, markdown};
pub use setting::{Attribute, Kind, Scope, Setting};
pub use table::{
    COLOR_CHOICES, CORRECTIONS, ESTIMATORS, OUTPUT_FORMATS, PROCESSES, ProcessCounts, QUICK,
    SETTINGS, TIMERS, by_flag, by_name, default_of, processes_default, quick_help,
};

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
    fn the_rows_state_the_defaults_the_engine_runs_by() {
        // Text that can only be a literal in the table, checked against the numbers.
        assert_eq!(default_of("processes"), processes_default());
        assert_eq!(by_name(SETTINGS, "quick").unwrap().help, quick_help());
        assert_eq!(
            processes_default(),
            "8 when the time cap is at least 2 s (4 once the interval meets the target and no \
             process lies far from the rest), 3 from 1 s, else 1; 8 with a baseline flag"
        );
        assert_eq!(quick_help(), "±5% and a 2 s cap, unless set otherwise");
        // Every stated default is a value of its setting.
        for s in SETTINGS {
            if !s.default.is_empty() && s.name != "processes" {
                assert_eq!(s.kind.check(s.default), Ok(()), "{}", s.name);
            }
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
        // Each error names the one bound the value is beyond.
        assert_eq!(
            Kind::Seconds.check("0"),
            Err("`0` must be above 0 seconds".to_string())
        );
        assert_eq!(
            Kind::Seconds.check("-1"),
            Err("`-1` must be above 0 seconds".to_string())
        );
        assert_eq!(
            Kind::SecondsOrZero.check("-0.5"),
            Err("`-0.5` must be 0 seconds or more".to_string())
        );
        assert_eq!(
            Kind::Seconds.check("inf"),
            Err("`inf` must be at most 1e7 seconds (about 116 days)".to_string())
        );
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
