//! What `cargo pilot` uses of the library: saved results and baselines, comparisons, reports
//! and the documents on disk. Not public API, not covered by semver: the crate `cargo-pilot`
//! is built from the same version. Each item lives where its concept does; this module only
//! re-exports.

/// Comparing results with a baseline.
pub mod compare {
    pub use crate::compare::{
        BASELINE_PROCESSES, Change, CompareOptions, Comparison, Verdict, against_baseline,
        any_regressed, compare, compare_estimates, compare_pair, compare_paired, machine_mismatch,
    };
}

/// Process executions of a bench started from outside its binary, and their combination.
pub mod processes {
    pub use crate::probe::machine;
    pub use crate::runner::{ChildFailure, ChildReport, combine_children, now};
}

/// Command-line programs measured by `cargo pilot run`.
pub mod program {
    pub use crate::program::{Mode, Output, Plan, Program, TARGET, run};
}

/// Tables, Markdown and documents of results and comparisons.
pub mod report {
    pub use crate::fmt::{csv_text, markdown_code, terminal};
    pub use crate::report::{
        bencher_lines, columns, comparison_doc, comparison_markdown, comparison_table,
        format_estimate, format_ns, results_markdown, results_table, weak_baseline,
    };
}

/// Results on disk.
pub mod store {
    pub use crate::files::{Existing, write_atomic, write_output};
    /// The documents on disk.
    pub mod schema {
        pub use crate::schema::*;
    }
    pub use crate::store::{
        SampleMoments, SavedEstimate, SavedResult, baseline, baseline_names, baseline_path,
        baselines_dir, bench_target_of, check_folder_name, from_document, last_run_path,
        latest_path, read_dir, read_documents_in, read_file, read_path, read_result, results_dir,
    };
}

/// Settings as types, parsed and bounded as the bench binary parses them.
pub mod settings {
    pub use crate::settings::{
        BaselineName, Cap, Confidence, Count, Estimator, Fraction, MAX_SECONDS, MinTime, Noise,
        Switch,
    };
}
