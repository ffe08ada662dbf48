//! divan's API on pilot's engine: a project's divan benches run under pilot's adaptive
//! sessions with one line changed in `Cargo.toml`.
//!
//! ```toml
//! [dev-dependencies]
//! divan = { package = "pilot-divan", version = "0.2" }
//! ```
//!
//! The `benches/*.rs` files stay as they are: `#[divan::bench]`, `#[divan::bench_group]`,
//! `divan::main()`, [`Divan`], [`Bencher`], the [`counter`]s, [`AllocProfiler`],
//! [`black_box`] and [`black_box_drop`] keep divan 0.1's names and signatures. Each bench then
//! runs in one of pilot's sessions: rounds until the interval is as narrow as asked (±1% at 95%
//! by default) or the time cap, warm-up cut off by change-point detection, autocorrelation
//! removed by subsession analysis, several processes, the machine's run-to-run variation in the
//! interval. Results go to `target/pilot/results/`, `--save-baseline`/`--baseline` work as for
//! `#[pilot::bench]` binaries (exit code 3 on a regression), and `cargo pilot bench`,
//! `compare`, `report` and `export` read them.
//!
//! # Ids and filters
//!
//! A bench's id is divan's: the module path with the crate's name first, each module shown by
//! its group's `name` where it has one, the function (or its `name`), a generic function's
//! type and constant, then the argument value: `sort::slice::sort_unstable::Vec<u8>::1000`.
//! Filters are divan's: regular expressions over the ids (`cargo bench -- 'add|sub'`), whole ids
//! with `--exact`, `--skip FILTER`, `--ignored`, `--include-ignored`. The binary speaks
//! libtest's protocol: `cargo test --benches` runs each bench once, `--list --format terse`
//! lists the ids (one `ID: benchmark` line each, an argument's value each, as divan lists them
//! for nextest), nextest runs them; `--list` prints divan's tree (the crate, its modules and
//! groups, generic functions over their types, `├─ ` and `╰─ ` before each name, `(ignored)`
//! beside an ignored bench).
//!
//! A function with several thread counts (`threads = [1, 4]`) is one bench per count, with
//! `::t=N` after its id (divan measures the counts under one id and shows them as `t=N` below
//! it): each has a result of its own. A filter that matches the id matches all its counts.
//!
//! # What divan's options mean here
//!
//! | divan | under pilot |
//! | --- | --- |
//! | `max_time` (attribute, `Divan::max_time`, `--max-time`, `DIVAN_MAX_TIME`) | the session's time cap (pilot's `max_time`, default 10 s); the session stops earlier once its interval is narrow enough |
//! | `min_time` | the session's least time (pilot's `min_time`); above `max_time` it is `max_time`, as divan's `max_time` wins |
//! | `sample_count`, `sample_size` (attribute, `Divan`, flags, variables) | no effect: pilot decides its rounds and the iterations of its units, and its interval comes from subsession analysis |
//! | `skip_ext_time` | no effect: input generation and drops are outside the timing either way; the cap counts the session's wall time |
//! | `threads` | one bench per count, `…::t=N`: the closure runs on N threads at once, as divan runs it, each unit's reading the mean of the N threads' times (the time per iteration of one thread while N run) |
//! | `counter`, `counters`, `bytes_count`, `chars_count`, `items_count`, `cycles_count`, `Bencher::counter`, `Bencher::input_counter`, `--bytes-count` … | the bench's throughput, one per bench: bytes if set (`B/s`, binary prefixes), else chars (`char/s`), else items (`item/s`), else cycles (`cycle/s`); a per-input counter is the mean over the first inputs (up to 16, or 50 ms of them), learnt in a call of the bench function before the run whose routine is not run |
//! | `BytesFormat`, `--bytes-format` | no effect: bytes are shown with binary prefixes |
//! | `ignore`, `#[ignore]` | the bench is ignored (`--ignored`, `--include-ignored`) |
//! | `name`, `crate`, `args`, `consts`, `types` | as in divan: they make the ids |
//! | `Bencher::bench`, `bench_local` | pilot's `iter` (`iter_batched`, outputs dropped outside the timing, when the output needs dropping) |
//! | `with_inputs` + `bench_values`, `bench_local_values` | pilot's `iter_batched` (inputs made, outputs dropped, outside the timing) |
//! | `with_inputs` + `bench_refs`, `bench_local_refs` | pilot's `iter_batched_ref` |
//! | `AllocProfiler` | pilot's `CountingAlloc` under divan's name: allocations and bytes per iteration become performance indices with intervals, beside time (the thread running the iteration is counted) |
//! | `--timer`, `--sort`, `--sortr`, `--color` values of divan's | `--timer` accepted with no effect; `--sort`, `--sortr` (and `DIVAN_SORT`, `DIVAN_SORTR`) sort `--list`'s tree as divan's do, and benches run and print in source order; `--color` is pilot's |
//! | `Divan::main`, `run_benches`, `test_benches`, `list_benches`; `Divan::default()` without `from_args` | as in divan: without `from_args`/`config_with_args` the command line is not read and the benches are measured |
//!
//! divan calls a bench function once per bench; pilot calls it once per round (and once
//! before, to learn its counters in benchmark mode), so its setup runs each time: a setup
//! with side effects that must happen once belongs in a `static`.

