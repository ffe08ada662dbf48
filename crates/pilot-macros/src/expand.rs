//! Generates the code for a validated bench: the function unchanged, and its registration.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{GenericArgument, Lifetime, LitStr, Path, PathArguments, Type};

use crate::parse::{BenchAttr, BenchFn, BenchForm, ThroughputKind};

/// The function, unchanged, followed by its `BenchDef` submitted to `inventory`.
///
/// Everything is named by absolute path through the pilot crate's path (`::pilot` unless
/// `crate = …` says otherwise). The registration sits in an anonymous `const _` block so that
/// no name it uses can clash with the user's items; in that block the definition is first bound
/// to a constant, so that resolving the function's name cannot see the items `inventory::submit!`
/// declares for itself (a bench named `__ctor` would otherwise break).
pub(crate) fn bench(attr: &BenchAttr, function: &BenchFn) -> TokenStream {
    let item = &function.item;
    let ident = &item.sig.ident;
    let krate = match &attr.krate {
        Some(path) => path.clone(),
        None => syn::parse_quote!(::pilot),
    };
    let name = LitStr::new(
        &attr.name.clone().unwrap_or_else(|| function.default_name()),
        ident.span(),
    );
    let variant = match function.form {
        BenchForm::Full => quote!(Full),
        BenchForm::Micro => quote!(Micro),
        BenchForm::ReadingsOnly => quote!(ReadingsOnly),
    };
    // Spanned at the name so that `file!()`/`line!()` give the function's place, and so that a
    // type error (a `Recorder` that is not pilot's) points at the function.
    let location = quote_spanned! {ident.span()=>
        file: ::core::file!(),
        line: ::core::line!(),
    };
    let (mut helpers, args) = body_fn(attr, function, &krate);
    helpers.extend(throughput_fn(attr, function, &krate));
    let body = quote!(#krate::__private::BenchBody::#variant(__pilot_body));
    let options = options(attr, &krate);
    // A `#[cfg]` on the function must remove its registration too.
    let cfgs = item.attrs.iter().filter(|attr| attr.path().is_ident("cfg"));
    quote! {
        #item

        #(#cfgs)*
        const _: () = {
            const __PILOT_BENCH: #krate::__private::BenchDef = {
                #helpers
                #krate::__private::BenchDef {
                    name: #name,
                    module_path: ::core::module_path!(),
                    #location
                    body: #body,
                    options: #options,
                    args: #args,
                }
            };
            #krate::__private::inventory::submit! { __PILOT_BENCH }
        };
    }
}

