//! `--compare-across PATTERN`: alternatives that live in different groups, ranked against each
//! other.
//!
//! criterion users often give each library its own group (`TinyVec_u8_8`, `SmallVec_u8_8`)
//! with the operations as functions (`TinyVec<[u8; 8]>::push`), so the comparison a user wants,
//! one operation in each library, is not a group of theirs. The pattern, a regular expression,
//! matches what names an alternative (`TinyVec|SmallVec`); benches whose ids are the same once
//! its matches are set aside are alternatives of each other: `TinyVec_u8_8/TinyVec<[u8;
//! 8]>::push` and `SmallVec_u8_8/SmallVec<[u8; 8]>::push` are both `*_u8_8/*<[u8; 8]>::push`,
//! the comparison's name. `^[^/]+` (the group's name) ranks each function and parameter across
//! all groups.

/// The comparisons a `--compare-across` pattern makes.
#[derive(Debug)]
pub(crate) struct Pairing {
    #[cfg(feature = "regex")]
    pattern: regex::Regex,
}

/// What stands for the pattern's matches in a comparison's name.
#[cfg(feature = "regex")]
const WILDCARD: &str = "*";

impl Pairing {
    /// The pairing of `pattern`, a regular expression; an invalid one is an error naming it (a
    /// usage error).
    pub(crate) fn new(pattern: &str) -> Result<Pairing, crate::settings::UsageError> {
        #[cfg(feature = "regex")]
        {
            regex::Regex::new(pattern)
                .map(|pattern| Pairing { pattern })
                .map_err(|e| super::selection::not_a_regex("--compare-across", pattern, &e))
        }
        #[cfg(not(feature = "regex"))]
        {
            let _ = pattern;
            Err(crate::settings::UsageError::CompareAcrossNeedsRegex)
        }
    }

    /// The comparison bench `name` takes part in: `name` with each non-empty match of the
    /// pattern replaced by `*`; `None` when the pattern matches no text of it. Time:
    /// one search of `name`.
    pub(crate) fn key(&self, name: &str) -> Option<String> {
        #[cfg(feature = "regex")]
        {
            let mut key = String::with_capacity(name.len());
            let mut end = 0;
            for m in self.pattern.find_iter(name).filter(|m| !m.is_empty()) {
                key.push_str(&name[end..m.start()]);
                key.push_str(WILDCARD);
                end = m.end();
            }
            (end > 0).then(|| {
                key.push_str(&name[end..]);
                key
            })
        }
        #[cfg(not(feature = "regex"))]
        {
            let _ = name;
            None
        }
    }
}

#[cfg(all(test, feature = "regex"))]
mod tests {
    use super::*;

    #[test]
    fn ids_that_differ_only_in_the_pattern_share_a_key() {
        let p = Pairing::new("TinyVec|SmallVec").unwrap();
        let tiny = p.key("TinyVec_u8_8/TinyVec<[u8; 8]>::push").unwrap();
        let small = p.key("SmallVec_u8_8/SmallVec<[u8; 8]>::push").unwrap();
        assert_eq!(tiny, "*_u8_8/*<[u8; 8]>::push");
        assert_eq!(tiny, small);
        assert_ne!(p.key("SmallVec_u8_16/SmallVec<[u8; 16]>::push"), Some(tiny));
        assert_eq!(p.key("ArrayVec_u8_8/ArrayVec<[u8; 8]>::push"), None);
    }

    #[test]
    fn the_group_name_as_the_pattern_ranks_a_function_across_groups() {
        let p = Pairing::new("^[^/]+").unwrap();
        assert_eq!(p.key("serde/parse/canada").unwrap(), "*/parse/canada");
        assert_eq!(p.key("simd/parse/canada").unwrap(), "*/parse/canada");
        // A pattern that only matches empty text pairs nothing.
        assert_eq!(Pairing::new("x*").unwrap().key("abc"), None);
        assert!(
            Pairing::new("(")
                .unwrap_err()
                .to_string()
                .starts_with("--compare-across `(` is not a valid regular expression")
        );
    }
}
