//! The engine's public API, counted: every item of `pilot-engine` another crate can name.
//!
//! The engine denies `unreachable_pub` (its `lib.rs`), so an item declared `pub` is one another
//! crate can reach: through public modules or a `pub use`. The count is therefore read off the
//! syntax: each item of the shipped code (test items and `tests` files left out) declared with
//! a bare `pub` — a function or method, a struct, enum, union or trait, a constant or static, a
//! type alias, a module, a `#[macro_export]` macro, and a trait's own items — and each name a
//! `pub use` brings in from another crate. A `pub use` of the engine's own items adds nothing:
//! the item it names is counted where it is declared. Fields and enum variants are parts of
//! their type, not items; they are counted apart, for the record.
//!
//! `cargo test -p pilot-tests --test engine_api -- --nocapture` prints the count per module
//! (`PILOT_ENGINE_API_ROOT=<checkout>` counts another checkout, as the count before a change is
//! taken). The limit, [`MOST_PUBLIC_ITEMS`], is half of the 594 items the engine had when every
//! module was public: the book's contributing chapter names this test.
//!
//! The same reading counts the engine's functions that return `Result<_, String>`, whose callers
//! can only read the error's words: [`MOST_STRING_ERRORS`] holds the number down as errors get
//! types of their own (`--nocapture` lists them).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The most public items the engine may have.
const MOST_PUBLIC_ITEMS: usize = 297;

/// The most functions of the engine's shipped code (methods included, test code left out) that
/// may return `Result<_, String>`. Those left carry words that are not the engine's to type (a
/// bench's panic, pilot-settings' parse errors, which clap prints) or feed a typed error's
/// message; a function that gets a typed error lowers this.
const MOST_STRING_ERRORS: usize = 43;

fn engine_src() -> PathBuf {
    let root = std::env::var_os("PILOT_ENGINE_API_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .parent()
                .unwrap()
                .to_path_buf()
        });
    root.join("crates/pilot-engine/src")
}

/// What one file declares public.
#[derive(Default, Debug, PartialEq)]
struct Count {
    items: usize,
    fields: usize,
    variants: usize,
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        if a.path().is_ident("test") {
            return true;
        }
        if !a.path().is_ident("cfg") {
            return false;
        }
        match &a.meta {
            syn::Meta::List(list) => {
                let text = list.tokens.to_string();
                text.contains("test") && !text.contains("not")
            }
            _ => false,
        }
    })
}

fn is_pub(vis: &syn::Visibility) -> bool {
    matches!(vis, syn::Visibility::Public(_))
}

/// Names a `use` tree brings in from another crate (its first segment is neither `crate`,
/// `self`, `super` nor a module of this file's crate, which `own` lists).
fn foreign_names(tree: &syn::UseTree, first: Option<&str>, own: &[String]) -> usize {
    let foreign = |first: &str| {
        !["crate", "self", "super"].contains(&first) && !own.iter().any(|m| m == first)
    };
    match tree {
        syn::UseTree::Path(p) => {
            let head = p.ident.to_string();
            foreign_names(&p.tree, Some(first.unwrap_or(&head)), own)
        }
        syn::UseTree::Name(n) => usize::from(foreign(first.unwrap_or(&n.ident.to_string()))),
        syn::UseTree::Rename(r) => usize::from(foreign(first.unwrap_or(&r.ident.to_string()))),
        syn::UseTree::Glob(_) => usize::from(first.is_some_and(foreign)),
        syn::UseTree::Group(g) => g.items.iter().map(|t| foreign_names(t, first, own)).sum(),
    }
}

fn fields_of(fields: &syn::Fields) -> usize {
    fields.iter().filter(|f| is_pub(&f.vis)).count()
}

