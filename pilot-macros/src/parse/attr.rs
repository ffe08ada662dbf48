//! The options of `#[pilot::bench(...)]`: each known key, its example, and how its value is
//! checked and stored in [`BenchAttr`].

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Expr, Ident, Lit, Path, RangeLimits, Token, UnOp};

use super::{BenchAttr, Errors, Throughput, ThroughputKind};

/// One known option: its key, an example shown in messages, and how it is applied.
///
/// To add an option, add a field to [`BenchAttr`] and a row to [`OPTIONS`].
struct OptionSpec {
    key: &'static str,
    /// A valid use, quoted in error messages.
    example: &'static str,
    /// Validates the value (`None` for a bare `key`) and stores it in the attribute.
    apply: fn(&mut BenchAttr, &OptionArg, &'static str) -> syn::Result<()>,
}

/// Every option `#[pilot::bench]` knows, in the order the docs list them.
const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "name",
        example: "name = \"sort_10k\"",
        apply: |attr, arg, example| {
            attr.name = Some(non_empty_string(arg, example)?);
            Ok(())
        },
    },
    OptionSpec {
        key: "unit",
        example: "unit = \"MiB\"",
        apply: |attr, arg, example| {
            attr.unit = Some(non_empty_string(arg, example)?);
            Ok(())
        },
    },
    OptionSpec {
        key: "throughput",
        example: "throughput = bytes(n)",
        apply: |attr, arg, example| {
            attr.throughput = Some(throughput(arg, example)?);
            Ok(())
        },
    },
    OptionSpec {
        key: "work",
        example: "work = 1..=4096",
        apply: |attr, arg, example| {
            attr.work = Some(work_range(arg, example)?);
            Ok(())
        },
    },
    OptionSpec {
        key: "ci",
        example: "ci = 0.01",
        apply: |attr, arg, example| {
            let message = format!(
                "`ci` is the target relative half-width of the confidence interval: expected a \
                 number greater than 0 and less than 1, e.g. `{example}` for ±1%"
            );
            attr.ci = Some(number_in(arg, example, &message, |x| x > 0.0 && x < 1.0)?);
            Ok(())
        },
    },
    OptionSpec {
        key: "confidence",
        example: "confidence = 0.99",
        apply: |attr, arg, example| {
            let message = format!(
                "`confidence` is the confidence level: expected a number greater than 0 and \
                 less than 1, e.g. `{example}`"
            );
            attr.confidence = Some(number_in(arg, example, &message, |x| x > 0.0 && x < 1.0)?);
            Ok(())
        },
    },
    OptionSpec {
        key: "max_time",
        example: "max_time = 5",
        apply: |attr, arg, example| {
            let message = format!(
                "`max_time` is the time cap in seconds: expected a number greater than 0, \
                 e.g. `{example}` or `max_time = 2.5`"
            );
            attr.max_time = Some(number_in(arg, example, &message, |x| x > 0.0)?);
            Ok(())
        },
    },
    OptionSpec {
        key: "min_time",
        example: "min_time = 1",
        apply: |attr, arg, example| {
            let message = format!(
                "`min_time` is the least session time in seconds: expected a number, 0 or \
                 more, e.g. `{example}`"
            );
            attr.min_time = Some(number_in(arg, example, &message, |x| x >= 0.0)?);
            Ok(())
        },
    },
    OptionSpec {
        key: "estimator",
        example: "estimator = \"mean\"",
        apply: |attr, arg, example| {
            let chosen = non_empty_string(arg, example)?;
            if !["trimmed", "mean"].contains(&chosen.as_str()) {
                return Err(syn::Error::new_spanned(
                    value(arg, example)?,
                    format!(
                        "`estimator` says what the time estimates: `\"trimmed\"` (the code's \
                         cost, the default) or `\"mean\"` (every unit, the interrupted ones \
                         included), e.g. `{example}`"
                    ),
                ));
            }
            attr.estimator = Some(chosen);
            Ok(())
        },
    },
    OptionSpec {
        key: "ignore",
        example: "ignore",
        apply: |attr, arg, _| {
            attr.ignore = flag(arg)?;
            Ok(())
        },
    },
    OptionSpec {
        key: "group",
        example: "group = \"maps\"",
        apply: |attr, arg, example| {
            attr.group = Some(non_empty_string(arg, example)?);
            Ok(())
        },
    },
    OptionSpec {
        key: "bottleneck",
        example: "bottleneck = \"disk\"",
        apply: |attr, arg, example| {
            let device = non_empty_string(arg, example)?;
            if !["disk", "network"].contains(&device.as_str()) {
                return Err(syn::Error::new_spanned(
                    value(arg, example)?,
                    format!(
                        "`bottleneck` names the device the bench is meant to saturate: \
                         `\"disk\"` or `\"network\"`, e.g. `{example}`"
                    ),
                ));
            }
            attr.bottleneck = Some(device);
            Ok(())
        },
    },
    OptionSpec {
        key: "args",
        example: "args = [100, 10_000]",
        apply: |attr, arg, example| {
            let value = value(arg, example)?;
            let empty = match value {
                Expr::Array(array) => array.elems.is_empty(),
                Expr::Reference(reference) => {
                    matches!(unwrap_expr(&reference.expr), Expr::Array(a) if a.elems.is_empty())
                }
                _ => false,
            };
            if empty || matches!(value, Expr::Lit(_)) {
                return Err(syn::Error::new_spanned(
                    value,
                    format!(
                        "`args` expects a non-empty list of argument values, e.g. `{example}` \
                         or `args = pilot::range(1, 64, 2)`"
                    ),
                ));
            }
            attr.args = Some(value.clone());
            Ok(())
        },
    },
    OptionSpec {
        key: "threads",
        example: "threads = 4",
        apply: |attr, arg, example| {
            attr.threads = Some(thread_counts(arg, example)?);
            Ok(())
        },
    },
    OptionSpec {
        key: "crate",
        example: "crate = ::my_crate::pilot",
        apply: |attr, arg, example| {
            attr.krate = Some(path(arg, example)?);
            Ok(())
        },
    },
];

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
    if let (Some(min), Some(max), Some(value)) = (attr.min_time, attr.max_time, min_time_value) {
        if min > max {
            errors.push(syn::Error::new_spanned(
                value,
                format!(
                    "`min_time = {min}` exceeds `max_time = {max}`: the least session time \
                     must be at most the time cap"
                ),
            ));
        }
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

/// The value of an option that needs one, or an error on the bare key.
fn value<'a>(arg: &'a OptionArg, example: &str) -> syn::Result<&'a Expr> {
    arg.value.as_ref().map(unwrap_expr).ok_or_else(|| {
        syn::Error::new_spanned(
            &arg.key,
            format!(
                "`#[pilot::bench]` option `{}` needs a value, e.g. `{example}`",
                arg.key.unraw()
            ),
        )
    })
}

