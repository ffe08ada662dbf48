//! The `#[divan::bench]` and `#[divan::bench_group]` attributes of pilot-divan: divan's
//! attributes, whose expansions register with pilot-divan (`::divan::__private`, or the path
//! given with `crate = …`) instead of divan.
//!
//! Use them through `pilot-divan` renamed `divan` in a bench target's dev-dependencies.
//! `parse` reads the options and checks them against the item, with divan's messages where
//! divan rejects a mistake as the macro expands; `expand` generates the registration; this
//! file only dispatches.

use proc_macro::TokenStream;

mod expand;
mod parse;

/// Registers a function as a benchmark: see `pilot_divan::bench`.
#[proc_macro_attribute]
pub fn bench(options: TokenStream, item: TokenStream) -> TokenStream {
    let function = item.clone();
    let function = syn::parse_macro_input!(function as syn::ItemFn);
    match parse::Options::parse(options.into(), parse::Target::Bench(&function.sig)) {
        Ok(options) => {
            let mut out = item;
            out.extend(TokenStream::from(expand::bench(&function, &options)));
            out
        }
        Err(e) => with_error(item, e),
    }
}

/// Registers a module as a group of benchmarks: see `pilot_divan::bench_group`.
#[proc_macro_attribute]
pub fn bench_group(options: TokenStream, item: TokenStream) -> TokenStream {
    let module = item.clone();
    let module = syn::parse_macro_input!(module as syn::ItemMod);
    match parse::Options::parse(options.into(), parse::Target::Group) {
        Ok(options) => {
            let mut out = item;
            out.extend(TokenStream::from(expand::group(&module, &options)));
            out
        }
        Err(e) => with_error(item, e),
    }
}

/// The item as written, beside the error: one mistake gives one message, not also errors of
/// the item's missing.
fn with_error(item: TokenStream, e: syn::Error) -> TokenStream {
    let mut out = item;
    out.extend(TokenStream::from(e.into_compile_error()));
    out
}
