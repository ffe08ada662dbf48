//! `threads = N`: one round of the workload on N threads at once.
//!
//! Each thread gets its own `Recorder` or `Bencher`, sized before the start; the threads then
//! wait at a `Barrier` and start their rounds together, so that nothing allocates, locks or
//! prints on the timing path, and the units of all threads overlap in time. Their unit readings
//! are pooled: the time per unit is that of one thread's unit while N run; per-thread
//! throughput is its inverse and the aggregate N times that (the threads run concurrently for
//! the round, behind the barrier; a thread that finishes early makes the aggregate an
//! overestimate by the imbalance).

use std::sync::Barrier;

use super::panics::{NEVER_ITERATED, catch};
use super::registry::Bench;
use crate::entry::BenchBody;
use crate::fmt::format_throughput;
use crate::record::{Bencher, BencherMode, Recorder, Stopwatch, UnitShape};
use crate::report::Row;
use crate::session::SessionResult;
use crate::store::result;
use pilot_format::{RateDoc, ThreadsDoc};

/// One round of a bench on several threads: its body and argument, its work amount, the micro
/// form's iterations per unit, and the threads.
pub(super) struct Round {
    pub(super) body: BenchBody,
    pub(super) arg: usize,
    pub(super) work: u64,
    pub(super) iters: u64,
    pub(super) threads: usize,
}

/// What one round on several threads gave: the pooled unit readings in ns, the micro form's
/// unit shape, and the pooled allocation counts when every thread's units were counted.
type Pooled = (
    Vec<f64>,
    Option<UnitShape>,
    Option<crate::record::AllocationReadings>,
);

/// The unit readings of one round on `round.threads` threads, pooled in thread order, in ns
/// per unit (per timed unit of `iters` iterations in the micro form, or of the fewer its batch
/// size allows: the shape says), each thread timing (and counting) with `watch`; empty for
/// readings-only.
pub(super) fn round(round: &Round, watch: Stopwatch) -> Result<Pooled, String> {
    let Round {
        body,
        arg,
        work,
        iters,
        threads,
    } = *round;
    let barrier = Barrier::new(threads);
    let outcomes: Vec<Result<Pooled, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let barrier = &barrier;
                scope.spawn(move || match body {
                    BenchBody::Full(f) => {
                        let mut rec = Recorder::timed(work, watch);
                        barrier.wait();
                        catch(|| f(arg, work, &mut rec))?;
                        Ok((rec.take(), None, rec.take_allocations()))
                    }
                    BenchBody::Micro(f) => {
                        let mut b = Bencher::new(BencherMode::Measure { work, iters })
                            .timed_by(watch.timer);
                        barrier.wait();
                        catch(|| f(arg, &mut b))?;
                        if !b.was_called() {
                            return Err(NEVER_ITERATED.to_string());
                        }
                        Ok((
                            b.take_readings(),
                            Some(b.unit_shape()),
                            b.take_allocations(),
                        ))
                    }
                    BenchBody::ReadingsOnly(f) => {
                        barrier.wait();
                        catch(|| f(arg, work))?;
                        Ok((Vec::new(), None, None))
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a bench thread panicked".into()))
            })
            .collect()
    });
    let mut pooled = Vec::new();
    let mut shape = None;
    let mut counts = Some(crate::record::AllocationReadings::default());
    for outcome in outcomes {
        let (units, thread_shape, thread_counts) = outcome?;
        pooled.extend(units);
        // Every thread runs the same bench function with the same count.
        shape = shape.or(thread_shape);
        counts = match (counts, thread_counts) {
            (Some(mut all), Some(one)) => {
                all.extend(one);
                Some(all)
            }
            _ => None,
        };
    }
    Ok((pooled, shape, counts))
}

/// Per-thread and aggregate throughput (work units per second) from a time per unit of one
/// thread while `threads` run, with the interval's bounds inverted: `(mean, low, high)` each.
fn throughputs(threads: usize, session: &SessionResult) -> Option<[(f64, f64, f64); 2]> {
    let e = session.estimate.as_ref()?;
    let (mean, low, high) = result::throughput(e.mean, e.ci.low, e.ci.high);
    let per_thread = (mean?, low?, high.unwrap_or(f64::INFINITY));
    let n = threads as f64;
    Some([
        per_thread,
        (n * per_thread.0, n * per_thread.1, n * per_thread.2),
    ])
}

/// The `threads` section (units per second) of a result document of a bench run on more than
/// one thread; `None` for one thread.
pub(super) fn section(threads: usize, session: &SessionResult) -> Option<ThreadsDoc> {
    if threads <= 1 {
        return None;
    }
    let rate = |(mean, low, high): (f64, f64, f64)| RateDoc {
        mean,
        low,
        high: high.is_finite().then_some(high),
    };
    let rates = throughputs(threads, session);
    Some(ThreadsDoc {
        count: threads,
        per_thread: rates.map(|[p, _]| rate(p)),
        aggregate: rates.map(|[_, a]| rate(a)),
    })
}

/// The table row of a bench run on several threads: its throughput cell shows per-thread and
/// aggregate throughput.
pub(super) fn row(mut row: Row, b: &Bench, session: &SessionResult) -> Row {
    if b.threads > 1
        && let Some([per_thread, aggregate]) = throughputs(b.threads, session)
    {
        // The document's section counts work units; the table counts what the bench says
        // it processes.
        let (unit, per_unit) = b
            .rate
            .as_ref()
            .map_or(("units", 1.0), |r| (r.unit.as_str(), r.per_unit));
        row.throughput = format!(
            "{} per thread, {} on {}",
            format_throughput(per_unit * per_thread.0, unit),
            format_throughput(per_unit * aggregate.0, unit),
            b.threads
        );
    }
    row
}
