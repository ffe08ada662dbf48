//! The options of `#[divan::bench(...)]` and `#[divan::bench_group(...)]`, checked against
//! the item as divan checks them as it expands (same messages): an option that is not a name,
//! one given twice, `types`, `consts` or `args` on a group, `types` without a type parameter,
//! `consts` without a const parameter, `args` on a function without an argument. The options
//! that only set a value (`sample_count`, `max_time`, `threads`, …) are kept as written: the
//! expansion sets them as fields of pilot-divan's options, so an unknown one, a repeated one or
//! a value of the wrong type is the compiler's error at that option, as under divan.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::parse::{Parse, ParseStream, Parser};
use syn::{Expr, Ident, Path, Token, Type};

/// What the attribute is on.
#[derive(Clone, Copy)]
pub enum Target<'a> {
    /// `#[divan::bench]` on a function with this signature.
    Bench(&'a syn::Signature),
    /// `#[divan::bench_group]` on a module.
    Group,
}

impl Target<'_> {
    fn name(self) -> &'static str {
        match self {
            Target::Bench(_) => "bench",
            Target::Group => "bench_group",
        }
    }
}

/// A counter option: `counter = …`, `counters = [...]` elements, or a shorthand
/// (`bytes_count = n` is `BytesCount::from(n)`).
pub struct Counter {
    pub value: Expr,
    /// The counter type a shorthand names.
    pub shorthand: Option<&'static str>,
}

/// The options as given.
pub struct Options {
    /// `crate = path`: where pilot-divan is (default `::divan`).
    pub krate: Path,
    /// `name = "…"`.
    pub name: Option<Expr>,
    /// `args = …`.
    pub args: Option<Expr>,
    /// `types = [...]`.
    pub types: Option<Vec<Type>>,
    /// `consts = …`.
    pub consts: Option<Expr>,
    /// Every counter, in order.
    pub counters: Vec<Counter>,
    /// Whether any counter option was given (`counters = []` sets none, but is given).
    pub counters_given: bool,
    /// The other options, field and value (a bare option is `true`).
    pub fields: Vec<(Ident, Expr)>,
}

/// `[T, U, …]`.
struct TypeList(Vec<Type>);

impl Parse for TypeList {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let content;
        syn::bracketed!(content in input);
        Ok(TypeList(
            content
                .parse_terminated(Type::parse, Token![,])?
                .into_iter()
                .collect(),
        ))
    }
}

impl Options {
    /// Reads and checks the options of an attribute on `target`.
    pub fn parse(tokens: TokenStream, target: Target) -> syn::Result<Options> {
        let attr = target.name();
        let mut krate: Option<Path> = None;
        let mut out = Options {
            krate: syn::parse_quote!(::divan),
            name: None,
            args: None,
            types: None,
            consts: None,
            counters: Vec::new(),
            counters_given: false,
            fields: Vec::new(),
        };
        let mut counter_given = false;
        let mut shorthands: Vec<&'static str> = Vec::new();
        let parser = syn::meta::parser(|meta| {
            let Some(ident) = meta.path.get_ident() else {
                return Err(meta.error(format_args!("unsupported '{attr}' option")));
            };
            let text = ident.to_string();
            let key = text.strip_prefix("r#").unwrap_or(&text).to_string();
            let repeated = || meta.error(format_args!("repeated '{attr}' option '{key}'"));
            match key.as_str() {
                "crate" => {
                    if krate.is_some() {
                        return Err(repeated());
                    }
                    krate = Some(meta.value()?.parse()?);
                }
                "name" => {
                    if out.name.is_some() {
                        return Err(repeated());
                    }
                    out.name = Some(meta.value()?.parse()?);
                }
                "types" | "consts" | "args" => out.generic_option(&meta, target, &key)?,
                "counter" | "counters" => {
                    if counter_given {
                        return Err(repeated());
                    }
                    counter_given = true;
                    out.counter_option(&meta, &key)?;
                }
                "bytes_count" | "chars_count" | "cycles_count" | "items_count" => {
                    let ty = match key.as_str() {
                        "bytes_count" => "BytesCount",
                        "chars_count" => "CharsCount",
                        "cycles_count" => "CyclesCount",
                        _ => "ItemsCount",
                    };
                    if shorthands.contains(&ty) {
                        return Err(repeated());
                    }
                    shorthands.push(ty);
                    out.counters_given = true;
                    let value: Expr = meta.value()?.parse()?;
                    out.counters.push(Counter {
                        value,
                        shorthand: Some(ty),
                    });
                }
                _ => out.field_option(&meta, ident, key)?,
            }
            Ok(())
        });
        parser.parse2(tokens)?;
        if let Some(k) = krate {
            out.krate = k;
        }
        Ok(out)
    }

