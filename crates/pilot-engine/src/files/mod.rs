//! Writing files whole: pilot's own files atomically, a file the user named atomically when it
//! is new or regular and in place when it is a device, FIFO or symlink ([`write_output`]).
//! A leaf: it knows paths and bytes, not what the files hold.

mod output;

use std::io::Write;
use std::path::Path;

pub use output::{Existing, write_output};

/// Writes `contents` to `path` atomically: a temporary file beside it, synced, then renamed.
/// Creates missing directories. On error nothing at `path` has changed. For pilot's own files;
/// a file the user names goes through [`write_output`], which keeps a device or a symlink there.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    replace_whole(path, contents, false)
}

/// [`write_atomic`]'s steps; with `noclobber` the rename refuses a file that appeared at `path`
/// (`AlreadyExists`), so no file is ever replaced.
fn replace_whole(path: &Path, contents: &[u8], noclobber: bool) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // A hidden name (readers skip it), removed on any failure before the rename.
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // Readable as any file the user creates (0644 under the usual umask), not the temporary
    // file's private 0600: a report or an export is read by a web server or a CI artifact step.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    tmp.write_all(contents)?;
    tmp.as_file().sync_all()?;
    if noclobber {
        tmp.persist_noclobber(path).map_err(|e| e.error)?;
    } else {
        tmp.persist(path).map_err(|e| e.error)?;
    }
    // The rename itself reaches the disk with the folder's entry.
    #[cfg(unix)]
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn written_files_are_readable_by_others_as_the_umask_allows() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        write_atomic(&path, b"{}").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        // The process's umask, read by setting it and putting it back.
        let umask = unsafe {
            let m = libc::umask(0o022);
            libc::umask(m);
            m
        } as u32;
        assert_eq!(mode, 0o666 & !umask, "{mode:o}");
    }

    #[test]
    fn atomic_write_replaces_whole_files_only() {
        let dir = std::env::temp_dir().join(format!("pilot-files-{}", std::process::id()));
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
