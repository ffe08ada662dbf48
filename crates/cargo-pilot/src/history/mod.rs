//! The history store: every `cargo pilot bench`, `run` and `bisect` appends its results to it
//! (and `cargo pilot history add` fills it from saved results), so that each bench has a series
//! over commits, per machine, that `cargo pilot history`, `changes` and `report` read.
//!
//! Where it is: `--history LOCATION`, else `PILOT_HISTORY`, else
//! `<target>/pilot/history.sqlite`, read by [`location()`] for every command. A PostgreSQL
//! connection string (`postgres://…`) is a team's database (CI runners on many machines write
//! to one and everyone reads it); a path is a SQLite file; `off` keeps no history. The default
//! lives under the target directory because pilot writes nowhere else but the files a user
//! names; `cargo clean` removes it with the results (the book says so), and a history worth
//! keeping is given a place of its own.
//!
//! The schema is versioned ([`schema`]); both backends hold the same tables. Each append is
//! one transaction: a run is in the history whole or not at all, and writers at once each add
//! their own rows (SQLite serialises them on its write lock, PostgreSQL on its rows).

mod changes;
mod conninfo;
mod db;
mod git;
mod location;
mod machine;
pub mod of_commit;
mod pg;
mod read;
mod record;
pub mod schema;

use std::collections::HashSet;
use std::path::Path;

use anyhow::Context;

use crate::exit::Failure;

pub use changes::{ChangeOptions, FoundChange, MIN_SEGMENT, imprecise};
pub use git::{CommitFacts, Git, branch_of_run};
pub use location::{Location, location};
pub use machine::{MachineChange, analyse, newly_regressed};
pub use read::{Line, Point, Query, Series};
// `ResultRecord` is named by the history's bench (benches/history.rs).
#[allow(unused_imports)]
pub use record::{Executables, ResultRecord, RunRecord, digest, runs_of, with_executables};

use db::{Db, Value};

/// An open history, brought to the current schema.
pub struct History {
    db: Db,
    location: Location,
}

impl History {
    /// Opens the history at `location` (a new SQLite file is created) and migrates it.
    ///
    /// # Errors
    ///
    /// The database cannot be reached or opened, is something else's, or has a newer schema.
    pub fn open(location: &Location) -> anyhow::Result<History> {
        let mut db = Db::open(location)?;
        // Something else's database is refused before anything of it is changed.
        schema::version(&mut db, location)?;
        db.prepare(location)?;
        schema::migrate(&mut db, location)?;
        Ok(History {
            db,
            location: location.clone(),
        })
    }

    /// Opens the history at `location` to read; `None` when a SQLite file is not there yet
    /// (reading never creates one).
    pub fn open_existing(location: &Location) -> anyhow::Result<Option<History>> {
        if let Location::Sqlite(p) = location
            && !p.exists()
        {
            return Ok(None);
        }
        Self::open(location).map(Some)
    }

    /// Where it is, for messages.
    pub fn shown(&self) -> String {
        self.location.shown()
    }

    /// Appends `run` in one transaction: its machine and commit (recorded once), the runs of
    /// its branch that `git` shows are no longer on it marked so, then the run and its results.
    /// With `skip_known`, a result whose bench, start and machine are already in the history is
    /// left out (`history add` twice adds nothing twice). Returns the results added.
    ///
    /// # Errors
    ///
    /// The database refuses a statement; nothing of the run is kept then.
    pub fn append(
        &mut self,
        run: &RunRecord,
        git: &Git,
        skip_known: bool,
    ) -> anyhow::Result<usize> {
        let facts = run.commit.as_deref().map(|c| git.commit(c));
        let branch_state = self.branch_state(run, git)?;
        self.db.begin()?;
        let done = self.append_in_transaction(run, facts.as_ref(), &branch_state, skip_known);
        match done {
            Ok(n) => {
                self.db.commit()?;
                Ok(n)
            }
            Err(e) => {
                self.db.rollback();
                Err(e.context(format!(
                    "failed to append to the history `{}`",
                    self.shown()
                )))
            }
        }
    }

