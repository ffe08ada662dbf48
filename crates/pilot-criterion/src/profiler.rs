//! criterion's profiler hook, accepted: `--profile-time`, the only mode that calls a profiler,
//! is not one of pilot's, so a profiler given with
//! [`Criterion::with_profiler`](crate::Criterion::with_profiler) is never started.

use std::path::Path;

/// A profiler criterion would start and stop around a bench in `--profile-time` mode.
pub trait Profiler {
    /// Starts profiling bench `benchmark_id`, writing into `benchmark_dir`.
    fn start_profiling(&mut self, benchmark_id: &str, benchmark_dir: &Path);
    /// Stops profiling bench `benchmark_id`.
    fn stop_profiling(&mut self, benchmark_id: &str, benchmark_dir: &Path);
}
