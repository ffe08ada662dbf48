//! The end of a benchmark run: the table, the groups' rankings, the comparison with the
//! baseline, the run document and the exit code.

use std::path::Path;
use std::process::ExitCode;

use super::Run;
use super::results::compare_with_baseline;
use crate::report::render_table;
use crate::runner::registry::Bench;
use crate::schema::{CompareDoc, RUN_SCHEMA, RunDoc};
use crate::store;

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
            println!("warning: {}", crate::fmt::terminal(&w));
        }
        // A run that measured nothing (every bench filtered out or ignored) has no table.
        if !self.args.no_table && !self.rows.is_empty() {
            // The machine's line was printed as the run started: not again here.
            println!("\n{}", render_table(&self.rows, self.confidence));
            print!("{}", self.groups.render());
            println!(
                "results: {}",
                store::results_dir(&self.root).join(&self.target).display()
            );
        } else if !self.rows.is_empty() {
            // `cargo pilot bench` prints one table across targets, but a group's ranking is
            // this target's own: it is printed here, under the target's name.
            print!("{}", self.groups.render());
        }
        if self.args.output_format == crate::cli::OutputFormat::Bencher {
            // After the table, so that the lines stand together for tools that read them.
            print!("\n{}", crate::report::bencher_lines(&self.documents));
        }
        if let Some(name) = &self.args.save_baseline {
            if let Some(w) = crate::report::weak_baseline(&self.documents, name) {
                println!("warning: {}", crate::fmt::terminal(&w));
            }
        }
        let comparison = base.map(|base| self.compare(base, selected));
        let regressed = comparison.as_ref().is_some_and(|(_, r)| *r);
        if let Some(path) = &self.args.json {
            let run = RunDoc {
                schema: RUN_SCHEMA.to_string(),
                target: Some(self.target.clone()),
                started: Some(self.started.clone()),
                machine: Some(self.machine.clone()),
                benches: Some(selected.iter().map(|b| b.name.clone()).collect()),
                results: std::mem::take(&mut self.documents),
                comparison: comparison.map(|(doc, _)| doc),
                groups: Some(self.groups.docs()),
            };
            let bytes = serde_json::to_vec_pretty(&run).expect("documents serialise");
            if let Err(e) =
                crate::files::write_output(Path::new(path), &bytes, crate::files::Existing::Replace)
            {
                eprintln!("error: failed to write `{path}`: {e}");
                return ExitCode::FAILURE;
            }
        }
        if self.failed > 0 {
            ExitCode::FAILURE
        } else if regressed {
            ExitCode::from(crate::Exit::Regression)
        } else {
            ExitCode::SUCCESS
        }
    }

    /// Compares this run's results with the baseline's and prints the table; returns the
    /// comparison document and whether anything regressed.
    fn compare(&self, base: &[store::SavedResult], selected: &[&Bench]) -> (CompareDoc, bool) {
        let options = crate::compare::CompareOptions {
            alpha: self.args.alpha.unwrap_or(0.01),
            noise: self.args.noise.unwrap_or(0.01),
            confidence: None,
        };
        // Benches left out by the filters are not "missing".
        compare_with_baseline(
            (&self.root, &self.target),
            &self.documents,
            base,
            &|name| selected.iter().any(|b| b.name == name),
            &options,
            self.args.baseline.as_deref().unwrap_or(""),
        )
    }
}
