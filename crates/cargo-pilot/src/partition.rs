//! `cargo pilot bench --partition count:K/N|hash:K/N`: a stable share of the suite, so that N
//! runners each measure one share and together measure every bench exactly once (nextest's
//! convention and spelling).
//!
//! The suite is every bench the run selects, across all its bench targets, after the filters
//! and `--skip`; a bench is named `target/name`, as the results table names it.
//! - `count:K/N` sorts the suite by name and takes every N-th bench from the K-th (1-based):
//!   the shares differ in size by at most one, and a bench added to the suite can move others
//!   to another share.
//! - `hash:K/N` takes the benches whose name's FNV-1a 64-bit hash is K-1 modulo N: a bench
//!   stays in its share whatever else is added, at the cost of uneven shares. FNV-1a is
//!   defined on the name's UTF-8 bytes alone, so the share is the same on every platform and
//!   Rust version (std's `DefaultHasher` promises neither).

use std::fmt;
use std::str::FromStr;

/// How the suite is split.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// Round-robin over the benches sorted by name.
    Count,
    /// By a stable hash of each bench's name.
    Hash,
}

/// One share of the suite: share `k` (1-based) of `n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Partition {
    pub split: Split,
    pub k: u32,
    pub n: u32,
}

impl FromStr for Partition {
    type Err = String;

    /// Reads `count:K/N` or `hash:K/N`, 1 ≤ K ≤ N. The error says what is wrong with `text`.
    fn from_str(text: &str) -> Result<Partition, String> {
        let expected = "expected `count:K/N` or `hash:K/N` with 1 ≤ K ≤ N";
        let Some((kind, share)) = text.split_once(':') else {
            return Err(format!("`{text}` is no partition: {expected}"));
        };
        let split = match kind {
            "count" => Split::Count,
            "hash" => Split::Hash,
            other => {
                return Err(format!(
                    "unknown partition kind `{other}` in `{text}`: {expected}"
                ));
            }
        };
        let Some((k, n)) = share.split_once('/') else {
            return Err(format!("`{text}` has no share K/N: {expected}"));
        };
        let number = |s: &str, what: &str| {
            s.parse::<u32>()
                .map_err(|_| format!("{what} `{s}` in `{text}` is not a whole number: {expected}"))
        };
        let (k, n) = (number(k, "K")?, number(n, "N")?);
        if n == 0 {
            return Err(format!(
                "`{text}` splits the suite into no share: N is at least 1"
            ));
        }
        if k == 0 {
            return Err(format!(
                "`{text}` names share 0: shares are counted from 1 (1 ≤ K ≤ N)"
            ));
        }
        if k > n {
            return Err(format!("`{text}` names share {k} of {n}: K is at most N"));
        }
        Ok(Partition { split, k, n })
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.split {
            Split::Count => "count",
            Split::Hash => "hash",
        };
        write!(f, "{kind}:{}/{}", self.k, self.n)
    }
}

/// FNV-1a, 64 bits (Fowler, Noll, Vo; the offset basis and prime of
/// <http://www.isthe.com/chongo/tech/comp/fnv/>), over `bytes`. Time: O(len).
pub fn fnv1a_64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The name a bench is split by: `target/name`.
pub fn bench_key(target: &str, name: &str) -> String {
    format!("{target}/{name}")
}

