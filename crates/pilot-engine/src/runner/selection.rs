//! Which benches the command line selects: the positional filters, `--exact`, `--skip` and the
//! ignored flags, read in the syntax of the front end a bench is written with.
//!
//! `#[pilot::bench]` binaries read filters as libtest does (a name contains the filter);
//! criterion and divan read them as regular expressions, so their front ends
//! (`pilot-criterion`, `pilot-divan`) ask for
//! [`FilterSyntax::Regex`](crate::cli::FilterSyntax::Regex) and a user's
//! `cargo bench -- 'encode|decode'` selects what it selected before the switch. The front end
//! passes its syntax to [`main_with`](super::main_with) (benches registered before `main`) or
//! to [`driven::start_with`](super::driven::start_with) (benches announced at run time).

use crate::cli::{Args, FilterSyntax};
use crate::settings::UsageError;

/// The benches one run's command line selects, its filters read once (see [`Selection::new`]).
#[derive(Debug)]
pub(crate) struct Selection {
    filters: Vec<Matcher>,
    skip: Vec<Matcher>,
    ignored: bool,
    include_ignored: bool,
    /// The filters as given, for messages.
    given: Vec<String>,
    syntax: FilterSyntax,
    exact: bool,
}

/// One filter or `--skip` value, ready to match names.
#[derive(Debug)]
enum Matcher {
    /// `--exact`: the whole name, in either syntax (as libtest, criterion and divan have it).
    Exact(String),
    Contains(String),
    #[cfg(feature = "regex")]
    Regex(regex::Regex),
}

impl Matcher {
    fn new(
        text: &str,
        syntax: FilterSyntax,
        exact: bool,
        what: &str,
    ) -> Result<Matcher, UsageError> {
        if exact {
            return Ok(Matcher::Exact(text.to_string()));
        }
        match syntax {
            FilterSyntax::Substring => Ok(Matcher::Contains(text.to_string())),
            FilterSyntax::Regex => regex_matcher(text, what),
        }
    }

    fn matches(&self, name: &str) -> bool {
        match self {
            Matcher::Exact(text) => name == text,
            Matcher::Contains(text) => name.contains(text.as_str()),
            #[cfg(feature = "regex")]
            Matcher::Regex(re) => re.is_match(name),
        }
    }
}

#[cfg(feature = "regex")]
fn regex_matcher(text: &str, what: &str) -> Result<Matcher, UsageError> {
    regex::Regex::new(text)
        .map(Matcher::Regex)
        .map_err(|e| not_a_regex(what, text, &e))
}

#[cfg(not(feature = "regex"))]
fn regex_matcher(_: &str, _: &str) -> Result<Matcher, UsageError> {
    Err(UsageError::FiltersNeedRegex)
}

/// The usage error of `text`, given as `what` (a filter, `--skip`), that `regex` refused with
/// `e`: the error's own last line (`unclosed group`), without its drawing of the pattern.
#[cfg(feature = "regex")]
pub(super) fn not_a_regex(what: &str, text: &str, e: &regex::Error) -> UsageError {
    let full = e.to_string();
    let why = full
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .map(|l| l.trim().trim_start_matches("error: ").to_string())
        .unwrap_or(full);
    UsageError::NotARegex {
        given_as: what.to_string(),
        text: text.to_string(),
        why,
    }
}

impl Selection {
    /// The selection `args` asks for, its filters and `--skip` values read in `syntax`. An
    /// invalid regular expression is an error naming it (a usage error: exit code 2).
    pub(crate) fn new(args: &Args, syntax: FilterSyntax) -> Result<Selection, UsageError> {
        let read = |texts: &[String], what: &str| -> Result<Vec<Matcher>, UsageError> {
            texts
                .iter()
                .map(|t| Matcher::new(t, syntax, args.exact, what))
                .collect()
        };
        Ok(Selection {
            filters: read(&args.filters, "filter")?,
            skip: read(&args.skip, "--skip")?,
            ignored: args.ignored,
            include_ignored: args.include_ignored,
            given: args.filters.clone(),
            syntax,
            exact: args.exact,
        })
    }

    /// Whether a bench called `name`, ignored or not, is selected: it matches a filter (when
    /// any is given) and no `--skip` value, and `--ignored`/`--include-ignored` let it run.
    pub(crate) fn selects(&self, name: &str, ignored: bool) -> bool {
        if !self.filters.is_empty() && !self.filters.iter().any(|f| f.matches(name)) {
            return false;
        }
        if self.skip.iter().any(|s| s.matches(name)) {
            return false;
        }
        if self.ignored {
            ignored
        } else {
            self.include_ignored || !ignored
        }
    }

    /// Whether the benches were asked for by name (positional filters given).
    pub(crate) fn by_name(&self) -> bool {
        !self.given.is_empty()
    }

