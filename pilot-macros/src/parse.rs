//! Turns the attribute's arguments and the marked item into our own [`BenchAttr`] and
//! [`BenchFn`], validating both. Every error is a `syn::Error` on the offending tokens; errors
//! in separate places are combined so that each mistake gets exactly one message.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{
    Expr, FnArg, Ident, Item, ItemFn, Lit, Path, RangeLimits, ReturnType, Token, Type, UnOp,
};

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
    /// `crate = path`: where the pilot crate is, for crates that re-export it.
    pub(crate) krate: Option<Path>,
    /// `group = "…"`: the group of alternatives this bench is compared with.
    pub(crate) group: Option<String>,
    /// `args = expr`: the argument values of a parameter sweep, evaluated at run time.
    pub(crate) args: Option<Expr>,
    /// `threads = N` or `threads = [N, …]`: thread counts, each at least 1.
    pub(crate) threads: Option<Vec<usize>>,
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

// ---------------------------------------------------------------------------------------------
// The options
// ---------------------------------------------------------------------------------------------

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
fn mentions_args(args: &TokenStream) -> bool {
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

// ---------------------------------------------------------------------------------------------
// The function
// ---------------------------------------------------------------------------------------------

/// Parses the marked item and checks that it is a function of one of the three forms, without
/// an argument parameter.
#[cfg(test)]
pub(crate) fn parse_fn(item: TokenStream) -> syn::Result<BenchFn> {
    parse_fn_for(item, false)
}

/// Parses the marked item and checks that it is a function of one of the three forms, with an
/// argument parameter first when `with_args` (the attribute has `args = …`).
pub(crate) fn parse_fn_for(item: TokenStream, with_args: bool) -> syn::Result<BenchFn> {
    let item = match syn::parse2::<Item>(item)? {
        Item::Fn(function) => function,
        other => {
            return Err(syn::Error::new_spanned(
                item_head(&other),
                "`#[pilot::bench]` goes on a function",
            ));
        }
    };
    let (form, arg) = check_signature(&item.sig, with_args)?;
    Ok(BenchFn { item, form, arg })
}

/// The tokens that name a non-function item, e.g. `struct Foo`: the place to point at.
fn item_head(item: &Item) -> TokenStream {
    fn head(keyword: &dyn ToTokens, name: &dyn ToTokens) -> TokenStream {
        let mut tokens = keyword.to_token_stream();
        name.to_tokens(&mut tokens);
        tokens
    }
    match item {
        Item::Const(item) => head(&item.const_token, &item.ident),
        Item::Enum(item) => head(&item.enum_token, &item.ident),
        Item::ExternCrate(item) => head(&item.extern_token, &item.ident),
        Item::ForeignMod(item) => item.abi.to_token_stream(),
        Item::Impl(item) => head(&item.impl_token, &item.self_ty),
        Item::Macro(item) => item.mac.path.to_token_stream(),
        Item::Mod(item) => head(&item.mod_token, &item.ident),
        Item::Static(item) => head(&item.static_token, &item.ident),
        Item::Struct(item) => head(&item.struct_token, &item.ident),
        Item::Trait(item) => head(&item.trait_token, &item.ident),
        Item::TraitAlias(item) => head(&item.trait_token, &item.ident),
        Item::Type(item) => head(&item.type_token, &item.ident),
        Item::Union(item) => head(&item.union_token, &item.ident),
        Item::Use(item) => item.use_token.to_token_stream(),
        other => other.to_token_stream(),
    }
}

/// Checks the qualifiers, generics, parameters and return type; returns the form and, with
/// `args`, the argument's type.
fn check_signature(
    sig: &syn::Signature,
    with_args: bool,
) -> syn::Result<(BenchForm, Option<Type>)> {
    let mut errors = Errors::default();
    // `const fn` is allowed: it coerces to a function pointer like any other.
    if let Some(token) = &sig.asyncness {
        errors.push(syn::Error::new_spanned(
            token,
            "a bench cannot be `async`: pilot calls it synchronously and times each call; \
             block on the future inside a plain `fn`",
        ));
    }
    if let Some(token) = &sig.unsafety {
        errors.push(syn::Error::new_spanned(
            token,
            "a bench cannot be `unsafe fn`: pilot calls it as a safe function; use an \
             `unsafe { … }` block inside it",
        ));
    }
    if let Some(abi) = &sig.abi {
        errors.push(syn::Error::new_spanned(
            abi,
            "a bench cannot have an `extern` ABI: pilot calls it as a Rust function",
        ));
    }
    if !sig.generics.params.is_empty() {
        errors.push(syn::Error::new_spanned(
            &sig.generics,
            "a bench cannot have generic parameters: pilot needs one concrete function; \
             write a bench per type, each calling a generic function",
        ));
    }
    if let Some(clause) = &sig.generics.where_clause {
        errors.push(syn::Error::new_spanned(
            clause,
            "a bench cannot have a `where` clause: pilot needs one concrete function",
        ));
    }
    let receiver = sig.receiver();
    if let Some(receiver) = receiver {
        errors.push(syn::Error::new_spanned(
            receiver,
            "a bench cannot take `self`: `#[pilot::bench]` goes on a free function, not a \
             method",
        ));
    }
    if let Some(variadic) = &sig.variadic {
        errors.push(syn::Error::new_spanned(
            variadic,
            "a bench cannot be variadic",
        ));
    }
    if let ReturnType::Type(_, ty) = &sig.output {
        if !matches!(unwrap_type(ty), Type::Tuple(tuple) if tuple.elems.is_empty()) {
            errors.push(syn::Error::new_spanned(
                ty,
                "a bench returns nothing: expected no return type or `()`; pass a result to \
                 `pilot::black_box` to keep it from being optimised away",
            ));
        }
    }
    // A signature already reported for `self` or `...` is not also a wrong signature.
    let mut arg = None;
    let form = if receiver.is_none() && sig.variadic.is_none() {
        let plain = form_of(sig, 0);
        let first = sig.inputs.first();
        // A `Recorder` or `Bencher` first is a mistaken order, not an argument.
        let first_is_harness = matches!(first, Some(FnArg::Typed(typed))
            if is_mut_ref_to(&typed.ty, "Recorder") || is_mut_ref_to(&typed.ty, "Bencher"));
        let after_arg = form_of(sig, 1).filter(|_| !first_is_harness);
        match (with_args, plain, after_arg) {
            (false, Some(form), _) => Some(form),
            (true, _, Some(form)) => {
                if let Some(FnArg::Typed(typed)) = first {
                    arg = Some((*typed.ty).clone());
                }
                Some(form)
            }
            (true, Some(_), None) => {
                errors.push(syn::Error::new(
                    sig.paren_token.span.join(),
                    "`args` gives argument values, but the function takes no argument: put \
                     it first, e.g. `fn(n: usize, b: &mut Bencher)`",
                ));
                None
            }
            (false, None, Some(_)) => {
                errors.push(syn::Error::new_spanned(
                    first,
                    "the first parameter is an argument, but no `args = […]` gives its \
                     values: add e.g. `args = [100, 10_000]` to `#[pilot::bench]`",
                ));
                None
            }
            (false, None, None) => {
                errors.push(syn::Error::new(
                    sig.paren_token.span.join(),
                    EXPECTED_SIGNATURE,
                ));
                None
            }
            (true, None, None) => {
                errors.push(syn::Error::new(
                    sig.paren_token.span.join(),
                    EXPECTED_SIGNATURE_WITH_ARG,
                ));
                None
            }
        }
    } else {
        None
    };
    errors.finish(())?;
    // No error means the signature had a form.
    Ok((form.unwrap_or(BenchForm::Micro), arg))
}

/// The form that the parameter types after the first `skip` say, if any.
fn form_of(sig: &syn::Signature, skip: usize) -> Option<BenchForm> {
    if sig.inputs.len() < skip {
        return None;
    }
    let types: Vec<&Type> = sig
        .inputs
        .iter()
        .skip(skip)
        .map(|input| match input {
            FnArg::Typed(typed) => Some(&*typed.ty),
            FnArg::Receiver(_) => None,
        })
        .collect::<Option<_>>()?;
    match types.as_slice() {
        [work, rec] if is_u64(work) && is_mut_ref_to(rec, "Recorder") => Some(BenchForm::Full),
        [b] if is_mut_ref_to(b, "Bencher") => Some(BenchForm::Micro),
        [work] if is_u64(work) => Some(BenchForm::ReadingsOnly),
        _ => None,
    }
}

/// Sees through the invisible groups and parentheses that `macro_rules!` fragments add.
fn unwrap_type(mut ty: &Type) -> &Type {
    loop {
        match ty {
            Type::Group(group) => ty = &group.elem,
            Type::Paren(paren) => ty = &paren.elem,
            _ => return ty,
        }
    }
}

/// Whether `ty` is a path without generic arguments whose last segment is `name`.
fn is_path_ending_in(ty: &Type, name: &str) -> bool {
    match unwrap_type(ty) {
        Type::Path(path) => {
            path.qself.is_none()
                && path.path.segments.last().is_some_and(|last| {
                    last.ident == name && matches!(last.arguments, syn::PathArguments::None)
                })
        }
        _ => false,
    }
}

fn is_u64(ty: &Type) -> bool {
    is_path_ending_in(ty, "u64")
}

fn is_mut_ref_to(ty: &Type, name: &str) -> bool {
    match unwrap_type(ty) {
        Type::Reference(reference) => {
            reference.mutability.is_some() && is_path_ending_in(&reference.elem, name)
        }
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------------

/// Errors found in separate places, reported together.
#[derive(Default)]
struct Errors(Option<syn::Error>);

impl Errors {
    fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(errors) => errors.combine(error),
            None => self.0 = Some(error),
        }
    }

    fn finish<T>(self, value: T) -> syn::Result<T> {
        match self.0 {
            Some(error) => Err(error),
            None => Ok(value),
        }
    }
}

#[cfg(test)]
mod tests;
