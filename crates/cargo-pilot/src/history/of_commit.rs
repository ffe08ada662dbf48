//! The run of a commit, read back from the history: the union of every run recorded for it
//! (the partitions of one suite, `--partition`, and reruns), one result per bench and machine
//! kind. `cargo pilot compare`, `report` and `export` read it as `history:REV`.
//!
//! A machine kind is the history's machine identity (its name, `PILOT_MACHINE` or the host
//! name, with CPU model, cores, operating system and architecture): the same key that decides
//! which results share a series, so a bench is compared only with results of its own kind.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Context;
use pilot_format::ResultDoc;

use super::History;
use super::db::Value;

/// One result of a commit as the history holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct Recorded {
    /// The machine kind (the history's machine identity) and its name.
    pub kind: String,
    pub machine: String,
    /// The share of the suite its run measured, when it was one.
    pub partition: Option<String>,
    /// When the bench's session started (RFC 3339).
    pub started: String,
    pub target: String,
    pub bench: String,
    /// The whole result document, `None` for a result recorded before schema version 3.
    pub document: Option<String>,
}

impl Recorded {
    fn key(&self) -> (String, String) {
        (self.target.clone(), self.bench.clone())
    }

    /// When it started and its partition, added to `note`.
    fn shown(&self, note: Note) -> Note {
        let note = note.text("started ").code(&self.started);
        match self.partition.as_deref() {
            Some(p) => note.text(", partition ").code(p),
            None => note,
        }
    }
}

/// A note about the runs read, for a person: pilot's words, and the names the history holds
/// (targets, benches, machine kinds, partitions, times), which each output shows as code in
/// its own way ([`Note::render`]): the terminal escaped, Markdown in a span that nothing in a
/// name can close. Kept apart until then, so that no name is ever read as markup.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Note(Vec<(bool, String)>);

impl Note {
    /// Pilot's own words, added.
    pub fn text(mut self, words: &str) -> Note {
        self.0.push((false, words.to_string()));
        self
    }

    /// A name from the history, added as code.
    pub fn code(mut self, name: &str) -> Note {
        self.0.push((true, name.to_string()));
        self
    }

    /// `side: ` put before the note.
    pub fn side(mut self, side: &str) -> Note {
        self.0.insert(0, (false, format!("{side}: ")));
        self
    }

    /// The note with each name shown by `code`.
    pub fn render(&self, code: &dyn Fn(&str) -> String) -> String {
        self.0
            .iter()
            .map(|(is_code, part)| if *is_code { code(part) } else { part.clone() })
            .collect()
    }
}

/// The terminal's form: names as escaped code spans.
impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let code = |n: &str| format!("`{}`", pilot_engine::fmt::terminal(n));
        f.write_str(&self.render(&code))
    }
}

impl History {
    /// Every result recorded for `commit` (a full hash) by a run of a clean tree, in the order
    /// they were added.
    fn of_commit(&mut self, commit: &str) -> anyhow::Result<Vec<Recorded>> {
        let rows = self
            .db
            .query(
                "SELECT m.identity, m.name, u.partition, r.started, b.target, b.name, r.document \
                 FROM results r JOIN runs u ON u.id = r.run_id \
                 JOIN machines m ON m.id = u.machine_id JOIN benches b ON b.id = r.bench_id \
                 WHERE u.commit_hash = ? AND (u.dirty IS NULL OR u.dirty = ?) ORDER BY r.id",
                &[
                    Value::Text(Some(commit.to_string())),
                    Value::Bool(Some(false)),
                ],
            )
            .with_context(|| format!("failed to read the history `{}`", self.shown()))?;
        Ok(rows
            .into_iter()
            .map(|r| Recorded {
                kind: r[0].text().unwrap_or_default(),
                machine: r[1].text().unwrap_or_default(),
                partition: r[2].text(),
                started: r[3].text().unwrap_or_default(),
                target: r[4].text().unwrap_or_default(),
                bench: r[5].text().unwrap_or_default(),
                document: r[6].text(),
            })
            .collect())
    }