    /// What a run whose filters selected no bench says: "no bench matches `a`, `b` …".
    pub(crate) fn no_match(&self) -> String {
        let quoted: Vec<String> = self
            .given
            .iter()
            .map(|f| format!("`{}`", crate::fmt::terminal(f)))
            .collect();
        let how = if self.exact {
            " exactly"
        } else if self.syntax == FilterSyntax::Regex {
            if quoted.len() == 1 {
                " (read as a regular expression)"
            } else {
                " (read as regular expressions)"
            }
        } else {
            ""
        };
        format!("no bench matches {}{how}", quoted.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;

    use super::*;

    /// The selection of arguments `a`, or the message of the usage error.
    fn selection(a: &[&str], syntax: FilterSyntax) -> Result<Selection, String> {
        let args =
            crate::cli::parse(a.iter().map(OsString::from), |_| None).map_err(|e| e.to_string())?;
        Selection::new(&args, syntax).map_err(|e| e.to_string())
    }

    fn substring(a: &[&str]) -> Selection {
        selection(a, FilterSyntax::Substring).unwrap()
    }

    #[test]
    fn substring_filters_skips_and_ignored() {
        let s = substring(&["sort", "--skip", "slow"]);
        assert!(s.selects("sort_10k", false));
        assert!(!s.selects("sort_slow", false));
        assert!(!s.selects("hash", false));
        assert!(
            !s.selects("sort_10k", true),
            "ignored benches need --ignored"
        );
        assert!(substring(&["--include-ignored"]).selects("x", true));
        assert!(!substring(&["--ignored"]).selects("x", false));
        // A regex's metacharacters are plain text to libtest's filters.
        assert!(substring(&["a|b"]).selects("xa|by", false));
        assert!(!substring(&["a|b"]).selects("a", false));
    }

    #[test]
    fn exact_matches_whole_names_in_both_syntaxes() {
        for syntax in [FilterSyntax::Substring, FilterSyntax::Regex] {
            let s = selection(&["sort", "--exact", "--nocapture"], syntax).unwrap();
            assert!(s.selects("sort", false));
            assert!(!s.selects("sort_10k", false));
            // `--exact` takes a name as written: `(` is no group, `.` no wildcard.
            let s = selection(&["--exact", "g/f(1.5)"], syntax).unwrap();
            assert!(s.selects("g/f(1.5)", false));
            assert!(!s.selects("g/f(125)", false));
        }
    }

    #[cfg(feature = "regex")]
    #[test]
    fn regex_filters_match_anywhere_unless_anchored() {
        let re = |a: &[&str]| selection(a, FilterSyntax::Regex).unwrap();
        let s = re(&["hex_encode|hex_decode"]);
        assert!(s.selects("hex_encode", false));
        assert!(s.selects("rustc_hex_decode", false), "unanchored");
        assert!(!s.selects("faster_hex_string", false));
        let s = re(&["^hex_(en|de)code$"]);
        assert!(s.selects("hex_decode", false));
        assert!(!s.selects("rustc_hex_decode", false));
        // Two filters: either selects; `--skip` is a regular expression too.
        let s = re(&["^counts/", "^num_chars/", "--skip", r"/\d{6,}$"]);
        assert!(s.selects("counts/naive/1000", false));
        assert!(s.selects("num_chars/hyper/0", false));
        assert!(!s.selects("counts/naive/1000000", false));
        assert!(!s.selects("other/naive/10", false));
        // A plain name means the same in both syntaxes.
        assert!(re(&["decode"]).selects("decode_slice/3", false));
    }

    #[cfg(feature = "regex")]
    #[test]
    fn an_invalid_regex_is_an_error_naming_it() {
        let e = selection(&["hex_("], FilterSyntax::Regex).unwrap_err();
        assert!(
            e.starts_with("filter `hex_(` is not a valid regular expression: unclosed group ("),
            "{e}"
        );
        let e = selection(&["--skip", "a[", "x"], FilterSyntax::Regex).unwrap_err();
        assert!(
            e.starts_with(
                "--skip `a[` is not a valid regular expression: unclosed character class"
            ),
            "{e}"
        );
        // The same text is a name under --exact, and libtest's substring otherwise.
        assert!(selection(&["hex_(", "--exact"], FilterSyntax::Regex).is_ok());
        assert!(selection(&["hex_("], FilterSyntax::Substring).is_ok());
        // A terminal escape in the pattern is shown, not sent.
        let e = selection(&["\u{1b}[2J("], FilterSyntax::Regex).unwrap_err();
        assert!(!e.contains('\u{1b}'), "{e:?}");
    }

    #[test]
    fn no_match_says_how_the_filters_were_read() {
        assert_eq!(
            substring(&["a", "b"]).no_match(),
            "no bench matches `a`, `b`"
        );
        assert_eq!(
            substring(&["a", "--exact"]).no_match(),
            "no bench matches `a` exactly"
        );
        #[cfg(feature = "regex")]
        assert_eq!(
            selection(&["a|b"], FilterSyntax::Regex).unwrap().no_match(),
            "no bench matches `a|b` (read as a regular expression)"
        );
    }
}