fn count_items(items: &[syn::Item], own: &[String], c: &mut Count) {
    for item in items {
        match item {
            syn::Item::Fn(f) if !is_test(&f.attrs) => c.items += usize::from(is_pub(&f.vis)),
            syn::Item::Struct(s) if !is_test(&s.attrs) && is_pub(&s.vis) => {
                c.items += 1;
                c.fields += fields_of(&s.fields);
            }
            syn::Item::Enum(e) if !is_test(&e.attrs) && is_pub(&e.vis) => {
                c.items += 1;
                c.variants += e.variants.len();
            }
            syn::Item::Union(u) if !is_test(&u.attrs) && is_pub(&u.vis) => c.items += 1,
            syn::Item::Trait(t) if !is_test(&t.attrs) && is_pub(&t.vis) => {
                c.items += 1 + t.items.len()
            }
            syn::Item::Const(k) if !is_test(&k.attrs) => c.items += usize::from(is_pub(&k.vis)),
            syn::Item::Static(s) if !is_test(&s.attrs) => c.items += usize::from(is_pub(&s.vis)),
            syn::Item::Type(t) if !is_test(&t.attrs) => c.items += usize::from(is_pub(&t.vis)),
            syn::Item::Macro(m) if !is_test(&m.attrs) => {
                c.items += usize::from(m.attrs.iter().any(|a| a.path().is_ident("macro_export")));
            }
            syn::Item::Mod(m) if !is_test(&m.attrs) => {
                c.items += usize::from(is_pub(&m.vis));
                if let Some((_, inner)) = &m.content {
                    count_items(inner, own, c);
                }
            }
            syn::Item::Use(u) if !is_test(&u.attrs) && is_pub(&u.vis) => {
                c.items += foreign_names(&u.tree, None, own);
            }
            syn::Item::Impl(i) if !is_test(&i.attrs) && i.trait_.is_none() => {
                for inner in &i.items {
                    c.items += usize::from(match inner {
                        syn::ImplItem::Fn(f) => is_pub(&f.vis),
                        syn::ImplItem::Const(k) => is_pub(&k.vis),
                        syn::ImplItem::Type(t) => is_pub(&t.vis),
                        _ => false,
                    });
                }
            }
            _ => {}
        }
    }
}

/// Whether a function returns `Result<_, String>` (a `Result` by any path, its error `String`).
fn returns_string_error(output: &syn::ReturnType) -> bool {
    let syn::ReturnType::Type(_, ty) = output else {
        return false;
    };
    let syn::Type::Path(path) = &**ty else {
        return false;
    };
    let Some(last) = path.path.segments.last() else {
        return false;
    };
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return false;
    };
    let types: Vec<&syn::Type> = args
        .args
        .iter()
        .filter_map(|a| match a {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        })
        .collect();
    last.ident == "Result"
        && matches!(types.as_slice(), [_, syn::Type::Path(e)] if e.path.is_ident("String"))
}

/// The names of the functions and methods of `items` (test code left out) that return
/// `Result<_, String>`.
fn string_errors(items: &[syn::Item], out: &mut Vec<String>) {
    let mut add = |attrs: &[syn::Attribute], sig: &syn::Signature| {
        if !is_test(attrs) && returns_string_error(&sig.output) {
            out.push(sig.ident.to_string());
        }
    };
    let mut inner_mods = Vec::new();
    for item in items {
        match item {
            syn::Item::Fn(f) => add(&f.attrs, &f.sig),
            syn::Item::Impl(i) if !is_test(&i.attrs) => {
                for inner in &i.items {
                    if let syn::ImplItem::Fn(f) = inner {
                        add(&f.attrs, &f.sig);
                    }
                }
            }
            syn::Item::Trait(t) if !is_test(&t.attrs) => {
                for inner in &t.items {
                    if let syn::TraitItem::Fn(f) = inner {
                        add(&f.attrs, &f.sig);
                    }
                }
            }
            syn::Item::Mod(m) if !is_test(&m.attrs) => {
                if let Some((_, inner)) = &m.content {
                    inner_mods.push(inner);
                }
            }
            _ => {}
        }
    }
    for inner in inner_mods {
        string_errors(inner, out);
    }
}

/// Every shipped `.rs` file under `src` (no `tests` folders or `tests.rs` files), sorted.
fn files(src: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if name != "tests" {
                    walk(&path, out);
                }
            } else if name.ends_with(".rs") && name != "tests.rs" && !name.ends_with("_tests.rs") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(src, &mut out);
    out.sort();
    out
}

/// The names of the engine's modules, at any depth: a `use` path that starts with one of them
/// (or with `crate`, `self`, `super`) names the engine's own items.
fn own_modules(src: &Path) -> Vec<String> {
    let mut out: Vec<String> = files(src)
        .iter()
        .flat_map(|path| {
            let rel = path.strip_prefix(src).unwrap();
            rel.iter()
                .map(|part| part.to_string_lossy().trim_end_matches(".rs").to_string())
                .collect::<Vec<_>>()
        })
        .filter(|name| name != "mod" && name != "lib")
        .collect();
    out.sort();
    out.dedup();
    out
}

fn count_file(text: &str, own: &[String]) -> Count {
    let file = syn::parse_file(text).unwrap();
    let mut c = Count::default();
    count_items(&file.items, own, &mut c);
    c
}

/// The count per file, relative to `src`.
fn per_file(src: &Path) -> BTreeMap<String, Count> {
    let own = own_modules(src);
    files(src)
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path
                .strip_prefix(src)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (name, count_file(&text, &own))
        })
        .collect()
}

