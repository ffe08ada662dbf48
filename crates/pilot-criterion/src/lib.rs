//! criterion's API on pilot's engine: a project's criterion benches run under pilot's adaptive
//! sessions with one line changed in `Cargo.toml`.
//!
//! ```toml
//! [dev-dependencies]
//! criterion = { package = "pilot-criterion", version = "0.2" }
//! ```
//!
//! The `benches/*.rs` files stay as they are: `criterion_group!`, `criterion_main!`,
//! `Criterion`, `BenchmarkGroup`, `BenchmarkId`, `Throughput`, `Bencher` and `BatchSize` keep
//! criterion's names and signatures (its 0.3 to 0.8 forms). Each bench then runs in one of
//! pilot's sessions: rounds until the interval is as narrow as asked (±1% at 95% by default)
//! or the time cap, warm-up cut off by change-point detection, autocorrelation removed by
//! subsession analysis, the machine's run-to-run variation in the interval. Results go to
//! `target/pilot/results/`, `--save-baseline`/`--baseline` work as for `#[pilot::bench]`
//! binaries (exit code 3 on a regression), and `cargo pilot bench`, `compare`, `report` and
//! `export` read them.
//!
//! Bench ids are criterion's: `group/function/parameter` (`Criterion::bench_function("x")` is
//! `x`), and filters are read as criterion reads them, as regular expressions (the `regex`
//! crate's, as criterion's): `cargo bench -- 'encode|decode'` runs the ids that match,
//! `--exact ID` one id, `--list` lists what they select, and an invalid expression is a usage
//! error (exit code 2). The binary speaks libtest's protocol like a `#[pilot::bench]` one:
//! `cargo test --benches` runs each bench once, `--list` lists the ids, nextest runs them.
//!
//! # What criterion's settings mean here
//!
//! | criterion | under pilot |
//! | --- | --- |
//! | `measurement_time` + `warm_up_time` (5 s + 3 s) | the session's time cap (8 s); the session stops earlier once its interval is narrow enough, and a bench that cannot reach it in the cap says so |
//! | `confidence_level` | the interval's confidence |
//! | `sample_size`, `nresamples`, `sampling_mode` | no effect: pilot decides the rounds, and its interval comes from subsession analysis, not a bootstrap |
//! | `noise_threshold`, `significance_level` | no effect: the baseline comparison uses `--noise` (1%) and `--alpha` (0.01) |
//! | `with_plots`, `plot_config`, `plotting_backend`, `PlotConfiguration`, `AxisScale` | no effect: `cargo pilot report` draws the plots |
//! | `save_baseline`, `retain_baseline`, `output_directory`, `profile_time`, `with_profiler` | no effect: use `--save-baseline`/`--baseline` |
//! | `BatchSize` | the same variants, with pilot's sizes: a unit holds at most 4096 small inputs, 8 large ones |
//! | `Throughput::BytesDecimal` | shown as bytes with binary prefixes (`MiB/s`) |
//! | `Throughput::ElementsAndBytes` | shown as elements |
//! | flags `--measurement-time S` | `--max-time S` |
//! | `--significance-level`, `--noise-threshold`, `--confidence-level` | `--alpha`, `--noise`, `--confidence` |
//! | `--sample-size`, `--warm-up-time`, `--nresamples`, `--noplot`, `--discard-baseline`, `--plotting-backend`, `--profile-time`, `-v` | accepted, no effect |
//! | `--load-baseline` | refused: `cargo pilot compare OLD NEW` compares saved results |
//!
//! Only wall time is measured ([`measurement::WallTime`]); custom measurements cannot be
//! written against this crate. Configuration methods panic on values criterion panics on.
//!
//! A criterion group's benches run one after another, as criterion runs them. To compare a
//! group's alternatives, run with `--compare-groups` (`cargo bench -- --compare-groups`, `cargo
//! pilot bench --compare-groups`, or `PILOT_COMPARE_GROUPS=1`): each group's benches then run
//! interleaved, one process of each in turn, and those on the same input (`BenchmarkId`'s
//! parameter) are ranked, each adjacent pair with a ratio, its interval and Welch's verdict
//! over the processes' estimates. They stop once every pair is decided, each member measured
//! in at least three processes (`--ci` makes them reach their own intervals too).
//!
//! Alternatives that live in groups of their own (one group per library, the operations as
//! functions) are ranked with `--compare-across REGEX`: benches whose ids are the same once
//! the expression's matches are set aside are compared, in the same way.
//! `--compare-across 'TinyVec|SmallVec'` ranks `TinyVec_u8_8/TinyVec<[u8; 8]>::push` against
//! `SmallVec_u8_8/SmallVec<[u8; 8]>::push`, as `*_u8_8/*<[u8; 8]>::push`; `--compare-across
//! '^[^/]+'` ranks each function across all groups. Interleaving within one process, round by
//! round, needs pilot's own API: `#[pilot::bench(group = "…")]` (see pilot's book, "Coming
//! from criterion"), as a criterion bench's closure lives only while its `bench_function`
//! call runs.

#![deny(missing_docs)]

mod args;
pub mod async_executor;
mod bencher;
mod criterion;
mod group;
pub mod measurement;
mod plot;
pub mod profiler;
mod settings;
mod throughput;

pub use bencher::{AsyncBencher, Bencher};
pub use criterion::Criterion;
pub use group::{BenchmarkGroup, BenchmarkId, IntoBenchmarkId};
pub use pilot::BatchSize;
pub use plot::{AxisScale, PlotConfiguration, PlottingBackend, SamplingMode};
pub use throughput::Throughput;

/// An identity function the optimiser cannot see through: [`std::hint::black_box`].
#[inline]
pub fn black_box<T>(dummy: T) -> T {
    std::hint::black_box(dummy)
}

/// Defines a function `name` that runs the bench functions `targets` with a [`Criterion`]
/// made by `config` (criterion's two forms).
///
/// ```
/// use criterion::{criterion_group, Criterion};
/// # use pilot_criterion as criterion;
/// # fn decode(c: &mut Criterion) {}
/// # fn encode(c: &mut Criterion) {}
/// criterion_group!(benches, decode, encode);
/// criterion_group! {
///     name = slow;
///     config = Criterion::default().measurement_time(std::time::Duration::from_secs(2));
///     targets = decode
/// }
/// # fn main() {}
/// ```
#[macro_export]
macro_rules! criterion_group {
    (name = $name:ident; config = $config:expr; targets = $( $target:path ),+ $(,)*) => {
        /// The function which runs the benchmarks.
        pub fn $name() {
            let mut criterion: $crate::Criterion<_> = $config.configure_from_args();
            $(
                $target(&mut criterion);
            )+
        }
    };
    ($name:ident, $( $target:path ),+ $(,)*) => {
        $crate::criterion_group! {
            name = $name;
            config = $crate::Criterion::default();
            targets = $( $target ),+
        }
    };
}

/// Defines `main`: runs the groups `criterion_group!` defined, then ends the run (the table,
/// the baseline comparison, the exit code).
#[macro_export]
macro_rules! criterion_main {
    ( $( $group:path ),+ $(,)* ) => {
        fn main() {
            $(
                $group();
            )+
            $crate::Criterion::default()
                .configure_from_args()
                .final_summary();
        }
    };
}
