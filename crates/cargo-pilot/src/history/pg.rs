//! A connection to a PostgreSQL history whose every call has a time limit that tells a frozen
//! server from a slow one, and that one Ctrl-C or SIGTERM ends.
//!
//! A server that accepts a connection and then never answers (stopped, or behind a stuck
//! proxy) cannot be caught by TCP: the kernel acknowledges the bytes and answers keepalives
//! for a process that never reads them, and such a server never enforces its own
//! `statement_timeout`. So the limit is pilot's, on the client's side, with its own small
//! runtime:
//! - connecting (the TCP connection, the start-up exchange and authentication) has `LIMIT`,
//!   the connection string's `connect_timeout`, 30 s by default: libpq's own meaning of it,
//!   where the driver's covers only the TCP connection. A live server over a slow network
//!   connects in a few round trips, far less.
//! - a statement has no fixed limit, since a live server may rightly take long (waiting for
//!   another writer's lock, say). After `LIMIT` without an answer pilot asks the server, on a
//!   new connection (itself limited to `LIMIT`), what its session is doing. At work on the
//!   statement or waiting for a lock: pilot says so once and waits on. Idle, or gone: the
//!   statement was lost on the way, and the call fails. No answer to the new connection
//!   either: the server is frozen, and the call fails. A frozen server is so given up after
//!   twice `LIMIT` at most.
//!
//! Meanwhile the wait looks at the interrupt flags (`crate::interrupt`) every 50 ms, so one
//! signal ends it. A connection whose call was given up takes no other call: its state is
//! unknown, and the server rolls back what it held once the process has gone.

use std::future::{Future, poll_fn};
use std::pin::{Pin, pin};
use std::task::Poll;
use std::time::Duration;

use anyhow::anyhow;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, NoTls, Row};

use super::conninfo::Conninfo;
use crate::interrupt;

/// The limit when the connection string sets no `connect_timeout`.
pub const DEFAULT_LIMIT: Duration = Duration::from_secs(30);

/// How often a wait looks at the interrupt flags.
const TICK: Duration = Duration::from_millis(50);

/// An open connection.
pub struct Pg {
    client: Client,
    waiter: Waiter,
}

/// What waiting for the server needs: the runtime, and how to reach the server again.
struct Waiter {
    /// `None` only while the connection is dropped.
    rt: Option<tokio::runtime::Runtime>,
    conninfo: Conninfo,
    limit: Duration,
    /// The server's process for this connection (`pg_backend_pid()`).
    backend: i32,
    /// Why calls are no longer made on this connection, once one was given up.
    broken: Option<String>,
    /// Whether the user was told that pilot waits for a server at work.
    told: bool,
}

/// How a wait ended.
enum Waited<T> {
    Done(T),
    /// `limit` passed without an answer.
    Quiet,
    Interrupted,
}

/// What the server says its session is doing, asked on a new connection.
enum Probe {
    /// At work on the statement (or its state cannot be seen): worth waiting for.
    Working(String),
    /// Idle, or gone: the statement will never be answered.
    Lost(String),
    /// No answer to a new connection either.
    Frozen,
    Interrupted,
}

/// Polls `fut` until it is ready, `limit` passes, or an interrupt comes.
async fn wait<F: Future>(mut fut: Pin<&mut F>, limit: Duration) -> Waited<F::Output> {
    let mut quiet = pin!(tokio::time::sleep(limit));
    let mut tick = tokio::time::interval(TICK);
    poll_fn(|cx| {
        if let Poll::Ready(v) = fut.as_mut().poll(cx) {
            return Poll::Ready(Waited::Done(v));
        }
        if interrupt::happened() {
            return Poll::Ready(Waited::Interrupted);
        }
        if quiet.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Waited::Quiet);
        }
        // Wakes this future again in a tick, to look at the flags.
        while tick.poll_tick(cx).is_ready() {}
        Poll::Pending
    })
    .await
}

/// Connects with `conninfo` (the start-up exchange included), the connection's task spawned
/// on the current runtime; the client and its server process.
async fn open(conninfo: &Conninfo) -> Result<(Client, i32), tokio_postgres::Error> {
    let (client, connection) = conninfo.config().connect(NoTls).await?;
    tokio::spawn(async move {
        let _ = connection.await;
    });
    // A simple query: one round trip.
    let pid = client
        .simple_query("SELECT pg_backend_pid()")
        .await?
        .iter()
        .find_map(|m| match m {
            tokio_postgres::SimpleQueryMessage::Row(r) => r.get(0)?.parse().ok(),
            _ => None,
        })
        .unwrap_or(0);
    Ok((client, pid))
}