    /// The full hash of the commit `rev` names: git's (`git` resolves it), else the one
    /// commit of the history whose hash starts with `rev`.
    fn commit_named(&mut self, rev: &str, resolved: Option<String>) -> anyhow::Result<String> {
        if let Some(hash) = resolved {
            return Ok(hash);
        }
        let hex = rev.len() >= 4 && rev.bytes().all(|b| b.is_ascii_hexdigit());
        if !hex {
            anyhow::bail!("`{rev}` names no commit of this repository");
        }
        let found: Vec<String> = self
            .db
            .query(
                "SELECT DISTINCT commit_hash FROM runs WHERE commit_hash LIKE ?",
                &[Value::Text(Some(format!("{}%", rev.to_lowercase())))],
            )
            .with_context(|| format!("failed to read the history `{}`", self.shown()))?
            .into_iter()
            .filter_map(|r| r[0].text())
            .collect();
        match found.as_slice() {
            [one] => Ok(one.clone()),
            [] => anyhow::bail!("no run of commit `{rev}` in the history `{}`", self.shown()),
            many => anyhow::bail!(
                "`{rev}` is the start of {} commits' hashes in the history `{}`: give more of it",
                many.len(),
                self.shown()
            ),
        }
    }

    /// The run of the commit `rev` names (`resolved`: git's full hash of it, when git knows
    /// it): every result recorded for it, one per bench and machine kind ([`latest_of_each`]).
    ///
    /// # Errors
    ///
    /// No run of the commit is in the history, or none of its results has its document, or
    /// the history cannot be read.
    pub fn commit_results(
        &mut self,
        rev: &str,
        resolved: Option<String>,
    ) -> anyhow::Result<(String, Vec<Recorded>, Vec<Note>)> {
        let commit = self.commit_named(rev, resolved)?;
        let all = self.of_commit(&commit)?;
        if all.is_empty() {
            anyhow::bail!(
                "no run of commit `{commit}` in the history `{}` (runs of a tree with \
                 uncommitted changes are not the commit's)",
                self.shown()
            );
        }
        let (chosen, notes) = latest_of_each(all);
        if chosen.iter().all(|r| r.document.is_none()) {
            anyhow::bail!(
                "the results of commit `{commit}` in the history `{}` were recorded before it \
                 kept whole results (schema version 3): they can be read as series only \
                 (`cargo pilot history`)",
                self.shown()
            );
        }
        Ok((commit, chosen, notes))
    }
}

/// One result per bench and machine kind: the latest session of each (a rerun, or a
/// partition run again, measured the code last and replaces what it measured before); ties by
/// the order of adding. The notes name each bench recorded more than once and the result used.
/// Time: O(r log r) for r results.
pub fn latest_of_each(all: Vec<Recorded>) -> (Vec<Recorded>, Vec<Note>) {
    let mut by: BTreeMap<(String, String, String), Vec<Recorded>> = BTreeMap::new();
    for r in all {
        let (t, b) = r.key();
        by.entry((r.kind.clone(), t, b)).or_default().push(r);
    }
    let mut notes = Vec::new();
    let mut chosen = Vec::new();
    for ((_, target, bench), mut rs) in by {
        // Stable: of equal starts, the last added stays last.
        rs.sort_by(|a, b| a.started.cmp(&b.started));
        let used = rs.pop().expect("a group holds a result");
        if !rs.is_empty() {
            let note = Note::default()
                .code(&format!("{target}/{bench}"))
                .text(&format!(" was recorded {} times on machine ", rs.len() + 1))
                .code(&used.machine)
                .text(": the latest (");
            let mut note = used
                .shown(note)
                .text(") is used, as it measured the code last; not ");
            for (i, r) in rs.iter().enumerate() {
                note = r.shown(if i > 0 { note.text("; ") } else { note });
            }
            notes.push(note);
        }
        chosen.push(used);
    }
    (chosen, notes)
}

/// One result per bench whatever its kind, for a run read alone (`report`, `export`): the
/// latest. When the results come from more than one machine kind, a note says which kinds
/// and how many benches each.
pub fn one_per_bench(chosen: Vec<Recorded>) -> (Vec<Recorded>, Vec<Note>) {
    let mut by: BTreeMap<(String, String), Recorded> = BTreeMap::new();
    for r in chosen {
        match by.get(&r.key()) {
            Some(old) if old.started >= r.started => {}
            _ => {
                by.insert(r.key(), r);
            }
        }
    }
    let results: Vec<Recorded> = by.into_values().collect();
    let notes = kinds_note(&results).into_iter().collect();
    (results, notes)
}

