//! Where the history is: one function reads `--history`, `PILOT_HISTORY` and the default for
//! every command, and refuses what cannot be a history as a usage error, before anything is
//! built or measured (a mistake found after a ten-minute run loses the run's history).
//!
//! A location is `off` (any case), a PostgreSQL connection string (a `postgres://` or
//! `postgresql://` URL, its scheme in any case, or libpq's `key=value` words such as
//! `host=db dbname=bench`), or else the path of a SQLite file. Refused:
//! - an empty `--history` (SQLite would open a temporary database, and the run's history
//!   would be lost); an empty `PILOT_HISTORY` counts as unset, as an empty variable usually
//!   does, and the default file keeps the run;
//! - a URL of any other scheme (`postgress://`, `sqlite://`, `file://`), which would otherwise
//!   be made into folders named after it; a SQLite file is given by its path;
//! - a PostgreSQL connection string the driver cannot read, or that names no host;
//! - a path that is there but is not a regular file (a folder, a device such as `/dev/null`,
//!   a FIFO, a socket), or a symbolic link to one or to nothing, or whose folder cannot be
//!   made because a file stands in its way. A symbolic link to a regular file is followed:
//!   SQLite resolves it, so its journal and WAL files go beside the real file, where every
//!   writer through any link finds them.

use std::path::{Path, PathBuf};

use anyhow::anyhow;

use super::conninfo::{self, Conninfo};
use crate::exit::Failure;

/// `off`: no history kept.
pub const OFF: &str = "off";

/// Which database a history is kept in.
#[derive(Debug, Clone, PartialEq)]
pub enum Location {
    /// A SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL database.
    Postgres(Box<Conninfo>),
}

impl Location {
    /// The location as a user would recognise it in a message: the file, or the connection
    /// string with its password hidden, control characters shown as escapes (see
    /// [`pilot_engine::fmt::terminal`]).
    pub fn shown(&self) -> String {
        match self {
            Location::Sqlite(p) => pilot_engine::fmt::terminal_path(p),
            Location::Postgres(c) => pilot_engine::fmt::terminal(c.shown()).into_owned(),
        }
    }
}

/// Where the history is, from `--history` (`flag`), else `PILOT_HISTORY`, else
/// `<target_dir>/pilot/history.sqlite`; `None` when it is `off`.
///
/// # Errors
///
/// A usage error (exit 2) naming the flag or the variable: the location cannot be a history
/// (see the module's documentation).
pub fn location(flag: Option<&str>, target_dir: &Path) -> Result<Option<Location>, Failure> {
    let env = std::env::var("PILOT_HISTORY").ok();
    resolve(flag, env.as_deref(), target_dir).map_err(|e| Failure::Usage(anyhow!(e)))
}

/// [`location`] from the flag's and the variable's values.
fn resolve(
    flag: Option<&str>,
    env: Option<&str>,
    target_dir: &Path,
) -> Result<Option<Location>, String> {
    let (given, from) = match (flag, env.filter(|v| !v.trim().is_empty())) {
        (Some(f), _) => (f, "--history"),
        (None, Some(v)) => (v, "PILOT_HISTORY"),
        (None, None) => {
            let path = target_dir.join("pilot").join("history.sqlite");
            check_file(&path).map_err(|e| format!("the history {e}"))?;
            return Ok(Some(Location::Sqlite(path)));
        }
    };
    let text = given.trim();
    if text.is_empty() {
        return Err(format!(
            "{from} is empty: give it a SQLite file, a `postgres://` URL, or `off`"
        ));
    }
    if text.eq_ignore_ascii_case(OFF) {
        return Ok(None);
    }
    let postgres = |text: &str| {
        Conninfo::parse(text)
            .map(|c| Some(Location::Postgres(Box::new(c))))
            .map_err(|e| {
                format!(
                    "{from} `{}` is not a PostgreSQL connection string: {e}",
                    conninfo::redact(text)
                )
            })
    };
    if let Some(scheme) = conninfo::scheme_of(text) {
        let lower = scheme.to_ascii_lowercase();
        let double_slash = text[scheme.len()..].starts_with("://");
        if (lower == "postgres" || lower == "postgresql") && double_slash {
            return postgres(text);
        }
        let hint = match lower.as_str() {
            "postgres" | "postgresql" => format!("a PostgreSQL URL starts `{lower}://`"),
            "sqlite" | "file" => "a SQLite history is given by its path, without a scheme".into(),
            _ => "a history is a SQLite file (a path), a `postgres://` or `postgresql://` URL, \
                  or `off`"
                .into(),
        };
        return Err(format!(
            "{from} `{}` looks like a URL of scheme `{scheme}`, which pilot does not know: {hint} \
             (a file whose name starts so is given as `./{scheme}:…`)",
            conninfo::redact(text)
        ));
    }
    if conninfo::is_key_value(text) {
        return postgres(text);
    }
    let path = PathBuf::from(given);
    check_file(&path).map_err(|e| format!("{from} {e}"))?;
    Ok(Some(Location::Sqlite(path)))
}

