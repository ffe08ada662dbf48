//! The sizes the house keeps (`../shared/STYLE.md`, and `ARCHITECTURE.md`'s note on them): no
//! file of shipped code over [`MOST_FILE_LINES`] lines and no function over
//! [`MOST_FN_LINES`], so that a reader finds one concept per file and one step per function.
//!
//! Shipped code is every `.rs` file under a crate's `src/` in `crates/`, with its test items
//! (`#[cfg(test)]`) left out of the count; `tests.rs` files and `tests/` folders are tests. A
//! function's length runs from its `fn` to its closing brace.
//!
//! The files and functions over the limits today are listed ([`KNOWN_LONG_FILES`],
//! [`KNOWN_LONG_FNS`]): the tests fail on one more, and on a listed one that has come under its
//! limit (take it off the list), so the lists only shrink.

use std::path::{Path, PathBuf};

use syn::spanned::Spanned;

/// The most lines of shipped code a file may hold.
const MOST_FILE_LINES: usize = 500;

/// The most lines a function may span.
const MOST_FN_LINES: usize = 100;

/// Files over [`MOST_FILE_LINES`] today, relative to the workspace.
const KNOWN_LONG_FILES: &[&str] = &[];

/// Functions over [`MOST_FN_LINES`] today: `file::name`.
const KNOWN_LONG_FNS: &[&str] = &[];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Every shipped `.rs` file of the crates in `crates/`, relative to the workspace, sorted.
fn shipped_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if name != "tests" {
                    walk(&path, out);
                }
            } else if name.ends_with(".rs") && name != "tests.rs" {
                out.push(path);
            }
        }
    }
    let root = workspace();
    let mut out = Vec::new();
    for krate in std::fs::read_dir(root.join("crates")).unwrap() {
        let src = krate.unwrap().path().join("src");
        if src.is_dir() {
            walk(&src, &mut out);
        }
    }
    // A file a parent declares as `#[cfg(test)] mod name;` is a test module too.
    let tests: Vec<PathBuf> = out.iter().flat_map(|f| test_modules_of(f)).collect();
    let mut out: Vec<PathBuf> = out
        .into_iter()
        .filter(|p| !tests.contains(p))
        .map(|p| p.strip_prefix(&root).unwrap().to_path_buf())
        .collect();
    out.sort();
    out
}

/// The files of the modules `file` declares as `#[cfg(test)] mod name;`: `name.rs` or
/// `name/mod.rs` in the folder its own submodules live in.
fn test_modules_of(file: &Path) -> Vec<PathBuf> {
    let text = std::fs::read_to_string(file).unwrap();
    let Ok(tree) = syn::parse_file(&text) else {
        return Vec::new();
    };
    let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
    let dir = if ["mod", "lib", "main"].contains(&stem.as_str()) {
        file.parent().unwrap().to_path_buf()
    } else {
        file.parent().unwrap().join(&stem)
    };
    tree.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Mod(m) if m.content.is_none() && is_test(&m.attrs) => Some(&m.ident),
            _ => None,
        })
        .flat_map(|name| {
            [
                dir.join(format!("{name}.rs")),
                dir.join(name.to_string()).join("mod.rs"),
            ]
        })
        .collect()
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

/// What one file holds: its lines of shipped code (all its lines less those of its test items)
/// and each shipped function's name and length.
struct Measured {
    lines: usize,
    fns: Vec<(String, usize)>,
}

fn lines_of(span: proc_macro2::Span) -> usize {
    span.end().line - span.start().line + 1
}

fn fn_length(sig: &syn::Signature, block: &syn::Block) -> usize {
    block.brace_token.span.close().end().line - sig.fn_token.span.start().line + 1
}

