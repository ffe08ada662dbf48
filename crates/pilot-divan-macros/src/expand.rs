//! The registrations the attributes expand to: a `static` entry beside the item (named as
//! divan names its own, so that an attribute given twice is an error at the item) and its
//! submission to pilot-divan's registry. An entry's options and a bench's instances are
//! functions: divan's option values and argument lists are expressions evaluated at run time.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{Expr, FnArg};

use crate::parse::{Options, ident, plain_name, without_lifetime};

/// The registration of a `#[divan::bench]` function.
pub fn bench(function: &syn::ItemFn, options: &Options) -> TokenStream {
    let p = options.private();
    let sig = &function.sig;
    let name = plain_name(&sig.ident);
    let entry = ident(&format!("__DIVAN_BENCH_{}", name.to_uppercase()));
    let ignore = function
        .attrs
        .iter()
        .map(|a| a.meta.path())
        .find(|path| path.is_ident("ignore"));
    let instances = instances(function, options);
    let meta = meta(&name, options, ignore);
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals)]
        static #entry: #p::Entry = {
            fn instances() -> ::std::vec::Vec<#p::Instance> {
                #instances
            }
            #meta
            #p::Entry {
                kind: #p::Kind::Bench(instances),
                ..ENTRY
            }
        };
        #p::inventory::submit! { #p::Registered(&#entry) }
    }
}

/// The registration of a `#[divan::bench_group]` module.
pub fn group(module: &syn::ItemMod, options: &Options) -> TokenStream {
    let p = options.private();
    let name = plain_name(&module.ident);
    let entry = ident(&format!("__DIVAN_GROUP_{}", name.to_uppercase()));
    let ignore = module
        .attrs
        .iter()
        .map(|a| a.meta.path())
        .find(|path| path.is_ident("ignore"));
    let meta = meta(&name, options, ignore);
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals)]
        static #entry: #p::Entry = {
            #meta
            ENTRY
        };
        #p::inventory::submit! { #p::Registered(&#entry) }
    }
}

/// `const ENTRY: Entry`, a group's entry (a bench's before its instances): names, place,
/// options.
fn meta(raw_name: &str, options: &Options, ignore: Option<&syn::Path>) -> TokenStream {
    let p = options.private();
    let display: TokenStream = match &options.name {
        Some(name) => name.to_token_stream(),
        None => quote!(#raw_name),
    };
    let options_fn = options_fn(options, ignore);
    quote! {
        #options_fn
        const ENTRY: #p::Entry = #p::Entry {
            kind: #p::Kind::Group,
            name: #display,
            raw_name: #raw_name,
            module_path: ::std::module_path!(),
            file: ::std::file!(),
            line: ::std::line!(),
            col: ::std::column!(),
            options: OPTIONS,
        };
    }
}