    /// `types`, `consts` or `args` (`key`): only on a bench whose function has what the option
    /// fills (a type parameter, a const parameter, an argument), and once.
    fn generic_option(
        &mut self,
        meta: &ParseNestedMeta,
        target: Target,
        key: &str,
    ) -> syn::Result<()> {
        let attr = target.name();
        let repeated = || meta.error(format_args!("repeated '{attr}' option '{key}'"));
        let unsupported = || meta.error(format_args!("unsupported '{attr}' option '{key}'"));
        let Target::Bench(sig) = target else {
            return Err(unsupported());
        };
        match key {
            "types" => {
                if sig.generics.type_params().next().is_none() {
                    return Err(meta.error(format_args!(
                        "generic type required for '{attr}' option '{key}'"
                    )));
                }
                if self.types.is_some() {
                    return Err(repeated());
                }
                self.types = Some(meta.value()?.parse::<TypeList>()?.0);
            }
            "consts" => {
                if sig.generics.const_params().next().is_none() {
                    return Err(meta.error(format_args!(
                        "generic const required for '{attr}' option '{key}'"
                    )));
                }
                if self.consts.is_some() {
                    return Err(repeated());
                }
                self.consts = Some(meta.value()?.parse()?);
            }
            _ => {
                if !matches!(sig.inputs.len(), 1 | 2) {
                    return Err(meta.error(format_args!(
                        "function argument required for '{attr}' option '{key}'"
                    )));
                }
                if self.args.is_some() {
                    return Err(repeated());
                }
                self.args = Some(meta.value()?.parse()?);
            }
        }
        Ok(())
    }

    /// `counter = …` (`key`) or `counters = [...]`: each counter it gives, in order.
    fn counter_option(&mut self, meta: &ParseNestedMeta, key: &str) -> syn::Result<()> {
        self.counters_given = true;
        if key == "counter" {
            let value: Expr = meta.value()?.parse()?;
            self.counters.push(Counter {
                value,
                shorthand: None,
            });
        } else {
            let values: syn::ExprArray = meta.value()?.parse()?;
            self.counters
                .extend(values.elems.into_iter().map(|value| Counter {
                    value,
                    shorthand: None,
                }));
        }
        Ok(())
    }

    /// Any other option `key`, kept as written for the expansion to set as a field. A bare
    /// option (`ignore`, `skip_ext_time`, `threads`) is `true`.
    fn field_option(
        &mut self,
        meta: &ParseNestedMeta,
        ident: &Ident,
        key: String,
    ) -> syn::Result<()> {
        let value: Expr = match meta.value() {
            Ok(v) => v.parse()?,
            Err(_) => Expr::Lit(syn::ExprLit {
                attrs: Vec::new(),
                lit: syn::LitBool::new(true, ident.span()).into(),
            }),
        };
        self.fields.push((Ident::new(&key, ident.span()), value));
        Ok(())
    }

    /// `pilot_divan::__private`, at the path this attribute names the crate by.
    pub fn private(&self) -> TokenStream {
        let krate = &self.krate;
        quote::quote!(#krate::__private)
    }

    /// Whether the option is an array of literals (`threads = [1, 2, 4]`), whose integers
    /// would otherwise default to `i32`.
    pub fn is_literal_array(expr: &Expr) -> bool {
        matches!(expr, Expr::Array(a) if a.elems.iter().all(|e| matches!(e, Expr::Lit(_))))
    }
}

/// An identifier's name without `r#`.
pub fn plain_name(ident: &Ident) -> String {
    let text = ident.to_string();
    text.strip_prefix("r#").unwrap_or(&text).to_string()
}

/// A span-less `Ident`, for generated names.
pub fn ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// Tokens of a type with the lifetime of a reference taken off (`&'a T` is `&T`): the
/// argument type is named outside the function, where its lifetime does not exist.
pub fn without_lifetime(ty: &Type) -> TokenStream {
    match ty {
        Type::Reference(r) if r.lifetime.is_some() => {
            let mut r = r.clone();
            r.lifetime = None;
            r.into_token_stream()
        }
        _ => ty.into_token_stream(),
    }
}
