//! The readers of the options' values: each checks one kind of value (a string, a number in a
//! range, a work range, a throughput, thread counts, a flag, a path) and names the mistake on
//! the offending tokens.

use quote::ToTokens;
use syn::ext::IdentExt;
use syn::{Expr, Lit, Path, RangeLimits, UnOp};

use super::OptionArg;
use crate::parse::{Throughput, ThroughputKind};

/// The value of an option that needs one, or an error on the bare key.
pub(super) fn value<'a>(arg: &'a OptionArg, example: &str) -> syn::Result<&'a Expr> {
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
pub(super) fn unwrap_expr(mut expr: &Expr) -> &Expr {
    loop {
        match expr {
            Expr::Group(group) => expr = &group.expr,
            Expr::Paren(paren) => expr = &paren.expr,
            _ => return expr,
        }
    }
}

pub(super) fn non_empty_string(arg: &OptionArg, example: &str) -> syn::Result<String> {
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
pub(super) fn work_range(arg: &OptionArg, example: &str) -> syn::Result<(u64, u64)> {
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
pub(super) fn throughput(arg: &OptionArg, example: &str) -> syn::Result<Throughput> {
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

/// The setting `key`'s row of the table of settings. Panics when the table has no attribute
/// `key`: the options table and the settings table disagree, which a test catches.
fn setting_row(key: &str) -> (&'static pilot_settings::Setting, pilot_settings::Attribute) {
    pilot_settings::by_name(pilot_settings::SETTINGS, key)
        .and_then(|s| s.attribute.map(|a| (s, a)))
        .unwrap_or_else(|| panic!("no attribute setting `{key}` in pilot_settings::SETTINGS"))
}

/// What a bad value of the setting `key` is told: what it is, what is expected, an example.
fn setting_message(key: &str) -> String {
    let (s, a) = setting_row(key);
    format!(
        "`{key}` is {}: expected {}, e.g. {}",
        a.what,
        s.kind.expected(),
        a.example
    )
}

/// A number literal (or its negation) within the bounds of the setting `key`.
pub(super) fn setting_number(arg: &OptionArg, example: &str, key: &str) -> syn::Result<f64> {
    let (s, _) = setting_row(key);
    let value = value(arg, example)?;
    let number = match value {
        Expr::Unary(unary) if matches!(unary.op, UnOp::Neg(_)) => {
            literal_number(unwrap_expr(&unary.expr)).map(|x| -x)
        }
        other => literal_number(other),
    };
    match number {
        Some(number) if s.kind.check(&number.to_string()).is_ok() => Ok(number),
        _ => Err(syn::Error::new_spanned(value, setting_message(key))),
    }
}

/// A string literal that the setting `key`'s kind accepts (one of its words).
pub(super) fn setting_word(arg: &OptionArg, example: &str, key: &str) -> syn::Result<String> {
    let (s, _) = setting_row(key);
    let word = non_empty_string(arg, example)?;
    match s.kind.check(&word) {
        Ok(()) => Ok(word),
        Err(_) => Err(syn::Error::new_spanned(
            value(arg, example)?,
            setting_message(key),
        )),
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
pub(super) fn flag(arg: &OptionArg) -> syn::Result<bool> {
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
pub(super) fn thread_counts(arg: &OptionArg, example: &str) -> syn::Result<Vec<usize>> {
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

pub(super) fn path(arg: &OptionArg, example: &str) -> syn::Result<Path> {
    let value = value(arg, example)?;
    match value {
        Expr::Path(expr) if expr.qself.is_none() && expr.attrs.is_empty() => Ok(expr.path.clone()),
        other => Err(syn::Error::new_spanned(
            other,
            format!("`crate` expects the path of the pilot crate, e.g. `{example}`"),
        )),
    }
}