#[test]
fn the_engine_denies_unreachable_pub_so_its_pub_items_are_its_api() {
    let lib = std::fs::read_to_string(engine_src().join("lib.rs")).unwrap();
    assert!(
        lib.contains("#![deny(unreachable_pub)]"),
        "crates/pilot-engine/src/lib.rs must deny unreachable_pub: without it, an item declared \
         `pub` in a private module is not public and this count would be wrong"
    );
}

#[test]
fn the_engine_public_items_stay_under_half_of_what_they_were() {
    let counts = per_file(&engine_src());
    let mut per_module: BTreeMap<String, usize> = BTreeMap::new();
    for (file, c) in &counts {
        let module = file.split(['/', '.']).next().unwrap().to_string();
        *per_module.entry(module).or_default() += c.items;
    }
    let items: usize = counts.values().map(|c| c.items).sum();
    let fields: usize = counts.values().map(|c| c.fields).sum();
    let variants: usize = counts.values().map(|c| c.variants).sum();
    for (module, n) in &per_module {
        println!("{module:>12} {n}");
    }
    println!(
        "public items: {items} (limit {MOST_PUBLIC_ITEMS}); public fields {fields}, variants {variants}"
    );
    assert!(
        items <= MOST_PUBLIC_ITEMS,
        "pilot-engine has {items} public items, over {MOST_PUBLIC_ITEMS}: keep public only what \
         another crate of ours or a user calls (`pub(crate)` for the rest)"
    );
}

#[test]
fn what_counts_as_a_public_item() {
    let own = vec!["store".to_string()];
    let text = r#"
        pub fn a() {}
        pub(crate) fn b() {}
        fn c() {}
        pub struct S { pub x: u8, y: u8 }
        impl S { pub fn m(&self) {} pub(crate) fn n(&self) {} }
        impl Clone for S { fn clone(&self) -> Self { todo!() } }
        pub enum E { One, Two }
        pub trait T { fn t(&self); const K: u8; }
        pub const K: u8 = 1;
        pub mod inner { pub fn d() {} }
        pub use pilot_stats as stats;
        pub use other::{x, y as z};
        pub use crate::store::Saved;
        pub use store::Other;
        #[macro_export]
        macro_rules! m { () => {} }
        macro_rules! hidden { () => {} }
        #[cfg(test)]
        pub fn e() {}
        #[cfg(test)]
        mod tests { pub fn f() {} }
    "#;
    // a, S, m, E, T + its 2 items, K, inner, d, stats, x, z, the macro: 14.
    assert_eq!(
        count_file(text, &own),
        Count {
            items: 14,
            fields: 1,
            variants: 2
        }
    );
}

#[test]
fn few_engine_functions_return_string_errors() {
    let src = engine_src();
    let mut found = Vec::new();
    for path in files(&src) {
        let file = syn::parse_file(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let mut names = Vec::new();
        string_errors(&file.items, &mut names);
        let rel = path
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        found.extend(names.into_iter().map(|n| format!("{rel}: {n}")));
    }
    for f in &found {
        println!("{f}");
    }
    println!(
        "functions returning Result<_, String>: {} (limit {MOST_STRING_ERRORS})",
        found.len()
    );
    assert!(
        found.len() <= MOST_STRING_ERRORS,
        "{} engine functions return Result<_, String>, over {MOST_STRING_ERRORS}: give a new \
         failure a type of its own (see the engine's error types), not a message",
        found.len()
    );
}

#[test]
fn what_counts_as_a_string_error() {
    let text = r#"
        fn a() -> Result<u8, String> { todo!() }
        pub fn b() -> std::result::Result<(), String> { todo!() }
        fn c() -> Result<u8, Error> { todo!() }
        fn d() -> Option<String> { None }
        fn e(x: Result<u8, String>) {}
        struct S;
        impl S { fn m(&self) -> Result<Vec<String>, String> { todo!() } }
        impl std::str::FromStr for S { type Err = String; fn from_str(s: &str) -> Result<Self, String> { todo!() } }
        trait T { fn t(&self) -> Result<(), String>; }
        mod inner { fn f() -> Result<(), String> { todo!() } }
        #[cfg(test)]
        mod tests { fn g() -> Result<(), String> { todo!() } }
        #[test]
        fn h() -> Result<(), String> { Ok(()) }
    "#;
    let mut names = Vec::new();
    string_errors(&syn::parse_file(text).unwrap().items, &mut names);
    // a, b, m, from_str, t, f: not c, d, e (an argument), g or h (test code).
    assert_eq!(names, ["a", "b", "m", "from_str", "t", "f"]);
}
