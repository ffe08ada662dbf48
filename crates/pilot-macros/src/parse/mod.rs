//! Turns the attribute's arguments and the marked item into our own [`BenchAttr`] and
//! [`BenchFn`], validating both. Every error is a `syn::Error` on the offending tokens; errors
//! in separate places are combined so that each mistake gets exactly one message.

//!
//! [`attr`] holds the options, [`signature`] the function's checks.

mod attr;
mod signature;

use proc_macro2::TokenStream;
use syn::ext::IdentExt;
use syn::{Expr, ItemFn, Path, Type};

use attr::mentions_args;
pub(crate) use attr::parse_attr;
#[cfg(test)]
pub(crate) use signature::parse_fn;
pub(crate) use signature::parse_fn_for;

/// What a bench's signature says it does in a round; decides the `BenchBody` variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BenchForm {
    /// `fn(work: u64, rec: &mut Recorder)`.
    Full,
    /// `fn(b: &mut Bencher)`.
    Micro,
    /// `fn(work: u64)`.
    ReadingsOnly,
}

/// The validated options of one `#[pilot::bench(...)]`. `None` means "not given".
#[derive(Default)]
pub(crate) struct BenchAttr {
    /// `name = "…"`; the function's name when not given.
    pub(crate) name: Option<String>,
    /// `unit = "…"`.
    pub(crate) unit: Option<String>,
    /// `work = a..=b` or `a..b`, stored inclusive: `1 <= lower <= upper`.
    pub(crate) work: Option<(u64, u64)>,
    /// `ci = x`, `0 < x < 1`.
    pub(crate) ci: Option<f64>,
    /// `confidence = x`, `0 < x < 1`.
    pub(crate) confidence: Option<f64>,
    /// `max_time = s`, seconds, `s > 0`.
    pub(crate) max_time: Option<f64>,
    /// `min_time = s`, seconds, `0 <= s <= max_time`.
    pub(crate) min_time: Option<f64>,
    /// `ignore`, `ignore = true` or `ignore = false`.
    pub(crate) ignore: bool,
    /// `estimator = "trimmed"` or `"mean"`: what the time PI estimates.
    pub(crate) estimator: Option<String>,
    /// `crate = path`: where the pilot crate is, for crates that re-export it.
    pub(crate) krate: Option<Path>,
    /// `group = "…"`: the group of alternatives this bench is compared with.
    pub(crate) group: Option<String>,
    /// The device the bench is meant to saturate (`bottleneck = "disk"` or `"network"`).
    pub(crate) bottleneck: Option<String>,
    /// `args = expr`: the argument values of a parameter sweep, evaluated at run time.
    pub(crate) args: Option<Expr>,
    /// `threads = N` or `threads = [N, …]`: thread counts, each at least 1.
    pub(crate) threads: Option<Vec<usize>>,
    /// `throughput = bytes(EXPR)` or `elements(EXPR)`: what one work unit (one iteration in
    /// the micro form) processes; EXPR may use the argument of a bench with `args`.
    pub(crate) throughput: Option<Throughput>,
}

/// What a bench's throughput counts, and the expression for the amount per work unit.
pub(crate) struct Throughput {
    pub(crate) kind: ThroughputKind,
    pub(crate) amount: Expr,
}

/// `bytes(…)` or `elements(…)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ThroughputKind {
    Bytes,
    Elements,
}

/// The marked function: kept whole, to be emitted unchanged, plus its form.
pub(crate) struct BenchFn {
    /// The function as the user wrote it.
    pub(crate) item: ItemFn,
    /// What its signature says it is (after the argument, when it takes one).
    pub(crate) form: BenchForm,
    /// The type of the argument parameter (the first), for a bench with `args`.
    pub(crate) arg: Option<Type>,
}

impl BenchFn {
    /// The bench's default name: the function's, without `r#`.
    pub(crate) fn default_name(&self) -> String {
        self.item.sig.ident.unraw().to_string()
    }
}

/// The message for a signature that is none of the three forms.
pub(crate) const EXPECTED_SIGNATURE: &str = "expected `fn(work: u64, rec: &mut Recorder)`, \
                                             `fn(b: &mut Bencher)` or `fn(work: u64)`";

/// The message for a signature with `args` that is none of the three forms after an argument.
pub(crate) const EXPECTED_SIGNATURE_WITH_ARG: &str = "with `args`, expected the argument first: `fn(n: T, work: u64, rec: &mut Recorder)`, \
     `fn(n: T, b: &mut Bencher)` or `fn(n: T, work: u64)`";

/// Parses and validates both halves of the attribute; all mistakes found are in the error.
pub(crate) fn parse(args: TokenStream, item: TokenStream) -> syn::Result<(BenchAttr, BenchFn)> {
    let with_args = mentions_args(&args);
    match (parse_attr(args), parse_fn_for(item, with_args)) {
        (Ok(attr), Ok(function)) => Ok((attr, function)),
        (Err(mut first), Err(second)) => {
            first.combine(second);
            Err(first)
        }
        (Err(error), Ok(_)) | (Ok(_), Err(error)) => Err(error),
    }
}

/// Errors found in separate places, reported together.
#[derive(Default)]
pub(crate) struct Errors(Option<syn::Error>);

impl Errors {
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(errors) => errors.combine(error),
            None => self.0 = Some(error),
        }
    }

    pub(crate) fn finish<T>(self, value: T) -> syn::Result<T> {
        match self.0 {
            Some(error) => Err(error),
            None => Ok(value),
        }
    }
}

#[cfg(test)]
mod tests;