#![deny(missing_docs)]

#[doc(hidden)]
pub mod __private;

mod alloc;
mod arg;
mod bencher;
mod cli;
pub mod counter;
mod divan;
mod entry;
mod filter;
mod list;
mod options;
mod threads;
mod tree;

pub use alloc::AllocProfiler;
pub use bencher::{Bencher, BencherConfig, NoInput};
pub use divan::{Divan, IntoRegex};

/// `use divan::prelude::*;` brings the attributes, [`black_box`], [`black_box_drop`],
/// [`AllocProfiler`], [`Bencher`] and [`Divan`].
pub mod prelude {
    #[doc(no_inline)]
    pub use crate::{AllocProfiler, Bencher, Divan, bench, bench_group, black_box, black_box_drop};
}

#[doc(inline)]
pub use std::hint::black_box;

/// [`black_box`], then [`drop`].
#[inline]
pub fn black_box_drop<T>(dummy: T) {
    _ = black_box(dummy);
}

/// Runs the registered benches as the command line says: `Divan::from_args().main()`.
///
/// ```no_run
/// # extern crate pilot_divan as divan;
/// #[divan::bench]
/// fn add() -> i32 {
///     divan::black_box(1) + divan::black_box(42)
/// }
///
/// fn main() {
///     divan::main();
/// }
/// ```
pub fn main() {
    Divan::from_args().main();
}

/// Registers a function as a bench, divan's attribute.
///
/// ```no_run
/// # extern crate pilot_divan as divan;
/// use divan::{Bencher, black_box, counter::BytesCount};
///
/// /// Without a `Bencher`: the function is the routine, its output dropped outside the timing.
/// #[divan::bench]
/// fn add() -> i32 {
///     black_box(1) + black_box(42)
/// }
///
/// /// Over argument values: ids `…::init_vec::10` and `…::init_vec::1000`.
/// #[divan::bench(args = [10, 1000])]
/// fn init_vec(len: usize) -> Vec<usize> {
///     (0..len).collect()
/// }
///
/// /// With a `Bencher`: setup before `bench`, not timed; a counter is the throughput.
/// #[divan::bench(max_time = 2)]
/// fn copy_from_slice(bencher: Bencher) {
///     let src = (0..100).collect::<Vec<i32>>();
///     let mut dst = vec![0; src.len()];
///     bencher
///         .counter(BytesCount::of_slice(&src))
///         .bench_local(|| black_box(&mut dst).copy_from_slice(black_box(&src)));
/// }
///
/// /// Generic over types and constants: `…::from_elem::u8::64`, and so on.
/// #[divan::bench(types = [u8, u64], consts = [64, 4096])]
/// fn from_elem<T: Default + Clone, const N: usize>() -> Vec<T> {
///     vec![T::default(); N]
/// }
///
/// fn main() {
///     divan::main();
/// }
/// ```
///
/// Options (see the crate's docs for what each means here): `name`, `crate`, `args`,
/// `consts`, `types`, `sample_count`, `sample_size`, `threads`, `counter`, `counters`,
/// `bytes_count`, `chars_count`, `cycles_count`, `items_count`, `min_time`, `max_time`,
/// `skip_ext_time`, `ignore` (or `#[ignore]`). What divan refuses as it expands, this refuses
/// at the same place: an option given twice, `types` without a type parameter, `consts`
/// without a const parameter, `args` without an argument, an argument without `args`, an
/// unknown option, a value of the wrong type.
#[doc(inline)]
pub use pilot_divan_macros::bench;

/// Registers a module as a group: its options hold for the benches inside it (and the groups
/// inside it) unless they set their own; `name` shows the module under another name in ids.
///
/// ```no_run
/// # extern crate pilot_divan as divan;
/// #[divan::bench_group(max_time = 1, name = "arithmetic")]
/// mod math {
///     use divan::black_box;
///
///     #[divan::bench]
///     fn add() -> i32 {
///         black_box(1) + black_box(42)
///     }
///
///     /// Its own cap: 3 s.
///     #[divan::bench(max_time = 3)]
///     fn div() -> i32 {
///         black_box(1) / black_box(42)
///     }
/// }
///
/// fn main() {
///     divan::main();
/// }
/// ```
///
/// Options: `name`, `crate`, `sample_count`, `sample_size`, `threads`, `counter`,
/// `counters`, the `*_count` shorthands, `min_time`, `max_time`, `skip_ext_time`, `ignore`
/// (or `#[ignore]`).
#[doc(inline)]
pub use pilot_divan_macros::bench_group;
