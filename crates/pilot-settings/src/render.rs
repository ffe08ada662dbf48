//! The table as people read it: `--help` lines, and the book's Markdown rows.

use crate::setting::Setting;

/// The lines `--help` shows for `table`: the flag and its value, then the help, the default and
/// the variable, wrapped to 96 columns.
pub fn help_lines(table: &[Setting]) -> String {
    const INDENT: usize = 26;
    const WIDTH: usize = 96;
    let mut out = String::new();
    for s in table {
        let mut head = format!("  {}", s.flag);
        if s.kind.takes_value() {
            head.push(' ');
            head.push_str(s.value_name);
        }
        let mut body = s.help.to_string();
        if !s.default.is_empty() {
            body.push_str(&format!(" (default {})", s.default));
        }
        body.push_str(&format!(" [{}]", s.env));
        let mut line = if head.chars().count() + 2 <= INDENT {
            format!("{head:<INDENT$}")
        } else {
            format!("{head}  ")
        };
        let mut width = line.chars().count();
        for word in body.split(' ') {
            let len = word.chars().count();
            if width + len > WIDTH && width > INDENT {
                out.push_str(line.trim_end());
                out.push('\n');
                line = " ".repeat(INDENT);
                width = INDENT;
            }
            line.push_str(word);
            line.push(' ');
            width += len + 1;
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The rows of the book's table of flags for `table`: `| flag | variable | meaning | default |`.
/// Pipes in the text are escaped for Markdown.
pub fn markdown(table: &[Setting]) -> String {
    let cell = |s: &str| s.replace('|', "\\|");
    let mut out = String::new();
    for s in table {
        let flag = if s.kind.takes_value() {
            format!("{} {}", s.flag, s.value_name)
        } else {
            s.flag.to_string()
        };
        let mut meaning = cell(s.help);
        if s.attribute.is_some() {
            meaning.push_str(&format!("; attribute `{}`", s.name));
        }
        out.push_str(&format!(
            "| `{}` | `{}` | {} | {} |\n",
            cell(&flag),
            s.env,
            meaning,
            cell(s.default)
        ));
    }
    out
}
