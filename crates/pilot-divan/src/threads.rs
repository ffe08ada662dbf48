//! `threads = N`: divan runs one closure on N threads at once, so that they contend for what
//! it shares (an `Arc`, a lock, an atomic). Here the bench function runs once per round, as
//! for one thread, and its closure runs on N threads: N − 1 started for the round, and the
//! round's own. Every unit pilot asks for is N units at once: each thread makes its inputs,
//! all wait at a barrier, then each times its own iterations; the unit's reading is the mean of
//! the N times, the time per iteration of one thread while N run.
//!
//! Nothing is shared on a thread's timing path: the barriers are crossed before and after it.
//! A panic on any thread ends the round's units (the others are not left waiting) and is the
//! round's panic.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Barrier, Mutex};
use std::time::{Duration, Instant};

/// One thread's share of a unit: makes its inputs, waits at the barrier, times its
/// iterations.
pub(crate) type Unit<'u> = dyn Fn(u64, &Ready) -> Duration + Sync + 'u;

/// The barrier every thread crosses once its inputs are made; a thread whose unit panicked
/// before it crosses it still does, so that no other thread waits for it forever.
pub(crate) struct Ready<'r> {
    barrier: &'r Barrier,
    crossed: std::cell::Cell<bool>,
}

impl Ready<'_> {
    /// Waits for every thread's inputs.
    pub(crate) fn wait(&self) {
        self.crossed.set(true);
        self.barrier.wait();
    }
}

/// `unit` on this thread: its time, or its panic (the ready barrier crossed either way).
fn share(
    unit: &Unit<'_>,
    count: u64,
    barrier: &Barrier,
) -> Result<Duration, Box<dyn std::any::Any + Send>> {
    let ready = Ready {
        barrier,
        crossed: std::cell::Cell::new(false),
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| unit(count, &ready)));
    if !ready.crossed.get() {
        barrier.wait();
    }
    outcome
}

/// Runs pilot's units of `b` on `n` threads at once, each thread running `unit`.
pub(crate) fn run(b: &mut pilot::Bencher, n: usize, unit: &Unit<'_>) {
    let start = Barrier::new(n);
    let ready = Barrier::new(n);
    let end = Barrier::new(n);
    // The iterations of the next unit; 0 stops the helpers.
    let iters = AtomicU64::new(0);
    let times: Vec<AtomicU64> = (1..n).map(|_| AtomicU64::new(0)).collect();
    let failed = AtomicBool::new(false);
    let panic: Mutex<Option<Box<dyn std::any::Any + Send>>> = Mutex::new(None);
    let keep = |payload: Box<dyn std::any::Any + Send>| {
        failed.store(true, Ordering::SeqCst);
        let mut slot = panic.lock().unwrap_or_else(|e| e.into_inner());
        slot.get_or_insert(payload);
    };
    std::thread::scope(|scope| {
        for slot in &times {
            let (start, ready, end, iters, keep) = (&start, &ready, &end, &iters, &keep);
            scope.spawn(move || {
                loop {
                    start.wait();
                    let count = iters.load(Ordering::SeqCst);
                    if count == 0 {
                        break;
                    }
                    match share(unit, count, ready) {
                        Ok(d) => slot.store(d.as_nanos() as u64, Ordering::SeqCst),
                        Err(payload) => keep(payload),
                    }
                    end.wait();
                }
            });
        }
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            b.iter_custom(|count| {
                if failed.load(Ordering::SeqCst) {
                    // Once a thread panicked the round is over: its remaining units are empty.
                    return Duration::ZERO;
                }
                iters.store(count.max(1), Ordering::SeqCst);
                start.wait();
                let own = share(unit, count.max(1), &ready);
                end.wait();
                match own {
                    Ok(d) => {
                        let others: u64 = times.iter().map(|t| t.load(Ordering::SeqCst)).sum();
                        (d + Duration::from_nanos(others)) / n as u32
                    }
                    Err(payload) => {
                        keep(payload);
                        Duration::ZERO
                    }
                }
            })
        }));
        iters.store(0, Ordering::SeqCst);
        start.wait();
        if let Err(payload) = outcome {
            keep(payload);
        }
    });
    if let Some(payload) = panic.into_inner().unwrap_or_else(|e| e.into_inner()) {
        resume_unwind(payload);
    }
}

/// A thread's timed iterations: waits at `ready` (every thread has made its inputs), then
/// calls `f` on each input; the outputs are dropped after the timing.
pub(crate) fn timed<X, O>(
    ready: &Ready,
    inputs: impl IntoIterator<Item = X>,
    mut f: impl FnMut(X) -> O,
) -> Duration {
    let inputs = inputs.into_iter();
    if !std::mem::needs_drop::<O>() {
        // Nothing to drop: no store per iteration beside the routine's.
        ready.wait();
        let start = Instant::now();
        for input in inputs {
            std::hint::black_box(f(input));
        }
        return start.elapsed();
    }
    let mut outputs: Vec<O> = Vec::with_capacity(inputs.size_hint().0);
    ready.wait();
    let start = Instant::now();
    for input in inputs {
        // Not through `black_box`: reloading a value stored in parts stalls (see pilot's
        // `Bencher::iter_batched`); its drop after the timing reads it.
        outputs.push(f(input));
    }
    let elapsed = start.elapsed();
    drop(outputs);
    elapsed
}
