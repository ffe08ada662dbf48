//! Names from outside pilot (imported ids, commands, criterion ids) go into a terminal, a
//! Markdown table and a CSV file: for any name, each format holds it as text that an
//! independent reader gives back, and nothing in it acts as the format's syntax. (Names as
//! paths: `store::tests::names_map_to_paths_one_to_one` and
//! `accepted_folder_names_stay_inside_the_folder`.)

use pilot_engine::fmt::{csv_text, markdown_code, terminal};
use proptest::prelude::*;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// Names with what breaks each format, often: control characters (ESC, CSI, newline, tab,
/// carriage return, NUL, DEL), backticks, bars, backslashes, formula starts, and any text.
fn hostile() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a`|\\\\=+@\\-\\n\\r\\t\\x1b\\x00\\x7f\\u{9b}\\u{202e}\\u{2067}\\[ #*_<>]{0,12}",
        any::<String>(),
    ]
}

/// Whether the rule below escapes `c`.
fn escaped(c: char) -> bool {
    shown_by_rule(&c.to_string()) != c.to_string()
}

/// What [`terminal`] is to show for `name`, written out from its rule: each control character
/// (C0, DEL, C1) and bidirectional control (U+061C, U+200E/F, U+202A–E, U+2066–9) as `\n`, `\t`, `\r` or `\u{hex}`, everything else as it is.
fn shown_by_rule(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20
                || (0x7f..=0x9f).contains(&(c as u32))
                || [0x61c, 0x200e, 0x200f].contains(&(c as u32))
                || (0x202a..=0x202e).contains(&(c as u32))
                || (0x2066..=0x2069).contains(&(c as u32)) =>
            {
                out.push_str(&format!("\\u{{{:x}}}", c as u32))
            }
            c => out.push(c),
        }
    }
    out
}

/// The cells of the one body row of a GFM table `| NAME | x |`, as pulldown-cmark reads them:
/// each cell's text with code spans' contents, and how many code spans it held.
fn table_cells(row: &str) -> Vec<(String, usize)> {
    let doc = format!("| bench | other |\n|:--|--:|\n{row}\n");
    let mut cells = Vec::new();
    let mut in_body = false;
    let mut cell: Option<(String, usize)> = None;
    for event in Parser::new_ext(&doc, Options::ENABLE_TABLES) {
        match event {
            Event::End(TagEnd::TableHead) => in_body = true,
            Event::Start(Tag::TableCell) if in_body => cell = Some((String::new(), 0)),
            Event::End(TagEnd::TableCell) if in_body => cells.extend(cell.take()),
            Event::Code(code) => {
                if let Some((text, spans)) = cell.as_mut() {
                    text.push_str(&code);
                    *spans += 1;
                }
            }
            Event::Text(t) => {
                if let Some((text, _)) = cell.as_mut() {
                    text.push_str(&t);
                }
            }
            _ => {}
        }
    }
    cells
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// A terminal receives no control character; text without one is unchanged; each
    /// control character is shown as its escape.
    #[test]
    fn the_terminal_shows_names_and_obeys_none(name in hostile()) {
        let shown = terminal(&name);
        prop_assert!(!shown.chars().any(escaped), "{:?}", shown);
        if !name.chars().any(escaped) {
            prop_assert_eq!(&*shown, name.as_str());
        }
        prop_assert_eq!(shown.into_owned(), shown_by_rule(&name));
    }

    /// In a Markdown table row, a name is one cell holding one code span whose text is the
    /// name as the terminal shows it: no row ends early, no cell splits, no heading, emphasis
    /// or HTML comes out of it.
    #[test]
    fn a_markdown_cell_holds_the_name_and_nothing_else(name in hostile()) {
        let code = markdown_code(&name);
        prop_assert!(!code.contains('\n') && !code.contains('\r'), "{:?}", code);
        let cells = table_cells(&format!("| {code} | x |"));
        prop_assert_eq!(cells.len(), 2, "{:?} -> {:?}", code, cells);
        prop_assert_eq!(&cells[1].0, "x");
        let (text, spans) = &cells[0];
        if name.is_empty() {
            prop_assert_eq!((text.as_str(), *spans), ("", 0));
            return Ok(());
        }
        prop_assert_eq!(*spans, 1, "{:?} -> {:?}", code, cells);
        prop_assert_eq!(text, &terminal(&name).into_owned(), "{:?}", code);
    }

    /// Written by a CSV writer and read back by a CSV reader, a name is one cell that no
    /// spreadsheet takes for a formula, and it is the name itself, with a `'` in front
    /// exactly when the name starts like a formula.
    #[test]
    fn a_csv_cell_is_text_not_a_formula(name in hostile()) {
        let cell = csv_text(&name);
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record([cell.as_ref(), "1"]).unwrap();
        let bytes = w.into_inner().unwrap();
        let mut r = csv::ReaderBuilder::new().has_headers(false).from_reader(&bytes[..]);
        let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
        prop_assert_eq!(rows.len(), 1);
        prop_assert_eq!(rows[0].len(), 2);
        let read = &rows[0][0];
        let formula = |s: &str| s.starts_with(['=', '+', '-', '@', '\t', '\r']);
        prop_assert!(!formula(read), "{:?}", read);
        if formula(&name) {
            prop_assert_eq!(read, format!("'{name}"));
        } else {
            prop_assert_eq!(read, name.as_str());
        }
    }
}
