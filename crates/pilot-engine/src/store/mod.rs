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
//!   rankings/<bench target>.json             the latest ranking of each group instance
//!                                            (pilot.rankings/1), for `cargo pilot report`
//!   last-run.json                            the last `cargo pilot bench`'s run document
//!                                            (pilot.run/1: results, groups, comparison)
//! ```
//!
//! Bench names become paths one to one, so two benches never share a file: each `/` of the name
//! is a folder (`sum/4000` is `sum/4000.json`, as sweeps name their benches), and in each part
//! every byte outside `[A-Za-z0-9_=+,@-]` is written `%XX` (`parse::json` is
//! `parse%3A%3Ajson.json`), except a `.` inside the last part (`f/1.5.json`). An empty part is
//! `%`. A name whose part is too long for a file name is refused before anything runs (see
//! [`check_names`]). Files are written atomically: a
//! complete temporary file in the same directory, synced, then renamed over the old one, so a
//! reader (or a concurrent run) sees the old result or the new one, never a mix, and a run
//! interrupted midway leaves the previous result intact.

mod rankings;
mod read;
pub mod result;

use std::path::{Path, PathBuf};

pub use rankings::read_rankings;
pub(crate) use rankings::save_rankings;
pub(crate) use read::typed;
pub use read::{
    RunToRun, SampleMoments, SavedCount, SavedEstimate, SavedPi, SavedResult, baseline,
    from_document, read_dir, read_documents_in, read_file, read_path, read_result,
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

/// Longest encoded part of a bench name, in bytes: file systems allow 255 per file name, and
/// the last part gains `.json` and, while it is written, a temporary suffix.
const MAX_PART: usize = 200;

/// A bench name as a path relative to its target's folder (see the module docs): one to one,
/// so distinct names never share a file. Time: O(name length).
pub(crate) fn file_name(bench: &str) -> PathBuf {
    let parts: Vec<&str> = bench.split('/').collect();
    let last = parts.len() - 1;
    let mut path = PathBuf::new();
    for (i, part) in parts.iter().enumerate() {
        let mut enc = encode_part(part, i == last);
        if i == last {
            enc.push_str(".json");
        }
        path.push(enc);
    }
    path
}

/// One `/`-separated part of a bench name, percent-encoded. A `.` is kept only inside the last
/// part (never first, so no hidden file, `.` or `..`): folder names then hold no `.` and can
/// never equal a file name, which always ends in `.json`. Every `%` is encoded, so the code is
/// prefix-free and different parts stay different.
fn encode_part(part: &str, last: bool) -> String {
    if part.is_empty() {
        return "%".to_string();
    }
    let mut out = String::with_capacity(part.len());
    for (i, b) in part.bytes().enumerate() {
        let keep = b.is_ascii_alphanumeric()
            || matches!(b, b'_' | b'=' | b'+' | b',' | b'@' | b'-')
            || (b == b'.' && last && i > 0);
        if keep {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Checks that every bench name can be stored, before anything runs: no encoded part longer
/// than a file name may be, and (on file systems that ignore case) no two names whose paths
/// differ only in case. The error names the benches.
pub(crate) fn check_names<'a>(
    names: impl IntoIterator<Item = &'a str>,
) -> Result<(), crate::settings::UsageError> {
    use crate::settings::UsageError;
    let mut seen: std::collections::HashMap<String, &str> = std::collections::HashMap::new();
    for name in names {
        let path = file_name(name);
        if let Some(part) = path.iter().find(|p| p.len() > MAX_PART) {
            return Err(UsageError::NameTooLong {
                name: name.to_string(),
                part: part.to_string_lossy().into_owned(),
                len: part.len(),
                most: MAX_PART,
            });
        }
        let key = path.to_string_lossy().to_lowercase();
        if cfg!(any(target_os = "macos", windows))
            && let Some(other) = seen.insert(key, name)
        {
            return Err(UsageError::NamesDifferInCase {
                first: other.to_string(),
                second: name.to_string(),
            });
        }
    }
    Ok(())
}

/// Checks that `name`, a bench target or a baseline given on a command line or read from a
/// file, is one folder name of its own under the store's folders, so that joining it can never
/// reach outside them: exactly one normal path component (no separator, not `.`, `..` or
/// empty, no root or drive), no NUL byte, not hidden (readers skip names starting with `.`,
/// as pilot's temporary files are), and short enough for a file name. Bench names need no
/// such check: they are percent-encoded (see the module docs). The error says what is wrong,
/// without the name: the caller names the flag or the file it came from. Time: O(name
/// length).
pub fn check_folder_name(name: &str) -> Result<(), FolderNameError> {
    use std::path::Component;
    if name.is_empty() {
        return Err(FolderNameError::Empty);
    }
    if name.contains('\0') {
        return Err(FolderNameError::Nul);
    }
    if name.chars().any(std::path::is_separator) {
        return Err(FolderNameError::Separator);
    }
    if name.starts_with('.') {
        return Err(FolderNameError::Dot);
    }
    if name.len() > MAX_PART {
        return Err(FolderNameError::TooLong {
            len: name.len(),
            most: MAX_PART,
        });
    }
    let mut parts = Path::new(name).components();
    match (parts.next(), parts.next()) {
        (Some(Component::Normal(part)), None) if part == name => Ok(()),
        // A Windows drive (`C:`) or other prefix.
        _ => Err(FolderNameError::NotPlain),
    }
}

/// Why a name cannot be a folder of its own under the store's folders (see
/// [`check_folder_name`]); its `Display` says what is wrong without the name, which the caller
/// gives with the flag or file it came from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FolderNameError {
    /// The name is empty.
    #[error("it is empty")]
    Empty,
    /// The name holds a NUL byte.
    #[error("it holds a NUL byte")]
    Nul,
    /// The name holds a path separator.
    #[error("it holds a path separator: it must be one folder name")]
    Separator,
    /// The name starts with `.`.
    #[error(
        "it starts with `.`: `.` and `..` are not folders of their own, and pilot skips hidden \
         files"
    )]
    Dot,
    /// The name is longer than a file name may be.
    #[error("it is {len} bytes long; a folder name may have at most {most}")]
    TooLong {
        /// Its length, in bytes.
        len: usize,
        /// The most a folder name may have.
        most: usize,
    },
    /// The name is a drive or other prefix, not a plain folder name.
    #[error("it is not a plain folder name")]
    NotPlain,
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

/// Where `cargo pilot bench` keeps its last run's `pilot.run/1` document (results, group
/// rankings and the comparison with a baseline), for `cargo pilot report`.
pub fn last_run_path(root: &Path) -> PathBuf {
    root.join("pilot").join("last-run.json")
}

/// Where `bench`'s result in baseline `name` goes.
pub fn baseline_path(root: &Path, name: &str, target: &str, bench: &str) -> PathBuf {
    baselines_dir(root)
        .join(name)
        .join(target)
        .join(file_name(bench))
}

#[cfg(test)]
mod document_tests;

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
        let f = |n: &str| file_name(n).to_string_lossy().into_owned();
        assert_eq!(f("parse::json/4096"), "parse%3A%3Ajson/4096.json");
        assert_eq!(f("sum/1.5"), "sum/1.5.json");
        assert_eq!(f("sort/threads=4"), "sort/threads=4.json");
        assert_eq!(f("a.json/b"), "a%2Ejson/b.json");
        assert_eq!(f(".hidden"), "%2Ehidden.json");
        assert_eq!(f("a//b"), "a/%/b.json");
        assert_eq!(f("é"), "%C3%A9.json");
        // A `/` the user writes is a folder like a sweep's; `_` is kept, so the two differ.
        assert_eq!(f("a/b_c"), "a/b_c.json");
        assert_eq!(f("a_b/c"), "a_b/c.json");
        // `%` is escaped too, so an escape can never be mistaken for a name's own `%XX`.
        assert_eq!(f("50%"), "50%25.json");
        assert_eq!(f("%25"), "%2525.json");
        assert_eq!(f("a b"), "a%20b.json");
        assert_eq!(f("sum/4000/threads=2"), "sum/4000/threads=2.json");
    }

    #[test]
    fn names_that_looked_alike_get_different_files() {
        // The pairs that shared a file when every unsafe byte became `_`.
        for (a, b) in [
            ("coll/x", "coll_x"),
            ("a/b_c", "a_b/c"),
            ("a b", "a_b"),
            ("%", "%25"),
        ] {
            assert_ne!(file_name(a), file_name(b), "{a} {b}");
        }
    }

    proptest::proptest! {
        /// Distinct names never share a file, and no name's file is a folder of another's path.
        #[test]
        fn names_map_to_paths_one_to_one(a in "[a-z_/.%: =]{0,12}", b in "[a-z_/.%: =]{0,12}") {
            let (pa, pb) = (file_name(&a), file_name(&b));
            if a != b {
                proptest::prop_assert_ne!(&pa, &pb);
            }
            proptest::prop_assert!(pa == pb || !pb.starts_with(&pa), "{:?} {:?}", pa, pb);
        }
    }

    #[test]
    fn folder_names_are_one_component() {
        for good in ["sorting", "my-io", "v1.2", "run", "a b", "é"] {
            assert_eq!(check_folder_name(good), Ok(()), "{good}");
        }
        let long = "x".repeat(MAX_PART + 1);
        for bad in [
            "", ".", "..", "../x", "../../x", "/abs", "a/b", "a/", ".hidden", "a\0b", &long,
        ] {
            assert!(check_folder_name(bad).is_err(), "{bad:?}");
        }
        #[cfg(windows)]
        for bad in ["C:", "a\\b", "\\\\server\\x"] {
            assert!(check_folder_name(bad).is_err(), "{bad:?}");
        }
    }

    proptest::proptest! {
        /// An accepted name is exactly one normal component, free of separators and NUL, and
        /// joined to a folder it stays inside it: its parent is that folder. Strings drawn
        /// from path-like characters reach the edge cases (`.`, `..`, `a/..`, NUL) often;
        /// arbitrary strings cover the rest.
        #[test]
        fn accepted_folder_names_stay_inside_the_folder(
            name in proptest::prop_oneof![
                "[./\\\\a:\\x00C]{0,6}",
                proptest::prelude::any::<String>(),
            ]
        ) {
            use std::path::Component;
            if check_folder_name(&name).is_ok() {
                let parts: Vec<Component> = Path::new(&name).components().collect();
                proptest::prop_assert_eq!(
                    &parts[..],
                    &[Component::Normal(std::ffi::OsStr::new(&name))][..]
                );
                proptest::prop_assert!(!name.is_empty() && name != "." && name != "..");
                proptest::prop_assert!(!name.contains('/') && !name.contains('\0'));
                let folder = Path::new("/store/baselines");
                let joined = folder.join(&name);
                proptest::prop_assert!(joined.starts_with(folder));
                proptest::prop_assert_eq!(joined.parent(), Some(folder));
                proptest::prop_assert_eq!(joined.file_name(), Some(std::ffi::OsStr::new(&name)));
            }
        }
    }

    #[test]
    fn names_too_long_for_a_file_are_refused() {
        let long = "x".repeat(300);
        let e = check_names(["ok", long.as_str()]).unwrap_err().to_string();
        assert!(e.contains("too long"), "{e}");
        assert!(e.contains("bytes as a file name (at most 200)"), "{e}");
        assert!(check_names(["ok", "sum/4000", "a.b"]).is_ok());
    }
}
