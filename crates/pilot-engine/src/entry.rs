//! A registered bench: what `#[pilot::bench]` submits to `inventory` (the function, its options,
//! its argument values), read by the runner. The expansion names these types through
//! `pilot::__private`.

use crate::record::{Bencher, Recorder};

/// What a bench function does in a round, by its signature.
///
/// The first `usize` of each function is the index of the argument value in the bench's
/// `args` list (see [`BenchDef::args`]); the expansion of a bench without `args` ignores it.
#[derive(Clone, Copy)]
pub enum BenchBody {
    /// `fn(work: u64, rec: &mut Recorder)`: the workload times each unit itself.
    Full(fn(usize, u64, &mut Recorder)),
    /// `fn(b: &mut Bencher)`: pilot batches iterations into timed units.
    Micro(fn(usize, &mut Bencher)),
    /// `fn(work: u64)`: one duration per round (WPS method).
    ReadingsOnly(fn(usize, u64)),
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
    /// What the time PI estimates: `"trimmed"` or `"mean"` (checked by the macro).
    pub estimator: Option<&'static str>,
    /// The group whose members are compared with each other (`group = "…"`).
    pub group: Option<&'static str>,
    /// Thread counts to run the workload on at once (`threads = N` or `[…]`); empty means one.
    pub threads: &'static [usize],
    /// The device the bench is meant to saturate (`bottleneck = "disk"` or `"network"`): no
    /// `saturated_device` check for it.
    pub bottleneck: Option<&'static str>,
    /// `throughput = bytes(…)` or `elements(…)`: what one work unit processes.
    pub throughput: Option<Throughput>,
}

/// `throughput = bytes(AMOUNT)` or `elements(AMOUNT)`: the amount one work unit (one iteration
/// in the micro form) processes, per argument value.
#[derive(Clone, Copy)]
pub struct Throughput {
    /// What is counted.
    pub kind: ThroughputKind,
    /// The amount for the argument value at this index (see [`BenchBody`]).
    pub amount: fn(usize) -> u64,
}

/// What a [`Throughput`] counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThroughputKind {
    /// Bytes: shown with binary prefixes, `B/s`, `KiB/s`, `MiB/s`, `GiB/s`.
    Bytes,
    /// Elements: shown with decimal prefixes, `elem/s`, `Kelem/s`, `Melem/s`, `Gelem/s`.
    Elements,
}

impl ThroughputKind {
    /// The unit of one item counted, as throughput PIs name it (`B`, `elem`).
    pub(crate) fn unit(self) -> &'static str {
        match self {
            ThroughputKind::Bytes => crate::fmt::BYTES,
            ThroughputKind::Elements => crate::fmt::ELEMENTS,
        }
    }
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
        estimator: None,
        group: None,
        threads: &[],
        bottleneck: None,
        throughput: None,
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
    /// With `args = …`: the display names of the argument values, in order (the index of a
    /// value is what [`BenchBody`]'s functions receive). `None` without `args`.
    pub args: Option<fn() -> Vec<String>>,
}

/// Turns the value of `args = …` into the argument values: arrays, slices, vectors of the
/// argument's type, and [`Sweep`](crate::Sweep)s for integer arguments.
pub trait IntoArgs<T> {
    /// The values, in order.
    fn into_args(self) -> Vec<T>;
}

impl<T, const N: usize> IntoArgs<T> for [T; N] {
    fn into_args(self) -> Vec<T> {
        self.into()
    }
}

impl<T: Clone, const N: usize> IntoArgs<T> for &[T; N] {
    fn into_args(self) -> Vec<T> {
        self.to_vec()
    }
}

impl<T: Clone> IntoArgs<T> for &[T] {
    fn into_args(self) -> Vec<T> {
        self.to_vec()
    }
}

impl<T> IntoArgs<T> for Vec<T> {
    fn into_args(self) -> Vec<T> {
        self
    }
}