/// Checks that `path` can be a SQLite history: a regular file (or a symbolic link to one), or
/// nothing yet, in a folder that is there or can be made. Writes nothing.
///
/// # Errors
///
/// What `path` is instead, in words that start with the path: "`/dev/null` is a device, …".
pub fn check_file(path: &Path) -> Result<(), String> {
    let shown = path.display();
    match std::fs::symlink_metadata(path) {
        Ok(link) => {
            let meta = if link.file_type().is_symlink() {
                let to = std::fs::read_link(path)
                    .map(|t| format!(" to `{}`", t.display()))
                    .unwrap_or_default();
                match std::fs::metadata(path) {
                    Ok(m) if m.is_file() => return Ok(()),
                    Ok(m) => {
                        return Err(format!(
                            "`{shown}` is a symbolic link{to}, which is {}, not a SQLite file",
                            kind(&m.file_type())
                        ));
                    }
                    Err(e) => {
                        return Err(format!(
                            "`{shown}` is a symbolic link{to}, which cannot be followed ({e}): \
                             pilot makes no file at a link's far end"
                        ));
                    }
                }
            } else {
                link
            };
            if meta.is_file() {
                Ok(())
            } else {
                Err(format!(
                    "`{shown}` is {}, not a SQLite file: give a file's path",
                    kind(&meta.file_type())
                ))
            }
        }
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            // The file is made later, and its folders: the nearest that is there must be one.
            let mut dir = path.parent();
            while let Some(d) = dir.filter(|d| !d.as_os_str().is_empty()) {
                match std::fs::metadata(d) {
                    Ok(m) if m.is_dir() => return Ok(()),
                    Ok(m) => {
                        return Err(format!(
                            "`{shown}` cannot be made: `{}` is {}, not a folder",
                            d.display(),
                            kind(&m.file_type())
                        ));
                    }
                    Err(_) => dir = d.parent(),
                }
            }
            Ok(())
        }
        Err(e) => Err(format!("`{shown}` cannot be used: {e}")),
    }
}