/// The note of a run whose results came from more than one machine kind.
fn kinds_note(results: &[Recorded]) -> Option<Note> {
    let mut kinds: BTreeMap<&str, (usize, BTreeSet<&str>)> = BTreeMap::new();
    for r in results {
        let e = kinds.entry(&r.kind).or_default();
        e.0 += 1;
        if let Some(p) = &r.partition {
            e.1.insert(p);
        }
    }
    if kinds.len() < 2 {
        return None;
    }
    let mut note = Note::default().text(&format!(
        "the partitions of this run ran on {} machine kinds: ",
        kinds.len()
    ));
    for (i, (kind, (n, shares))) in kinds.iter().enumerate() {
        note = if i > 0 { note.text(", ") } else { note }
            .code(kind)
            .text(&format!(
                " ({}",
                pilot_engine::fmt::counted(*n, "bench", "benches")
            ));
        for (j, share) in shares.iter().enumerate() {
            note = note
                .text(if j == 0 { ", partition " } else { ", " })
                .code(share);
        }
        note = note.text(")");
    }
    Some(note.text("; a bench is compared only with results of its own kind"))
}

/// Both sides of a comparison read from the history, each bench on one machine kind that both
/// have: the kind whose new result is the latest. A bench both sides measured, but on no
/// common kind, is left out of both, and a note says so; a run of several kinds is noted.
pub fn paired_by_kind(
    base: Vec<Recorded>,
    new: Vec<Recorded>,
) -> (Vec<Recorded>, Vec<Recorded>, Vec<Note>) {
    let mut notes = Vec::new();
    let base_kinds: BTreeSet<(String, String, String)> = base
        .iter()
        .map(|r| (r.target.clone(), r.bench.clone(), r.kind.clone()))
        .collect();
    let new_kinds: BTreeSet<(String, String, String)> = new
        .iter()
        .map(|r| (r.target.clone(), r.bench.clone(), r.kind.clone()))
        .collect();
    let benches_of =
        |rs: &[Recorded]| -> BTreeSet<(String, String)> { rs.iter().map(Recorded::key).collect() };
    let both: BTreeSet<(String, String)> = benches_of(&base)
        .intersection(&benches_of(&new))
        .cloned()
        .collect();
    let mut kind_of: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut unpaired: BTreeSet<(String, String)> = BTreeSet::new();
    for key in &both {
        let common = new
            .iter()
            .filter(|r| &r.key() == key)
            .filter(|r| base_kinds.contains(&(key.0.clone(), key.1.clone(), r.kind.clone())))
            .max_by(|a, b| a.started.cmp(&b.started));
        match common {
            Some(r) => {
                kind_of.insert(key.clone(), r.kind.clone());
            }
            None => {
                let kinds = |mut note: Note, set: &BTreeSet<(String, String, String)>| {
                    let of_bench = set.iter().filter(|(t, b, _)| (t, b) == (&key.0, &key.1));
                    for (i, (_, _, k)) in of_bench.enumerate() {
                        note = if i > 0 { note.text(", ") } else { note }.code(k);
                    }
                    note
                };
                let note = Note::default()
                    .code(&format!("{}/{}", key.0, key.1))
                    .text(" not compared: measured on ");
                let note = kinds(note, &base_kinds).text(" in the base and on ");
                let note =
                    kinds(note, &new_kinds).text(" in the new results, no machine kind in common");
                notes.push(note);
                unpaired.insert(key.clone());
            }
        }
    }
    let side = |rs: Vec<Recorded>| -> (Vec<Recorded>, Vec<Note>) {
        let kept: Vec<Recorded> = rs
            .into_iter()
            .filter(|r| !unpaired.contains(&r.key()))
            .filter(|r| kind_of.get(&r.key()).is_none_or(|k| k == &r.kind))
            .collect();
        one_per_bench(kept)
    };
    let (base, base_notes) = side(base);
    let (new, new_notes) = side(new);
    notes.extend(base_notes.into_iter().map(|n| n.side("base")));
    notes.extend(new_notes.into_iter().map(|n| n.side("new")));
    (base, new, notes)
}

