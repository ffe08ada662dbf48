//! Writing a file the user named (`--json FILE`, `--export-* FILE`, `--out FILE`): the one
//! place that decides how, so every command treats `/dev/stdout`, a FIFO or a symlink alike.
//!
//! A regular file, or a new one, is replaced atomically as pilot's own files are (see
//! [`super::write_atomic`]): a reader sees the old file or the new one, and a failed write
//! leaves the old one. Anything else already at the path is written in place, as a shell's `>`
//! and hyperfine do: renaming a temporary file over it would turn `/dev/null` or a FIFO into a
//! regular file (or fail for lack of rights on `/dev`), and would replace a symlink instead of
//! writing to the file it points to.

use std::io::Write;
use std::path::Path;

/// What [`write_output`] does when something is already at the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Write over it: a regular file is replaced whole, a device, FIFO or symlink's target is
    /// written in place.
    Replace,
    /// Leave it: the write fails with [`std::io::ErrorKind::AlreadyExists`] and changes nothing,
    /// even when the file appears while the output is being written.
    Refuse,
}

/// Writes `contents` to the file the user named `path`.
///
/// A new or regular file is written atomically (a temporary file beside it, synced, renamed;
/// missing folders are created; readable as the umask allows). An existing device, FIFO or
/// symlink is opened as it is and written in place: `/dev/stdout` prints (through this process's
/// own standard output when it is that file, so nothing printed before is overwritten), a FIFO
/// is fed, a symlink stays a symlink and the file it points to gets the contents (truncated
/// first when it is a regular file; created when the link dangles). A failed write is an error;
/// in place, part of the contents may have been written.
pub fn write_output(path: &Path, contents: &[u8], existing: Existing) -> std::io::Result<()> {
    let found = match std::fs::symlink_metadata(path) {
        Ok(found) => found,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return super::replace_whole(path, contents, existing == Existing::Refuse);
        }
        Err(e) => return Err(e),
    };
    if existing == Existing::Refuse {
        return Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            "the file exists",
        ));
    }
    let kind = found.file_type();
    if kind.is_file() || kind.is_dir() {
        // A folder fails the rename, as it should, with nothing changed.
        return super::replace_whole(path, contents, false);
    }
    write_in_place(path, contents)
}

/// Writes `contents` to the existing non-regular file or symlink `path` without replacing it.
fn write_in_place(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    // Follows the symlink; a dangling one is created through, as a shell's `>` does.
    let target = match std::fs::metadata(path) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    if let Some(stream) = target.as_ref().and_then(standard_stream) {
        return stream(contents);
    }
    // Only a regular file can be truncated (and synced); a device or FIFO is written as it is.
    let regular = target.as_ref().is_none_or(|m| m.is_file());
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(regular)
        .truncate(regular)
        .open(path)?;
    file.write_all(contents)?;
    if regular {
        file.sync_all()?;
    }
    Ok(())
}

/// Writes to this process's standard output or error.
type Stream = fn(&[u8]) -> std::io::Result<()>;

/// The writer of this process's standard output (or error) when `target` is the very file it
/// writes to (`/dev/stdout`, `/proc/self/fd/1`, or a link to where the shell redirected it).
/// Writing through the stream keeps the order with what was printed before and appends, where
/// opening the file anew would write from its start.
#[cfg(unix)]
fn standard_stream(target: &std::fs::Metadata) -> Option<Stream> {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let is_target = |fd: std::os::fd::BorrowedFd<'_>| {
        fd.try_clone_to_owned()
            .ok()
            .and_then(|fd| std::fs::File::from(fd).metadata().ok())
            .is_some_and(|m| (m.dev(), m.ino()) == (target.dev(), target.ino()))
    };
    if is_target(std::io::stdout().as_fd()) {
        Some(|bytes| {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes)?;
            out.flush()
        })
    } else if is_target(std::io::stderr().as_fd()) {
        Some(|bytes| std::io::stderr().lock().write_all(bytes))
    } else {
        None
    }
}

#[cfg(not(unix))]
fn standard_stream(_: &std::fs::Metadata) -> Option<Stream> {
    None
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_symlink_stays_and_its_target_gets_the_contents() {
        let dir = tempfile::tempdir().unwrap();
        let (real, link) = (dir.path().join("real.json"), dir.path().join("link.json"));
        std::fs::write(&real, "an older and longer document").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_output(&link, b"new", Existing::Replace).unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        // A dangling link: its target is created.
        std::fs::remove_file(&real).unwrap();
        write_output(&link, b"again", Existing::Replace).unwrap();
        assert_eq!(std::fs::read(&real).unwrap(), b"again");
        let e = write_output(&link, b"x", Existing::Refuse).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&real).unwrap(), b"again");
    }

    #[test]
    fn new_and_regular_files_are_replaced_whole_or_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/out.md");
        write_output(&path, b"first", Existing::Refuse).unwrap();
        let e = write_output(&path, b"second", Existing::Refuse).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists);
        write_output(&path, b"third", Existing::Replace).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"third");
        assert!(write_output(dir.path(), b"x", Existing::Replace).is_err());
    }
}
