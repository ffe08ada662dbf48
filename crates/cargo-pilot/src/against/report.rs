//! What `--against` prints and writes at the end: the results, what was saved, the
//! comparison in the format asked for, why a bench has no verdict, and the run document.

use std::path::Path;

use anyhow::Context;
use pilot_engine::compare::{CompareOptions, Comparison, Verdict};
use pilot_format::{CompareDoc, RUN_SCHEMA, ResultDoc, RunDoc};

use super::Out;
use super::plan::Plan;
use crate::args::{BenchArgs, Format};
use crate::exit::Failure;

/// How many results of each side were saved: the closing line claims only those.
#[derive(Debug, Default, Clone, Copy)]
pub struct Saved {
    /// Into the baseline named after REV's commit.
    pub base: usize,
    /// As the latest results.
    pub head: usize,
}

impl Saved {
    /// The line that says where the results went, or that none were saved.
    fn say(self, rev: &str, short: &str) -> String {
        let base = if self.base > 0 {
            format!("base `{rev}` ({short}) saved as baseline `{short}`")
        } else {
            format!(
                "nothing of the base `{rev}` ({short}) was saved: no bench has two processes \
                 of it"
            )
        };
        let head = if self.head > 0 {
            "the working tree's results are the latest results"
        } else {
            "nothing of the working tree was saved"
        };
        format!("{base}; {head}")
    }
}

/// Why each bench without a verdict has none: a failure, too few pairs, or an interval still
/// across the noise threshold when the time cap came.
fn reasons(comparisons: &[Comparison], options: &CompareOptions, plan: &Plan) -> Vec<String> {
    comparisons
        .iter()
        .filter_map(|c| {
            let name = format!(
                "{} ({})",
                pilot_engine::fmt::markdown_code(&c.name),
                pilot_engine::fmt::terminal(&c.target)
            );
            match (c.verdict, &c.reason, c.pairs) {
                (Verdict::Failed, _, _) => Some(format!("{name} failed: {}", c.method)),
                (Verdict::Undecided, Some(why), _) => Some(format!("{name} is undecided: {why}")),
                (Verdict::Undecided, None, Some(n)) => Some(format!(
                    "{name} is undecided after {n} pairs at the time cap ({} s a bench, and a \
                     share of what the settled benches left): {} >= {} \
                     and the change's interval reaches past the noise threshold (±{}%); raise \
                     --max-time, or --noise if changes that small do not matter",
                    (plan.budget.as_secs_f64() * 10.0).round() / 10.0,
                    if options.rule == pilot_engine::compare::SuiteRule::PerBench {
                        "p"
                    } else {
                        "its p adjusted for the suite"
                    },
                    options.alpha,
                    100.0 * options.noise
                )),
                _ => None,
            }
        })
        .collect()
}

/// The results table, the comparison in the format asked for, and the run document.
pub fn report(
    args: &BenchArgs,
    comparisons: &[Comparison],
    (base_docs, head_docs): (&[ResultDoc], &[ResultDoc]),
    (options, target_dir): (&CompareOptions, &Path),
    (rev, short): (&str, &str),
    (saved, plan): (Saved, &Plan),
    out: &Out,
) -> Result<(), Failure> {
    let paint = args.settings.paint();
    let verbose = args.settings.on("verbose");
    out.say_painted(&format!(
        "\n{}",
        pilot_engine::report::results_table(head_docs, verbose, paint).trim_end()
    ));
    // Advice fits a run that already compares two builds interleaved.
    let context = |d: &ResultDoc| pilot_engine::report::context_of(d, &[], true);
    let summary =
        pilot_engine::report::summary(head_docs, &context, &mut Default::default(), paint);
    if !summary.is_empty() {
        out.say_painted(summary.trim_end());
    }
    out.say(&saved.say(rev, short));
    let mut report = CompareDoc {
        against: Some(rev.to_string()),
        ..pilot_engine::report::comparison_doc(comparisons, options)
    };
    crate::explain::attach(&mut report, &|base, target, name| {
        let docs = if base { base_docs } else { head_docs };
        let doc = docs.iter().find(|d| d.target == target && d.name == name)?;
        crate::explain::profile(doc)
    });
    match args.format {
        Format::Table => pilot_engine::outln!(
            "\ncompared with `{}` ({short}), interleaved:\n{}{}",
            pilot_engine::fmt::terminal(rev),
            pilot_engine::report::comparison_table(comparisons, options),
            crate::explain::terminal(&report)
        ),
        Format::Md => pilot_engine::out!(
            "{}{}",
            pilot_engine::report::comparison_markdown(comparisons, options),
            crate::explain::markdown(&report)
        ),
        Format::Json => pilot_engine::outln!(
            "{}",
            serde_json::to_string_pretty(&report).expect("JSON values serialise")
        ),
    }
    for why in reasons(comparisons, options, plan) {
        out.say(&why);
    }
    let run = RunDoc {
        schema: RUN_SCHEMA.to_string(),
        target: None,
        started: head_docs.first().map(|d| d.started.clone()),
        machine: head_docs.first().and_then(|d| d.machine.clone()),
        benches: Some(comparisons.iter().map(|c| c.name.clone()).collect()),
        results: head_docs.to_vec(),
        comparison: Some(report),
        groups: None,
    };
    let bytes = serde_json::to_vec_pretty(&run).expect("documents serialise");
    // `cargo pilot report` draws the comparison from the last run's document.
    let last = pilot_engine::store::last_run_path(target_dir);
    if let Err(e) = pilot_engine::files::write_atomic(&last, &bytes) {
        say!(
            "warning: failed to write `{}`: {e}",
            pilot_engine::fmt::terminal_path(&last)
        );
    }
    if let Some(path) = &args.json {
        // A user's output: a device, FIFO or symlink is written in place.
        pilot_engine::files::write_output(path, &bytes, pilot_engine::files::Existing::Replace)
            .with_context(|| format!("failed to write `{}`", path.display()))?;
    }
    Ok(())
}
