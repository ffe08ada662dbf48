//! The `#[pilot::bench]` attribute of the pilot benchmark harness.
//!
//! Use it through the `pilot` crate (`#[pilot::bench]`), not directly. The harness that runs
//! marked functions is not released yet: until it is, the attribute refuses to compile rather
//! than silently registering nothing.

use proc_macro::TokenStream;

/// Marks a function as a pilot benchmark.
///
/// Not available yet: the adaptive-session harness it registers with is still being built, so
/// the attribute reports a compile error on the function instead of doing nothing.
#[proc_macro_attribute]
pub fn bench(_args: TokenStream, item: TokenStream) -> TokenStream {
    let item = proc_macro2::TokenStream::from(item);
    let error = syn::Error::new_spanned(
        &item,
        "#[pilot::bench] is not available in this version of pilot: the bench harness is not \
         released yet; use `cargo pilot analyze` on recorded readings meanwhile",
    )
    .to_compile_error();
    quote::quote!(#error #item).into()
}
