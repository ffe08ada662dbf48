//! The control's blocks on N threads: a crew of N − 1 threads started once per bench, and the
//! calling thread, run every block together. For each block the calling thread says how many
//! iterations, every thread makes its inputs, all cross a gate that releases them together, each
//! times its own iterations with `Instant`, and each leaves its span (start and end) in a slot of
//! its own; once all have crossed the gate after the block, the calling thread reads the slots.
//!
//! The gates spin rather than sleep: a thread waiting on a futex (`std::sync::Barrier`, which
//! divan and pilot-divan's engine path both use) is put to sleep and woken after the last one
//! arrives, and the wake-up can come later than a short block lasts (threads released so for
//! short blocks may never overlap at all), and a contended routine would be timed uncontended. A
//! spinning thread yields its core after [`SPINS`] turns, so that on more threads than cores the
//! ones still making inputs get to run; when other work holds the cores, the threads may then not
//! run together either, which the figure's threads at once ([`at_once`]) shows. Nothing is
//! allocated or locked on a thread's timed path: the slots are atomics written after the time is
//! read, the gates are crossed before and after it.
//!
//! More threads than cores: the threads cannot all run at once. A thread's time is from its own
//! start to its own end, so a block that is not preempted reads the routine's time among the
//! threads that did run beside it (as many as there are cores); a block preempted part way reads
//! the time its thread waited too. Short blocks are seldom preempted, so the control's figure for
//! `t=16` on two cores is at best its figure for `t=2`.
//!
//! A panic on any thread ends the bench: every gate gives up once one has panicked, the crew
//! stops, and the panic is the calling thread's.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Turns a waiting thread spins before it yields its core at each further turn.
const SPINS: u32 = 64;

/// A spinning barrier for `n` threads that gives up once `failed` is set.
#[repr(align(128))]
struct Gate<'f> {
    n: usize,
    arrived: AtomicUsize,
    /// How many times the gate has opened.
    opened: AtomicUsize,
    failed: &'f AtomicBool,
}

impl<'f> Gate<'f> {
    fn new(n: usize, failed: &'f AtomicBool) -> Self {
        Gate {
            n,
            arrived: AtomicUsize::new(0),
            opened: AtomicUsize::new(0),
            failed,
        }
    }

    /// Waits until all `n` threads have arrived: true, or false once a thread has panicked.
    fn wait(&self) -> bool {
        let opened = self.opened.load(Ordering::Acquire);
        if self.arrived.fetch_add(1, Ordering::AcqRel) + 1 == self.n {
            // The last to arrive resets the count before it opens the gate: a thread sees the
            // gate open only after the reset.
            self.arrived.store(0, Ordering::Relaxed);
            self.opened.fetch_add(1, Ordering::Release);
            return !self.failed.load(Ordering::Acquire);
        }
        let mut turns = 0u32;
        while self.opened.load(Ordering::Acquire) == opened {
            if self.failed.load(Ordering::Acquire) {
                return false;
            }
            if turns < SPINS {
                turns += 1;
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        !self.failed.load(Ordering::Acquire)
    }
}

/// One thread's part of a block: its iterations, and the gate it crosses once its inputs are
/// made.
pub(crate) struct Part<'a> {
    /// The iterations this thread times.
    pub(crate) iters: usize,
    gate: &'a Gate<'a>,
}

impl Part<'_> {
    /// Waits until every thread has made its inputs: true, or false once a thread has panicked
    /// (then the part times nothing).
    pub(crate) fn start(&self) -> bool {
        self.gate.wait()
    }
}

/// When a thread's timed iterations started and ended.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Span {
    pub(crate) start: Instant,
    pub(crate) end: Instant,
}

/// What a thread does with its part of a block: makes its inputs, calls [`Part::start`], times
/// its iterations and returns their span.
pub(crate) type Block<'b> = dyn Fn(&Part<'_>) -> Span + Sync + 'b;

