//! What one run adds to the history, built from its result documents: where it ran (the
//! machine's identity and record), on what (commit, dirty tree, branch), and each bench's
//! estimate, interval, processes and status.

use pilot_format::{MachineDoc, ResultDoc};

/// One run, ready to append.
#[derive(Debug, Clone)]
pub struct RunRecord {
    /// What measured it: `bench`, `run`, `bisect` or `add`.
    pub source: &'static str,
    /// The commit measured, when the tree was a git repository.
    pub commit: Option<String>,
    /// Whether tracked files had uncommitted changes.
    pub dirty: Option<bool>,
    /// The branch it was recorded on.
    pub branch: Option<String>,
    /// The machine's record at this run.
    pub machine: MachineDoc,
    /// The machine's name (`PILOT_MACHINE`, else the host name).
    pub machine_name: String,
    /// When the run started (RFC 3339).
    pub started: String,
    /// The share of the suite it measured (`--partition count:1/3`), when it was one.
    pub partition: Option<String>,
    /// Its benches' results.
    pub results: Vec<ResultRecord>,
}

/// One bench's result in a run.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultRecord {
    /// The bench target and the bench's name.
    pub target: String,
    pub bench: String,
    /// When its session started (RFC 3339): with the bench and the machine, it tells a result
    /// already in the history (`history add` twice adds nothing the second time).
    pub started: String,
    /// How the session ended.
    pub status: String,
    /// The time's unit (`ns`), `None` without an estimate.
    pub unit: Option<String>,
    /// The time per unit and its interval; `None` without an estimate.
    pub estimate: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub confidence: Option<f64>,
    /// `trimmed` or `mean`.
    pub estimator: Option<String>,
    /// Each process's estimate, when there were several.
    pub processes: Vec<f64>,
    /// The speed probe's time (ns) and the 1-minute load average as the bench's run started,
    /// from the result's machine record: the machine's state, which `changes` weighs against
    /// the code's.
    pub probe_ns: Option<f64>,
    pub load: Option<f64>,
    /// The whole result document (JSON), from which `history:REV` rebuilds the run of a commit.
    pub document: Option<String>,
    /// The digest of the bench executable that measured it ([`digest`]), when the command that
    /// ran it knew the file: two runs of one executable ran the same code.
    pub executable: Option<String>,
}

impl ResultRecord {
    /// The record of a result document.
    pub fn of(doc: &ResultDoc) -> ResultRecord {
        let time = doc.pis.iter().find(|p| p.name == "time");
        let finite = |x: Option<f64>| x.filter(|v| v.is_finite());
        ResultRecord {
            target: doc.target.clone(),
            bench: doc.name.clone(),
            started: doc.started.clone(),
            status: doc.status.clone(),
            unit: time.map(|t| t.unit.clone()),
            estimate: finite(time.and_then(|t| t.mean)),
            // This run's interval (an older document's widened `ci` holds it apart).
            low: finite(time.and_then(|t| t.run_ci().low)),
            high: finite(time.and_then(|t| t.run_ci().high)),
            confidence: time.map(|t| t.ci.confidence),
            estimator: time.and_then(|t| t.estimator.clone()),
            processes: doc
                .processes
                .means
                .iter()
                .copied()
                .filter(|m| m.is_finite())
                .collect(),
            probe_ns: doc
                .machine
                .as_ref()
                .and_then(|m| m.speed.as_ref())
                .map(|s| s.probe_ns)
                .filter(|p| p.is_finite() && *p > 0.0),
            load: finite(doc.machine.as_ref().and_then(|m| m.load)),
            document: serde_json::to_string(doc).ok(),
            executable: None,
        }
    }
}

/// The bench executables a run ran, by the target their results name: the history keeps their
/// digests ([`digest`]).
pub type Executables = std::collections::BTreeMap<String, std::path::PathBuf>;

