//! Names from outside pilot (a bench's or a command's name, an id from an imported file) as
//! each format they go into must hold them: a name is text to show, never a control sequence
//! for a terminal, a row break in Markdown or a formula in a spreadsheet.

use std::borrow::Cow;

/// Whether `c` is a control character (C0 `\0`–`\x1f`, DEL, C1 `\u{80}`–`\u{9f}`) or a
/// bidirectional control (the marks, embeddings, overrides and isolates of Unicode's bidi
/// algorithm), which reorder the text around it on screen ("Trojan Source").
fn is_control(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// `text` with every control character and bidirectional control written as its Rust escape
/// (`\n`, `\t`, `\r`, `\u{1b}`, `\u{202e}`); text without one is returned as it is. A
/// terminal then shows a name that holds an ANSI sequence as characters, and it cannot colour,
/// move the cursor, clear the screen or start a line. (A name that holds the two characters
/// `\n` looks like one that holds a line break: this is for showing, not for reading back.)
/// Time: O(n).
pub fn terminal(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_control(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` of one or more lines (a message or an error's chain, which may hold names) as
/// [`terminal`] shows it, its line breaks kept: every other control character and
/// bidirectional control is written as its escape. A name alone goes through [`terminal`],
/// where a line break is escaped too (a name cannot start a line of its own). Time: O(n).
pub fn terminal_lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && is_control(c)) {
        return Cow::Borrowed(text);
    }
    let lines: Vec<Cow<'_, str>> = text.split('\n').map(terminal).collect();
    Cow::Owned(lines.join("\n"))
}

/// A path as [`terminal`] shows it (`path.display()`, its control characters escaped): a
/// folder's name is the user's, and may hold anything but `/`. Time: O(n).
pub fn terminal_path(path: &std::path::Path) -> String {
    terminal(&path.display().to_string()).into_owned()
}

/// `text` as a Markdown code span in a table cell: control characters escaped as for
/// [`terminal`] (a line break would end the row), `|` as `\|` (GitHub's tables split cells on
/// it even inside code), and a fence of backticks one longer than the longest run of them in
/// the text, with a space inside each end when the text starts or ends with a backtick or
/// with spaces (CommonMark's code spans), so nothing in a name can close the span. An empty
/// name is an empty cell (a code span cannot be empty). Time: O(n).
pub fn markdown_code(text: &str) -> String {
    if text.is_empty() {
        return String::new();
    }
    let text = terminal(text).replace('|', "\\|");
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    // CommonMark takes one space off each end of a span's content that has one at both ends
    // (and is not all spaces): a pad keeps a name's own spaces, and sets a backtick apart.
    let spaced = text.starts_with(' ') && text.ends_with(' ') && text.trim() != "";
    let pad = if text.starts_with('`') || text.ends_with('`') || spaced {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// `text` as a CSV cell a spreadsheet shows as text: one that starts with `=`, `+`, `-`, `@`,
/// a tab or a carriage return gets a `'` in front (OWASP's advice on CSV injection), so
/// `=cmd|' /C calc'!A0` is not run as a formula. Quoting the cell (commas, quotes, line breaks)
/// is the CSV writer's. For text cells only: a number's sign is not a formula. Time: O(1).
pub fn csv_text(text: &str) -> Cow<'_, str> {
    match text.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => Cow::Owned(format!("'{text}")),
        _ => Cow::Borrowed(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_for_the_terminal() {
        assert_eq!(terminal("sort/10k"), "sort/10k");
        assert!(matches!(terminal("a\\b"), Cow::Borrowed(_)));
        assert_eq!(terminal("\u{1b}[2Jx"), "\\u{1b}[2Jx");
        assert_eq!(terminal("a\nb\tc\r"), "a\\nb\\tc\\r");
        assert_eq!(terminal("\u{9b}31m\\"), "\\u{9b}31m\\");
        assert_eq!(terminal("\u{7f}"), "\\u{7f}");
        assert_eq!(terminal("µs ± 1%"), "µs ± 1%");
        assert_eq!(terminal("a\u{202e}b\u{2066}"), "a\\u{202e}b\\u{2066}");
    }

    #[test]
    fn lines_keep_their_breaks_and_lose_their_escapes() {
        assert!(matches!(terminal_lines("a\nb"), Cow::Borrowed("a\nb")));
        assert_eq!(
            terminal_lines("error: `\u{1b}]0;title\u{7}x`\n  caused by: \u{9b}31m"),
            "error: `\\u{1b}]0;title\\u{7}x`\n  caused by: \\u{9b}31m"
        );
        assert_eq!(terminal_lines("a\r\nb\t"), "a\\r\nb\\t");
        assert_eq!(
            terminal_path(std::path::Path::new("/tmp/\u{1b}[2J/x")),
            "/tmp/\\u{1b}[2J/x"
        );
    }

    #[test]
    fn markdown_code_spans_cannot_be_closed_or_broken() {
        assert_eq!(markdown_code("sort"), "`sort`");
        assert_eq!(markdown_code(""), "");
        assert_eq!(markdown_code("a|b"), "`a\\|b`");
        assert_eq!(markdown_code("a`b"), "``a`b``");
        assert_eq!(markdown_code("`x``"), "``` `x`` ```");
        assert_eq!(markdown_code(" a "), "`  a  `");
        assert_eq!(markdown_code("  "), "`  `");
        assert_eq!(
            markdown_code("x\n## All benches passed"),
            "`x\\n## All benches passed`"
        );
    }

    #[test]
    fn formulas_are_text_in_csv() {
        assert_eq!(csv_text("=cmd|' /C calc'!A0"), "'=cmd|' /C calc'!A0");
        assert_eq!(csv_text("@SUM(1+1)"), "'@SUM(1+1)");
        assert_eq!(csv_text("+1+1"), "'+1+1");
        assert_eq!(csv_text("-2"), "'-2");
        assert_eq!(csv_text("\tx"), "'\tx");
        assert_eq!(csv_text("\rx"), "'\rx");
        assert_eq!(csv_text("sort_10k"), "sort_10k");
        assert_eq!(csv_text(""), "");
    }
}