/// Sees through the invisible groups and parentheses that `macro_rules!` fragments add.
fn unwrap_expr(mut expr: &Expr) -> &Expr {
    loop {
        match expr {
            Expr::Group(group) => expr = &group.expr,
            Expr::Paren(paren) => expr = &paren.expr,
            _ => return expr,
        }
    }
}

fn non_empty_string(arg: &OptionArg, example: &str) -> syn::Result<String> {
    let value = value(arg, example)?;
    if let Expr::Lit(syn::ExprLit {
        lit: Lit::Str(lit), ..
    }) = value
    {
        let string = lit.value();
        if !string.is_empty() {
            return Ok(string);
        }
    }
    Err(syn::Error::new_spanned(
        value,
        format!(
            "`{}` expects a non-empty string literal, e.g. `{example}`",
            arg.key.unraw()
        ),
    ))
}

/// `a..=b` or `a..b` of integer literals, returned inclusive, with `1 <= a <= b`.
fn work_range(arg: &OptionArg, example: &str) -> syn::Result<(u64, u64)> {
    let value = value(arg, example)?;
    let not_a_range = |tokens: &dyn ToTokens| {
        syn::Error::new_spanned(
            tokens,
            format!(
                "`work` expects a range of work amounts with integer literal bounds, \
                 e.g. `{example}` or `work = 1..4097`"
            ),
        )
    };
    let Expr::Range(range) = value else {
        return Err(not_a_range(value));
    };
    let (Some(start), Some(end)) = (&range.start, &range.end) else {
        return Err(not_a_range(range));
    };
    let bound = |expr: &Expr| -> syn::Result<u64> {
        match unwrap_expr(expr) {
            Expr::Lit(syn::ExprLit {
                lit: Lit::Int(lit), ..
            }) if matches!(lit.suffix(), "" | "u64") => lit
                .base10_parse::<u64>()
                .map_err(|_| syn::Error::new_spanned(lit, "`work` bounds must fit in a `u64`")),
            other => Err(not_a_range(other)),
        }
    };
    let lower = bound(start)?;
    let upper = bound(end)?;
    if lower == 0 {
        return Err(syn::Error::new_spanned(
            start,
            "`work` must start at 1 or more: every round does at least one work unit",
        ));
    }
    let inclusive_upper = match range.limits {
        RangeLimits::Closed(_) => Some(upper),
        RangeLimits::HalfOpen(_) => upper.checked_sub(1),
    };
    match inclusive_upper {
        Some(inclusive_upper) if lower <= inclusive_upper => Ok((lower, inclusive_upper)),
        _ => Err(syn::Error::new_spanned(
            range,
            format!(
                "`work` range is empty: its lower bound must be at most its upper bound, \
                 e.g. `{example}`"
            ),
        )),
    }
}