/// What a file of type `t` is, for a message: "a folder", "a device", …
fn kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_fifo() {
            return "a FIFO (a named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a folder"
    } else if t.is_file() {
        "a file"
    } else {
        "not a regular file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(flag: Option<&str>, env: Option<&str>) -> Result<Option<Location>, String> {
        resolve(flag, env, Path::new("/nonexistent-target"))
    }

    #[test]
    fn the_flag_then_the_variable_then_the_default() {
        let default = Location::Sqlite("/nonexistent-target/pilot/history.sqlite".into());
        assert_eq!(at(None, None).unwrap(), Some(default.clone()));
        // An empty or blank variable is unset: the default file keeps the run.
        assert_eq!(at(None, Some("")).unwrap(), Some(default.clone()));
        assert_eq!(at(None, Some("  ")).unwrap(), Some(default));
        assert_eq!(
            at(None, Some("/tmp/h.sqlite")).unwrap(),
            Some(Location::Sqlite("/tmp/h.sqlite".into()))
        );
        assert_eq!(
            at(Some("/tmp/f.sqlite"), Some("/tmp/h.sqlite")).unwrap(),
            Some(Location::Sqlite("/tmp/f.sqlite".into()))
        );
        for off in ["off", "OFF", " Off "] {
            assert_eq!(at(Some(off), None).unwrap(), None);
            assert_eq!(at(None, Some(off)).unwrap(), None);
        }
    }

    #[test]
    fn an_empty_flag_is_refused() {
        for empty in ["", "  "] {
            let e = at(Some(empty), Some("/tmp/h.sqlite")).unwrap_err();
            assert!(e.starts_with("--history is empty"), "{e}");
        }
    }

    #[test]
    fn schemes_are_read_in_any_case_and_unknown_ones_refused() {
        for url in [
            "postgres://pilot@127.0.0.1:1/x",
            "POSTGRES://pilot@127.0.0.1:1/x",
            "PostgreSQL://pilot@127.0.0.1:1/x",
            "host=127.0.0.1 port=1 user=pilot dbname=x",
        ] {
            assert!(
                matches!(at(Some(url), None), Ok(Some(Location::Postgres(_)))),
                "{url}"
            );
        }
        for (url, says) in [
            ("postgress://127.0.0.1:1/x", "scheme `postgress`"),
            ("sqlite:///tmp/h.sqlite", "given by its path"),
            ("file:///tmp/h.sqlite", "given by its path"),
            ("POSTGRES:/127.0.0.1:1/x", "starts `postgres://`"),
            ("https://example.com/h", "scheme `https`"),
        ] {
            let e = at(Some(url), None).unwrap_err();
            assert!(e.contains(says), "{url}: {e}");
            let e = at(None, Some(url)).unwrap_err();
            assert!(e.starts_with("PILOT_HISTORY `"), "{e}");
        }
        let e = at(Some("postgres://u:secret@127.0.0.1:99999/x"), None).unwrap_err();
        assert!(e.contains("invalid value for option `port`"), "{e}");
        assert!(!e.contains("secret"), "{e}");
        // A file's name that only looks like a key: a path.
        assert_eq!(
            at(Some("run=1.sqlite"), None).unwrap(),
            Some(Location::Sqlite("run=1.sqlite".into()))
        );
    }

    #[cfg(unix)]
    #[test]
    fn only_a_regular_file_or_nothing_can_be_a_history() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let file = d.join("h.sqlite");
        std::fs::write(&file, b"").unwrap();
        let fifo = d.join("fifo");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        std::os::unix::fs::symlink(&file, d.join("to-file")).unwrap();
        std::os::unix::fs::symlink("/dev/null", d.join("to-null")).unwrap();
        std::os::unix::fs::symlink(d.join("nothing"), d.join("dangling")).unwrap();
        for ok in [
            file.clone(),
            d.join("to-file"),
            d.join("new.sqlite"),
            d.join("new/folders/h.sqlite"),
        ] {
            assert_eq!(check_file(&ok), Ok(()), "{}", ok.display());
        }
        for (bad, says) in [
            (PathBuf::from("/dev/null"), "is a device"),
            (d.to_path_buf(), "is a folder"),
            (fifo, "is a FIFO"),
            (d.join("to-null"), "which is a device"),
            (d.join("dangling"), "cannot be followed"),
            (file.join("h.sqlite"), "is a file, not a folder"),
        ] {
            let e = check_file(&bad).unwrap_err();
            assert!(e.contains(says), "{}: {e}", bad.display());
            assert!(
                e.contains(&format!("`{}`", bad.display())),
                "the path is named: {e}"
            );
        }
    }
}
