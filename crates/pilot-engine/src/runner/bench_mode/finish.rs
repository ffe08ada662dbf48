//! The end of a benchmark run: the table, the groups' rankings, the comparison with the
//! baseline, the run document and the exit code.

use std::path::Path;
use std::process::ExitCode;

use super::Run;
use super::already_explained::Explained;
use super::results::compare_results;
use crate::report::render_table;
use crate::runner::registry::Bench;
use crate::store;
use pilot_format::{CompareDoc, RUN_SCHEMA, RunDoc};

impl Run<'_> {
    /// The end of the run: the table, the comparison with the baseline, the run document, and
    /// the exit code.
    pub(in crate::runner) fn finish(
        mut self,
        selected: &[&Bench],
        base: Option<&[store::SavedResult]>,
    ) -> ExitCode {
        self.log.finish();
        // Benches on several threads ran last: the table and the run document list every
        // bench in source order, as `selected` is.
        let position = |name: &str| selected.iter().position(|b| b.name == name);
        self.rows.sort_by_key(|r| position(&r.name));
        self.documents.sort_by_key(|d| position(&d.name));
        if let Some(w) = self.speed.finish() {
            crate::outln!("warning: {}", crate::fmt::terminal(&w));
        }
        let options = self.compare_options();
        let comparisons = base.map(|base| self.compare(base, selected, &options));
        if let Some(cs) = &comparisons {
            for row in &mut self.rows {
                if let Some(c) = cs.iter().find(|c| c.name == row.name) {
                    let (cell, verdict) = crate::report::change_cell(c);
                    (row.change, row.verdict) = (cell, Some(verdict));
                }
            }
        }
        // A run that measured nothing (every bench filtered out or ignored) has no table.
        if !self.args.no_table && !self.rows.is_empty() {
            self.print_end(comparisons.as_deref(), &options);
        } else if !self.rows.is_empty() {
            // `cargo pilot bench` prints one table and one checks summary across targets, but
            // a group's ranking and a comparison are this target's own: printed here.
            if let Some(cs) = &comparisons {
                print_comparison(cs, &options, self.baseline_name());
            }
            crate::out!("{}", self.groups.render());
        }
        if self.args.output_format == crate::cli::OutputFormat::Bencher {
            // After the table, so that the lines stand together for tools that read them.
            crate::out!("\n{}", crate::report::bencher_lines(&self.documents));
        }
        if let Some(name) = &self.args.save_baseline
            && let Some(w) = crate::report::weak_baseline(&self.documents, name)
        {
            crate::outln!("warning: {}", crate::fmt::terminal(&w));
        }
        let regressed = comparisons
            .as_deref()
            .is_some_and(crate::compare::any_regressed);
        let groups = self.groups.docs();
        if !groups.is_empty() {
            // Where `cargo pilot report` finds them, however this run was started.
            if let Err(e) = store::save_rankings(&self.root, &self.target, &groups, &super::now()) {
                eprintln!(
                    "warning: the groups' rankings were not saved: {}",
                    crate::fmt::terminal_lines(&e.to_string())
                );
            }
        }
        if let Some(path) = &self.args.json {
            let run = RunDoc {
                schema: RUN_SCHEMA.to_string(),
                target: Some(self.target.clone()),
                started: Some(self.started.clone()),
                machine: Some(self.machine.clone()),
                benches: Some(selected.iter().map(|b| b.name.clone()).collect()),
                results: std::mem::take(&mut self.documents),
                comparison: comparisons.as_deref().map(|cs| CompareDoc {
                    against: self.args.baseline.clone(),
                    ..crate::report::comparison_doc(cs, &options)
                }),
                groups: Some(groups),
            };
            let bytes = serde_json::to_vec_pretty(&run).expect("documents serialise");
            if let Err(e) =
                crate::files::write_output(Path::new(path), &bytes, crate::files::Existing::Replace)
            {
                eprintln!(
                    "error: failed to write `{}`: {e}",
                    crate::fmt::terminal(path)
                );
                return ExitCode::FAILURE;
            }
        }
        if self.failed > 0 {
            ExitCode::FAILURE
        } else if regressed {
            ExitCode::from(pilot_format::Exit::Regression)
        } else {
            ExitCode::SUCCESS
        }
    }

    /// The end of the run's output: the table (with a `change` column against the baseline),
    /// the groups' rankings, the checks summary and, once per job, the machine's note and where
    /// results go. The table leaves out the members of a group whose ranking follows it, and a
    /// table of one bench without a baseline is not printed: their lines said it all.
    fn print_end(
        &self,
        comparisons: Option<&[crate::compare::Comparison]>,
        options: &crate::compare::CompareOptions,
    ) {
        let (wide, paint) = (self.args.wide, self.style.paint);
        let ranked = self.groups.ranked_members();
        let rows: Vec<crate::report::Row> = self
            .rows
            .iter()
            .filter(|r| wide || comparisons.is_some() || !ranked.contains(&r.name.as_str()))
            .cloned()
            .collect();
        let groups = self.groups.render();
        if !rows.is_empty() && (wide || rows.len() > 1 || comparisons.is_some()) {
            crate::outln!(
                "\n{}",
                render_table(&rows, self.confidence, wide, paint).trim_end()
            );
            if let Some(cs) = comparisons {
                if wide {
                    print_comparison(cs, options, self.baseline_name());
                } else {
                    crate::out!(
                        "{}",
                        crate::report::change_notes(cs, options, self.baseline_name())
                    );
                }
            }
        }
        if !groups.is_empty() {
            crate::out!("\n{groups}");
        }
        let mut explained = Explained::load(&self.root);
        let context =
            |d: &pilot_format::ResultDoc| self.contexts.get(&d.name).copied().unwrap_or_default();
        let summary =
            crate::report::summary(&self.documents, &context, &mut explained.kinds, paint);
        crate::out!("{summary}");
        let results = store::results_dir(&self.root).join(&self.target);
        if self.args.verbose {
            crate::outln!("results: {}", crate::fmt::terminal_path(&results));
        } else if explained.kinds.insert("results".into()) {
            crate::outln!(
                "results: {}; {} (--verbose: every column and warning)",
                crate::fmt::terminal_path(&results),
                crate::report::reproducibility_note(&self.documents)
            );
        }
        explained.save();
    }

    /// The baseline compared with (empty when none).
    fn baseline_name(&self) -> &str {
        self.args.baseline.as_deref().unwrap_or("")
    }

    /// The verdicts' rule: `--alpha`, `--noise` and `--correction`, or their defaults.
    fn compare_options(&self) -> crate::compare::CompareOptions {
        crate::compare::CompareOptions {
            alpha: self.args.alpha.unwrap_or(0.01),
            noise: self.args.noise.unwrap_or(0.01),
            confidence: None,
            rule: self.args.correction.unwrap_or_default(),
            ..Default::default()
        }
    }

    /// Compares this run's results with the baseline's.
    fn compare(
        &self,
        base: &[store::SavedResult],
        selected: &[&Bench],
        options: &crate::compare::CompareOptions,
    ) -> Vec<crate::compare::Comparison> {
        // Benches left out by the filters are not "missing".
        compare_results(
            (&self.root, &self.target),
            &self.documents,
            base,
            &|name| selected.iter().any(|b| b.name == name),
            options,
        )
    }
}

/// The full comparison table, with its rule and methods.
fn print_comparison(
    cs: &[crate::compare::Comparison],
    options: &crate::compare::CompareOptions,
    baseline: &str,
) {
    crate::outln!(
        "\ncompared with baseline `{}`:\n{}",
        crate::fmt::terminal(baseline),
        crate::report::comparison_table(cs, options)
    );
}
