//! The book's table of settings (`book/src/reference.md`) is `pilot_settings::markdown` of the
//! table every parser reads: a setting added to `pilot_settings::SETTINGS` is documented by
//! rerunning this test with `PILOT_BLESS=1`, which rewrites the table between the page's markers.

use std::path::Path;

const START: &str = "<!-- settings:start -->\n";
const END: &str = "<!-- settings:end -->\n";

/// The page's text with `rows` between the markers.
fn with_table(page: &str, rows: &str) -> String {
    let start = page
        .find(START)
        .expect("book/src/reference.md has no settings:start marker")
        + START.len();
    let end = page
        .find(END)
        .expect("book/src/reference.md has no settings:end marker");
    assert!(
        start <= end,
        "book/src/reference.md's settings markers are out of order"
    );
    let header = "| flag | environment | meaning | default |\n| --- | --- | --- | --- |\n";
    format!("{}{header}{rows}{}", &page[..start], &page[end..])
}

#[test]
fn the_book_documents_every_setting_of_the_table() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../book/src/reference.md");
    let page = std::fs::read_to_string(&path).unwrap();
    let expected = with_table(&page, &pilot_settings::markdown(pilot_settings::SETTINGS));
    if std::env::var_os("PILOT_BLESS").is_some() {
        std::fs::write(&path, &expected).unwrap();
        return;
    }
    assert!(
        page == expected,
        "book/src/reference.md's table of settings is not the table's: rerun with PILOT_BLESS=1"
    );
}

#[test]
fn a_row_added_to_the_table_lands_between_the_markers() {
    let mut table = pilot_settings::SETTINGS.to_vec();
    table.push(pilot_settings::Setting {
        name: "example_knob",
        flag: "--example-knob",
        env: "PILOT_EXAMPLE_KNOB",
        kind: pilot_settings::Kind::Count,
        value_name: "N",
        default: "2",
        help: "a knob | added to the table",
        attribute: None,
        scope: pilot_settings::Scope::Forwarded,
    });
    let page = format!("intro\n{START}| stale row |\n{END}after\n");
    let out = with_table(&page, &pilot_settings::markdown(&table));
    assert!(out.starts_with("intro\n<!-- settings:start -->\n| flag |"));
    assert!(out.ends_with("<!-- settings:end -->\nafter\n"));
    assert!(
        out.contains(
            "| `--example-knob N` | `PILOT_EXAMPLE_KNOB` | a knob \\| added to the table | 2 |\n"
        ),
        "{out}"
    );
    assert!(!out.contains("stale row"));
}