/// Asks the server, on a new connection, what its process `backend` is doing.
async fn probe(conninfo: &Conninfo, limit: Duration, backend: i32) -> Probe {
    let ask = async {
        let (client, _) = open(conninfo).await?;
        client
            .query(
                "SELECT state, wait_event_type, wait_event FROM pg_stat_activity WHERE pid = $1",
                &[&backend],
            )
            .await
    };
    let rows = match wait(pin!(ask), limit).await {
        Waited::Done(Ok(rows)) => rows,
        // Refused, or too many connections: the server is alive, and a lost connection of
        // pilot's own shows itself as an error of the statement.
        Waited::Done(Err(e)) => {
            return Probe::Working(format!(
                "its session's state could not be asked ({})",
                conninfo.scrub(&chain(&e))
            ));
        }
        Waited::Quiet => return Probe::Frozen,
        Waited::Interrupted => return Probe::Interrupted,
    };
    let Some(row) = rows.first() else {
        return Probe::Lost("the server has no session of pilot's any more".into());
    };
    let cell = |i: usize| row.try_get::<_, Option<String>>(i).ok().flatten();
    judge(cell(0).as_deref(), cell(1).as_deref(), cell(2).as_deref())
}

/// What a session's `state`, `wait_event_type` and `wait_event` in `pg_stat_activity` say of
/// a statement it was sent: at work on it (or waiting for a lock), or not (`idle`: the server
/// waits for the client, so the statement or its answer was lost on the way). A state that
/// cannot be seen (another role's session, `track_activities` off) counts as at work: pilot
/// then waits, as for any live server.
fn judge(state: Option<&str>, event: Option<&str>, detail: Option<&str>) -> Probe {
    match state {
        Some(s) if s.starts_with("idle") => Probe::Lost(format!(
            "the server's session is {s}: pilot's statement never reached it, or its answer \
             was lost on the way"
        )),
        Some("active") => Probe::Working(match (event, detail) {
            (Some("Lock"), Some(d)) => format!("its session is waiting for a lock ({d})"),
            (Some(e), Some(d)) => format!("its session is at work ({e}: {d})"),
            _ => "its session is at work".into(),
        }),
        _ => Probe::Working("its session's state cannot be seen".into()),
    }
}

/// A driver's error and its causes, one line.
fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut source = e.source();
    while let Some(c) = source {
        s.push_str(&format!(": {c}"));
        source = c.source();
    }
    s
}

fn secs(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

impl Pg {
    /// Connects to the server `conninfo` names, within its limit.
    ///
    /// # Errors
    ///
    /// The server refuses, cannot be reached, does not answer within the limit, or an
    /// interrupt came; the message names the server, its password hidden.
    pub fn connect(conninfo: &Conninfo) -> anyhow::Result<Pg> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .map_err(|e| anyhow!("failed to start the history's connection: {e}"))?;
        let limit = conninfo
            .config()
            .get_connect_timeout()
            .copied()
            .unwrap_or(DEFAULT_LIMIT);
        let shown = conninfo.shown();
        let opened = rt.block_on(async { wait(pin!(open(conninfo)), limit).await });
        let (client, backend) = match opened {
            Waited::Done(Ok(c)) => c,
            Waited::Done(Err(e)) => {
                rt.shutdown_background();
                return Err(anyhow!(
                    "cannot connect to the history database `{shown}`: {}",
                    conninfo.scrub(&chain(&e))
                ));
            }
            Waited::Quiet => {
                rt.shutdown_background();
                return Err(anyhow!(
                    "no answer from the history database `{shown}` within {} of connecting: \
                     the server, or something on the way such as a proxy, is stuck (over a \
                     network where connecting takes longer, set `connect_timeout=SECONDS` in \
                     the connection string)",
                    secs(limit)
                ));
            }
            Waited::Interrupted => {
                rt.shutdown_background();
                return Err(anyhow!(
                    "interrupted while connecting to the history database `{shown}`"
                ));
            }
        };
        Ok(Pg {
            client,
            waiter: Waiter {
                rt: Some(rt),
                conninfo: conninfo.clone(),
                limit,
                backend,
                broken: None,
                told: false,
            },
        })
    }

    /// Runs one statement; the rows it changed. A refusal of the server's is said under
    /// `refused` (which names the statement).
    pub fn execute(
        &mut self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
        refused: impl FnOnce() -> String,
    ) -> anyhow::Result<u64> {
        let fut = self.client.execute(sql, params);
        self.waiter.patiently(fut, refused)
    }

    /// Runs one query; its rows.
    pub fn query(
        &mut self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
        refused: impl FnOnce() -> String,
    ) -> anyhow::Result<Vec<Row>> {
        let fut = self.client.query(sql, params);
        self.waiter.patiently(fut, refused)
    }

    /// Runs statements without parameters.
    pub fn batch(&mut self, sql: &str, refused: impl FnOnce() -> String) -> anyhow::Result<()> {
        let fut = self.client.batch_execute(sql);
        self.waiter.patiently(fut, refused)
    }

    /// Whether calls are still made on this connection (none after one was given up).
    pub fn usable(&self) -> bool {
        self.waiter.broken.is_none()
    }
}

