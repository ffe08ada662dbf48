//! Results on disk: where they go, how they are written, and reading them back.
//!
//! Everything lives under `<target>/pilot/`, where `<target>` is cargo's target directory:
//! `CARGO_TARGET_DIR` when set, otherwise found from the bench executable's own path
//! (`<target>/<profile>/deps/<bench>-<hash>`), so a bench binary started directly (as
//! cargo-nextest starts it) writes where `cargo bench` would.
//!
//! ```text
//! <target>/pilot/
//!   results/<bench target>/<bench>.json     latest result of each bench (schema pilot.result/1)
//!   baselines/<name>/<bench target>/<bench>.json   results saved with --save-baseline NAME
//!   runs/<bench target>.json                 the last run's progress, for --resume
//! ```
//!
//! Bench names become file names with every character outside `[A-Za-z0-9_.-]` replaced by
//! `_` (so `parse::json/4096` is `parse__json_4096.json`). Files are written atomically: a
//! complete temporary file in the same directory, synced, then renamed over the old one, so a
//! reader (or a concurrent run) sees the old result or the new one, never a mix, and a run
//! interrupted midway leaves the previous result intact.

mod read;
pub(crate) mod result;

use std::io::Write;
use std::path::{Path, PathBuf};

pub use read::{
    SampleMoments, SavedEstimate, SavedResult, baseline, baseline_names, from_document, read_dir,
    read_file, read_path,
};

/// `<target>/pilot/results`: the latest result of each bench, one folder per bench target.
pub fn results_dir(target_dir: &Path) -> PathBuf {
    target_dir.join("pilot").join("results")
}

/// `<target>/pilot/baselines`: one folder per saved baseline.
pub fn baselines_dir(target_dir: &Path) -> PathBuf {
    target_dir.join("pilot").join("baselines")
}

/// The target directory: `CARGO_TARGET_DIR`, else three levels above the executable
/// (`<target>/<profile>/deps/<exe>`), else `./target`.
pub(crate) fn target_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    std::env::current_exe()
        .ok()
        .and_then(|exe| target_from_exe(&exe))
        .unwrap_or_else(|| PathBuf::from("target"))
}

fn target_from_exe(exe: &Path) -> Option<PathBuf> {
    let deps = exe.parent()?;
    let profile = if deps.file_name()? == "deps" {
        deps.parent()?
    } else {
        deps
    };
    Some(profile.parent()?.to_path_buf())
}

/// The bench target's name: the executable's name without cargo's `-<hash>` suffix.
pub(crate) fn bench_target_name() -> String {
    match std::env::current_exe() {
        Ok(exe) => bench_target_of(&exe),
        Err(_) => "bench".to_string(),
    }
}

/// The name under which the bench executable at `exe` keeps its results: its file name without
/// cargo's hash (`target/release/deps/my_io-0123456789abcdef` keeps them under `my_io`; cargo
/// spells a target `my-io` so in file names).
pub fn bench_target_of(exe: &Path) -> String {
    let stem = exe
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "bench".to_string());
    strip_hash(&stem).to_string()
}

fn strip_hash(stem: &str) -> &str {
    match stem.rsplit_once('-') {
        Some((name, hash)) if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            name
        }
        _ => stem,
    }
}

/// A bench name as a file name (see the module docs).
pub(crate) fn file_name(bench: &str) -> String {
    let safe: String = bench
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}.json")
}

/// Where the latest result of `bench` in bench target `target` goes, under cargo's target
/// directory `root`.
pub fn latest_path(root: &Path, target: &str, bench: &str) -> PathBuf {
    results_dir(root).join(target).join(file_name(bench))
}

/// Where the progress of the last benchmark run of bench target `target` is kept: `{"schema":
/// "pilot.progress/1", "started", "finished": bool, "done": [bench names]}`, rewritten after
/// each bench, so that `--resume` knows what an interrupted run had finished.
pub(crate) fn progress_path(root: &Path, target: &str) -> PathBuf {
    root.join("pilot")
        .join("runs")
        .join(format!("{target}.json"))
}

/// Where `bench`'s result in baseline `name` goes.
pub(crate) fn baseline_path(root: &Path, name: &str, target: &str, bench: &str) -> PathBuf {
    baselines_dir(root)
        .join(name)
        .join(target)
        .join(file_name(bench))
}

/// Writes `contents` to `path` atomically: a temporary file beside it, synced, then renamed.
/// Creates missing directories. On error nothing at `path` has changed.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let tmp = dir.join(format!(".{name}.{}.{nanos}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_dir_from_the_executable() {
        let t = target_from_exe(Path::new("/w/target/release/deps/sorting-0123456789abcdef"));
        assert_eq!(t, Some(PathBuf::from("/w/target")));
        let t = target_from_exe(Path::new("/w/target/debug/examples/ex"));
        assert_eq!(t, Some(PathBuf::from("/w/target/debug")));
    }

    #[test]
    fn names_become_safe_file_names() {
        assert_eq!(strip_hash("sorting-0123456789abcdef"), "sorting");
        assert_eq!(strip_hash("my-bench"), "my-bench");
        assert_eq!(file_name("parse::json/4096"), "parse__json_4096.json");
    }

    #[test]
    fn atomic_write_replaces_whole_files_only() {
        let dir = std::env::temp_dir().join(format!("pilot-store-{}", std::process::id()));
        let path = dir.join("a").join("r.json");
        write_atomic(&path, b"first").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty());
        // A directory where the file should go: the write fails and changes nothing.
        std::fs::create_dir_all(dir.join("b.json")).unwrap();
        assert!(write_atomic(&dir.join("b.json"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
