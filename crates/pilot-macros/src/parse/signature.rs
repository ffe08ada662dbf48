//! The marked function: its signature decides the bench's form, and every way it can be wrong
//! gets its own message.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::{FnArg, Item, ReturnType, Type};

use super::{BenchFn, BenchForm, EXPECTED_SIGNATURE, EXPECTED_SIGNATURE_WITH_ARG, Errors};

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
    check_qualifiers(sig, &mut errors);
    let receiver = sig.receiver();
    // A signature already reported for `self` or `...` is not also a wrong signature.
    let (form, arg) = if receiver.is_none() && sig.variadic.is_none() {
        form_and_argument(sig, with_args, &mut errors)
    } else {
        (None, None)
    };
    errors.finish(())?;
    // No error means the signature had a form.
    Ok((form.unwrap_or(BenchForm::Micro), arg))
}

/// Reports what no bench may be: `async`, `unsafe`, `extern`, generic, a method, variadic, or
/// returning a value.
fn check_qualifiers(sig: &syn::Signature, errors: &mut Errors) {
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
    if let Some(receiver) = sig.receiver() {
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
    if let ReturnType::Type(_, ty) = &sig.output
        && !matches!(unwrap_type(ty), Type::Tuple(tuple) if tuple.elems.is_empty())
    {
        errors.push(syn::Error::new_spanned(
            ty,
            "a bench returns nothing: expected no return type or `()`; pass a result to \
                 `pilot::black_box` to keep it from being optimised away",
        ));
    }
}

/// The form the parameters say, and with `args` the argument's type; a mismatch between
/// `args` and the parameters is reported in `errors`.
fn form_and_argument(
    sig: &syn::Signature,
    with_args: bool,
    errors: &mut Errors,
) -> (Option<BenchForm>, Option<Type>) {
    let mut arg = None;
    let plain = form_of(sig, 0);
    let first = sig.inputs.first();
    // A `Recorder` or `Bencher` first is a mistaken order, not an argument.
    let first_is_harness = matches!(first, Some(FnArg::Typed(typed))
        if is_mut_ref_to(&typed.ty, "Recorder") || is_mut_ref_to(&typed.ty, "Bencher"));
    let after_arg = form_of(sig, 1).filter(|_| !first_is_harness);
    let form = match (with_args, plain, after_arg) {
        (false, Some(form), _) => Some(form),
        (true, _, Some(form)) => {
            if let Some(FnArg::Typed(typed)) = first {
                if let Type::Reference(reference) = unwrap_type(&typed.ty)
                    && let Some(mutability) = &reference.mutability
                {
                    let and = &reference.and_token;
                    // Each call gets its own value from the list: there is nothing
                    // shared to change, and the value can be taken by value.
                    errors.push(syn::Error::new_spanned(
                        quote::quote!(#and #mutability),
                        "an `args` argument cannot be borrowed mutably: each call gets \
                             its own value, so take it by value (`mut v: Vec<u8>`) or \
                             borrow it (`v: &Vec<u8>`)",
                    ));
                }
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
    };
    (form, arg)
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
