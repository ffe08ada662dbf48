//! How the page names a bench: as `cargo pilot compare` and the bench binary's own table do,
//! by its name alone (`sort_10k`), which is what a filter or `--bench` matches; the target is
//! the folder its results are kept in, not part of the name. Only where benches of two targets
//! share a name does the page add the target, in parentheses, so each row says which it is.

use std::collections::{BTreeMap, BTreeSet};

/// The bench names the page shows, knowing which are shared by several targets.
#[derive(Debug, Default)]
pub struct Names {
    shared: BTreeSet<String>,
}

impl Names {
    /// The names of `benches`, each `(target, name)`.
    pub fn of<'a>(benches: impl IntoIterator<Item = (&'a str, &'a str)>) -> Names {
        let mut targets: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for (target, name) in benches {
            targets.entry(name).or_default().insert(target);
        }
        Names {
            shared: targets
                .into_iter()
                .filter(|(_, t)| t.len() > 1)
                .map(|(name, _)| name.to_string())
                .collect(),
        }
    }

    /// Bench `name` of `target` as the page shows it (not escaped).
    pub fn show(&self, target: &str, name: &str) -> String {
        if target.is_empty() || !self.shared.contains(name) {
            name.to_string()
        } else {
            format!("{name} ({target})")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Names;

    #[test]
    fn a_name_gets_its_target_only_when_two_targets_share_it() {
        let names = Names::of([
            ("sort", "sort_10k"),
            ("criterion_style", "sort_10k"),
            ("hash", "siphash_4k"),
            ("", "imported"),
        ]);
        assert_eq!(names.show("sort", "sort_10k"), "sort_10k (sort)");
        assert_eq!(
            names.show("criterion_style", "sort_10k"),
            "sort_10k (criterion_style)"
        );
        assert_eq!(names.show("hash", "siphash_4k"), "siphash_4k");
        assert_eq!(names.show("", "imported"), "imported");
    }
}