/// Times `block` on `n` threads at once, as the module says: the medians of
/// [`super::measure_blocks`] over every thread's readings, and how many threads were timing at
/// once, on average over the blocks ([`at_once`]). Time: as a single thread's, blocks no longer
/// than their slowest thread plus the gates.
///
/// # Panics
///
/// With the panic of the first thread whose part panicked.
pub(crate) fn measure_on_threads(n: usize, block: &Block<'_>) -> super::Figures {
    on_threads(n, super::BLOCKS, block)
}

/// How many of a block's threads were inside their timed part at once, on average over the
/// block's span (from the first start to the last end): the sum of the threads' times over the
/// span. `n` when they all ran together from start to end, 1 when they ran one after another;
/// on more threads than cores, above the cores only when a thread's time includes a wait while
/// preempted. `spans` are (start, end) in ns from any common origin. Time: O(n).
fn at_once(spans: &[(u64, u64)]) -> f64 {
    let first = spans.iter().map(|s| s.0).min().unwrap_or(0);
    let last = spans.iter().map(|s| s.1).max().unwrap_or(0);
    let busy: u64 = spans.iter().map(|s| s.1.saturating_sub(s.0)).sum();
    if last > first {
        busy as f64 / (last - first) as f64
    } else {
        spans.len() as f64
    }
}

/// [`measure_on_threads`] with medians of up to `blocks` blocks.
fn on_threads(n: usize, blocks: usize, block: &Block<'_>) -> super::Figures {
    let failed = AtomicBool::new(false);
    let (go, start, done) = (
        Gate::new(n, &failed),
        Gate::new(n, &failed),
        Gate::new(n, &failed),
    );
    // The iterations of the next block; 0 stops the crew.
    let iters = AtomicUsize::new(0);
    // Each thread's span in the last block, start and end in ns from `origin`.
    let origin = Instant::now();
    let slots: Vec<[AtomicU64; 2]> = (0..n)
        .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
        .collect();
    let ns = |t: Instant| t.saturating_duration_since(origin).as_nanos() as u64;
    let panic: Mutex<Option<Box<dyn Any + Send>>> = Mutex::new(None);
    let fail = |payload: Box<dyn Any + Send>| {
        let mut slot = panic.lock().unwrap_or_else(|e| e.into_inner());
        slot.get_or_insert(payload);
        failed.store(true, Ordering::Release);
    };
    // One thread's part of a block, its span left in its slot.
    let part = |thread: usize, k: usize| {
        let p = Part {
            iters: k,
            gate: &start,
        };
        match catch_unwind(AssertUnwindSafe(|| block(&p))) {
            Ok(span) => {
                slots[thread][0].store(ns(span.start), Ordering::Relaxed);
                slots[thread][1].store(ns(span.end), Ordering::Relaxed);
            }
            Err(payload) => fail(payload),
        }
    };
    let mut figures = None;
    std::thread::scope(|scope| {
        for thread in 1..n {
            let (go, done, iters, part) = (&go, &done, &iters, &part);
            let helper = move || {
                while go.wait() {
                    let k = iters.load(Ordering::Relaxed);
                    if k == 0 {
                        break;
                    }
                    part(thread, k);
                    if !done.wait() {
                        break;
                    }
                }
            };
            // Named for a panic's message; a thread that cannot start is the caller's panic.
            std::thread::Builder::new()
                .name(format!("control-{thread}"))
                .spawn_scoped(scope, helper)
                .expect("failed to start a thread for the control");
        }
        let mut spans = Vec::with_capacity(n);
        let (mut at_once_sum, mut measured_blocks) = (0.0, 0usize);
        let measured = catch_unwind(AssertUnwindSafe(|| {
            super::measure_blocks(n, blocks, |k, readings| {
                iters.store(k, Ordering::Relaxed);
                let all_there = go.wait() && {
                    part(0, k);
                    done.wait()
                };
                if !all_there {
                    let payload = panic.lock().unwrap_or_else(|e| e.into_inner()).take();
                    resume_unwind(payload.unwrap_or_else(|| Box::new("a thread panicked")));
                }
                spans.clear();
                spans.extend(
                    slots
                        .iter()
                        .map(|s| (s[0].load(Ordering::Relaxed), s[1].load(Ordering::Relaxed))),
                );
                readings.extend(
                    spans
                        .iter()
                        .map(|s| Duration::from_nanos(s.1.saturating_sub(s.0))),
                );
                at_once_sum += at_once(&spans);
                measured_blocks += 1;
            })
        }));
        match measured {
            Ok(medians) => {
                figures = Some(super::Figures {
                    medians,
                    at_once: Some(at_once_sum / measured_blocks.max(1) as f64),
                });
                // Stops the crew: it reads 0 past this gate.
                iters.store(0, Ordering::Relaxed);
                go.wait();
            }
            Err(payload) => fail(payload),
        }
    });
    if let Some(payload) = panic.into_inner().unwrap_or_else(|e| e.into_inner()) {
        resume_unwind(payload);
    }
    figures.expect("the blocks ran or a thread panicked")
}

