//! The book (`book/src`) and the README are compiled as doctests through `tests/src/lib.rs`.
//! These tests keep that true as chapters are added: every chapter is in `SUMMARY.md` and
//! included in `tests/src/lib.rs`, no Rust example is left out of compilation with `ignore`, and
//! the README stays a short page that points into the book.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The Markdown files under `book/src`, as paths relative to it, sorted.
fn chapters() -> Vec<String> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, base, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                let relative = path.strip_prefix(base).unwrap();
                out.push(relative.to_str().unwrap().replace('\\', "/"));
            }
        }
    }
    let src = root().join("book/src");
    let mut out = Vec::new();
    walk(&src, &src, &mut out);
    out.sort();
    out
}

/// The info strings of the fenced code blocks that open in `text`, with their line numbers.
fn fences(text: &str) -> Vec<(usize, String)> {
    let mut open = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let Some(info) = trimmed.strip_prefix("```") else {
            continue;
        };
        if !open {
            out.push((i + 1, info.trim().to_string()));
            open = true;
        } else if info.trim().is_empty() {
            // A closing fence has no info string (CommonMark); "```rust" inside a block is text.
            open = false;
        }
    }
    out
}

/// Whether rustdoc compiles a block with this info string as Rust: no language, or `rust`
/// with attributes.
fn is_rust(info: &str) -> bool {
    info.is_empty() || info.split(',').next().unwrap().trim() == "rust"
}

#[test]
fn every_chapter_is_compiled_as_doctests() {
    let lib = read(&root().join("tests/src/lib.rs"));
    let missing: Vec<String> = chapters()
        .into_iter()
        .filter(|c| c != "SUMMARY.md")
        .filter(|c| !lib.contains(&format!("include_str!(\"../../book/src/{c}\")")))
        .collect();
    assert!(
        missing.is_empty(),
        "chapters not included in tests/src/lib.rs, so their examples are never compiled: \
         {missing:?}"
    );
    assert!(lib.contains("include_str!(\"../../README.md\")"));
}

#[test]
fn every_chapter_is_in_the_summary() {
    let summary = read(&root().join("book/src/SUMMARY.md"));
    let missing: Vec<String> = chapters()
        .into_iter()
        .filter(|c| c != "SUMMARY.md")
        .filter(|c| !summary.contains(&format!("]({c})")))
        .collect();
    assert!(
        missing.is_empty(),
        "chapters missing from book/src/SUMMARY.md: {missing:?}"
    );
}

#[test]
fn no_rust_example_is_ignored() {
    let mut pages: Vec<PathBuf> = chapters()
        .iter()
        .map(|c| root().join("book/src").join(c))
        .collect();
    pages.push(root().join("README.md"));
    let mut found = Vec::new();
    let mut rust_blocks = 0;
    for page in &pages {
        for (line, info) in fences(&read(page)) {
            if !is_rust(&info) {
                continue;
            }
            rust_blocks += 1;
            if info.is_empty() {
                found.push(format!(
                    "{}:{line}: a code block without a language (rustdoc compiles it as Rust; \
                     name it `rust`, or `text`, `sh`, … when it is not Rust)",
                    page.display()
                ));
            }
            if info.split(',').any(|a| a.trim() == "ignore") {
                found.push(format!(
                    "{}:{line}: `{info}`: compile it (`no_run` if it must not run)",
                    page.display()
                ));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
    assert!(rust_blocks > 10, "only {rust_blocks} Rust examples found");
}

#[test]
fn the_readme_is_short() {
    let lines = read(&root().join("README.md")).lines().count();
    assert!(
        lines < 200,
        "README.md has {lines} lines: the guide belongs in the book (book/src), the README \
         points to it"
    );
}

#[test]
fn the_fence_reader_sees_info_strings() {
    let text = "a\n```rust,ignore\nfn x() {}\n```\n```text\n```rust\n```\n```\nb\n```\n";
    assert_eq!(
        fences(text),
        vec![
            (2, "rust,ignore".to_string()),
            (5, "text".to_string()),
            (8, String::new())
        ]
    );
    assert!(is_rust("rust,no_run"));
    assert!(is_rust(""));
    assert!(!is_rust("toml"));
}
