//! pilot-criterion's meaning table (what criterion's settings and flags mean under pilot) is in
//! two places users read: the crate's docs (`crates/pilot-criterion/src/lib.rs`) and pilot's
//! book (`book/src/coming-from-criterion.md`, "What criterion's settings mean under pilot").
//! This test keeps them the same table.

use std::path::Path;

/// The Markdown table rows (lines starting with `|`) of the first table after the line
/// `start`, with the doc-comment prefix `prefix` taken off each line.
fn table_after(text: &str, start: &str, prefix: &str) -> Vec<String> {
    let lines: Vec<&str> = text
        .lines()
        .map(|l| {
            l.strip_prefix(prefix)
                .unwrap_or(l.trim_start_matches(prefix.trim_end()))
        })
        .collect();
    let heading = lines
        .iter()
        .position(|l| *l == start)
        .unwrap_or_else(|| panic!("no line `{start}`"));
    lines[heading..]
        .iter()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.to_string())
        .collect()
}

fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_book_and_the_crate_docs_have_one_meaning_table() {
    let crate_docs = table_after(
        &read("crates/pilot-criterion/src/lib.rs"),
        "# What criterion's settings mean here",
        "//! ",
    );
    let book = table_after(
        &read("book/src/coming-from-criterion.md"),
        "## What criterion's settings mean under pilot",
        "",
    );
    assert!(
        crate_docs.len() > 2,
        "the crate docs' table is missing: {crate_docs:?}"
    );
    assert_eq!(
        book, crate_docs,
        "book/src/coming-from-criterion.md's meaning table differs from \
         crates/pilot-criterion/src/lib.rs's: change both"
    );
}
