//! The groups' rankings on disk: `<target>/pilot/rankings/<bench target>.json`
//! (`pilot.rankings/1`), the latest ranking of each group instance of a bench target, written
//! by the bench binary at the end of a run that ranked one, so that `cargo pilot report` shows
//! rankings however the run was started (`cargo bench`, `cargo pilot bench`, nextest).

use std::path::{Path, PathBuf};

use crate::{Error, Result};
use pilot_format::{GroupDoc, RANKINGS_SCHEMA, RankingsDoc};

/// `<target>/pilot/rankings`: one file per bench target.
pub(crate) fn rankings_dir(target_dir: &Path) -> PathBuf {
    target_dir.join("pilot").join("rankings")
}

/// Where bench target `target`'s rankings go.
fn rankings_path(target_dir: &Path, target: &str) -> PathBuf {
    rankings_dir(target_dir).join(format!("{target}.json"))
}

/// Saves `groups`, ranked by a run of bench target `target` that ended at `now`: each replaces
/// the saved ranking of the same group instance, the others stay. A saved file that cannot be
/// read is replaced whole (it held rankings only, which the next runs make again); the error is
/// a failed write, naming the file.
pub(crate) fn save_rankings(
    target_dir: &Path,
    target: &str,
    groups: &[GroupDoc],
    now: &str,
) -> Result<()> {
    let path = rankings_path(target_dir, target);
    let mut saved = read_file(&path)
        .ok()
        .flatten()
        .map_or_else(Vec::new, |d| d.groups);
    for g in groups {
        match saved.iter_mut().find(|s| s.name == g.name) {
            Some(s) => *s = g.clone(),
            None => saved.push(g.clone()),
        }
    }
    let doc = RankingsDoc {
        schema: RANKINGS_SCHEMA.to_string(),
        target: target.to_string(),
        updated: now.to_string(),
        groups: saved,
    };
    let bytes = serde_json::to_vec_pretty(&doc).expect("documents serialise");
    crate::files::write_atomic(&path, &bytes).map_err(|e| Error::WriteFailed {
        path: path.clone(),
        message: e.to_string(),
    })
}

/// Every bench target's saved rankings, by target name. A file that is not a rankings
/// document is an error naming it; no folder is no rankings.
pub fn read_rankings(target_dir: &Path) -> Result<Vec<RankingsDoc>> {
    let dir = rankings_dir(target_dir);
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(Error::ReadFailed {
                path: dir,
                message: e.to_string(),
            });
        }
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json") && p.is_file())
        .collect();
    paths.sort();
    let mut docs = Vec::new();
    for path in paths {
        docs.extend(read_file(&path)?);
    }
    Ok(docs)
}

/// The rankings document at `path`; `None` when there is none.
fn read_file(path: &Path) -> Result<Option<RankingsDoc>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(Error::ReadFailed {
                path: path.to_path_buf(),
                message: e.to_string(),
            });
        }
    };
    let invalid = |problem: String| Error::InvalidDocument {
        path: path.to_path_buf(),
        problem,
    };
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| invalid(e.to_string()))?;
    let schema = value
        .get("schema")
        .and_then(serde_json::Value::as_str)
        .ok_or_else(|| invalid(format!("no `schema` key (expected `{RANKINGS_SCHEMA}`)")))?;
    pilot_format::check_schema(schema, RANKINGS_SCHEMA).map_err(invalid)?;
    super::typed(value).map(Some).map_err(invalid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pilot_format::RangeDoc;

    fn group(name: &str, members: &[&str]) -> GroupDoc {
        GroupDoc {
            name: name.into(),
            ranking: members.iter().map(|m| m.to_string()).collect(),
            pairs: Vec::new(),
            members: members
                .iter()
                .map(|m| pilot_format::MemberDoc {
                    name: m.to_string(),
                    mean: 1.0,
                    ci: RangeDoc {
                        low: 0.9,
                        high: 1.1,
                    },
                })
                .collect(),
            status: "settled".into(),
            interleaved: true,
            cycles: 3,
            elapsed_s: 1.0,
            ranking_settled_s: None,
        }
    }

    #[test]
    fn a_run_replaces_the_groups_it_ranked_and_keeps_the_others() {
        let dir = tempfile::tempdir().unwrap();
        assert!(read_rankings(dir.path()).unwrap().is_empty());
        let t0 = "2026-01-01T00:00:00Z";
        save_rankings(dir.path(), "b", &[group("x", &["x1", "x2"])], t0).unwrap();
        let first = [group("m/1", &["a", "b"]), group("m/2", &["a", "b"])];
        save_rankings(dir.path(), "a", &first, t0).unwrap();
        let later = [group("m/2", &["b", "a"]), group("n", &["c", "d"])];
        save_rankings(dir.path(), "a", &later, "2026-01-02T00:00:00Z").unwrap();
        let docs = read_rankings(dir.path()).unwrap();
        let targets: Vec<&str> = docs.iter().map(|d| d.target.as_str()).collect();
        assert_eq!(targets, ["a", "b"]);
        assert_eq!(
            docs[0].groups,
            [first[0].clone(), later[0].clone(), later[1].clone()]
        );
        assert_eq!(docs[0].updated, "2026-01-02T00:00:00Z");
    }

    #[test]
    fn a_file_that_is_not_a_rankings_document_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let folder = rankings_dir(dir.path());
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("t.json"), r#"{"schema": "pilot.result/1"}"#).unwrap();
        let e = read_rankings(dir.path()).unwrap_err().to_string();
        assert!(
            e.contains("t.json") && e.contains("pilot.rankings/1"),
            "{e}"
        );
        // Saving over it starts the file afresh.
        save_rankings(dir.path(), "t", &[group("g", &["a", "b"])], "now").unwrap();
        assert_eq!(read_rankings(dir.path()).unwrap()[0].groups.len(), 1);
    }
}
