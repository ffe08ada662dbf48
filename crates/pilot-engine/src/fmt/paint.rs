//! Colour on a terminal: statuses, verdicts and check markers, and nothing else. Off a
//! terminal, or with `--color never` or `NO_COLOR` set (<https://no-color.org>), the text is
//! left plain, so logs and pipes stay greppable.
//!
//! Colour is applied to a cell after the columns are laid out, so escape codes never count
//! towards a column's width.

use console::Style;

/// `--color`: when to colour the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorChoice {
    /// On a terminal whose `TERM` is not `dumb`, unless `NO_COLOR` is set to anything.
    #[default]
    Auto,
    /// Always, even into a pipe or a file (`--color always` beats `NO_COLOR`).
    Always,
    /// Never.
    Never,
}

impl std::str::FromStr for ColorChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match pilot_settings::choice(s, pilot_settings::COLOR_CHOICES)? {
            "always" => Ok(ColorChoice::Always),
            "never" => Ok(ColorChoice::Never),
            _ => Ok(ColorChoice::Auto),
        }
    }
}

impl ColorChoice {
    /// Whether to colour output to a stream: `terminal` says whether it is one, `env` reads
    /// the environment (`NO_COLOR`, `TERM`). `NO_COLOR` counts when set and not empty.
    pub(crate) fn enabled(self, terminal: bool, env: impl Fn(&str) -> Option<String>) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                terminal
                    && env("NO_COLOR").is_none_or(|v| v.is_empty())
                    && env("TERM").is_none_or(|t| t != "dumb")
            }
        }
    }

    /// [`enabled`](Self::enabled) for standard output, from the process's environment.
    pub fn for_stdout(self) -> Paint {
        use std::io::IsTerminal;
        Paint::new(self.enabled(std::io::stdout().is_terminal(), |k| std::env::var(k).ok()))
    }
}

/// Paints words by what they say, or leaves them plain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Paint {
    on: bool,
}

impl Paint {
    /// A painter that colours when `on`.
    pub(crate) fn new(on: bool) -> Paint {
        Paint { on }
    }

    /// Plain text: no colour.
    pub fn plain() -> Paint {
        Paint { on: false }
    }

    /// Whether this painter colours.
    pub(crate) fn is_on(self) -> bool {
        self.on
    }

    fn apply(self, style: Style, text: &str) -> String {
        if self.on {
            style.force_styling(true).apply_to(text).to_string()
        } else {
            text.to_string()
        }
    }

    /// A session's status: `ok` green, `FAILED` red, the rest (a cap, out of reach) yellow.
    pub(crate) fn status(self, text: &str) -> String {
        let style = match text.trim() {
            "ok" | "settled" => Style::new().green(),
            "FAILED" | "failed" | "interrupted" => Style::new().red().bold(),
            "" => return text.to_string(),
            _ => Style::new().yellow(),
        };
        self.apply(style, text)
    }

    /// Good news (faster, improved): green.
    pub(crate) fn good(self, text: &str) -> String {
        self.apply(Style::new().green(), text)
    }

    /// Bad news (slower, regressed): red and bold.
    pub(crate) fn bad(self, text: &str) -> String {
        self.apply(Style::new().red().bold(), text)
    }

    /// A warning's marker or heading: yellow.
    pub(crate) fn warn(self, text: &str) -> String {
        self.apply(Style::new().yellow(), text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn auto_colours_a_terminal_unless_no_color_or_a_dumb_term() {
        let auto = ColorChoice::Auto;
        assert!(auto.enabled(true, env(&[("TERM", "xterm-256color")])));
        assert!(!auto.enabled(false, env(&[])), "a pipe stays plain");
        assert!(!auto.enabled(true, env(&[("NO_COLOR", "1")])));
        // no-color.org: an empty NO_COLOR does not count.
        assert!(auto.enabled(true, env(&[("NO_COLOR", "")])));
        assert!(!auto.enabled(true, env(&[("TERM", "dumb")])));
        assert!(ColorChoice::Always.enabled(false, env(&[("NO_COLOR", "1")])));
        assert!(!ColorChoice::Never.enabled(true, env(&[])));
    }

    #[test]
    fn choices_parse_and_a_wrong_one_is_named() {
        assert_eq!("always".parse(), Ok(ColorChoice::Always));
        assert_eq!("never".parse(), Ok(ColorChoice::Never));
        assert_eq!("auto".parse(), Ok(ColorChoice::Auto));
        let e = "blue".parse::<ColorChoice>().unwrap_err();
        assert!(e.contains("auto") && e.contains("never"), "{e}");
    }

    #[test]
    fn plain_text_is_left_alone_and_colour_wraps_it() {
        assert_eq!(Paint::plain().status("time cap"), "time cap");
        assert_eq!(Paint::plain().bad("+12%"), "+12%");
        let on = Paint::new(true);
        assert_eq!(on.status("ok"), "\u{1b}[32mok\u{1b}[0m");
        assert!(on.status("FAILED").contains("\u{1b}[31m"));
        assert!(on.status("time cap").contains("\u{1b}[33m"));
        assert_eq!(on.status(""), "");
    }
}
