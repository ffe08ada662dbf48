//! One connection to the history's database, SQLite or PostgreSQL, behind the few operations
//! the store needs: statements with parameters, rows of plain cells, and transactions. SQL is
//! written once with `?` placeholders (numbered `$1`, `$2`, … for PostgreSQL).

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, anyhow};
use tokio_postgres::types::ToSql;

pub use super::location::Location;
use super::location::check_file;
use super::pg::Pg;

/// A parameter of a statement, typed even when it is NULL (PostgreSQL checks each parameter's
/// type against its column).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A `BIGINT`.
    Int(Option<i64>),
    /// A `DOUBLE PRECISION`.
    Real(Option<f64>),
    /// A `TEXT`.
    Text(Option<String>),
    /// A `BOOLEAN` (an integer 0 or 1 in SQLite).
    Bool(Option<bool>),
}

/// One cell of a result row.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Bool(bool),
}

impl Cell {
    /// The cell as an integer (a boolean as 0 or 1), `None` when NULL.
    pub fn int(&self) -> Option<i64> {
        match self {
            Cell::Int(i) => Some(*i),
            Cell::Bool(b) => Some(i64::from(*b)),
            Cell::Real(r) => Some(*r as i64),
            _ => None,
        }
    }

    /// The cell as a number, `None` when NULL.
    pub fn real(&self) -> Option<f64> {
        match self {
            Cell::Real(r) => Some(*r),
            Cell::Int(i) => Some(*i as f64),
            _ => None,
        }
    }

    /// The cell as text, `None` when NULL.
    pub fn text(&self) -> Option<String> {
        match self {
            Cell::Text(t) => Some(t.clone()),
            _ => None,
        }
    }

    /// The cell as a boolean (SQLite keeps them as integers), `None` when NULL.
    pub fn bool(&self) -> Option<bool> {
        match self {
            Cell::Bool(b) => Some(*b),
            Cell::Int(i) => Some(*i != 0),
            _ => None,
        }
    }
}

/// A connection to a history's database.
pub enum Db {
    Sqlite(rusqlite::Connection),
    Postgres(Box<Pg>),
}

/// How long a SQLite writer waits for another writer's transaction before it gives up.
const BUSY: Duration = Duration::from_secs(60);

impl Db {
    /// Opens (and for SQLite, creates) the database at `location`, changing nothing of it:
    /// [`Db::prepare`] does, once the database is known to be pilot's or empty.
    ///
    /// # Errors
    ///
    /// The file cannot be created or opened, or the server refuses, cannot be reached or does
    /// not answer; the message names the location.
    pub fn open(location: &Location) -> anyhow::Result<Db> {
        match location {
            Location::Sqlite(path) => open_sqlite(path),
            Location::Postgres(c) => Ok(Db::Postgres(Box::new(Pg::connect(c)?))),
        }
    }

    /// Sets what a history needs of SQLite: the write-ahead log (readers go on while a
    /// writer writes, and a crash loses no committed run) and foreign keys.
    pub fn prepare(&mut self, location: &Location) -> anyhow::Result<()> {
        if let Db::Sqlite(c) = self {
            c.pragma_update(None, "journal_mode", "WAL")
                .and_then(|_| c.pragma_update(None, "foreign_keys", "ON"))
                .with_context(|| {
                    format!(
                        "`{}` is not a SQLite database (or is corrupt)",
                        location.shown()
                    )
                })?;
        }
        Ok(())
    }

    /// Runs `sql` (one statement, `?` placeholders) with `params`; the rows it changed.
    pub fn exec(&mut self, sql: &str, params: &[Value]) -> anyhow::Result<u64> {
        match self {
            Db::Sqlite(c) => {
                let mut stmt = c.prepare_cached(sql).with_context(|| sql_error(sql))?;
                let n = stmt
                    .execute(rusqlite::params_from_iter(params.iter().map(sqlite_value)))
                    .with_context(|| sql_error(sql))?;
                Ok(n as u64)
            }
            Db::Postgres(c) => {
                let sql = numbered(sql);
                let p = pg_params(params);
                let refs: Vec<&(dyn ToSql + Sync)> = p.iter().map(|b| b.as_ref() as _).collect();
                c.execute(sql.as_str(), &refs, || sql_error(&sql))
            }
        }
    }