    /// Whether `run`'s commit is on its branch, and the branch's recorded commits git no
    /// longer has on it (a rebase or a force-push rewrote them).
    fn branch_state(&mut self, run: &RunRecord, git: &Git) -> anyhow::Result<(bool, Vec<String>)> {
        let (Some(branch), Some(commit)) = (&run.branch, &run.commit) else {
            return Ok((true, Vec::new()));
        };
        let tip = git.branch_tip(branch).unwrap_or_else(|| commit.clone());
        let Some(ancestors) = git.ancestors(&tip) else {
            return Ok((true, Vec::new()));
        };
        let recorded: Vec<String> = self
            .db
            .query(
                "SELECT DISTINCT commit_hash FROM runs WHERE branch = ? AND on_branch = ? \
                 AND commit_hash IS NOT NULL",
                &[Value::Text(Some(branch.clone())), Value::Bool(Some(true))],
            )
            .with_context(|| format!("failed to read the history `{}`", self.shown()))?
            .into_iter()
            .filter_map(|r| r[0].text())
            .filter(|c| !ancestors.contains(c))
            .collect();
        // Only commits this repository has: a stale or shallow clone leaves others alone.
        let known: HashSet<String> = git.known(&recorded);
        let gone = recorded.into_iter().filter(|c| known.contains(c)).collect();
        Ok((ancestors.contains(commit), gone))
    }

    fn append_in_transaction(
        &mut self,
        run: &RunRecord,
        facts: Option<&CommitFacts>,
        (on_branch, gone): &(bool, Vec<String>),
        skip_known: bool,
    ) -> anyhow::Result<usize> {
        let text = |s: &str| Value::Text(Some(s.to_string()));
        let opt = |s: &Option<String>| Value::Text(s.clone());
        let identity = record::identity(&run.machine_name, &run.machine);
        let machine_json = serde_json::to_string(&run.machine).expect("machine records serialise");
        self.db.exec(
            "INSERT INTO machines (identity, name, record) VALUES (?, ?, ?) \
             ON CONFLICT (identity) DO NOTHING",
            &[
                text(&identity),
                text(&run.machine_name),
                text(&machine_json),
            ],
        )?;
        let machine_id = self.id(
            "SELECT id FROM machines WHERE identity = ?",
            &[text(&identity)],
        )?;
        if let Some(f) = facts {
            self.db.exec(
                "INSERT INTO commits (hash, committed_at, position, subject) VALUES (?, ?, ?, ?) \
                 ON CONFLICT (hash) DO UPDATE SET \
                 committed_at = COALESCE(commits.committed_at, excluded.committed_at), \
                 position = COALESCE(commits.position, excluded.position), \
                 subject = COALESCE(commits.subject, excluded.subject)",
                &[
                    text(&f.hash),
                    Value::Int(f.committed_at),
                    Value::Int(f.position),
                    opt(&f.subject),
                ],
            )?;
        }
        for c in gone {
            self.db.exec(
                "UPDATE runs SET on_branch = ? WHERE branch = ? AND commit_hash = ?",
                &[Value::Bool(Some(false)), opt(&run.branch), text(c)],
            )?;
        }
        let run_id = self.id(
            "INSERT INTO runs (machine_id, commit_hash, dirty, branch, on_branch, started, source, \
             machine_record, pilot_version, partition) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) \
             RETURNING id",
            &[
                Value::Int(Some(machine_id)),
                opt(&run.commit),
                Value::Bool(run.dirty),
                opt(&run.branch),
                Value::Bool(Some(*on_branch)),
                text(&run.started),
                text(run.source),
                text(&machine_json),
                text(&run.machine.pilot),
                opt(&run.partition),
            ],
        )?;
        let mut added = 0;
        for r in &run.results {
            added += usize::from(self.insert_result(r, (run_id, machine_id), skip_known)?);
        }
        if added == 0 {
            // Nothing new: the run row goes too.
            self.db
                .exec("DELETE FROM runs WHERE id = ?", &[Value::Int(Some(run_id))])?;
        }
        Ok(added)
    }