/// The result documents of `chosen`, with their machine kinds; a result without its
/// document (recorded before schema version 3) or with one that no longer reads is left out,
/// and a note says how many.
pub fn documents(chosen: Vec<Recorded>) -> (Vec<(String, ResultDoc)>, Vec<Note>) {
    let mut out = Vec::new();
    let mut missing = 0;
    for r in chosen {
        match r
            .document
            .as_deref()
            .and_then(|d| serde_json::from_str::<ResultDoc>(d).ok())
        {
            Some(doc) => out.push((r.kind, doc)),
            None => missing += 1,
        }
    }
    let mut notes = Vec::new();
    if missing > 0 {
        notes.push(Note::default().text(&format!(
            "{} recorded without a whole result (before schema version 3) left out",
            pilot_engine::fmt::counted(missing, "result", "results")
        )));
    }
    (out, notes)
}

/// The revision a results source names as `history:REV`, if it is one.
pub fn rev_of(source: &str) -> Option<&str> {
    source.strip_prefix("history:")
}

/// Every result of the commit `rev` names in the history at `location` (`None`: off), one per
/// bench and machine kind, with the notes of choosing them. `rev` is resolved by git in the
/// current directory, else taken as the start of a hash the history holds.
///
/// # Errors
///
/// The history is off or not there yet, has no run of the commit, or cannot be read.
pub fn read_run(
    location: Option<&super::Location>,
    rev: &str,
) -> anyhow::Result<(String, Vec<Recorded>, Vec<Note>)> {
    let Some(location) = location else {
        anyhow::bail!(
            "`history:{rev}` reads the history, and the history is off (--history or \
             PILOT_HISTORY)"
        );
    };
    let Some(mut h) = History::open_existing(location)? else {
        anyhow::bail!(
            "no history at `{}` yet: `cargo pilot bench` adds to it",
            location.shown()
        );
    };
    let git = super::Git::at(&std::env::current_dir().unwrap_or_else(|_| ".".into()));
    h.commit_results(rev, git.resolve(rev))
}

/// Writes `docs` as the latest results of a target directory of their own (a temporary
/// folder, removed when dropped), where every command that reads saved results reads them.
///
/// # Errors
///
/// The folder or a file cannot be written.
pub fn write_results(docs: &[(String, ResultDoc)]) -> anyhow::Result<tempfile::TempDir> {
    let dir = tempfile::Builder::new()
        .prefix("cargo-pilot-history-")
        .tempdir()
        .context("failed to create a temporary folder")?;
    for (_, d) in docs {
        let path = pilot_engine::store::latest_path(dir.path(), &d.target, &d.name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("failed to create `{}`", parent.display()))?;
        }
        let bytes = serde_json::to_vec_pretty(d).expect("documents serialise");
        std::fs::write(&path, bytes)
            .with_context(|| format!("failed to write `{}`", path.display()))?;
    }
    Ok(dir)
}

/// Results read from the history, written where saved results are read from.
pub struct Materialised {
    /// A target directory of their own, whose `pilot/results` holds them; removed when dropped.
    pub dir: tempfile::TempDir,
    /// The commit they are the run of.
    pub commit: String,
    /// What choosing them said (a bench recorded twice, several machine kinds, results without
    /// documents).
    pub notes: Vec<Note>,
}

/// The results `chosen` of `commit`, written as saved results, with `notes` and those of
/// reading their documents.
///
/// # Errors
///
/// A file cannot be written; no result has its document.
pub fn materialise(
    commit: String,
    chosen: Vec<Recorded>,
    mut notes: Vec<Note>,
) -> anyhow::Result<Materialised> {
    let (docs, more) = documents(chosen);
    notes.extend(more);
    if docs.is_empty() {
        anyhow::bail!("no result of commit `{commit}` in the history has its whole document");
    }
    let dir = write_results(&docs)?;
    Ok(Materialised { dir, commit, notes })
}

