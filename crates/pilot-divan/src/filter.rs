//! divan's filters: positional filters and `--skip` are regular expressions, or whole ids with
//! `--exact`; a bench runs when no skip filter matches it and, if any filter is given, one
//! does. A bench with several thread counts is matched by its id (divan's, without the count)
//! or by its full name.

use pilot_engine::cli::Args;
use regex::Regex;

/// One filter.
#[derive(Clone, Debug)]
pub(crate) enum Pattern {
    Regex(Regex),
    Exact(String),
}

impl Pattern {
    /// `text` as a regular expression, or an exact id with `exact`; the error names it.
    pub(crate) fn new(text: &str, exact: bool) -> Result<Pattern, String> {
        if exact {
            return Ok(Pattern::Exact(text.to_string()));
        }
        Regex::new(text)
            .map(Pattern::Regex)
            .map_err(|e| format!("filter `{text}` is not a regular expression: {e}"))
    }
}

/// Whether `pattern` matches `text`: a regular expression anywhere in it, or all of it.
///
/// The engine's [`Selection`](pilot_engine::runner::Selection) reads the same filters in its
/// regular-expression mode (for its messages and its invalid-filter errors); this one decides,
/// because divan matches a filter against a bench's id as well as its full name.
fn matches(pattern: &Pattern, text: &str) -> bool {
    match pattern {
        Pattern::Regex(r) => r.is_match(text),
        Pattern::Exact(e) => e == text,
    }
}

/// The filters of a run.
#[derive(Clone, Debug, Default)]
pub(crate) struct Filters {
    include: Vec<Pattern>,
    skip: Vec<Pattern>,
    ignored: bool,
    include_ignored: bool,
}

impl Filters {
    /// The filters of the command line `args`, with `skips` (a `Divan`'s) besides.
    pub(crate) fn of(args: &Args, skips: &[Pattern]) -> Result<Filters, String> {
        let compile = |list: &[String]| -> Result<Vec<Pattern>, String> {
            list.iter().map(|f| Pattern::new(f, args.exact)).collect()
        };
        let mut skip = compile(&args.skip)?;
        skip.extend(skips.iter().cloned());
        Ok(Filters {
            include: compile(&args.filters)?,
            skip,
            ignored: args.ignored,
            include_ignored: args.include_ignored,
        })
    }

    /// Whether the bench with divan's id `id` and full name `name`, ignored or not, runs.
    pub(crate) fn selects(&self, id: &str, name: &str, ignored: bool) -> bool {
        self.matches(id, name) && self.shows(ignored)
    }

    /// Whether the filters and `--skip` let the bench with divan's id `id` and full name
    /// `name` through, whether it is ignored or not (divan's `--list` shows it either way).
    pub(crate) fn matches(&self, id: &str, name: &str) -> bool {
        let hit = |p: &Pattern| matches(p, id) || matches(p, name);
        if self.skip.iter().any(hit) {
            return false;
        }
        self.include.is_empty() || self.include.iter().any(hit)
    }

    /// Whether a bench that is `ignored` (or not) runs: only the ignored with `--ignored`,
    /// all with `--include-ignored`, else the others.
    pub(crate) fn shows(&self, ignored: bool) -> bool {
        if self.ignored {
            ignored
        } else {
            self.include_ignored || !ignored
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filters(args: &[&str]) -> Filters {
        let args =
            pilot_engine::cli::parse(args.iter().map(std::ffi::OsString::from), |_| None).unwrap();
        Filters::of(&args, &[]).unwrap()
    }

    #[test]
    fn regular_expressions_and_exact_ids() {
        let f = filters(&["math::(add|sub)$"]);
        assert!(f.selects("math::add", "math::add", false));
        assert!(!f.selects("math::add_assign", "math::add_assign", false));
        assert!(!f.selects("math::mul", "math::mul", false));
        let f = filters(&["--exact", "math::add"]);
        assert!(f.selects("math::add", "math::add", false));
        assert!(!f.selects("math::addx", "math::addx", false));
        let none = filters(&[]);
        assert!(none.selects("anything", "anything", false));
    }

    #[test]
    fn skips_win_and_thread_counts_follow_their_id() {
        let f = filters(&["math", "--skip", "div"]);
        assert!(f.selects("math::add", "math::add", false));
        assert!(!f.selects("math::div", "math::div", false));
        let f = filters(&["--exact", "threads::clone"]);
        assert!(f.selects("threads::clone", "threads::clone::t=4", false));
        let f = filters(&["--exact", "threads::clone::t=4"]);
        assert!(f.selects("threads::clone", "threads::clone::t=4", false));
        assert!(!f.selects("threads::clone", "threads::clone::t=1", false));
        let f = filters(&["--skip", "t=16"]);
        assert!(!f.selects("threads::clone", "threads::clone::t=16", false));
    }

    #[test]
    fn ignored_benches() {
        assert!(!filters(&[]).selects("a", "a", true));
        assert!(filters(&["--include-ignored"]).selects("a", "a", true));
        assert!(filters(&["--ignored"]).selects("a", "a", true));
        assert!(!filters(&["--ignored"]).selects("b", "b", false));
    }

    #[test]
    fn a_bad_expression_is_named() {
        let args = pilot_engine::cli::parse(["(".into()], |_| None).unwrap();
        let e = Filters::of(&args, &[]).unwrap_err();
        assert!(
            e.starts_with("filter `(` is not a regular expression"),
            "{e}"
        );
    }
}
