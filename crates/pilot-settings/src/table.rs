//! The table: every setting pilot has, and the words of its choices.

use crate::setting::{Attribute, Kind, Scope, Setting};

/// The estimators `--estimator` names: the trimmed mean of subsession means (the default), or
/// the mean of every unit.
pub const ESTIMATORS: &[&str] = &["trimmed", "mean"];

/// The output formats `--output-format` names.
pub const OUTPUT_FORMATS: &[&str] = &["pretty", "bencher"];

/// The timers `--timer` names: `std::time::Instant`, or x86-64's invariant time-stamp counter.
pub const TIMERS: &[&str] = &["instant", "tsc"];

/// The rules `--correction` names: how a suite's p-values are adjusted for the benches tested
/// (Holm's, Benjamini–Hochberg's, none).
pub const CORRECTIONS: &[&str] = &["holm", "bh", "none"];

/// When `--color` colours the output.
pub const COLOR_CHOICES: &[&str] = &["auto", "always", "never"];

/// The process executions a bench runs in when `--processes` does not say: by its time cap,
/// and with a baseline flag. The engine runs by these numbers, and the `processes` row's
/// default states them ([`processes_default`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProcessCounts {
    /// Processes of a bench whose time cap is at least [`many_from_s`](Self::many_from_s).
    pub many: usize,
    /// The fewest of those [`many`](Self::many) a bench stops at when `--processes` does not
    /// say: once its interval meets the target and no process lies far from the rest, another
    /// process adds only precision nobody asked for.
    pub least: usize,
    /// The least time cap, in seconds, at which a bench runs in [`many`](Self::many).
    pub many_from_s: u64,
    /// Processes of a bench whose cap is shorter, but at least [`few_from_s`](Self::few_from_s).
    pub few: usize,
    /// The least time cap, in seconds, at which a bench runs in more than one process.
    pub few_from_s: u64,
    /// Processes of every bench of a run that saves or compares a baseline.
    pub baseline: usize,
}

/// `--processes`' default (see [`ProcessCounts`]).
pub const PROCESSES: ProcessCounts = ProcessCounts {
    many: 8,
    least: 4,
    many_from_s: 2,
    few: 3,
    few_from_s: 1,
    baseline: 8,
};

/// The `processes` row's default, in words, from [`PROCESSES`].
pub fn processes_default() -> String {
    let p = PROCESSES;
    format!(
        "{} when the time cap is at least {} s ({} once the interval meets the target and no \
         process lies far from the rest), {} from {} s, else 1; {} with a baseline flag",
        p.many, p.many_from_s, p.least, p.few, p.few_from_s, p.baseline
    )
}

/// What `--quick` sets where nothing else does: the target half-width and the time cap in
/// seconds. The `quick` row's help states them ([`quick_help`]).
pub const QUICK: (f64, f64) = (0.05, 2.0);

/// The `quick` row's help, from [`QUICK`].
pub fn quick_help() -> String {
    format!(
        "±{}% and a {} s cap, unless set otherwise",
        100.0 * QUICK.0,
        QUICK.1
    )
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
        default: "8 when the time cap is at least 2 s (4 once the interval meets the target \
                  and no process lies far from the rest), 3 from 1 s, else 1; 8 with a \
                  baseline flag",
        help: "least process executions per bench, combined (a number given here runs in \
               full); more run while the interval is too wide and time remains (with `cargo pilot bench --against`: pairs of \
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
        name: "compare_across",
        flag: "--compare-across",
        env: "PILOT_COMPARE_ACROSS",
        kind: Kind::Pattern,
        value_name: "REGEX",
        default: "",
        help: "pilot-criterion: rank benches whose ids are the same once REGEX's matches are set \
               aside (`TinyVec|SmallVec` pairs `TinyVec_u8_8/TinyVec::push` with \
               `SmallVec_u8_8/SmallVec::push`), interleaved, one process each in turn",
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
        name: "correction",
        flag: "--correction",
        env: "PILOT_CORRECTION",
        kind: Kind::Choice(CORRECTIONS),
        value_name: "holm|bh|none",
        default: "holm",
        help: "how each bench's p is adjusted for the benches the run tested: holm (unchanged \
               code fails a run with probability at most --alpha), bh (at most --alpha of the \
               benches flagged are false alarms), none (each bench alone)",
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
        name: "timer",
        flag: "--timer",
        env: "PILOT_TIMER",
        kind: Kind::Choice(TIMERS),
        value_name: "instant|tsc",
        default: "instant",
        help: "what times units: instant (std::time::Instant), or tsc (x86-64's invariant \
               time-stamp counter, calibrated against Instant at the start; refused where it \
               is not invariant)",
        attribute: None,
        scope: Scope::Forwarded,
    },
    Setting {
        name: "instructions",
        flag: "--instructions",
        env: "PILOT_INSTRUCTIONS",
        kind: Kind::Switch,
        value_name: "",
        default: "",
        help: "also count each bench's instructions per unit, in processes of its own under \
               Valgrind's callgrind (needs valgrind; x86-64 or AArch64)",
        attribute: None,
        scope: Scope::Forwarded,
    },
    Setting {
        name: "cache_sim",
        flag: "--cache-sim",
        env: "PILOT_CACHE_SIM",
        kind: Kind::Switch,
        value_name: "",
        default: "",
        help: "with --instructions: callgrind's cache simulation too, and the cycles it \
               estimates per unit (about twice as slow)",
        attribute: None,
        scope: Scope::Forwarded,
    },
    Setting {
        name: "verbose",
        flag: "--verbose",
        env: "PILOT_VERBOSE",
        kind: Kind::Switch,
        value_name: "",
        default: "",
        help: "every bench's warnings in full under its line, and the table's every column \
               (as `--format wide`)",
        attribute: None,
        scope: Scope::Forwarded,
    },
    Setting {
        name: "color",
        flag: "--color",
        env: "PILOT_COLOR",
        kind: Kind::Choice(COLOR_CHOICES),
        value_name: "WHEN",
        default: "auto",
        help: "colour statuses, verdicts and check markers: auto (on a terminal, unless \
               NO_COLOR is set), always or never",
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

/// The default of the setting called `name`, as the table states it (empty where it states
/// none): what `cargo pilot`'s own flags of the same name default to.
///
/// # Panics
///
/// When no setting is called `name` (a typo in pilot's code, which its tests catch).
pub fn default_of(name: &str) -> &'static str {
    match by_name(SETTINGS, name) {
        Some(s) => s.default,
        None => panic!("no setting is called `{name}`"),
    }
}

/// The row of `table` called `name`.
pub fn by_name<'t>(table: &'t [Setting], name: &str) -> Option<&'t Setting> {
    table.iter().find(|s| s.name == name)
}

/// The row of `table` whose flag is `flag`.
pub fn by_flag<'t>(table: &'t [Setting], flag: &str) -> Option<&'t Setting> {
    table.iter().find(|s| s.flag == flag)
}