/// The generated function every form is called through, `__pilot_body(arg index, …)`, with the
/// functions that make a bench's `args` values and their names; and the `args` field of its
/// `BenchDef`.
fn body_fn(attr: &BenchAttr, function: &BenchFn, krate: &Path) -> (TokenStream, TokenStream) {
    let ident = &function.item.sig.ident;
    // Every form is called as `fn(arg index, …)`: a bench with `args` gets its value from the
    // list by index, every call (the list is built outside the timing, before the round).
    let (params, forwarded) = match function.form {
        BenchForm::Full => (
            quote!(__pilot_work: u64, __pilot_rec: &mut #krate::__private::Recorder),
            quote!(__pilot_work, __pilot_rec),
        ),
        BenchForm::Micro => (
            quote!(__pilot_b: &mut #krate::__private::Bencher),
            quote!(__pilot_b),
        ),
        BenchForm::ReadingsOnly => (quote!(__pilot_work: u64), quote!(__pilot_work)),
    };
    let (call, arg_fns, args) = match (&attr.args, &function.arg) {
        (Some(values), Some(ty)) => {
            let value = arg_value(ty, krate);
            // A borrowed parameter's values are of any type that lends it (`&'static str` or
            // `String` for `&str`): the list's type is the one they have, named by what it
            // must do, and a value of the wrong type is an error at the values.
            let (list, make) = match lent(ty) {
                Some(referent) => (
                    quote_spanned! {values.span()=>
                        ::std::vec::Vec<
                            impl #krate::__private::Lend<#referent> + ::core::fmt::Debug
                        >
                    },
                    quote!(#krate::__private::args(#values)),
                ),
                None => (
                    quote!(::std::vec::Vec<#ty>),
                    quote!(#krate::__private::args::<#ty>(#values)),
                ),
            };
            (
                quote_spanned! {ident.span()=>
                    let __pilot_value = #krate::__private::arg_at(__pilot_args(), __pilot_index);
                    #ident(#value, #forwarded)
                },
                quote! {
                    fn __pilot_args() -> #list {
                        #make
                    }
                    fn __pilot_arg_names() -> ::std::vec::Vec<::std::string::String> {
                        __pilot_args().iter().map(#krate::__private::arg_name).collect()
                    }
                },
                quote!(::core::option::Option::Some(__pilot_arg_names)),
            )
        }
        _ => (
            quote_spanned! {ident.span()=> #ident(#forwarded) },
            TokenStream::new(),
            quote!(::core::option::Option::None),
        ),
    };
    // The generated functions live in the constant's initialiser, where only it can see them.
    let helpers = quote! {
        #arg_fns
        fn __pilot_body(__pilot_index: usize, #params) {
            let _ = __pilot_index;
            #call
        }
    };
    (helpers, args)
}

/// The argument the bench is called with, from `__pilot_value` (its value in the `args` list):
/// the value itself, or for a borrowed parameter a reference lent from it.
fn arg_value(ty: &Type, krate: &Path) -> TokenStream {
    match lent(ty) {
        Some(referent) => {
            quote!(#krate::__private::Lend::<#referent>::lend(&__pilot_value))
        }
        None => quote!(__pilot_value),
    }
}

/// For a parameter that borrows its argument (`&T` with an elided or `'_` lifetime), `T` with
/// its own elided lifetimes made `'static` (`&[&str]` lends `[&'static str]`): what the `args`
/// values must lend. `None` for an argument taken by value, or by a `&'static` or `&mut`
/// reference.
fn lent(ty: &Type) -> Option<Type> {
    match ty {
        Type::Group(group) => lent(&group.elem),
        Type::Paren(paren) => lent(&paren.elem),
        Type::Reference(reference)
            if reference.mutability.is_none()
                && reference.lifetime.as_ref().is_none_or(|l| l.ident == "_") =>
        {
            let mut referent = (*reference.elem).clone();
            make_static(&mut referent);
            Some(referent)
        }
        _ => None,
    }
}

/// Gives every elided or `'_` lifetime in `ty` the lifetime `'static`.
fn make_static(ty: &mut Type) {
    let fix = |lifetime: &mut Lifetime| {
        if lifetime.ident == "_" {
            *lifetime = Lifetime::new("'static", lifetime.span());
        }
    };
    match ty {
        Type::Reference(reference) => {
            match &mut reference.lifetime {
                Some(lifetime) => fix(lifetime),
                None => {
                    reference.lifetime = Some(Lifetime::new("'static", reference.and_token.span()));
                }
            }
            make_static(&mut reference.elem);
        }
        Type::Slice(slice) => make_static(&mut slice.elem),
        Type::Array(array) => make_static(&mut array.elem),
        Type::Group(group) => make_static(&mut group.elem),
        Type::Paren(paren) => make_static(&mut paren.elem),
        Type::Ptr(ptr) => make_static(&mut ptr.elem),
        Type::Tuple(tuple) => tuple.elems.iter_mut().for_each(make_static),
        Type::Path(path) => {
            if let Some(qself) = &mut path.qself {
                make_static(&mut qself.ty);
            }
            for segment in &mut path.path.segments {
                if let PathArguments::AngleBracketed(arguments) = &mut segment.arguments {
                    for argument in &mut arguments.args {
                        match argument {
                            GenericArgument::Lifetime(lifetime) => fix(lifetime),
                            GenericArgument::Type(ty) => make_static(ty),
                            _ => {}
                        }
                    }
                }
            }
        }
        _ => {}
    }
}

/// `__pilot_throughput(arg index) -> u64`, the amount of `throughput = bytes(AMOUNT)`: AMOUNT
/// is evaluated with the first parameter bound to the argument value, as the user named it.
fn throughput_fn(attr: &BenchAttr, function: &BenchFn, krate: &Path) -> TokenStream {
    let Some(throughput) = &attr.throughput else {
        return TokenStream::new();
    };
    let amount = &throughput.amount;
    let first = function.item.sig.inputs.first();
    let binding = match (&attr.args, &function.arg, first) {
        (Some(_), Some(ty), Some(syn::FnArg::Typed(param))) => {
            let pat = &param.pat;
            let value = arg_value(ty, krate);
            quote! {
                let __pilot_value = #krate::__private::arg_at(__pilot_args(), __pilot_index);
                let #pat: #ty = #value;
            }
        }
        _ => quote!(let _ = __pilot_index;),
    };
    // Spanned at the amount, so that a type error (a float, a struct) points at it.
    let value = quote_spanned! {amount.span()=> #krate::__private::amount(#amount) };
    quote! {
        // The argument may go unused (`bytes(4096)`), and a `mut` in its pattern is for the
        // bench's body, not for the amount.
        #[allow(unused_variables, unused_mut, clippy::all)]
        fn __pilot_throughput(__pilot_index: usize) -> u64 {
            #binding
            #value
        }
    }
}

/// The `BenchOptions` literal; every field is written out because `Default::default()` is not
/// available in the constant that holds it.
fn options(attr: &BenchAttr, krate: &Path) -> TokenStream {
    let unit = option(
        attr.unit
            .as_deref()
            .map(|unit| LitStr::new(unit, Span::call_site())),
    );
    let work = option(attr.work.map(|(lower, upper)| {
        let (lower, upper) = (Literal::u64_suffixed(lower), Literal::u64_suffixed(upper));
        quote!((#lower, #upper))
    }));
    let ci = option(attr.ci.map(Literal::f64_suffixed));
    let confidence = option(attr.confidence.map(Literal::f64_suffixed));
    let max_time = option(attr.max_time.map(Literal::f64_suffixed));
    let min_time = option(attr.min_time.map(Literal::f64_suffixed));
    let ignore = attr.ignore;
    let estimator = option(
        attr.estimator
            .as_deref()
            .map(|e| LitStr::new(e, Span::call_site())),
    );
    let group = option(
        attr.group
            .as_deref()
            .map(|group| LitStr::new(group, Span::call_site())),
    );
    let bottleneck = option(
        attr.bottleneck
            .as_deref()
            .map(|device| LitStr::new(device, Span::call_site())),
    );
    let threads = attr.threads.as_deref().unwrap_or(&[]);
    let throughput = option(attr.throughput.as_ref().map(|throughput| {
        let kind = match throughput.kind {
            ThroughputKind::Bytes => quote!(Bytes),
            ThroughputKind::Elements => quote!(Elements),
        };
        quote! {
            #krate::__private::Throughput {
                kind: #krate::__private::ThroughputKind::#kind,
                amount: __pilot_throughput,
            }
        }
    }));
    quote! {
        #krate::__private::BenchOptions {
            unit: #unit,
            work: #work,
            ci: #ci,
            confidence: #confidence,
            max_time: #max_time,
            min_time: #min_time,
            ignore: #ignore,
            estimator: #estimator,
            group: #group,
            threads: &[#(#threads),*],
            bottleneck: #bottleneck,
            throughput: #throughput,
        }
    }
}

fn option(value: Option<impl ToTokens>) -> TokenStream {
    match value {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    }
}

/// What an invalid bench expands to: the errors, and the item unchanged so that uses of the
/// function do not add "cannot find" errors to the real one.
pub(crate) fn with_errors(error: syn::Error, item: TokenStream) -> TokenStream {
    let error = error.to_compile_error();
    quote! {
        #error
        #item
    }
}