/// The digest of the code and data the executable at `path` loads: SHA-256 over each section
/// the program loads (its name, address, size and bytes; on ELF, the allocated sections but
/// notes), as `sha256:` and 64 hex digits; over the whole file when it is no object file
/// `object` reads; `None` when it cannot be read. Two executables of one digest run the same
/// instructions on the same data at the same addresses. What a rebuild of the same code may
/// change is left out: the build ID, the symbol table (the suffixes the compiler gives local
/// symbols vary with the source's text, comments too) and debug information. Time: one read
/// of the file.
pub fn digest(path: &std::path::Path) -> Option<String> {
    use object::{Object, ObjectSection};
    use sha2::Digest;
    let bytes = std::fs::read(path).ok()?;
    let mut hasher = sha2::Sha256::new();
    match object::File::parse(&*bytes) {
        Ok(file) => {
            for section in file.sections().filter(loaded) {
                let name = section.name_bytes().unwrap_or_default();
                hasher.update((name.len() as u64).to_le_bytes());
                hasher.update(name);
                hasher.update(section.address().to_le_bytes());
                hasher.update(section.size().to_le_bytes());
                // Zero-filled sections (`.bss`) have a size and no bytes in the file.
                hasher.update(section.data().unwrap_or_default());
            }
        }
        Err(_) => hasher.update(&bytes),
    }
    let hex: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Some(format!("sha256:{hex}"))
}

/// Whether the program loads `section`: on ELF, an allocated section that is not a note (the
/// build ID is one); elsewhere, code, data and read-only data.
fn loaded(section: &object::Section<'_, '_>) -> bool {
    use object::{ObjectSection, SectionFlags, SectionKind};
    match section.flags() {
        SectionFlags::Elf { sh_flags, .. } => {
            sh_flags.0 & object::elf::SHF_ALLOC.0 != 0 && section.kind() != SectionKind::Note
        }
        _ => matches!(
            section.kind(),
            SectionKind::Text
                | SectionKind::Data
                | SectionKind::ReadOnlyData
                | SectionKind::ReadOnlyDataWithRel
                | SectionKind::ReadOnlyString
                | SectionKind::Tls
                | SectionKind::UninitializedData
                | SectionKind::UninitializedTls
                | SectionKind::TlsVariables
        ),
    }
}

/// Gives each result of `runs` the digest of its target's executable in `executables`, each
/// file read once.
pub fn with_executables(runs: &mut [RunRecord], executables: &Executables) {
    let digests: std::collections::BTreeMap<&String, Option<String>> = executables
        .iter()
        .map(|(target, path)| (target, digest(path)))
        .collect();
    for r in runs.iter_mut().flat_map(|r| r.results.iter_mut()) {
        r.executable = digests.get(&r.target).cloned().flatten();
    }
}

/// The name this machine is recorded under: `PILOT_MACHINE` (a CI runner pool names itself
/// so), else the host name.
pub fn machine_name() -> String {
    if let Some(name) = std::env::var("PILOT_MACHINE")
        .ok()
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
    {
        return name;
    }
    host_name().unwrap_or_else(|| "unknown".to_string())
}