/// The run of `rev` in the history at `location`, one result per bench (a run read alone:
/// `report`, `export`, or one side of `compare`), written as saved results.
///
/// # Errors
///
/// As [`read_run`] and [`materialise`].
pub fn read_alone(location: Option<&super::Location>, rev: &str) -> anyhow::Result<Materialised> {
    let (commit, chosen, mut notes) = read_run(location, rev)?;
    let (one, more) = one_per_bench(chosen);
    notes.extend(more);
    materialise(commit, one, notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(kind: &str, share: &str, started: &str, bench: &str) -> Recorded {
        Recorded {
            kind: kind.into(),
            machine: kind.split('|').next().unwrap().into(),
            partition: (!share.is_empty()).then(|| share.into()),
            started: started.into(),
            target: "t".into(),
            bench: bench.into(),
            document: Some(format!("{kind} {started}")),
        }
    }

    /// A run of `commit` on machine `name`, share `share`, of `benches` (each with its
    /// document unless `documents` is false), started at `started`.
    fn run(
        name: &str,
        share: &str,
        started: &str,
        benches: &[&str],
        documents: bool,
    ) -> super::super::RunRecord {
        let machine = pilot_format::MachineDoc {
            cpu: Some("cpu".into()),
            cores: Some(2),
            os: "linux".into(),
            arch: "x86_64".into(),
            pilot: "0.1.0".into(),
            ..pilot_format::MachineDoc::default()
        };
        super::super::RunRecord {
            source: "bench",
            commit: Some("a".repeat(40)),
            dirty: Some(false),
            branch: None,
            machine,
            machine_name: name.into(),
            started: started.into(),
            partition: Some(share.into()),
            results: benches
                .iter()
                .map(|b| super::super::ResultRecord {
                    target: "t".into(),
                    bench: (*b).into(),
                    started: started.into(),
                    status: "ok".into(),
                    unit: None,
                    estimate: None,
                    low: None,
                    high: None,
                    confidence: None,
                    estimator: None,
                    processes: Vec::new(),
                    probe_ns: None,
                    load: None,
                    executable: None,
                    document: documents.then(|| format!("{{\"bench\": \"{b}\"}}")),
                })
                .collect(),
        }
    }

    #[test]
    fn the_run_of_a_commit_is_its_partitions_read_back_from_the_store() {
        let dir = tempfile::tempdir().unwrap();
        let loc = super::super::Location::Sqlite(dir.path().join("h.sqlite"));
        // No repository: git knows no commit, and the history keeps what it is given.
        let git = super::super::Git::at(dir.path());
        let mut h = History::open(&loc).unwrap();
        let t0 = "2026-01-01T00:00:00Z";
        h.append(&run("ci", "count:1/2", t0, &["a", "c"], true), &git, false)
            .unwrap();
        h.append(&run("ci", "count:2/2", t0, &["b"], true), &git, false)
            .unwrap();
        // Share 1 run again later: its results replace the first.
        let t1 = "2026-01-01T00:10:00Z";
        h.append(&run("ci", "count:1/2", t1, &["a", "c"], true), &git, false)
            .unwrap();
        let (commit, chosen, notes) = h.commit_results("aaaaaaa", None).unwrap();
        assert_eq!(commit, "a".repeat(40));
        let got: Vec<(&str, &str)> = chosen
            .iter()
            .map(|r| (r.bench.as_str(), r.started.as_str()))
            .collect();
        assert_eq!(got, [("a", t1), ("b", t0), ("c", t1)]);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(
            notes[0]
                .to_string()
                .starts_with("`t/a` was recorded 2 times"),
            "{notes:?}"
        );
        // A commit the history does not hold, and a prefix that is no hash.
        let e = h.commit_results("bbbbbbb", None).unwrap_err().to_string();
        assert!(e.contains("no run of commit `bbbbbbb`"), "{e}");
        let e = h.commit_results("HEAD", None).unwrap_err().to_string();
        assert!(e.contains("`HEAD` names no commit"), "{e}");
    }

    #[test]
    fn results_recorded_without_documents_are_said_to_be_series_only() {
        let dir = tempfile::tempdir().unwrap();
        let loc = super::super::Location::Sqlite(dir.path().join("h.sqlite"));
        let git = super::super::Git::at(dir.path());
        let mut h = History::open(&loc).unwrap();
        h.append(&run("ci", "count:1/1", "1", &["a"], false), &git, false)
            .unwrap();
        let e = h
            .commit_results(&"a".repeat(40), None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("before it kept whole results"), "{e}");
    }

    #[test]
    fn a_bench_recorded_twice_is_its_latest_session_and_said_so() {
        let all = vec![
            rec("ci|x", "count:1/2", "2026-01-01T00:00:02Z", "a"),
            rec("ci|x", "count:2/2", "2026-01-01T00:00:01Z", "b"),
            rec("ci|x", "count:1/2", "2026-01-01T00:00:05Z", "a"),
        ];
        let (chosen, notes) = latest_of_each(all);
        assert_eq!(chosen.len(), 2);
        assert_eq!(chosen[0].started, "2026-01-01T00:00:05Z");
        assert_eq!(notes.len(), 1);
        assert!(
            notes[0].to_string().contains("`t/a` was recorded 2 times on machine `ci`: the latest (started `2026-01-01T00:00:05Z`, partition `count:1/2`) is used"),
            "{}",
            notes[0]
        );
        // Once each: nothing to say.
        let (_, notes) = latest_of_each(vec![rec("ci|x", "", "1", "a"), rec("ci|x", "", "1", "b")]);
        assert!(notes.is_empty());
    }

    #[test]
    fn the_same_bench_on_two_kinds_is_kept_for_each_until_one_is_chosen() {
        let all = vec![
            rec("ci|x", "count:1/2", "1", "a"),
            rec("ci|y", "count:2/2", "2", "a"),
            rec("ci|x", "count:1/2", "1", "b"),
        ];
        let (chosen, notes) = latest_of_each(all);
        assert_eq!(chosen.len(), 3);
        assert!(notes.is_empty());
        let (one, notes) = one_per_bench(chosen);
        // Each bench's latest, whatever its kind: `a` on y, `b` on x.
        assert_eq!(one.len(), 2);
        assert_eq!(one[0].kind, "ci|y");
        assert_eq!(one[1].kind, "ci|x");
        assert_eq!(notes.len(), 1);
        assert!(
            notes[0]
                .to_string()
                .contains("ran on 2 machine kinds: `ci|x` (1 bench, partition `count:1/2`)"),
            "{}",
            notes[0]
        );
    }

    #[test]
    fn a_bench_is_compared_only_on_a_kind_both_sides_have() {
        let base = vec![
            rec("ci|x", "", "1", "a"),
            rec("ci|y", "", "1", "a"),
            rec("ci|x", "", "1", "b"),
            rec("ci|x", "", "1", "c"),
        ];
        let new = vec![
            // Later on y, but only x is the base's kind of b.
            rec("ci|x", "", "2", "a"),
            rec("ci|y", "", "3", "a"),
            rec("ci|x", "", "2", "b"),
            rec("ci|y", "", "3", "b"),
            rec("ci|y", "", "2", "c"),
        ];
        let (b, n, notes) = paired_by_kind(base, new);
        let kinds = |rs: &[Recorded]| -> Vec<(String, String)> {
            rs.iter()
                .map(|r| (r.bench.clone(), r.kind.clone()))
                .collect()
        };
        let pairs = vec![
            ("a".to_string(), "ci|y".to_string()),
            ("b".into(), "ci|x".into()),
        ];
        assert_eq!(kinds(&b), pairs);
        assert_eq!(kinds(&n), pairs);
        assert!(
            notes[0]
                .to_string()
                .contains("`t/c` not compared: measured on `ci|x` in the base and on `ci|y`"),
            "{notes:?}"
        );
    }

    /// A name from the history is never read as markup: Markdown gets it as a code span that
    /// nothing in it can close, the terminal escaped; pilot's words are left as they are.
    #[test]
    fn a_notes_names_are_code_in_each_output_whatever_they_hold() {
        let hostile = "b`| <x>\n\u{1b}[31m";
        let (_, notes) = latest_of_each(vec![
            rec("ci|x", "", "1", hostile),
            rec("ci|x", "", "2", hostile),
        ]);
        let note = &notes[0];
        let md = note.render(&pilot_engine::fmt::markdown_code);
        assert!(
            md.starts_with(&pilot_engine::fmt::markdown_code(&format!("t/{hostile}"))),
            "{md}"
        );
        assert!(md.contains(" was recorded 2 times on machine "), "{md}");
        let shown = note.to_string();
        assert!(
            !shown.contains('\u{1b}') && !shown.contains('\n'),
            "{shown:?}"
        );
        assert!(shown.starts_with("`t/b`| <x>"), "{shown:?}");
    }
}
