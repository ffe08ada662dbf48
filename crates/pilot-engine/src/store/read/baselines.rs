//! Saved baselines: the folders under `target/pilot/baselines`, one per name.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The names of the saved baselines under `baselines_dir`, sorted.
pub(crate) fn baseline_names(baselines_dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(baselines_dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.path().is_dir())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// The folder of baseline `name` under `baselines_dir`, or an error naming the baselines that
/// exist.
pub fn baseline(baselines_dir: &Path, name: &str) -> Result<PathBuf> {
    let dir = baselines_dir.join(name);
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(Error::MissingBaseline {
            name: name.to_string(),
            dir: baselines_dir.to_path_buf(),
            saved: baseline_names(baselines_dir),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_baseline_names_the_ones_that_exist() {
        let dir = std::env::temp_dir().join(format!("pilot-baselines-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("main")).unwrap();
        std::fs::create_dir_all(dir.join("v1.2")).unwrap();
        assert_eq!(baseline(&dir, "main").unwrap(), dir.join("main"));
        let e = baseline(&dir, "mian").unwrap_err().to_string();
        assert!(e.starts_with("no baseline `mian`"), "{e}");
        assert!(e.ends_with("saved baselines: main, v1.2)"), "{e}");
        let e = baseline(&dir.join("nowhere"), "x").unwrap_err().to_string();
        assert!(e.contains("no baselines are saved"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
