//! A bench target's results on disk, as a run uses them: the baseline read before anything
//! runs, each result saved as it is measured, and the comparison with the baseline at the end.

use std::path::Path;

use crate::store;
use pilot_format::{CompareDoc, ResultDoc};

/// The results of baseline `name` (when one is asked for) for bench target `target`, read
/// before anything runs so that a missing or corrupt baseline stops the run at once. A
/// baseline without the target has no results for it.
pub fn load_baseline(
    root: &Path,
    name: Option<&str>,
    target: &str,
) -> crate::Result<Option<Vec<store::SavedResult>>> {
    let Some(name) = name else {
        return Ok(None);
    };
    let dir = store::baseline(&store::baselines_dir(root), name)?.join(target);
    if !dir.is_dir() {
        return Ok(Some(Vec::new()));
    }
    store::read_dir(&dir).map(Some)
}

/// What [`save_result`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Saved {
    /// Whether the result is now the latest on disk (what `results:` points to, and what a
    /// history may record).
    pub latest: bool,
    /// The writes refused or failed, each said on standard error.
    pub failed: usize,
}

/// Writes `doc` as the latest result of bench `name` of `target`, and into `baseline` when
/// one is being saved. A document that would not pass the reader's checks is refused (it
/// would break every later comparison), and a write that fails is an error: either way it is
/// said on standard error, counted in [`Saved::failed`], and the file on disk stays as it
/// was.
pub fn save_result(
    root: &Path,
    target: &str,
    name: &str,
    doc: &ResultDoc,
    baseline: Option<&str>,
) -> Saved {
    if let Err(e) = doc.validate() {
        eprintln!(
            "error: `{}` produced a result pilot cannot read back, so it was not saved (a bug \
             in pilot): {}",
            crate::fmt::terminal(name),
            crate::fmt::terminal_lines(&e)
        );
        return Saved {
            latest: false,
            failed: 1,
        };
    }
    let bytes = serde_json::to_vec_pretty(doc).expect("documents serialise");
    let latest = store::latest_path(root, target, name);
    let mut paths = vec![latest.clone()];
    if let Some(baseline) = baseline {
        paths.push(store::baseline_path(root, baseline, target, name));
    }
    let mut saved = Saved {
        latest: false,
        failed: 0,
    };
    for path in paths {
        match crate::files::write_atomic(&path, &bytes) {
            Ok(()) => saved.latest |= path == latest,
            Err(e) => {
                eprintln!(
                    "error: failed to write the result of `{}` to `{}`: {e}",
                    crate::fmt::terminal(name),
                    crate::fmt::terminal_path(&path)
                );
                saved.failed += 1;
            }
        }
    }
    saved
}

/// Compares the results `docs` of `target` (saved as latest under `root`) with the
/// baseline's and prints the table; `ran` says which baseline entries this run covered (the
/// others are not "missing"). Returns the comparison document and whether anything regressed.
pub fn compare_with_baseline(
    (root, target): (&Path, &str),
    docs: &[ResultDoc],
    base: &[store::SavedResult],
    ran: &dyn Fn(&str) -> bool,
    options: &crate::compare::CompareOptions,
    baseline: &str,
) -> (CompareDoc, bool) {
    let comparisons = compare_results((root, target), docs, base, ran, options);
    crate::outln!(
        "\ncompared with baseline `{}`:\n{}",
        crate::fmt::terminal(baseline),
        crate::report::comparison_table(&comparisons, options)
    );
    (
        crate::report::comparison_doc(&comparisons, options),
        crate::compare::any_regressed(&comparisons),
    )
}

/// The comparisons of [`compare_with_baseline`], not printed; the warnings of a baseline from
/// another machine are.
pub(crate) fn compare_results(
    (root, target): (&Path, &str),
    docs: &[ResultDoc],
    base: &[store::SavedResult],
    ran: &dyn Fn(&str) -> bool,
    options: &crate::compare::CompareOptions,
) -> Vec<crate::compare::Comparison> {
    let results: Vec<store::SavedResult> = docs
        .iter()
        .filter_map(|d| {
            let path = store::latest_path(root, target, &d.name);
            store::from_document(d, &path).ok()
        })
        .collect();
    let comparisons = crate::compare::against_baseline(base, &results, |r| ran(&r.name), options);
    for w in crate::compare::machine_mismatch(base, &results) {
        crate::outln!("warning: {}", crate::fmt::terminal(&w));
    }
    comparisons
}