    /// Runs `sql` (one query, `?` placeholders) with `params`; its rows.
    pub fn query(&mut self, sql: &str, params: &[Value]) -> anyhow::Result<Vec<Vec<Cell>>> {
        match self {
            Db::Sqlite(c) => {
                let mut stmt = c.prepare_cached(sql).with_context(|| sql_error(sql))?;
                let width = stmt.column_count();
                let mut rows = stmt
                    .query(rusqlite::params_from_iter(params.iter().map(sqlite_value)))
                    .with_context(|| sql_error(sql))?;
                let mut out = Vec::new();
                while let Some(row) = rows.next().with_context(|| sql_error(sql))? {
                    let mut cells = Vec::with_capacity(width);
                    for i in 0..width {
                        use rusqlite::types::ValueRef;
                        cells.push(match row.get_ref(i)? {
                            ValueRef::Null => Cell::Null,
                            ValueRef::Integer(v) => Cell::Int(v),
                            ValueRef::Real(v) => Cell::Real(v),
                            ValueRef::Text(t) => Cell::Text(String::from_utf8_lossy(t).into()),
                            ValueRef::Blob(_) => Cell::Null,
                        });
                    }
                    out.push(cells);
                }
                Ok(out)
            }
            Db::Postgres(c) => {
                let sql = numbered(sql);
                let p = pg_params(params);
                let refs: Vec<&(dyn ToSql + Sync)> = p.iter().map(|b| b.as_ref() as _).collect();
                let rows = c.query(sql.as_str(), &refs, || sql_error(&sql))?;
                rows.iter().map(pg_row).collect()
            }
        }
    }

    /// Runs several statements without parameters (a migration).
    pub fn batch(&mut self, sql: &str) -> anyhow::Result<()> {
        match self {
            Db::Sqlite(c) => c.execute_batch(sql).context("failed to run a migration"),
            Db::Postgres(c) => c.batch(sql, || "failed to run a migration".into()),
        }
    }

    /// Starts a transaction that writes: SQLite takes its write lock at once (`BEGIN
    /// IMMEDIATE`, waiting for another writer up to a minute), so two writers never both read
    /// and then fail to write.
    pub fn begin(&mut self) -> anyhow::Result<()> {
        match self {
            Db::Sqlite(c) => c
                .execute_batch("BEGIN IMMEDIATE")
                .context("failed to start a transaction"),
            Db::Postgres(c) => c.batch("BEGIN", || "failed to start a transaction".into()),
        }
    }

    /// Commits the transaction.
    pub fn commit(&mut self) -> anyhow::Result<()> {
        match self {
            Db::Sqlite(c) => c.execute_batch("COMMIT").map_err(anyhow::Error::from),
            Db::Postgres(c) => c.batch("COMMIT", || "the server refused `COMMIT`".into()),
        }
        .context("failed to commit to the history")
    }

    /// Rolls the transaction back (after an error: nothing of it is kept). On a connection
    /// whose call was given up nothing is sent: the server rolls back when it closes.
    pub fn rollback(&mut self) {
        let _ = match self {
            Db::Sqlite(c) => c.execute_batch("ROLLBACK").map_err(|_| ()),
            Db::Postgres(c) if c.usable() => c.batch("ROLLBACK", String::new).map_err(|_| ()),
            Db::Postgres(_) => Ok(()),
        };
    }

    /// Whether this is a PostgreSQL database.
    pub fn is_postgres(&self) -> bool {
        matches!(self, Db::Postgres(_))
    }
}

fn sql_error(sql: &str) -> String {
    let first = sql.split_whitespace().take(6).collect::<Vec<_>>().join(" ");
    format!("the history database refused `{first} …`")
}