/// `bytes(EXPR)` or `elements(EXPR)`: the expression is checked by the compiler where the
/// expansion evaluates it, with the bench's argument in scope.
fn throughput(arg: &OptionArg, example: &str) -> syn::Result<Throughput> {
    let value = value(arg, example)?;
    let expected = |tokens: &dyn ToTokens| {
        syn::Error::new_spanned(
            tokens,
            format!(
                "`throughput` expects `bytes(AMOUNT)` or `elements(AMOUNT)`: how many bytes or \
                 elements one work unit (one iteration in the micro form) processes, e.g. \
                 `{example}` or `throughput = elements(1024)`"
            ),
        )
    };
    let Expr::Call(call) = value else {
        return Err(expected(value));
    };
    let kind = match unwrap_expr(&call.func) {
        Expr::Path(path) if path.path.is_ident("bytes") => ThroughputKind::Bytes,
        Expr::Path(path) if path.path.is_ident("elements") => ThroughputKind::Elements,
        other => return Err(expected(other)),
    };
    let name = match kind {
        ThroughputKind::Bytes => "bytes",
        ThroughputKind::Elements => "elements",
    };
    match call.args.len() {
        1 => Ok(Throughput {
            kind,
            amount: call.args[0].clone(),
        }),
        _ => Err(syn::Error::new_spanned(
            call,
            format!(
                "`{name}(…)` takes one expression: the {name} one work unit (one iteration in \
                 the micro form) processes, e.g. `throughput = {name}(4096)`, or \
                 `throughput = {name}(n)` with the argument `n` of a bench with `args`"
            ),
        )),
    }
}

/// A float or integer literal, possibly negated, for which `valid` holds.
fn number_in(
    arg: &OptionArg,
    example: &str,
    message: &str,
    valid: fn(f64) -> bool,
) -> syn::Result<f64> {
    let value = value(arg, example)?;
    let number = match value {
        Expr::Unary(unary) if matches!(unary.op, UnOp::Neg(_)) => {
            literal_number(unwrap_expr(&unary.expr)).map(|x| -x)
        }
        other => literal_number(other),
    };
    match number {
        Some(number) if number.is_finite() && valid(number) => Ok(number),
        _ => Err(syn::Error::new_spanned(value, message)),
    }
}

fn literal_number(expr: &Expr) -> Option<f64> {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Float(lit),
            ..
        }) => lit.base10_parse().ok(),
        Expr::Lit(syn::ExprLit {
            lit: Lit::Int(lit), ..
        }) => lit.base10_parse().ok(),
        _ => None,
    }
}

/// A bare `key` is `true`; otherwise `key = true` or `key = false`.
fn flag(arg: &OptionArg) -> syn::Result<bool> {
    let Some(value) = arg.value.as_ref().map(unwrap_expr) else {
        return Ok(true);
    };
    match value {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Bool(lit),
            ..
        }) => Ok(lit.value),
        other => Err(syn::Error::new_spanned(
            other,
            format!(
                "`{0}` is a flag: write `{0}`, `{0} = true` or `{0} = false`",
                arg.key.unraw()
            ),
        )),
    }
}

/// `N` or `[N, …]` of integer literals, each at least 1, without repeats.
fn thread_counts(arg: &OptionArg, example: &str) -> syn::Result<Vec<usize>> {
    let value = value(arg, example)?;
    let message = format!(
        "`threads` is how many threads run the workload at once: expected an integer 1 or \
         more, or a list of them, e.g. `{example}` or `threads = [1, 2, 4]`"
    );
    let count = |expr: &Expr| -> syn::Result<usize> {
        match unwrap_expr(expr) {
            Expr::Lit(syn::ExprLit {
                lit: Lit::Int(lit), ..
            }) => match lit.base10_parse::<usize>() {
                Ok(n) if n >= 1 => Ok(n),
                _ => Err(syn::Error::new_spanned(lit, &message)),
            },
            other => Err(syn::Error::new_spanned(other, &message)),
        }
    };
    let counts = match value {
        Expr::Array(array) if !array.elems.is_empty() => {
            let mut counts = Vec::new();
            for elem in &array.elems {
                let n = count(elem)?;
                if counts.contains(&n) {
                    return Err(syn::Error::new_spanned(
                        elem,
                        format!("repeated thread count `{n}` in `threads`: give each once"),
                    ));
                }
                counts.push(n);
            }
            counts
        }
        Expr::Array(array) => return Err(syn::Error::new_spanned(array, &message)),
        other => vec![count(other)?],
    };
    Ok(counts)
}

/// Whether the attribute's arguments name `args`: decides how the signature is read, even when
/// the attribute has mistakes of its own.
pub(super) fn mentions_args(args: &TokenStream) -> bool {
    Punctuated::<OptionArg, Token![,]>::parse_terminated
        .parse2(args.clone())
        .is_ok_and(|args| args.iter().any(|arg| arg.key == "args"))
}

fn path(arg: &OptionArg, example: &str) -> syn::Result<Path> {
    let value = value(arg, example)?;
    match value {
        Expr::Path(expr) if expr.qself.is_none() && expr.attrs.is_empty() => Ok(expr.path.clone()),
        other => Err(syn::Error::new_spanned(
            other,
            format!("`crate` expects the path of the pilot crate, e.g. `{example}`"),
        )),
    }
}