fn items(list: &[syn::Item], prefix: &str, m: &mut Measured, test_lines: &mut usize) {
    for item in list {
        let attrs: &[syn::Attribute] = match item {
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Mod(md) => &md.attrs,
            syn::Item::Trait(t) => &t.attrs,
            _ => &[],
        };
        if is_test(attrs) {
            *test_lines += lines_of(item.span());
            continue;
        }
        match item {
            syn::Item::Fn(f) => m.fns.push((
                format!("{prefix}{}", f.sig.ident),
                fn_length(&f.sig, &f.block),
            )),
            syn::Item::Impl(i) => {
                for ii in &i.items {
                    if let syn::ImplItem::Fn(f) = ii {
                        if is_test(&f.attrs) {
                            *test_lines += lines_of(f.span());
                            continue;
                        }
                        m.fns.push((
                            format!("{prefix}{}", f.sig.ident),
                            fn_length(&f.sig, &f.block),
                        ));
                    }
                }
            }
            syn::Item::Trait(t) => {
                for ti in &t.items {
                    if let syn::TraitItem::Fn(f) = ti
                        && let Some(block) = &f.default
                    {
                        m.fns
                            .push((format!("{prefix}{}", f.sig.ident), fn_length(&f.sig, block)));
                    }
                }
            }
            syn::Item::Mod(md) => {
                if let Some((_, inner)) = &md.content {
                    items(inner, &format!("{prefix}{}::", md.ident), m, test_lines);
                }
            }
            _ => {}
        }
    }
}

fn measure(file: &Path) -> Measured {
    let text = std::fs::read_to_string(workspace().join(file)).unwrap();
    let tree = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut m = Measured {
        lines: 0,
        fns: Vec::new(),
    };
    let mut test_lines = 0;
    items(&tree.items, "", &mut m, &mut test_lines);
    m.lines = text.lines().count().saturating_sub(test_lines);
    m
}

/// The file's path with `/` separators, as the lists name it.
fn named(file: &Path) -> String {
    file.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Names with their lengths in lines.
type Lengths = Vec<(String, usize)>;

/// What is over the limits: files with their lines, functions (`file::name`) with theirs.
fn over_limits() -> (Lengths, Lengths) {
    let mut files = Vec::new();
    let mut fns = Vec::new();
    for file in shipped_files() {
        let m = measure(&file);
        let name = named(&file);
        if m.lines > MOST_FILE_LINES {
            files.push((name.clone(), m.lines));
        }
        for (f, lines) in m.fns {
            if lines > MOST_FN_LINES {
                fns.push((format!("{name}::{f}"), lines));
            }
        }
    }
    (files, fns)
}

/// Fails with what differs between what is over a limit and its list of known ones.
fn same_as_known(kind: &str, found: &[(String, usize)], known: &[&str], limit: usize) {
    let found_names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    let new: Vec<String> = found
        .iter()
        .filter(|(n, _)| !known.contains(&n.as_str()))
        .map(|(n, l)| format!("{n} ({l} lines)"))
        .collect();
    let mended: Vec<&&str> = known.iter().filter(|k| !found_names.contains(k)).collect();
    assert!(
        new.is_empty() && mended.is_empty(),
        "{kind} over {limit} lines that are not known: {new:#?}\nknown {kind} now within the \
         limit (take them off the list): {mended:#?}"
    );
}

#[test]
fn no_shipped_file_grows_over_500_lines() {
    let (files, _) = over_limits();
    same_as_known("files", &files, KNOWN_LONG_FILES, MOST_FILE_LINES);
}

#[test]
fn no_function_grows_over_100_lines() {
    let (_, fns) = over_limits();
    same_as_known("functions", &fns, KNOWN_LONG_FNS, MOST_FN_LINES);
}

#[test]
fn test_items_and_test_files_are_not_counted() {
    let text = "fn a() {\n    1;\n}\n#[cfg(test)]\nmod tests {\n    fn b() {\n    }\n}\n";
    let tree = syn::parse_file(text).unwrap();
    let mut m = Measured {
        lines: 0,
        fns: Vec::new(),
    };
    let mut test_lines = 0;
    items(&tree.items, "", &mut m, &mut test_lines);
    // `mod tests` spans its attribute's line through its closing brace: five lines.
    assert_eq!(test_lines, 5);
    assert_eq!(m.fns, vec![("a".to_string(), 3)]);
}
