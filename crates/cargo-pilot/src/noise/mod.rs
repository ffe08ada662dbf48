//! `cargo pilot noise`: how much a plain program (no harness) moves from run to run on this
//! machine, now, and what that allows a comparison to detect.
//!
//! pilot learns a machine's run-to-run variation from its own runs, over hours; this measures
//! the physical floor in a minute or two. A fixed plain program ([`pilot_engine::probe::plain`])
//! runs in fresh processes, two back to back each round, the rounds spread evenly over
//! `--time` (the host's state changes over seconds to minutes) ([`rounds`]); the figures and
//! the `pilot.noise/1` document are [`figures`]'s, printed by [`render`].

mod figures;
mod render;
mod rounds;

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

use pilot_engine::probe::plain::{PLAIN_CALLS, PLAIN_WORKLOADS, run_plain};
use pilot_engine::settings::{Cap, Confidence, Fraction};

use crate::exit::Failure;
use crate::interrupt;
use figures::{Asked, document, seconds};

/// Measure how much a plain program's time moves from run to run on this machine, now.
///
/// Runs a fixed plain program (no harness: an integer loop and a sort, timed with `Instant`)
/// in fresh processes, two back to back every few seconds over --time, and prints for each
/// workload the spread between rounds, the band a next run lands in, how far two runs of the
/// same code differ, and the smallest change a saved baseline and `--against` detect here;
/// with how busy other processes kept the machine, and what to do with the figures.
#[derive(clap::Args, Debug)]
pub struct NoiseArgs {
    /// How long to measure, in seconds: a round of two processes every 3 s or so over it (5
    /// rounds at least)
    #[arg(
        long,
        value_name = "SECS",
        default_value = "90",
        allow_negative_numbers = true
    )]
    pub time: Cap,
    /// The time an `--against` comparison gives a bench, in seconds (by default twice its 10 s
    /// cap): its smallest detectable change is for the pairs of processes that fit in it
    #[arg(
        long,
        value_name = "SECS",
        default_value = "20",
        allow_negative_numbers = true
    )]
    pub against_time: Cap,
    /// Significance level of the comparisons the detectable changes are for (as `cargo pilot
    /// bench --alpha`)
    #[arg(
        long,
        value_name = "P",
        default_value = pilot_settings::default_of("alpha"),
        allow_negative_numbers = true
    )]
    pub alpha: Fraction,
    /// Confidence level of the next run's band
    #[arg(
        long,
        value_name = "X",
        default_value = pilot_settings::default_of("confidence"),
        allow_negative_numbers = true
    )]
    pub confidence: Confidence,
    /// How the figures print (progress goes to standard error)
    #[arg(long, value_enum, default_value_t = NoiseFormat::Table)]
    pub format: NoiseFormat,
}

/// How `cargo pilot noise` prints.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoiseFormat {
    /// Aligned columns for a terminal
    Table,
    /// Markdown, for a pull-request comment or a wiki
    Md,
    /// A `pilot.noise/1` document
    Json,
}

/// Rounds start about this far apart: the host's state changes over seconds to minutes, so
/// rounds further apart see more of its states, and more rounds a tighter spread.
const SPACING: Duration = Duration::from_secs(3);

/// The fewest rounds, whatever `--time`: a spread needs a few.
const LEAST_ROUNDS: usize = 5;

/// The rounds that `time` holds, a round every [`SPACING`] or so, and the spacing that spreads
/// them evenly over it.
fn plan(time: Duration) -> (usize, Duration) {
    let rounds = ((time.as_secs_f64() / SPACING.as_secs_f64()).round() as usize).max(LEAST_ROUNDS);
    (rounds, time / rounds as u32)
}

/// `cargo pilot noise`.
pub fn run(args: &NoiseArgs) -> Result<ExitCode, Failure> {
    interrupt::install();
    let (count, spacing) = plan(args.time.0);
    let names: Vec<&str> = PLAIN_WORKLOADS.iter().map(|(n, _)| *n).collect();
    say!(
        "cargo pilot noise: {count} rounds of two fresh processes of a plain program ({}), a \
         round every {:.1} s for {} (Ctrl-C stops)",
        names.join(", "),
        spacing.as_secs_f64(),
        seconds(args.time.0.as_secs_f64()),
    );
    let terminal = std::io::stderr().is_terminal();
    let progress = |done: usize| {
        if terminal {
            say_inline!("\rround {done} of {count}");
            if done == count {
                say_inline!("\r\x1b[K");
            }
        }
    };
    let machine = pilot_engine::probe::machine();
    let started = pilot_engine::runner::now();
    let rounds = rounds::run_rounds(count, spacing, &progress);
    if terminal {
        say_inline!("\r\x1b[K");
    }
    let rounds = rounds?;
    let asked = Asked {
        confidence: args.confidence.0,
        alpha: args.alpha.0,
        against_time_s: args.against_time.0.as_secs_f64(),
    };
    let doc = document(&rounds, machine, started, asked);
    match args.format {
        NoiseFormat::Table => pilot_engine::out!("{}", render::table(&doc)),
        NoiseFormat::Md => pilot_engine::out!("{}", render::markdown(&doc)),
        NoiseFormat::Json => pilot_engine::outln!(
            "{}",
            serde_json::to_string_pretty(&doc).expect("the document serialises")
        ),
    }
    Ok(ExitCode::SUCCESS)
}

/// The hidden `cargo pilot noise-process`: one process of the plain program, its reading one
/// line of JSON on standard output.
pub fn run_process() -> Result<ExitCode, Failure> {
    let reading = run_plain(PLAIN_CALLS);
    pilot_engine::outln!(
        "{}",
        serde_json::to_string(&reading).expect("a reading serialises")
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_are_three_seconds_apart_and_at_least_five() {
        let (n, s) = plan(Duration::from_secs(90));
        assert_eq!((n, s), (30, Duration::from_secs(3)));
        let (n, s) = plan(Duration::from_secs(2));
        assert_eq!((n, s), (5, Duration::from_millis(400)));
        let (n, _) = plan(Duration::from_secs(100));
        assert_eq!(n, 33);
    }

    #[test]
    fn against_time_is_twice_a_benchs_default_cap() {
        use clap::CommandFactory;
        #[derive(clap::Parser)]
        struct Wrap {
            #[command(flatten)]
            noise: NoiseArgs,
        }
        let cmd = Wrap::command();
        let arg = cmd
            .get_arguments()
            .find(|a| a.get_id() == "against_time")
            .expect("--against-time");
        let default: f64 = arg.get_default_values()[0]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        let cap: f64 = pilot_settings::default_of("max_time").parse().unwrap();
        assert_eq!(default, 2.0 * cap);
    }
}
