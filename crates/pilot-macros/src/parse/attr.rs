//! The options of `#[pilot::bench(...)]`: each known key, its example, and how its value is
//! checked and stored in [`BenchAttr`].
//!
//! [`options`] is the table of known keys, [`values`] checks each kind of value.

use proc_macro2::TokenStream;
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Expr, Ident, Token};

use super::{BenchAttr, Errors};

pub(crate) mod options;
mod values;

use options::OPTIONS;

/// One `key` or `key = value` of the attribute, before validation.
struct OptionArg {
    key: Ident,
    value: Option<Expr>,
}

impl Parse for OptionArg {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        // `parse_any` so that the keyword `crate` is a key like the others.
        let key = Ident::parse_any(input)?;
        let value = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            Some(input.parse()?)
        } else {
            None
        };
        Ok(OptionArg { key, value })
    }
}

/// Parses `#[pilot::bench(...)]`'s arguments. Syntax errors stop at the first; validation
/// errors are all reported.
pub(crate) fn parse_attr(args: TokenStream) -> syn::Result<BenchAttr> {
    let args = Punctuated::<OptionArg, Token![,]>::parse_terminated.parse2(args)?;
    let mut attr = BenchAttr::default();
    let mut errors = Errors::default();
    let mut seen: Vec<&'static str> = Vec::new();
    // Where `min_time`'s value is, to point at it if it exceeds `max_time`.
    let mut min_time_value: Option<&Expr> = None;
    for arg in &args {
        let key = arg.key.unraw().to_string();
        let Some(spec) = OPTIONS.iter().find(|spec| spec.key == key) else {
            errors.push(syn::Error::new_spanned(&arg.key, unknown_option(&key)));
            continue;
        };
        if seen.contains(&spec.key) {
            errors.push(syn::Error::new_spanned(
                &arg.key,
                format!("repeated `#[pilot::bench]` option `{key}`: give each option once"),
            ));
            continue;
        }
        seen.push(spec.key);
        if spec.key == "min_time" {
            min_time_value = arg.value.as_ref();
        }
        if let Err(error) = (spec.apply)(&mut attr, arg, spec.example) {
            errors.push(error);
        }
    }
    // Both say what throughput counts: `unit` that a work unit is the thing counted,
    // `throughput` how many bytes or elements a work unit holds.
    if let (Some(_), Some(_)) = (&attr.unit, &attr.throughput) {
        let key = args
            .iter()
            .filter(|arg| arg.key == "unit" || arg.key == "throughput")
            .nth(1)
            .map(|arg| &arg.key);
        if let Some(key) = key {
            errors.push(syn::Error::new_spanned(
                key,
                "`unit` and `throughput` both say what throughput counts: give one, \
                 `unit = \"…\"` when a work unit is itself the thing counted, or \
                 `throughput = bytes(…)` / `elements(…)` for the bytes or elements in each \
                 work unit",
            ));
        }
    }
    // `min_time` has a value whenever it was accepted.
    if let (Some(min), Some(max), Some(value)) = (attr.min_time, attr.max_time, min_time_value)
        && min > max
    {
        errors.push(syn::Error::new_spanned(
            value,
            format!(
                "`min_time = {min}` exceeds `max_time = {max}`: the least session time \
                     must be at most the time cap"
            ),
        ));
    }
    errors.finish(attr)
}

fn unknown_option(key: &str) -> String {
    let known: Vec<String> = OPTIONS
        .iter()
        .map(|spec| format!("`{}`", spec.key))
        .collect();
    format!(
        "unknown `#[pilot::bench]` option `{key}`; expected one of {}",
        known.join(", ")
    )
}

/// Whether the attribute's arguments name `args`: decides how the signature is read, even when
/// the attribute has mistakes of its own.
pub(super) fn mentions_args(args: &TokenStream) -> bool {
    Punctuated::<OptionArg, Token![,]>::parse_terminated
        .parse2(args.clone())
        .is_ok_and(|args| args.iter().any(|arg| arg.key == "args"))
}
