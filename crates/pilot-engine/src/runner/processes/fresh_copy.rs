//! A fresh copy of a bench executable for each process that runs it.

use std::path::Path;

/// A copy of the executable at `path`, made beside it (so that whatever it finds next to
/// itself is there) and removed when dropped; `None` where none can be made (a folder that
/// cannot be written), and the process then runs the file itself.
///
/// Each process runs its build from a file of its own because the kernel keeps a file's code in
/// the memory pages it first read it into, for as long as they stay cached, and where those
/// pages lie (which cache sets the code shares with the data) moves a bench's time by a few
/// percent. Every process run from one file gets the same pages: two builds of the same code,
/// each run from its own file, then differ alike in every pair, and the paired test, which
/// sees only the pairs' spread, reads that as the code's. A fresh copy gets fresh pages, so
/// where the code lies varies between processes, alike for both builds, and is in the pairs'
/// spread instead. The same holds for the processes of one run: run from one file, they share
/// its placement, and their spread (which the run's interval is made of) leaves it out, so a
/// rebuild or a later run lands outside an interval that looked narrow. Time: one copy of the
/// file, between processes.
pub fn fresh_copy(path: &Path) -> Option<tempfile::TempPath> {
    let dir = path.parent()?;
    let name = path.file_name()?.to_string_lossy();
    // A name of its own, closed at once (a file open for writing cannot be executed), then
    // filled with the executable's bytes and permissions.
    let copy = tempfile::Builder::new()
        .prefix(&format!(".{name}.pilot-"))
        .tempfile_in(dir)
        .ok()?
        .into_temp_path();
    std::fs::copy(path, &copy).ok()?;
    Some(copy)
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    use std::process::Command;

    use super::*;

    #[test]
    fn a_fresh_copy_is_another_file_beside_the_original_with_its_bytes_and_mode_and_goes_when_dropped()
     {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("bench-0123");
        std::fs::write(&exe, b"#!/bin/sh\necho copied\n").unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        let copy = fresh_copy(&exe).expect("a copy");
        assert_eq!(copy.parent(), exe.parent());
        let (a, b) = (
            std::fs::metadata(&exe).unwrap(),
            std::fs::metadata(&copy).unwrap(),
        );
        assert_ne!(a.ino(), b.ino(), "the same file, not a copy");
        assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&exe).unwrap());
        assert_eq!(b.mode() & 0o777, 0o755);
        // It runs (closed for writing, executable).
        let out = Command::new(&*copy).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "copied\n");
        let path = copy.to_path_buf();
        drop(copy);
        assert!(!path.exists());
        assert!(exe.exists());
    }

    #[test]
    fn no_copy_of_a_missing_file_or_into_a_folder_that_cannot_be_written() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("bench");
        std::fs::write(&exe, b"x").unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o555)).unwrap();
        // Root writes anywhere: the case only holds for other users.
        let writable = tempfile::tempfile_in(dir.path()).is_ok();
        let copy = fresh_copy(&exe);
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        if !writable {
            assert!(copy.is_none());
        }
        assert!(fresh_copy(&dir.path().join("missing")).is_none());
    }
}
