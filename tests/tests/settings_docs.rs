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

/// A page of the book (or another document a user reads), whitespace collapsed so that a
/// phrase matches across the page's line breaks.
fn page(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
    let text = std::fs::read_to_string(&full)
        .unwrap_or_else(|e| panic!("failed to read `{}`: {e}", full.display()));
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A number as the docs write it: `10`, `0.95`, `2`.
fn number(x: f64) -> String {
    format!("{x}")
}

/// A fraction as the docs write a percentage: `1%` for 0.01, `95%` for 0.95.
fn percent(x: f64) -> String {
    format!("{}%", number((100.0 * x * 1e9).round() / 1e9))
}

/// The table's defaults under the names the phrases below use: `{ci%}` is `ci`'s default as
/// a percentage, `{max_time}` the cap in seconds, `{many}` the processes of a bench capped at
/// `{many_from}` seconds or more, and so on.
fn values() -> Vec<(String, String)> {
    let stated = |name: &str| -> f64 {
        let text = pilot_settings::default_of(name);
        text.parse()
            .unwrap_or_else(|_| panic!("`{name}`'s default `{text}` is not a number"))
    };
    let p = pilot_settings::PROCESSES;
    let (quick_ci, quick_max_time) = pilot_settings::QUICK;
    let mut out = Vec::new();
    for name in ["ci", "confidence", "alpha", "noise", "max_time", "min_time"] {
        out.push((format!("{{{name}}}"), number(stated(name))));
        out.push((format!("{{{name}%}}"), percent(stated(name))));
    }
    out.extend([
        ("{2×max_time}".into(), number(2.0 * stated("max_time"))),
        ("{quick_ci%}".into(), percent(quick_ci)),
        ("{quick_max_time}".into(), number(quick_max_time)),
        ("{many}".into(), p.many.to_string()),
        ("{many_from}".into(), p.many_from_s.to_string()),
        ("{few}".into(), p.few.to_string()),
        ("{few_from}".into(), p.few_from_s.to_string()),
        ("{least}".into(), p.least.to_string()),
    ]);
    out
}

/// Defaults a page restates that are not the settings table's, each checked by a test of the
/// crate that holds the value (named here): the phrase the page says it with.
const CHECKED_ELSEWHERE: &[(&str, &str, &str)] = &[(
    "book/src/history.md",
    "30 by default (`0`",
    "cargo-pilot's history::pg::tests::the_book_states_the_connection_limit",
)];

/// Every place the book, the README and the attribute's docs restate a default of the table
/// (a time cap, an interval target, a confidence, a noise threshold or significance level,
/// process counts, `--quick`'s): the page and the phrase, with the table's values in braces.
/// A default stated once, in the settings table, needs no entry; the pages link to it.
const RESTATED: &[(&str, &str)] = &[
    (
        "README.md",
        "within ±{ci%} at {confidence%} confidence or its time cap ({max_time} s)",
    ),
    (
        "README.md",
        "needs both p < {alpha} and a change beyond {noise%}",
    ),
    ("README.md", "until its interval is ±{ci%}"),
    (
        "book/src/introduction.md",
        "(±{ci%} at {confidence%} confidence by default) or its time cap ({max_time} s by default)",
    ),
    (
        "book/src/getting-started.md",
        "# ±{quick_ci%} and a {quick_max_time} s cap per bench",
    ),
    (
        "book/src/ci.md",
        "`--quick` shortens each bench's cap to {quick_max_time} s at ±{quick_ci%}",
    ),
    ("book/src/reference.md", "| `ci = {ci}` | target half-width"),
    (
        "book/src/reference.md",
        "| `confidence = {confidence}` | the interval's confidence |",
    ),
    (
        "book/src/reference.md",
        "| `max_time = {max_time}`, `min_time = {min_time}` | time cap and least time",
    ),
    (
        "crates/pilot-macros/src/lib.rs",
        "`0 < x < 1` | `{ci}` | /// | `confidence = x` | confidence level, `0 < x < 1` | `{confidence}` | /// | `max_time = s` | time cap in seconds, `s > 0` | `{max_time}` | /// | `min_time = s` | least session time in seconds, `0 <= s <= max_time` | `{min_time}` |",
    ),
    (
        "book/src/comparing.md",
        "a verdict needs both a p below α ({alpha}) and a change beyond the noise threshold ({noise%})",
    ),
    (
        "book/src/comparing.md",
        "the ratio's interval lies inside 1 ± {noise%}",
    ),
    (
        "book/src/comparing.md",
        "Its time cap is one bench's cap (default {max_time} s)",
    ),
    (
        "book/src/comparing.md",
        "p < α (default {alpha}) and a change beyond the noise threshold (default {noise%})",
    ),
    (
        "book/src/comparing.md",
        "(twice the bench's cap: one for each build, default {2×max_time} s)",
    ),
    (
        "book/src/statistics.md",
        "a bench whose time cap is at least {many_from} s runs in {many} fresh processes of the bench binary ({few} from {few_from} s; Kalibera & Jones), or stops at {least} once their interval meets the target",
    ),
    (
        "book/src/statistics.md",
        "and so does a cap under {few_from} s",
    ),
    (
        "book/src/statistics.md",
        "**p below α** ({alpha} by default, `--alpha`)",
    ),
    (
        "book/src/statistics.md",
        "**a change beyond the noise threshold** ({noise%} by default, `--noise`)",
    ),
    (
        "book/src/coming-from-criterion.md",
        "(±{ci%} at {confidence%} by default)",
    ),
    (
        "book/src/coming-from-criterion.md",
        "the baseline comparison uses `--noise` ({noise%}) and `--alpha` ({alpha})",
    ),
    (
        "book/src/coming-from-divan.md",
        "(±{ci%} at {confidence%} by default)",
    ),
    (
        "book/src/coming-from-divan.md",
        "(pilot's `max_time`, default {max_time} s)",
    ),
    (
        "book/src/coming-from-hyperfine.md",
        "(±{ci%} at {confidence%} by default, `--ci`) or the cap (`--max-time`, {max_time} s per command)",
    ),
    (
        "book/src/command-line-programs.md",
        "(`--ci`, default ±{ci%} at {confidence%}) or the cap (`--max-time`, default {max_time} s per command)",
    ),
    (
        "book/src/importing.md",
        "its interval meets `--ci` (default ±{ci%})",
    ),
    (
        "book/src/importing.md",
        "| `--confidence C` | confidence level of every interval | {confidence} |",
    ),
    (
        "book/src/importing.md",
        "| `--ci REL` | target half-width relative to the mean, for the required sample size | {ci} |",
    ),
    (
        "book/src/importing.md",
        "| `--alpha A` | significance level of the comparisons | {alpha} |",
    ),
    (
        "book/src/importing.md",
        "| `--noise REL` | relative difference below which two files are equivalent | {noise} |",
    ),
    (
        "book/src/history.md",
        "the change must be larger than {noise%} (`--noise`)",
    ),
    (
        "book/src/ci.md",
        "`--against-time` (default {2×max_time} s: the time `--against` gives a bench, twice its {max_time} s cap)",
    ),
];

/// `template` with the table's values in place of the names in braces.
fn render(template: &str, values: &[(String, String)]) -> String {
    let mut out = template.to_string();
    for (name, value) in values {
        out = out.replace(name.as_str(), value);
    }
    assert!(!out.contains('{'), "an unknown name in `{template}`");
    out
}

#[test]
fn every_restated_default_is_the_tables() {
    let values = values();
    let mut wrong = Vec::new();
    for (path, template) in RESTATED {
        let phrase = render(template, &values);
        if !page(path).contains(&phrase) {
            wrong.push(format!("{path}: `{phrase}`"));
        }
    }
    assert!(
        wrong.is_empty(),
        "these pages no longer say what the settings table says (say it as the table does, \
         or link to the table and drop the entry):\n{}",
        wrong.join("\n")
    );
}

/// The last character boundary of `text` at or before `at` (its length, past its end).
fn boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Where a page says "by default" or "(default …)" of a number, the phrase must be one of
/// [`RESTATED`]: a default restated anywhere else would drift from the table unseen.
#[test]
fn no_page_restates_a_default_unchecked() {
    let values = values();
    let mut pages: Vec<String> = vec!["README.md".into()];
    for entry in
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../book/src")).unwrap()
    {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            pages.push(format!("book/src/{name}"));
        }
    }
    let mut unchecked = Vec::new();
    for path in &pages {
        let text = page(path);
        let checked: Vec<(usize, usize)> = RESTATED
            .iter()
            .filter(|(p, _)| p == path)
            .filter_map(|(_, t)| {
                let phrase = render(t, &values);
                text.find(&phrase).map(|at| (at, at + phrase.len()))
            })
            .chain(
                CHECKED_ELSEWHERE
                    .iter()
                    .filter(|(p, _, _)| p == path)
                    .filter_map(|(_, phrase, _)| {
                        text.find(phrase).map(|at| (at, at + phrase.len()))
                    }),
            )
            .collect();
        for (at, _) in text.match_indices("default") {
            let before = &text[boundary(&text, at.saturating_sub(24))..at];
            let after = &text[at + "default".len()..];
            let after = &after[..boundary(after, 24)];
            let by_default =
                before.ends_with("by ") && before.contains(|c: char| c.is_ascii_digit());
            let default_of = (before.ends_with('(') || before.ends_with(", "))
                && after.starts_with(' ')
                && after[1..].starts_with(|c: char| c.is_ascii_digit() || c == '±');
            if (by_default || default_of) && !checked.iter().any(|&(a, b)| a <= at && at < b) {
                let from = boundary(&text, at.saturating_sub(60));
                let to = boundary(&text, at + 40);
                unchecked.push(format!("{path}: …{}…", &text[from..to]));
            }
        }
    }
    assert!(
        unchecked.is_empty(),
        "defaults restated without a check against the settings table (add the phrase to \
         RESTATED, or link to the table instead):\n{}",
        unchecked.join("\n")
    );
}