impl<T: TryFrom<u64>> IntoArgs<T> for crate::Sweep {
    fn into_args(self) -> Vec<T> {
        self.as_slice()
            .iter()
            .map(|&v| {
                T::try_from(v).unwrap_or_else(|_| {
                    panic!(
                        "pilot::range value {v} does not fit in the bench's argument type `{}`",
                        std::any::type_name::<T>()
                    )
                })
            })
            .collect()
    }
}

/// The argument values of `args = …`, for the expansion's generated functions.
pub fn args<T>(values: impl IntoArgs<T>) -> Vec<T> {
    values.into_args()
}

/// An `args` value for a borrowed parameter (`lang: &str`, `input: &[u8]`, `v: &Vec<u64>`):
/// the bench is called with a reference into the value, which lives for the call. Any value
/// that borrows as the parameter's referent does: `&'static str` or `String` for `&str`,
/// `Vec<u8>` or `&[u8]` for `&[u8]`, `Vec<u64>` for `&Vec<u64>`.
#[diagnostic::on_unimplemented(
    message = "an `args` value for a `&{T}` parameter must lend a `&{T}`: `{Self}` does not",
    label = "these values cannot be lent as `&{T}`",
    note = "give values of a type that borrows as `{T}` (`&'static str` or `String` for a \
            `&str` parameter, `Vec<u8>` for `&[u8]`, `T` itself for `&T`)"
)]
pub trait Lend<T: ?Sized> {
    /// The reference the bench is called with.
    fn lend(&self) -> &T;
}

impl<T: ?Sized, V: std::borrow::Borrow<T>> Lend<T> for V {
    fn lend(&self) -> &T {
        self.borrow()
    }
}

/// The display name of one argument value in a bench name `name/arg`: its `Debug` form, with
/// the quotes of a string taken off (`"abc"` → `abc`).
pub fn arg_name<T: std::fmt::Debug>(value: &T) -> String {
    let name = format!("{value:?}");
    match name.strip_prefix('"').and_then(|n| n.strip_suffix('"')) {
        Some(inner) => inner.to_string(),
        None => name,
    }
}

/// A value `throughput = bytes(AMOUNT)` accepts: an integer, as a count.
#[diagnostic::on_unimplemented(
    message = "a `throughput` amount counts bytes or elements: expected an integer, found `{Self}`",
    label = "not an integer"
)]
pub trait Amount {
    /// The count, or why the value is none: it is negative or does not fit in a `u64`.
    fn count(self) -> Result<u64, String>;
}

macro_rules! amounts {
    ($($t:ty),*) => {$(
        impl Amount for $t {
            fn count(self) -> Result<u64, String> {
                u64::try_from(self).map_err(|_| {
                    format!(
                        "the `throughput` amount {self} is negative or does not fit in a `u64`"
                    )
                })
            }
        }
    )*};
}

amounts!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize
);

/// A throughput amount (`throughput = bytes(AMOUNT)`) as a count.
///
/// # Panics
///
/// When the amount is negative or does not fit in a `u64`.
pub fn amount<T: Amount>(value: T) -> u64 {
    value.count().unwrap_or_else(|message| panic!("{message}"))
}

/// The argument value at `index`, for one call of the bench.
///
/// # Panics
///
/// When the list has no such index (the list changed between calls: `args` must always give
/// the same values).
pub fn arg_at<T>(mut values: Vec<T>, index: usize) -> T {
    assert!(
        index < values.len(),
        "the `args` list changed between calls: it must always give the same values"
    );
    values.swap_remove(index)
}

inventory::collect!(BenchDef);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_counts() {
        assert_eq!(amount(4096usize), 4096);
        assert_eq!(amount(64 * 1024), 65_536);
        assert_eq!(amount(u64::MAX), u64::MAX);
        assert_eq!(
            (-1i32).count(),
            Err("the `throughput` amount -1 is negative or does not fit in a `u64`".into())
        );
        assert!(u128::MAX.count().is_err());
    }
}