    /// Inserts `r`, a result of run `run_id` on machine `machine_id` (its bench recorded once);
    /// with `skip_known`, not when the history has it already. Whether it was inserted.
    fn insert_result(
        &mut self,
        r: &ResultRecord,
        (run_id, machine_id): (i64, i64),
        skip_known: bool,
    ) -> anyhow::Result<bool> {
        let text = |s: &str| Value::Text(Some(s.to_string()));
        let opt = |s: &Option<String>| Value::Text(s.clone());
        self.db.exec(
            "INSERT INTO benches (target, name) VALUES (?, ?) ON CONFLICT (target, name) DO NOTHING",
            &[text(&r.target), text(&r.bench)],
        )?;
        let bench_id = self.id(
            "SELECT id FROM benches WHERE target = ? AND name = ?",
            &[text(&r.target), text(&r.bench)],
        )?;
        if skip_known && self.known(bench_id, &r.started, machine_id)? {
            return Ok(false);
        }
        let processes = serde_json::to_string(&r.processes).expect("numbers serialise");
        self.db.exec(
            "INSERT INTO results (run_id, bench_id, started, status, unit, estimate, low, high, \
             confidence, estimator, processes, probe_ns, load, document, executable) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            &[
                Value::Int(Some(run_id)),
                Value::Int(Some(bench_id)),
                text(&r.started),
                text(&r.status),
                opt(&r.unit),
                Value::Real(r.estimate),
                Value::Real(r.low),
                Value::Real(r.high),
                Value::Real(r.confidence),
                opt(&r.estimator),
                text(&processes),
                Value::Real(r.probe_ns),
                Value::Real(r.load),
                opt(&r.document),
                opt(&r.executable),
            ],
        )?;
        Ok(true)
    }

    /// Whether a result of bench `bench_id` that started at `started` on machine `machine_id`
    /// is in the history.
    fn known(&mut self, bench_id: i64, started: &str, machine_id: i64) -> anyhow::Result<bool> {
        let rows = self.db.query(
            "SELECT 1 FROM results r JOIN runs u ON u.id = r.run_id \
             WHERE r.bench_id = ? AND r.started = ? AND u.machine_id = ? LIMIT 1",
            &[
                Value::Int(Some(bench_id)),
                Value::Text(Some(started.to_string())),
                Value::Int(Some(machine_id)),
            ],
        )?;
        Ok(!rows.is_empty())
    }

    /// The first column of the first row of `sql`, an id.
    fn id(&mut self, sql: &str, params: &[Value]) -> anyhow::Result<i64> {
        self.db
            .query(sql, params)?
            .first()
            .and_then(|r| r[0].int())
            .ok_or_else(|| anyhow::anyhow!("the history returned no id for `{sql}`"))
    }
}

/// Appends `runs` to the history at `location`: what `cargo pilot bench`, `run` and `bisect`
/// do at their end. Says how many results went in; an error says what failed and that the
/// results are on disk for `cargo pilot history add`.
///
/// # Errors
///
/// The history cannot be opened or refuses the run.
pub fn record(location: &Location, runs: &[RunRecord], git: &Git) -> anyhow::Result<usize> {
    let mut added = 0;
    let mut h = History::open(location)?;
    for run in runs {
        added += h.append(run, git, false)?;
    }
    Ok(added)
}

