//! The page's sections as HTML fragments: what each plot is drawn from, and the tables beside
//! them.

mod bench;
mod comparison;
mod explained;
mod groups;
mod history;
mod names;
mod sweeps;

pub use bench::bench;
pub use comparison::comparison;
pub use explained::explained;
pub use groups::{families, groups};
pub use history::history;
pub use names::Names;
pub use sweeps::{find_sweeps, sweeps};

/// Escapes text for HTML element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes `text` for HTML, with each span between a pair of backticks (Markdown's code,
/// which the engine's messages use to quote a name or a flag) as `<code>`; a backtick
/// without a partner stays as it is.
pub fn escape_inline(text: &str) -> String {
    let parts: Vec<&str> = text.split('`').collect();
    // An even count of parts means an odd count of backticks: the last one has no partner.
    let paired = if parts.len().is_multiple_of(2) {
        parts.len() - 1
    } else {
        parts.len()
    };
    let mut out = String::with_capacity(text.len());
    for (i, part) in parts[..paired].iter().enumerate() {
        if i % 2 == 1 {
            out.push_str(&format!("<code>{}</code>", escape(part)));
        } else {
            out.push_str(&escape(part));
        }
    }
    if paired < parts.len() {
        out.push_str(&escape(&format!("`{}", parts[paired])));
    }
    out
}

/// A plot with its caption.
fn figure(svg: &str, caption: &str) -> String {
    // An SVG inside HTML needs no namespace: without it the page names no URL at all.
    let svg = svg.replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1);
    format!("<figure class=\"plot\">{svg}<figcaption>{caption}</figcaption></figure>\n")
}

/// `<table>` with a header row and rows of cells already escaped.
fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut t = String::from("<table><thead><tr>");
    for h in header {
        t.push_str(&format!("<th>{}</th>", escape(h)));
    }
    t.push_str("</tr></thead><tbody>\n");
    for r in rows {
        t.push_str("<tr>");
        for c in r {
            t.push_str(&format!("<td>{c}</td>"));
        }
        t.push_str("</tr>\n");
    }
    t.push_str("</tbody></table>\n");
    t
}

/// A verdict in a coloured badge (`regressed` red, `improved`/`faster` green).
fn verdict(v: &str) -> String {
    let class = match v {
        "regressed" | "failed" => "bad",
        "improved" => "good",
        "faster" | "slower" | "equivalent" | "no change" => "plain",
        _ => "weak",
    };
    format!("<span class=\"verdict {class}\">{}</span>", escape(v))
}

/// A relative change as a signed percentage.
fn pct(x: f64) -> String {
    format!("{:+.2}%", 100.0 * x)
}

/// What a plot's caption says of its logarithmic axes.
fn axes_note(axes: super::plot::Axes) -> &'static str {
    match (axes.log_x, axes.log_y) {
        (true, true) => " (log-log)",
        (true, false) => " (log x)",
        (false, true) => " (log y)",
        (false, false) => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backticks_in_pairs_become_code_and_the_rest_is_escaped() {
        assert_eq!(
            escape_inline("use `--processes 5` for <a> & `b`"),
            "use <code>--processes 5</code> for &lt;a&gt; &amp; <code>b</code>"
        );
        assert_eq!(
            escape_inline("`<script>` and a lone ` here"),
            "<code>&lt;script&gt;</code> and a lone ` here"
        );
        assert_eq!(escape_inline("no code"), "no code");
        assert_eq!(escape_inline("``"), "<code></code>");
        assert_eq!(escape_inline("`"), "`");
    }
}
