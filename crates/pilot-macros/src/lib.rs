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
/// The argument may be borrowed, `&T`: each value of `args` then lives for the call, and the
/// function gets a reference to it. The values are of any type that borrows as `T`:
/// `&'static str` or `String` for a `&str` parameter, `Vec<u8>` or `&[u8]` for `&[u8]`, `T`
/// itself for `&T` (`Vec<u64>` for `&Vec<u64>`). A value that does not is a compile error at
/// `args` ("an `args` value for a `&str` parameter must lend a `&str`"). A mutable reference
/// is refused: each call gets its own value, so take it by value (`mut v: Vec<u8>`).
///
/// ```
/// # use pilot::Bencher;
/// # fn greet(lang: &str) -> String { format!("hello in {lang}") }
/// /// `greet/english` and `greet/french`.
/// #[pilot::bench(args = ["english", "french"])]
/// fn greet_in(lang: &str, b: &mut Bencher) {
///     b.iter(|| greet(lang));
/// }
///
/// /// `parse/[49, 50]` and `parse/[49, 50, 51, 52]`: a value's `Debug` form names its bench,
/// /// so large inputs are better made in the bench from a size (`args = [64, 4096]`).
/// #[pilot::bench(args = [b"12".to_vec(), b"1234".to_vec()], throughput = bytes(digits.len()))]
/// fn parse(digits: &[u8], b: &mut Bencher) {
///     b.iter(|| std::str::from_utf8(digits).unwrap().parse::<u64>().unwrap());
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
/// | `args = expr` | argument values: an array, slice or `Vec` of the first parameter's type (for a borrowed parameter `&T`, of values that borrow as `T`), or `pilot::range(a, b, factor)`; one bench `name/arg` per value | none |
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