fn host_name() -> Option<String> {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length, and gethostname writes at most that much.
    let r = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if r != 0 {
        return None;
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    let name = String::from_utf8_lossy(&buf[..end]).trim().to_string();
    (!name.is_empty()).then_some(name)
}

/// The identity of a machine: its name and what makes its timings comparable (CPU model,
/// cores, operating system, architecture). Two machines differing in any of them never share a
/// series, whatever their names.
pub fn identity(name: &str, m: &MachineDoc) -> String {
    format!(
        "{name}|{}|{}|{}|{}",
        m.cpu.as_deref().unwrap_or("?"),
        m.cores.map_or("?".to_string(), |c| c.to_string()),
        m.os,
        m.arch
    )
}

/// The runs of `docs` (results of one source), one per commit, dirtiness and machine found in
/// their records; `fallback` is the machine for documents without one.
pub fn runs_of(
    docs: &[ResultDoc],
    source: &'static str,
    branch: Option<String>,
    fallback: &MachineDoc,
) -> Vec<RunRecord> {
    let name = machine_name();
    let mut runs: Vec<RunRecord> = Vec::new();
    for doc in docs {
        let machine = doc.machine.clone().unwrap_or_else(|| fallback.clone());
        let commit = machine.git_commit.clone();
        let dirty = machine.git_dirty;
        let key = identity(&name, &machine);
        let at = runs.iter().position(|r| {
            r.commit == commit && r.dirty == dirty && identity(&name, &r.machine) == key
        });
        let record = ResultRecord::of(doc);
        match at {
            Some(i) => {
                let r = &mut runs[i];
                if !doc.started.is_empty() && (r.started.is_empty() || doc.started < r.started) {
                    r.started = doc.started.clone();
                }
                r.results.push(record);
            }
            None => runs.push(RunRecord {
                source,
                commit,
                dirty,
                branch: branch.clone(),
                machine,
                machine_name: name.clone(),
                started: doc.started.clone(),
                partition: None,
                results: vec![record],
            }),
        }
    }
    for r in &mut runs {
        if r.started.is_empty() {
            r.started = pilot_engine::runner::now();
        }
        // The speed probe of one run is no part of the machine's identity or record here.
        r.machine.speed = None;
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;
    use object::{Object, ObjectSection};
    use std::path::PathBuf;

    /// A copy of this test's own executable at `dir/name`, with `edit` applied to its bytes.
    fn copy(dir: &tempfile::TempDir, name: &str, edit: impl FnOnce(&mut Vec<u8>)) -> PathBuf {
        let mut bytes = std::fs::read(std::env::current_exe().unwrap()).unwrap();
        edit(&mut bytes);
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    /// The file range of the section `name` of the executable `bytes`.
    fn range(bytes: &[u8], name: &str) -> std::ops::Range<usize> {
        let file = object::File::parse(bytes).unwrap();
        let s = file.section_by_name(name).unwrap();
        let (at, len) = s.file_range().unwrap();
        at as usize..(at + len) as usize
    }

    #[test]
    fn a_file_that_is_no_executable_is_digested_whole() {
        // FIPS 180-2's test vector: SHA-256("abc").
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("abc");
        std::fs::write(&path, b"abc").unwrap();
        assert_eq!(
            digest(&path).unwrap(),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(digest(&dir.path().join("missing")), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_rebuild_of_the_same_code_has_its_digest_and_other_code_another() {
        let dir = tempfile::tempdir().unwrap();
        let same = copy(&dir, "same", |_| {});
        // Another build ID (the linker's, which changes with the symbol names).
        let other_id = copy(&dir, "other-id", |b| {
            let r = range(b, ".note.gnu.build-id");
            b[r.end - 1] ^= 0xff;
        });
        // Symbols renamed: a local symbol's suffix changes with the source's text.
        let renamed = copy(&dir, "renamed", |b| {
            let r = range(b, ".strtab");
            let at = r.start
                + b[r.clone()]
                    .iter()
                    .position(|c| c.is_ascii_digit())
                    .unwrap();
            b[at] = if b[at] == b'0' { b'1' } else { b'0' };
        });
        // One byte of code changed.
        let other_code = copy(&dir, "other-code", |b| {
            let r = range(b, ".text");
            b[r.start + r.len() / 2] ^= 0xff;
        });
        let d = |p: &PathBuf| digest(p).unwrap();
        let whole = |p: &PathBuf| {
            use sha2::Digest;
            sha2::Sha256::digest(std::fs::read(p).unwrap()).to_vec()
        };
        assert_eq!(d(&same), d(&other_id));
        assert_eq!(d(&same), d(&renamed));
        assert_ne!(d(&same), d(&other_code));
        // The files themselves differ: a digest of the whole file would tell them apart.
        assert_ne!(whole(&same), whole(&other_id));
        assert_ne!(whole(&same), whole(&renamed));
    }
}