/// Opens the SQLite file at `path` (made, with its folders, when it is not there), checked
/// first to be a regular file, with a busy handler that waits for another writer up to
/// [`BUSY`] but not past an interrupt. Nothing of an existing file is changed.
fn open_sqlite(path: &Path) -> anyhow::Result<Db> {
    check_file(path).map_err(|e| anyhow!("the history {e}"))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("failed to create the folder `{}`", dir.display()))?;
    }
    let c = rusqlite::Connection::open(path)
        .with_context(|| format!("failed to open the history `{}`", path.display()))?;
    c.busy_handler(Some(busy))
        .context("failed to set SQLite's busy handler")?;
    Ok(Db::Sqlite(c))
}

/// SQLite's busy handler: whether to try again after the `n`th wait for another writer's
/// lock. It sleeps as SQLite's own busy timeout does (1 ms, 2, 5, … up to 100 ms at a time)
/// and gives up after [`BUSY`], or at once when an interrupt came.
fn busy(n: i32) -> bool {
    const DELAYS_MS: [u64; 12] = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100];
    let n = usize::try_from(n).unwrap_or(0);
    let waited: u64 =
        DELAYS_MS.iter().take(n).sum::<u64>() + n.saturating_sub(DELAYS_MS.len()) as u64 * 100;
    if crate::interrupt::happened() || Duration::from_millis(waited) >= BUSY {
        return false;
    }
    let delay = DELAYS_MS.get(n).copied().unwrap_or(100);
    // Slept in steps, so that an interrupt is seen within one.
    let mut left = delay;
    while left > 0 {
        let step = left.min(20);
        std::thread::sleep(Duration::from_millis(step));
        left -= step;
        if crate::interrupt::happened() {
            return false;
        }
    }
    true
}

fn sqlite_value(v: &Value) -> rusqlite::types::Value {
    use rusqlite::types::Value as V;
    match v {
        Value::Int(Some(i)) => V::Integer(*i),
        Value::Real(Some(r)) => V::Real(*r),
        Value::Text(Some(t)) => V::Text(t.clone()),
        Value::Bool(Some(b)) => V::Integer(i64::from(*b)),
        _ => V::Null,
    }
}

fn pg_params(params: &[Value]) -> Vec<Box<dyn ToSql + Sync>> {
    params
        .iter()
        .map(|v| -> Box<dyn ToSql + Sync> {
            match v.clone() {
                Value::Int(i) => Box::new(i),
                Value::Real(r) => Box::new(r),
                Value::Text(t) => Box::new(t),
                Value::Bool(b) => Box::new(b),
            }
        })
        .collect()
}

fn pg_row(row: &tokio_postgres::Row) -> anyhow::Result<Vec<Cell>> {
    use tokio_postgres::types::Type;
    let mut out = Vec::with_capacity(row.len());
    for (i, col) in row.columns().iter().enumerate() {
        let t = col.type_();
        let cell = if *t == Type::INT8 {
            row.try_get::<_, Option<i64>>(i)?.map(Cell::Int)
        } else if *t == Type::INT4 {
            row.try_get::<_, Option<i32>>(i)?
                .map(|v| Cell::Int(i64::from(v)))
        } else if *t == Type::FLOAT8 {
            row.try_get::<_, Option<f64>>(i)?.map(Cell::Real)
        } else if *t == Type::BOOL {
            row.try_get::<_, Option<bool>>(i)?.map(Cell::Bool)
        } else if *t == Type::TEXT || *t == Type::VARCHAR || *t == Type::NAME {
            row.try_get::<_, Option<String>>(i)?.map(Cell::Text)
        } else {
            // `void` (a function called for its effect, as the advisory lock) and the rest.
            None
        };
        out.push(cell.unwrap_or(Cell::Null));
    }
    Ok(out)
}

/// `?` placeholders as PostgreSQL's `$1`, `$2`, … (the store's SQL has no `?` elsewhere).
fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut n = 0;
    for c in sql.chars() {
        if c == '?' {
            n += 1;
            out.push_str(&format!("${n}"));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_for_postgres() {
        assert_eq!(
            numbered("SELECT a FROM t WHERE b = ? AND c = ?"),
            "SELECT a FROM t WHERE b = $1 AND c = $2"
        );
    }
}
