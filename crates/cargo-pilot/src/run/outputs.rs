//! The files a `cargo pilot run` writes, checked apart before anything is measured: two outputs
//! given one file (`--export-json F --json F`) would have one document overwrite the other at
//! the end of the run, and `--output` given the `--input` file would empty what the runs read.
//! A device or a FIFO (`/dev/null`, `/dev/stdout`) is no file one write overwrites, and may be
//! given to several.

use std::path::{Path, PathBuf};

use anyhow::bail;

use crate::history::Location;
use crate::program::{Output, Plan};

/// Each file the plan writes (or, for `--input`, reads) with the option that names it.
fn files<'a>(plan: &'a Plan, history: Option<&'a Location>) -> Vec<(&'static str, &'a Path)> {
    let mut out = Vec::new();
    let mut add = |flag: &'static str, path: Option<&'a PathBuf>| {
        if let Some(p) = path {
            out.push((flag, p.as_path()));
        }
    };
    add("--json", plan.json.as_ref());
    add("--export-json", plan.export_json.as_ref());
    add("--export-csv", plan.export_csv.as_ref());
    add("--export-markdown", plan.export_markdown.as_ref());
    if let Output::File(p) = &plan.output {
        add("--output", Some(p));
    }
    if let Some(Location::Sqlite(p)) = history {
        add("the history (--history)", Some(p));
    }
    add("--input", plan.input.as_ref());
    out
}

/// `path` as it can be compared with another: canonical where it is there, else its folder's
/// canonical path (where that is there) joined with its name, else absolute.
fn comparable(path: &Path) -> PathBuf {
    if let Ok(c) = path.canonicalize() {
        return c;
    }
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (abs.parent(), abs.file_name()) {
        (Some(dir), Some(name)) => dir
            .canonicalize()
            .map_or_else(|_| abs.clone(), |d| d.join(name)),
        _ => abs,
    }
}

/// Refuses two of the plan's files that are one: the same path as given, or the same file once
/// resolved (`./a.json` and `a.json`, a link and its target). A usage error naming both options
/// and the file. O(n²) in the few options.
pub(super) fn check_apart(plan: &Plan, history: Option<&Location>) -> anyhow::Result<()> {
    let files: Vec<(&str, &Path)> = files(plan, history)
        .into_iter()
        .filter(|(_, p)| std::fs::metadata(p).map_or(true, |m| m.is_file()))
        .collect();
    let keys: Vec<PathBuf> = files.iter().map(|(_, p)| comparable(p)).collect();
    for (j, (second, path)) in files.iter().enumerate() {
        for (i, (first, _)) in files.iter().enumerate().take(j) {
            if *path != files[i].1 && keys[i] != keys[j] {
                continue;
            }
            let shown = pilot_engine::fmt::terminal_path(path);
            let why = if *second == "--input" {
                format!("{first} would overwrite what the runs read")
            } else {
                "one would overwrite the other".to_string()
            };
            bail!("{first} and {second} both name `{shown}`: {why}; give each its own file");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::{plan, tests::args};

    /// The error of `cargo pilot run ARGS`'s files, if any.
    fn clash(argv: &[&str]) -> Option<String> {
        let mut all = vec!["--out", "/tmp/x"];
        all.extend_from_slice(argv);
        all.push("true");
        let p = plan(&args(&all)).unwrap();
        check_apart(&p, None).err().map(|e| e.to_string())
    }

    #[cfg(unix)]
    #[test]
    fn two_outputs_in_one_file_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("out.json");
        let f = f.to_str().unwrap();
        let e = clash(&["--export-json", f, "--json", f]).unwrap();
        assert!(
            e.starts_with("--json and --export-json both name `") && e.contains("out.json"),
            "{e}"
        );
        // The same file by another path: `.` in it, or a link to it.
        let dotted = format!("{}/./out.json", dir.path().display());
        assert!(clash(&["--export-csv", f, "--export-markdown", &dotted]).is_some());
        std::fs::write(f, "").unwrap();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink(f, &link).unwrap();
        let e = clash(&["--output", f, "--export-json", link.to_str().unwrap()]).unwrap();
        assert!(e.starts_with("--export-json and --output both name"), "{e}");
        let e = clash(&["--input", f, "--output", f]).unwrap();
        assert!(e.starts_with("--output and --input both name"), "{e}");
        let other = dir.path().join("other.json");
        assert_eq!(
            clash(&["--json", f, "--export-json", other.to_str().unwrap()]),
            None
        );
        assert_eq!(clash(&["--output", "null", "--json", "null"]), None);
        // A FIFO (as a shell's `>(…)` gives): no file one write overwrites. (Not /dev/stdout,
        // which is a file when the tests' output is redirected to one.)
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: `c` is a NUL-terminated path that outlives the call.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let fifo = fifo.to_str().unwrap();
        assert_eq!(
            clash(&["--export-json", fifo, "--export-markdown", fifo]),
            None
        );
        assert_eq!(
            clash(&["--export-csv", "/dev/null", "--json", "/dev/null"]),
            None
        );
        // The history's file too.
        let p = plan(&args(&["--out", "/tmp/x", "--json", f, "true"])).unwrap();
        let e = check_apart(&p, Some(&Location::Sqlite(PathBuf::from(f)))).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("--json and the history (--history) both name"),
            "{e}"
        );
    }
}
