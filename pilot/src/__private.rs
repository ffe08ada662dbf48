//! Used by `#[pilot::bench]` and `pilot::main!()` expansions; not public API, not covered by
//! semver. Expansions name everything here by absolute path (`::pilot::__private::…`, or the
//! path given with `crate = …`), so users never depend on `inventory` themselves.

pub use inventory;

pub use crate::record::{Bencher, Recorder};

/// What a bench function does in a round, by its signature.
#[derive(Clone, Copy)]
pub enum BenchBody {
    /// `fn(work: u64, rec: &mut Recorder)`: the workload times each unit itself.
    Full(fn(u64, &mut Recorder)),
    /// `fn(b: &mut Bencher)`: pilot batches iterations into timed units.
    Micro(fn(&mut Bencher)),
    /// `fn(work: u64)`: one duration per round (WPS method).
    ReadingsOnly(fn(u64)),
}

/// The options given in `#[pilot::bench(...)]`; `None` means "use the default or the flag".
#[derive(Clone, Copy, Default)]
pub struct BenchOptions {
    /// What one work unit is, e.g. `"MiB"`: throughput is reported in `unit/s`.
    pub unit: Option<&'static str>,
    /// Valid range of the work amount, both ends inclusive.
    pub work: Option<(u64, u64)>,
    /// Target relative half-width of the confidence interval.
    pub ci: Option<f64>,
    /// Confidence level.
    pub confidence: Option<f64>,
    /// Time cap in seconds.
    pub max_time: Option<f64>,
    /// Least session time in seconds.
    pub min_time: Option<f64>,
    /// Skipped unless `--ignored` or `--include-ignored`.
    pub ignore: bool,
}

impl BenchOptions {
    /// No option given: usable in the `static` that `inventory::submit!` builds, where
    /// `Default::default()` is not (it is not `const`).
    pub const DEFAULT: BenchOptions = BenchOptions {
        unit: None,
        work: None,
        ci: None,
        confidence: None,
        max_time: None,
        min_time: None,
        ignore: false,
    };
}

/// One registered bench, submitted to `inventory` by the attribute's expansion.
pub struct BenchDef {
    /// The bench's name: the function's, or `name = "…"`.
    pub name: &'static str,
    /// `module_path!()` where the function is defined.
    pub module_path: &'static str,
    /// `file!()` of the definition.
    pub file: &'static str,
    /// `line!()` of the definition.
    pub line: u32,
    /// The function.
    pub body: BenchBody,
    /// The attribute's options.
    pub options: BenchOptions,
}

inventory::collect!(BenchDef);

/// A recorder outside any session, with room for `units` readings, for pilot's own benches of
/// what recording costs (`pilot/benches/overhead.rs`).
pub fn recorder(units: u64) -> Recorder {
    Recorder::with_capacity(units)
}

/// Forgets the readings of a recorder made by [`recorder`], keeping its buffer.
pub fn clear_recorder(rec: &mut Recorder) {
    rec.clear();
}

/// The body of the `main` that `pilot::main!()` generates.
pub fn main() -> std::process::ExitCode {
    crate::runner::main()
}