/// A thread's timed part: waits at the part's gate (every thread has made its inputs), then
/// calls `f` on each input; outputs that need dropping are kept until the time is read.
pub(crate) fn timed_part<X, O>(
    part: &Part<'_>,
    inputs: impl IntoIterator<Item = X>,
    mut f: impl FnMut(X) -> O,
) -> Span {
    let inputs = inputs.into_iter();
    let mut outputs: Vec<O> = Vec::with_capacity(if std::mem::needs_drop::<O>() {
        part.iters
    } else {
        0
    });
    if !part.start() {
        let now = Instant::now();
        return Span {
            start: now,
            end: now,
        };
    }
    let start = Instant::now();
    for input in inputs {
        super::keep(&mut outputs, f(input));
    }
    let end = Instant::now();
    drop(outputs);
    Span { start, end }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The calling thread's index: 0, or N in a crew thread's name `control-N`.
    fn index() -> usize {
        let me = std::thread::current();
        me.name()
            .and_then(|n| n.strip_prefix("control-"))
            .map_or(0, |n| n.parse().unwrap())
    }

    /// A fake span of `d` from now.
    fn lasting(d: Duration) -> Span {
        let start = Instant::now();
        Span {
            start,
            end: start + d,
        }
    }

    #[test]
    fn threads_at_once_is_their_time_over_the_blocks_span() {
        assert_eq!(at_once(&[(0, 10), (0, 10)]), 2.0);
        assert_eq!(at_once(&[(0, 10), (10, 20)]), 1.0);
        // 10 + 10 ns over 15: a third of the span with both in.
        assert_eq!(at_once(&[(0, 10), (5, 15)]), 20.0 / 15.0);
        // Four threads on two cores, two after two, one preempted half-way by a third.
        assert_eq!(
            at_once(&[(0, 10), (0, 20), (10, 20), (20, 30)]),
            50.0 / 30.0
        );
        assert_eq!(at_once(&[(7, 7), (7, 7), (7, 7)]), 3.0);
    }

    #[test]
    fn each_threads_reading_counts_in_the_median() {
        // Three threads reading 1, 2 and 6 µs per iteration in every block: the block sizes
        // double until the fastest thread's part takes 20 µs (k = 32), and the median of all
        // readings is the middle thread's 2 µs, not a block's mean (3 µs) or its fastest.
        let got = on_threads(3, 30, &|p: &Part| {
            assert!(p.start());
            lasting(Duration::from_micros([1, 2, 6][index()] * p.iters as u64))
        });
        assert_eq!(got.medians.len(), super::super::REPEATS);
        assert!(
            got.medians.iter().all(|&m| (m - 2000.0).abs() < 1e-9),
            "{got:?}"
        );
    }

    #[test]
    fn blocks_are_sized_on_the_fastest_thread() {
        // Thread 0 reads 1 µs per iteration, thread 1 100 µs: k stops at 32 for thread 0's
        // sake (at k = 1 thread 1 already took 100 µs), and every part of every block has it.
        let sizes = Mutex::new(Vec::new());
        on_threads(2, 30, &|p: &Part| {
            assert!(p.start());
            sizes.lock().unwrap().push((index(), p.iters));
            lasting(Duration::from_micros([1, 100][index()] * p.iters as u64))
        });
        let sizes = sizes.into_inner().unwrap();
        let firsts: Vec<usize> = sizes.iter().filter(|s| s.0 == 0).map(|s| s.1).collect();
        let tried: Vec<usize> = [1, 2, 4, 8, 16, 32].iter().flat_map(|&k| [k; 3]).collect();
        assert_eq!(&firsts[..18], &tried[..]);
        assert!(sizes.iter().skip(36).all(|s| s.1 == 32));
        for thread in 0..2 {
            assert_eq!(sizes.iter().filter(|s| s.0 == thread).count(), firsts.len());
        }
    }

    #[test]
    fn no_thread_starts_before_all_have_made_their_inputs_and_all_run_together() {
        // Each thread counts its inputs made before the gate: past it, all four of this block
        // have (and none of the next block's can have). Then each counts itself in and waits
        // until all four are in: it can only finish if the four parts run at once.
        let made = AtomicUsize::new(0);
        let inside = AtomicUsize::new(0);
        let round = AtomicUsize::new(0);
        let blocks = AtomicUsize::new(0);
        on_threads(4, 30, &|p: &Part| {
            made.fetch_add(1, Ordering::SeqCst);
            assert!(p.start());
            assert_eq!(made.load(Ordering::SeqCst) % 4, 0);
            let r = round.load(Ordering::SeqCst);
            if inside.fetch_add(1, Ordering::SeqCst) + 1 == 4 {
                inside.store(0, Ordering::SeqCst);
                round.fetch_add(1, Ordering::SeqCst);
            }
            let deadline = Instant::now() + Duration::from_secs(10);
            while round.load(Ordering::SeqCst) == r {
                assert!(
                    Instant::now() < deadline,
                    "the four parts never ran at once"
                );
                std::thread::yield_now();
            }
            if index() == 0 {
                blocks.fetch_add(1, Ordering::SeqCst);
            }
            lasting(Duration::from_millis(1))
        });
        // Blocks of a millisecond (their fake reading) from the first: three to calibrate, then
        // 30 a median (at least three, if a second passed first).
        let blocks = blocks.load(Ordering::SeqCst);
        assert!((3 + 3 * 5..=3 + 30 * 5).contains(&blocks), "{blocks}");
    }

    #[test]
    fn a_panic_on_any_thread_is_the_callers_and_no_thread_is_left_waiting() {
        for bad in 0..3 {
            let got = catch_unwind(|| {
                on_threads(3, 30, &|p: &Part| {
                    // Before the gate on the first block, or inside the timed part later.
                    if index() == bad && (bad == 1 || p.iters > 4) {
                        panic!("thread {bad}");
                    }
                    p.start();
                    lasting(Duration::from_micros(p.iters as u64))
                })
            });
            let payload = got.expect_err("the panic reaches the caller");
            let msg = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied());
            assert_eq!(msg, Some(format!("thread {bad}").as_str()));
        }
    }

    #[test]
    fn outputs_are_dropped_after_the_time_is_read() {
        struct Counted<'c>(&'c AtomicUsize);
        impl Drop for Counted<'_> {
            fn drop(&mut self) {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
        }
        let dropped = AtomicUsize::new(0);
        let failed = AtomicBool::new(false);
        let gate = Gate::new(1, &failed);
        let part = Part {
            iters: 5,
            gate: &gate,
        };
        let mut seen_at_call = Vec::new();
        timed_part(&part, 0..5, |_| {
            seen_at_call.push(dropped.load(Ordering::SeqCst));
            Counted(&dropped)
        });
        assert_eq!(seen_at_call, vec![0; 5]);
        assert_eq!(dropped.load(Ordering::SeqCst), 5);
    }
}