impl Waiter {
    /// Waits for `fut`, a call on the connection, as the module's documentation says; the
    /// driver's error is said under `refused`.
    fn patiently<T>(
        &mut self,
        fut: impl Future<Output = Result<T, tokio_postgres::Error>>,
        refused: impl FnOnce() -> String,
    ) -> anyhow::Result<T> {
        if let Some(why) = &self.broken {
            return Err(anyhow!("{why}"));
        }
        let rt = self
            .rt
            .as_ref()
            .expect("the runtime lives as long as the connection");
        let (conninfo, limit, backend) = (&self.conninfo, self.limit, self.backend);
        let mut told = self.told;
        let shown = conninfo.shown();
        let outcome = rt.block_on(async {
            let mut fut = pin!(fut);
            loop {
                match wait(fut.as_mut(), limit).await {
                    Waited::Done(r) => return Ok(r),
                    Waited::Interrupted => break Err(interrupted(shown)),
                    Waited::Quiet => match probe(conninfo, limit, backend).await {
                        Probe::Working(what) => {
                            if !told {
                                say!(
                                    "history: the database `{shown}` has not answered in {}, \
                                     but it is alive ({what}): waiting for it (Ctrl-C stops)",
                                    secs(limit)
                                );
                                told = true;
                            }
                        }
                        Probe::Lost(why) => {
                            break Err(format!(
                                "the connection to the history database `{shown}` was lost: {why}"
                            ));
                        }
                        Probe::Frozen => {
                            break Err(format!(
                                "the history database `{shown}` has not answered a statement in \
                                 {}, nor a new connection in {} more: the server, or something \
                                 on the way such as a proxy, is stuck",
                                secs(limit),
                                secs(limit)
                            ));
                        }
                        Probe::Interrupted => break Err(interrupted(shown)),
                    },
                }
            }
        });
        self.told = told;
        match outcome {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(anyhow!("{}", self.conninfo.scrub(&chain(&e))).context(refused())),
            Err(why) => {
                self.broken = Some(format!("{why} (no more statements were sent)"));
                Err(anyhow!(why))
            }
        }
    }
}

fn interrupted(shown: &str) -> String {
    format!("interrupted while waiting for the history database `{shown}`")
}

impl Drop for Waiter {
    fn drop(&mut self) {
        // A call given up may have left the connection's task (or a name lookup) running:
        // the process does not wait for it.
        if let Some(rt) = self.rt.take() {
            rt.shutdown_background();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_book_states_the_connection_limit() {
        // tests/settings_docs.rs leaves this phrase to this test.
        let page = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../book/src/history.md"),
        )
        .unwrap();
        let phrase = format!("{} by default (`0`", DEFAULT_LIMIT.as_secs());
        assert!(page.contains(&phrase), "book/src/history.md: `{phrase}`");
    }

    #[test]
    fn a_session_at_work_is_waited_for_and_an_idle_one_is_lost() {
        let said = |p: Probe| match p {
            Probe::Working(w) => format!("working: {w}"),
            Probe::Lost(w) => format!("lost: {w}"),
            Probe::Frozen => "frozen".into(),
            Probe::Interrupted => "interrupted".into(),
        };
        assert_eq!(
            said(judge(Some("active"), Some("Lock"), Some("relation"))),
            "working: its session is waiting for a lock (relation)"
        );
        assert_eq!(
            said(judge(Some("active"), Some("IO"), Some("DataFileRead"))),
            "working: its session is at work (IO: DataFileRead)"
        );
        assert_eq!(
            said(judge(Some("active"), None, None)),
            "working: its session is at work"
        );
        for idle in [
            "idle",
            "idle in transaction",
            "idle in transaction (aborted)",
        ] {
            assert!(
                said(judge(Some(idle), Some("Client"), Some("ClientRead"))).starts_with("lost: ")
            );
        }
        for unseen in [None, Some("disabled")] {
            assert_eq!(
                said(judge(unseen, None, None)),
                "working: its session's state cannot be seen"
            );
        }
    }
}