impl Partition {
    /// The benches of `suite` (names, any order, each once) in this share, in `suite`'s order.
    /// Time: O(s log s) for `count`, O(s) for `hash`.
    pub fn select<'a>(&self, suite: &'a [String]) -> Vec<&'a String> {
        let n = u64::from(self.n);
        let k = u64::from(self.k - 1);
        match self.split {
            Split::Hash => suite
                .iter()
                .filter(|name| fnv1a_64(name.as_bytes()) % n == k)
                .collect(),
            Split::Count => {
                let mut sorted: Vec<&String> = suite.iter().collect();
                sorted.sort();
                let chosen: std::collections::HashSet<&String> = sorted
                    .into_iter()
                    .enumerate()
                    .filter(|(i, _)| *i as u64 % n == k)
                    .map(|(_, name)| name)
                    .collect();
                suite.iter().filter(|name| chosen.contains(name)).collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parse(s: &str) -> Result<Partition, String> {
        s.parse()
    }

    #[test]
    fn specs_are_read_and_written_back() {
        for s in ["count:1/3", "count:3/3", "hash:1/1", "hash:2/7"] {
            assert_eq!(parse(s).unwrap().to_string(), s);
        }
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        let cases = [
            ("count:0/3", "names share 0: shares are counted from 1"),
            ("count:4/3", "names share 4 of 3: K is at most N"),
            ("foo:1/2", "unknown partition kind `foo`"),
            ("hash:1/0", "splits the suite into no share"),
            ("count", "is no partition"),
            ("count:1", "has no share K/N"),
            ("count:a/2", "K `a` in `count:a/2` is not a whole number"),
            ("count:1/-2", "N `-2`"),
        ];
        for (spec, message) in cases {
            let e = parse(spec).unwrap_err();
            assert!(e.contains(message), "{spec}: {e}");
        }
    }

    #[test]
    fn fnv1a_matches_its_reference_values() {
        // The FNV reference's test vectors (empty string, "a", "foobar").
        assert_eq!(fnv1a_64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a_64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a_64(b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn hash_shares_match_an_independent_computation() {
        // Computed apart from this code, with:
        // python3 -c 'import sys
        // def f(s):
        //   h=0xcbf29ce484222325
        //   for b in s.encode(): h=((h^b)*0x100000001b3)%2**64
        //   return h
        // [print(n, f(n)%3+1) for n in sys.argv[1:]]' sort/sort_10k sort/sort_1k hash/fnv \
        //   hash/siphash groups/iterate/vec/100 parse/json parse/csv
        let expected = [
            ("sort/sort_10k", 3),
            ("sort/sort_1k", 2),
            ("hash/fnv", 2),
            ("hash/siphash", 2),
            ("groups/iterate/vec/100", 3),
            ("parse/json", 1),
            ("parse/csv", 3),
        ];
        let suite: Vec<String> = expected.iter().map(|(n, _)| n.to_string()).collect();
        for k in 1..=3 {
            let p = Partition {
                split: Split::Hash,
                k,
                n: 3,
            };
            let got: Vec<&str> = p.select(&suite).into_iter().map(String::as_str).collect();
            let want: Vec<&str> = expected
                .iter()
                .filter(|(_, share)| *share == k)
                .map(|(n, _)| *n)
                .collect();
            assert_eq!(got, want, "share {k}");
        }
    }

    #[test]
    fn count_takes_every_nth_of_the_sorted_suite() {
        let suite: Vec<String> = ["e", "a", "d", "b", "c"].map(String::from).to_vec();
        let share = |k| {
            Partition {
                split: Split::Count,
                k,
                n: 2,
            }
            .select(&suite)
            .into_iter()
            .cloned()
            .collect::<Vec<_>>()
        };
        // Sorted a b c d e: share 1 has a, c, e, in the suite's own order.
        assert_eq!(share(1), ["e", "a", "c"]);
        assert_eq!(share(2), ["d", "b"]);
    }

    proptest! {
        #[test]
        fn the_shares_are_disjoint_cover_the_suite_and_are_stable(
            names in proptest::collection::hash_set("[a-z_/0-9]{1,12}", 0..60),
            n in 1u32..9,
            hash in any::<bool>(),
        ) {
            let suite: Vec<String> = names.into_iter().collect();
            let mut reversed = suite.clone();
            reversed.reverse();
            let split = if hash { Split::Hash } else { Split::Count };
            let mut seen = std::collections::HashMap::new();
            for k in 1..=n {
                let p = Partition { split, k, n };
                let share = p.select(&suite);
                // The same share whatever order the suite was listed in.
                let mut a: Vec<&String> = share.clone();
                let mut b = p.select(&reversed);
                a.sort();
                b.sort();
                prop_assert_eq!(&a, &b);
                if split == Split::Count {
                    // Round-robin: sizes differ by at most one.
                    let len = share.len() as u32;
                    let total = suite.len() as u32;
                    prop_assert!(len == total / n || len == total / n + 1);
                }
                for name in share {
                    *seen.entry(name.clone()).or_insert(0) += 1;
                }
            }
            prop_assert_eq!(seen.len(), suite.len());
            prop_assert!(seen.values().all(|&c| c == 1));
        }
    }
}