/// Appends the results `docs` of one `cargo pilot bench`, `run` or `bisect` (`source`; with
/// the share of the suite it ran, `--partition`) to the history at `location` (`None`: off),
/// with the branch and commits as git in `repo` knows them and each result's executable's
/// digest from `executables` (by target; empty when unknown), and says so on standard error.
/// Nothing when there is no result.
///
/// # Errors
///
/// The history cannot be opened or refuses the run, or an interrupt stopped the wait for it
/// ([`Failure::Interrupted`]): the message says where the results are, so that `cargo pilot
/// history add` can add them later.
pub fn append_docs(
    location: Option<&Location>,
    target_dir: &Path,
    (docs, executables): (&[pilot_format::ResultDoc], &Executables),
    (source, partition): (&'static str, Option<&str>),
    repo: &Path,
) -> Result<(), Failure> {
    let Some(location) = location else {
        return Ok(());
    };
    if docs.is_empty() {
        return Ok(());
    }
    let git = Git::at(repo);
    let branch = branch_of_run(&git);
    let mut runs = runs_of(docs, source, branch, &pilot_engine::probe::machine());
    for r in &mut runs {
        r.partition = partition.map(str::to_string);
    }
    with_executables(&mut runs, executables);
    match record(location, &runs, &git) {
        Ok(n) => {
            say!(
                "history: {} added to `{}`",
                pilot_engine::fmt::counted(n, "result", "results"),
                location.shown()
            );
            Ok(())
        }
        Err(e) => {
            let e = anyhow::anyhow!(
                "{e:#}\nthis run's results are not in the history, but they are saved under \
                 `{}`: `cargo pilot history add` adds them once the history can be reached",
                pilot_engine::store::results_dir(target_dir).display()
            );
            Err(crate::interrupt::failure(e))
        }
    }
}

/// The series a `cargo pilot history` or `changes` command reads.
pub struct Selection {
    /// The history, `None` when it does not exist yet (a SQLite file never written).
    pub history: Option<History>,
    /// Where it is.
    pub location: Location,
    /// Which series.
    pub query: Query,
    /// The thresholds of a change.
    pub options: ChangeOptions,
}

impl Selection {
    /// Every selected series, in the history's order.
    ///
    /// # Errors
    ///
    /// The history does not exist yet; no series matches (the message says what was asked
    /// for, what runs the history holds and which flag selects them); the history cannot be
    /// read.
    pub fn all_series(&mut self) -> anyhow::Result<Vec<Series>> {
        let Some(h) = self.history.as_mut() else {
            anyhow::bail!(
                "no history at `{}` yet: `cargo pilot bench` and `cargo pilot run` add to it",
                self.location.shown()
            );
        };
        let all = h.all_series(&self.query)?;
        if all.is_empty() {
            let holdings = h.holdings(self.query.line.as_ref())?;
            anyhow::bail!(
                "no run in the history `{}` matches{}\n{}",
                h.shown(),
                self.query.describe(),
                read::explain_empty(&holdings, &self.query)
            );
        }
        Ok(all)
    }
}

/// What `args` select in the history of the workspace whose target directory is
/// `target_dir`; the branch is the one checked out in the current folder unless given.
///
/// # Errors
///
/// The location is malformed (a usage error), the history is `off`, or cannot be opened.
pub fn select(args: &crate::args::SeriesArgs, target_dir: &Path) -> Result<Selection, Failure> {
    let location = location(args.history.history.as_deref(), target_dir)?.ok_or_else(|| {
        anyhow::anyhow!(
            "the history is off (`--history off` or PILOT_HISTORY=off): nothing to read"
        )
    })?;
    let history = History::open_existing(&location)?;
    let here = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let (branch, line) = if args.all {
        (None, None)
    } else {
        let git = Git::at(&here);
        let branch = args.branch.clone().or_else(|| branch_of_run(&git));
        (branch, line_of(&git, args.branch.as_deref()))
    };
    Ok(Selection {
        history,
        location,
        query: Query {
            filters: args.filters.clone(),
            exact: args.exact,
            branch,
            line,
            machine: args.machine.clone(),
            all: args.all,
        },
        options: ChangeOptions {
            max_p: args.max_p.0,
            noise: args.noise.0,
        },
    })
}

/// The first-parent line a selection follows: `branch`'s (a local branch, else `origin`'s) when
/// given, else HEAD's; `None` outside a repository or for a branch git does not have.
///
/// Following the line, rather than the branch a run was recorded on, is what makes a run count
/// where its code is: a run at a detached HEAD (a history back-filled with `git checkout
/// <commit>`, CI's checkout of a pull request) was recorded on no branch, a run on a feature
/// branch that was fast-forwarded or rebased into `main` was recorded on the feature branch, and
/// both measured commits that `main` holds. A commit's place on the line never changes, where
/// "the branches that contain it" grow and move after the run.
pub fn line_of(git: &Git, branch: Option<&str>) -> Option<Line> {
    let (tip, hash) = match branch {
        Some(b) => (
            b.to_string(),
            git.branch_tip(b)
                .or_else(|| git.resolve(&format!("refs/remotes/origin/{b}")))?,
        ),
        None => ("HEAD".to_string(), git.resolve("HEAD")?),
    };
    Some(Line {
        tip,
        commits: git.first_parent_line(&hash)?,
    })
}