/// `const OPTIONS: Option<fn() -> Options>`: the options that set values, as fields (an
/// unknown option is then the compiler's error at it), the counters, and `#[ignore]`.
fn options_fn(options: &Options, ignore: Option<&syn::Path>) -> TokenStream {
    let p = options.private();
    if options.fields.is_empty() && !options.counters_given && ignore.is_none() {
        return quote! {
            const OPTIONS: ::std::option::Option<fn() -> #p::BenchOptions> = ::std::option::Option::None;
        };
    }
    let krate = &options.krate;
    let fields = options.fields.iter().map(|(field, value)| {
        let value = match plain_name(field).as_str() {
            "threads" if Options::is_literal_array(value) => {
                quote! { <[usize]>::to_vec(&#value) }
            }
            "threads" => quote! { #p::IntoThreads::into_threads(#value) },
            "min_time" | "max_time" => quote! { #p::IntoDuration::into_duration(#value) },
            _ => value.to_token_stream(),
        };
        quote! { #field: ::std::option::Option::Some(#value), }
    });
    // After the options, so that `ignore = …` beside `#[ignore]` is the error at the option.
    let ignore = ignore.map(|path| quote! { #path: ::std::option::Option::Some(true), });
    let counters = options.counters_given.then(|| {
        let each = options.counters.iter().map(|c| match c.shorthand {
            Some(ty) => {
                let ty = ident(ty);
                let value = &c.value;
                quote! {
                    .with({
                        use ::std::convert::From as _;
                        #krate::counter::#ty::from(#value)
                    })
                }
            }
            None => {
                let value = &c.value;
                quote! { .with(#value) }
            }
        });
        quote! { counters: #p::new_counter_set() #(#each)*, }
    });
    quote! {
        fn options() -> #p::BenchOptions {
            #[allow(clippy::needless_update)]
            #p::BenchOptions {
                #(#fields)*
                #ignore
                #counters
                ..::std::default::Default::default()
            }
        }
        const OPTIONS: ::std::option::Option<fn() -> #p::BenchOptions> =
            ::std::option::Option::Some(options);
    }
}

/// The body of `fn instances() -> Vec<Instance>`: one instance per type and constant of a
/// generic bench (types outer, constants inner, in the order given), one for another.
fn instances(function: &syn::ItemFn, options: &Options) -> TokenStream {
    let p = options.private();
    let sig = &function.sig;
    let generics = &sig.generics.params;
    let type_at = generics
        .iter()
        .position(|g| matches!(g, syn::GenericParam::Type(_)));
    let const_param = generics.iter().enumerate().find_map(|(i, g)| match g {
        syn::GenericParam::Const(c) => Some((i, c)),
        _ => None,
    });
    let type_before_const = matches!((type_at, const_param), (Some(t), Some((c, _))) if t < c);
    let args_static = options.args.as_ref().map(|_| {
        quote! { static __DIVAN_ARGS: #p::Args = #p::Args::new(); }
    });
    let types: Vec<Option<&syn::Type>> = match &options.types {
        Some(types) => types.iter().map(Some).collect(),
        None => vec![None],
    };
    let instance = |ty: Option<&syn::Type>, konst: Option<TokenStream>| {
        instance_of(function, options, type_before_const, ty, konst)
    };
    match (&options.consts, const_param) {
        (Some(Expr::Array(list)), Some((_, param))) => {
            let const_ty = &param.ty;
            let n = list.elems.len();
            let pushes = types.iter().flat_map(|&ty| {
                (0..n).map(move |i| {
                    let inst = instance(ty, Some(quote!(__DIVAN_CONSTS[#i])));
                    quote! { v.push(#inst); }
                })
            });
            let pushes: Vec<TokenStream> = pushes.collect();
            quote! {
                #args_static
                // The values are type-checked here even when `types = []` leaves no instance.
                const __DIVAN_CONSTS: &[#const_ty] = &#list;
                #[allow(unused_mut)]
                let mut v = ::std::vec::Vec::new();
                #(#pushes)*
                v
            }
        }
        (Some(external), Some((_, param))) => {
            // An instance needs a constant to be written for each value: at most 20 values.
            const MAX: usize = 20;
            let const_ty = &param.ty;
            let pushes: Vec<TokenStream> = types
                .iter()
                .flat_map(|&ty| {
                    (0..MAX).map(move |i| {
                        let inst = instance(
                            ty,
                            Some(quote!(__DIVAN_CONSTS[if #i < __DIVAN_COUNT { #i } else { 0 }])),
                        );
                        quote! { if #i < __DIVAN_COUNT { v.push(#inst); } }
                    })
                })
                .collect();
            quote! {
                #args_static
                const __DIVAN_CONSTS: &[#const_ty] = &#external;
                const __DIVAN_COUNT: usize = __DIVAN_CONSTS.len();
                const _: () = ::std::assert!(
                    __DIVAN_COUNT <= 20,
                    "external 'consts' cannot contain more than 20 values"
                );
                let mut v = ::std::vec::Vec::new();
                #(#pushes)*
                v
            }
        }
        _ => {
            let all: Vec<TokenStream> = types.iter().map(|&ty| instance(ty, None)).collect();
            quote! {
                #args_static
                ::std::vec![#(#all),*]
            }
        }
    }
}

/// One instance of a bench: its type and its constant (each when the bench is generic over
/// one), named as divan lists them, and its runner, the generic arguments in the function's
/// order.
fn instance_of(
    function: &syn::ItemFn,
    options: &Options,
    type_before_const: bool,
    ty: Option<&syn::Type>,
    konst: Option<TokenStream>,
) -> TokenStream {
    let p = options.private();
    let konst_generic = konst.as_ref().map(|k| quote!({ #k }));
    let mut order: Vec<TokenStream> = Vec::new();
    order.extend(konst_generic);
    order.extend(ty.map(|t| t.to_token_stream()));
    if type_before_const {
        order.reverse();
    }
    let runner = runner(function, options, &order);
    let ty_name = match ty {
        Some(t) => {
            quote! { ::std::option::Option::Some(::std::any::type_name::<#t> as fn() -> &'static str) }
        }
        None => quote! { ::std::option::Option::None },
    };
    let konst_name = match &konst {
        Some(k) => quote! {
            ::std::option::Option::Some((|| ::std::string::ToString::to_string(&#k)) as fn() -> ::std::string::String)
        },
        None => quote! { ::std::option::Option::None },
    };
    quote! {
        #p::Instance { ty: #ty_name, konst: #konst_name, runner: #runner }
    }
}

/// The runner of one instance: how pilot-divan calls the function with a `Bencher` (and an
/// argument value).
fn runner(function: &syn::ItemFn, options: &Options, generics: &[TokenStream]) -> TokenStream {
    let p = options.private();
    let sig = &function.sig;
    let fn_ident = &sig.ident;
    let extern_abi = sig.abi.is_some();
    let path = if generics.is_empty() {
        quote!(#fn_ident)
    } else {
        quote!(#fn_ident::<#(#generics),*>)
    };
    let inputs = &sig.inputs;
    let last_ty = inputs
        .last()
        .map(|arg| match arg {
            FnArg::Receiver(r) => without_lifetime(&r.ty),
            FnArg::Typed(t) => without_lifetime(&t.ty),
        })
        .unwrap_or_default();
    let args_ret = match &options.args {
        Some(Expr::Array(a)) if a.elems.is_empty() => quote! { -> [#last_ty; 0] },
        _ => TokenStream::new(),
    };
    match (inputs.len(), &options.args) {
        (0, None) => {
            let f = if extern_abi { quote!(|| #path()) } else { path };
            quote! { #p::Runner::Plain(|divan: #p::Bencher| divan.bench(#f)) }
        }
        (1, None) => {
            if extern_abi {
                quote! { #p::Runner::Plain(|divan: #p::Bencher| #path(divan)) }
            } else {
                quote! { #p::Runner::Plain(#path) }
            }
        }
        (1, Some(args)) => quote! {
            #p::Runner::Args(|| __DIVAN_ARGS.runner(
                || #args_ret { #args },
                |arg| #p::ToStringHelper(arg).to_string(),
                |divan, __divan_arg| divan.bench(|| #path(
                    #p::Arg::<#last_ty>::get(__divan_arg)
                )),
            ))
        },
        (2, Some(args)) => quote! {
            #p::Runner::Args(|| __DIVAN_ARGS.runner(
                || #args_ret { #args },
                |arg| #p::ToStringHelper(arg).to_string(),
                |divan, __divan_arg| #path(
                    divan,
                    #p::Arg::<#last_ty>::get(__divan_arg),
                ),
            ))
        },
        (_, None) => quote! {
            ::std::compile_error!(::std::concat!(
                "expected 'args' option containing '",
                ::std::stringify!(#last_ty),
                "'",
            ))
        },
        // `args` with another number of arguments is refused as the options are read.
        (_, Some(_)) => unreachable!("checked in parse"),
    }
}
