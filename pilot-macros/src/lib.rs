//! The `#[pilot::bench]` attribute of the pilot benchmark harness.
//!
//! Use it through the `pilot` crate (`#[pilot::bench]`), not directly: its expansions name
//! `::pilot::__private`, which this crate does not depend on.
//!
//! `parse` turns the attribute and the function into validated types of our own, `expand`
//! generates the code; this file only dispatches.

use proc_macro::TokenStream;

mod expand;
mod parse;

/// Marks a function as a pilot benchmark, run by the `main` that `pilot::main!()` generates.
///
/// The signature decides the form:
///
/// ```
/// use std::io::Write;
/// use pilot::{Bencher, Recorder};
/// # fn setup() -> (Vec<u8>, Vec<u8>) { (Vec::new(), vec![0u8; 1 << 20]) }
/// # fn random_vec(n: usize) -> Vec<u64> { (0..n as u64).rev().collect() }
/// # struct Index;
/// # impl Index { fn build(work: u64) { pilot::black_box(work); } }
///
/// /// Full form: pilot picks each round's work amount; the workload times each unit.
/// #[pilot::bench(unit = "MiB", work = 1..=4096)]
/// fn seq_write(work: u64, rec: &mut Recorder) {
///     let (mut file, buf) = setup(); // not timed: outside every unit
///     for _ in 0..work {
///         rec.unit(|| file.write_all(&buf).unwrap());
///     }
/// }
///
/// /// Micro form: pilot batches iterations into work units long enough to time precisely.
/// #[pilot::bench]
/// fn sort_10k(b: &mut Bencher) {
///     let input = random_vec(10_000);
///     b.iter_batched(|| input.clone(), |mut v| v.sort());
/// }
///
/// /// Readings-only form: pilot times whole rounds (the work-per-second method).
/// #[pilot::bench(work = 1_000..=1_000_000)]
/// fn build_index(work: u64) {
///     Index::build(work);
/// }
///
/// pilot::main!();
/// ```
///
/// With `args`, the function takes the argument first: `fn(n: T, b: &mut Bencher)`,
/// `fn(n: T, work: u64, rec: &mut Recorder)` or `fn(n: T, work: u64)`, `T: Debug`.
///
/// ```
/// # use pilot::Bencher;
/// # fn encode_base64(input: &[u8]) -> usize { input.len() * 4 / 3 }
/// /// Throughput per argument value: `n` bytes per iteration, shown in `B/s`, `KiB/s`, ….
/// #[pilot::bench(args = [64, 4096], throughput = bytes(n))]
/// fn encode(n: usize, b: &mut Bencher) {
///     let input = vec![0u8; n];
///     b.iter(|| encode_base64(&input));
/// }
/// # pilot::main!();
/// ```
///
/// A bench is a free function without generics, `async`, `unsafe`, `extern` or return value;
/// `const fn` is accepted. Its visibility, doc comments and other attributes are kept.
///
/// # Options
///
/// All optional, comma-separated:
///
/// | option | value | default |
/// | --- | --- | --- |
/// | `name = "…"` | non-empty string | the function's name |
/// | `unit = "…"` | what one work unit is, e.g. `"MiB"`; throughput is shown in `unit/s` | none |
/// | `throughput = bytes(N)` or `elements(N)` | bytes or elements one work unit (one iteration in the micro form) processes; `N` an integer expression that may use the `args` argument by its parameter's name; shown in `B/s`, `KiB/s`, … or `elem/s`, `Kelem/s`, …; not with `unit` | none |
/// | `work = a..=b` or `a..b` | range of work amounts, integer literals, `1 <= a <= b` | pilot's |
/// | `ci = x` | target relative half-width of the confidence interval, `0 < x < 1` | `0.01` |
/// | `confidence = x` | confidence level, `0 < x < 1` | `0.95` |
/// | `max_time = s` | time cap in seconds, `s > 0` | `10` |
/// | `min_time = s` | least session time in seconds, `0 <= s <= max_time` | `0` |
/// | `estimator = "trimmed"` or `"mean"` | what the time estimates: the code's cost with interrupted units left out, or the mean of every unit | `"trimmed"` |
/// | `ignore` or `ignore = bool` | skip unless `--ignored` or `--include-ignored` | `false` |
/// | `group = "…"` | non-empty string: benches of one group are run interleaved and ranked | none |
/// | `bottleneck = "disk"` or `"network"` | the device the bench is meant to saturate: no `saturated_device` check for it | none |
/// | `args = expr` | argument values: an array, slice or `Vec` of the first parameter's type, or `pilot::range(a, b, factor)`; one bench `name/arg` per value | none |
/// | `threads = N` or `[N, …]` | run each round on N threads at once (integers `>= 1`); a list sweeps, `name/threads=N` | `1` |
/// | `crate = path` | path of the pilot crate, for crates that re-export it | `::pilot` |
///
/// Command-line flags and `PILOT_*` environment variables override the attribute.
///
/// The bench is registered from an anonymous `const _` block, so the attribute cannot go on an
/// associated function in an `impl` block.
#[proc_macro_attribute]
pub fn bench(args: TokenStream, item: TokenStream) -> TokenStream {
    let item = proc_macro2::TokenStream::from(item);
    match parse::parse(args.into(), item.clone()) {
        Ok((attr, function)) => expand::bench(&attr, &function),
        Err(error) => expand::with_errors(error, item),
    }
    .into()
}
