//! A control for checking a figure (feature `control`, off by default): each selected bench's
//! routine timed by a plain `Instant` loop instead of pilot's engine, so that where pilot-divan
//! and divan disagree, a third timing that is neither harness's says which is right.
//!
//! The bench function runs once, with its setup, and its `Bencher` method times the routine in
//! blocks of about [`BLOCK`]: the iterations of a block are found by doubling from one until the
//! shortest of three blocks takes that long (or three blocks, inputs made included, take over
//! [`BLOCK_WALL_CAP`] each), then [`BLOCKS`] blocks (fewer when they would take over
//! [`REPEAT_CAP`], at least [`LEAST_BLOCKS`]) give one median of the time per iteration;
//! [`REPEATS`] such medians are printed, one line per bench: `ID<TAB>ns ns ns ns ns`. Inputs are
//! made before a block starts and outputs dropped after it ends, as divan and pilot both leave
//! them out of the timing, in buffers kept from block to block as pilot keeps its own
//! ([`Buffers`]); a routine's output that needs no drop goes through `black_box`.
//!
//! A bench on N threads (`threads = [...]`, `…::t=N`) runs each block on N threads at once
//! ([`crew`]): each makes its inputs, all are released together, each times its own iterations.
//! A block then gives N readings, and the median is over all the readings of its blocks: the time
//! per iteration of one thread while N run, divan's figure for `t=N` (divan's samples are
//! per thread, its median over all of them). Its line ends with how many threads were timing at
//! once, on average over the blocks: `ID<TAB>ns ns ns ns ns<TAB>at once 1.97`. On a thread
//! count above the machine's cores the threads cannot all run at once; see [`crew`].
//!
//! The run over the benches is [`crate::divan`]'s; this module holds the timing alone. No
//! session, no statistics beyond the median: that is the point of a control.

mod crew;

pub(crate) use crew::{measure_on_threads, timed_part};

use std::hint::black_box;
use std::time::{Duration, Instant};

/// A block's least duration.
const BLOCK: Duration = Duration::from_micros(20);

/// Blocks per median.
const BLOCKS: usize = 2000;

/// Medians printed per bench.
const REPEATS: usize = 5;

/// Most wall time (inputs made included) the blocks of one median take; at least
/// [`LEAST_BLOCKS`] run whatever they take.
const REPEAT_CAP: Duration = Duration::from_secs(1);

/// Blocks of one median whatever they take.
const LEAST_BLOCKS: usize = 3;

/// Most iterations in a block: inputs for a block are made together and held in memory.
const MOST_ITERS: usize = 1 << 20;

/// Most wall time of one block while calibrating (inputs made included): a routine whose inputs
/// take long to make (a million-element set each) gets blocks as long as that allows, even
/// when they are shorter than [`BLOCK`].
const BLOCK_WALL_CAP: Duration = Duration::from_millis(50);

/// What the control found for one bench.
#[derive(Debug)]
pub(crate) struct Figures {
    /// The medians, ns per iteration ([`REPEATS`] of them).
    pub(crate) medians: Vec<f64>,
    /// On several threads: how many were timing at once, on average over the blocks
    /// ([`crew`]'s `at_once`).
    pub(crate) at_once: Option<f64>,
}

/// Times `block(k)`, which runs `k` iterations and returns the time of the iterations alone,
/// as the module says. Time: about `REPEATS · min(BLOCKS · BLOCK, REPEAT_CAP)` plus the
/// calibration.
pub(crate) fn measure(mut block: impl FnMut(usize) -> Duration) -> Figures {
    Figures {
        medians: measure_blocks(1, BLOCKS, |k, readings| readings.push(block(k))),
        at_once: None,
    }
}

/// Times blocks of `threads` readings each: `block(k, readings)` runs a block of `k` iterations
/// on each thread and pushes each thread's time of them to `readings`. The block's iterations
/// are calibrated on its shortest reading (every thread's part lasts about [`BLOCK`] at least);
/// each median is over every reading of up to `blocks` blocks ([`BLOCKS`] but in tests), as time
/// per iteration. `readings` is allocated before the blocks run and cleared between them.
fn measure_blocks(
    threads: usize,
    blocks: usize,
    mut block: impl FnMut(usize, &mut Vec<Duration>),
) -> Vec<f64> {
    let mut readings = Vec::with_capacity(threads);
    let mut run = |k: usize| {
        readings.clear();
        block(k, &mut readings);
        readings.iter().copied().min().unwrap_or_default()
    };
    // The shortest of three blocks decides: a routine's first calls (memory touched for the
    // first time, code not yet in cache) are slow, and one of them would leave the blocks short.
    let mut k = 1usize;
    while k < MOST_ITERS {
        let started = Instant::now();
        let shortest = (0..3).map(|_| run(k)).min().unwrap_or_default();
        if shortest >= BLOCK || started.elapsed() > 3 * BLOCK_WALL_CAP {
            break;
        }
        k *= 2;
    }
    let mut per_iter = Vec::with_capacity(blocks * threads);
    (0..REPEATS)
        .map(|_| {
            let started = Instant::now();
            per_iter.clear();
            let mut done = 0;
            while done < blocks && (done < LEAST_BLOCKS || started.elapsed() < REPEAT_CAP) {
                readings.clear();
                block(k, &mut readings);
                per_iter.extend(readings.iter().map(|d| d.as_secs_f64() * 1e9 / k as f64));
                done += 1;
            }
            pilot::stats::summary::median(&per_iter)
        })
        .collect()
}

/// The inputs and outputs of a block, kept from block to block as pilot's `Bencher` keeps its
/// own: allocating them afresh for each block (`k` inputs or outputs, a kilobyte and more) is a
/// large request, for which glibc's malloc first merges every small chunk the last block's
/// outputs freed (`malloc_consolidate`), so the routine's own small allocations in the next
/// block no longer find the chunks it freed and take malloc's slow path. divan 0.1.21 does that
/// (a new `DeferStore` each sample), and so did this control at first, which made a routine
/// that allocates small values (`collections::from_iter::Vec<i32>::8`) read slower than with
/// its buffers kept, and slower than pilot-divan (`tests/divan_bars_controls.sh` times the
/// control beside both harnesses).
pub(crate) struct Buffers<I, O> {
    inputs: Vec<I>,
    outputs: Vec<O>,
}

impl<I, O> Default for Buffers<I, O> {
    fn default() -> Self {
        Buffers {
            inputs: Vec::new(),
            outputs: Vec::new(),
        }
    }
}

/// `k` calls of `routine`, timed; outputs that need dropping are kept until the time is read.
///
/// Outputs go into room reserved before the time starts, by `extend`. How the compiler moves
/// an output into a buffer depends on what it inlines where: for divan's
/// `collections::from_iter::LinkedList<i32>::0` a `push` loop here copied each 24-byte output
/// through the stack and read it back in one 16-byte load that waited for the routine's 8-byte
/// stores (a store-forwarding stall: 7.1 ns an iteration), `extend` does not (1.4 ns). No
/// way of storing is free of it in every build (see "Where the control sided with divan" in
/// lab/divan-dropin.md).
pub(crate) fn block_of<O>(
    k: usize,
    buffers: &mut Buffers<(), O>,
    routine: &mut impl FnMut() -> O,
) -> Duration {
    if std::mem::needs_drop::<O>() {
        let outputs = &mut buffers.outputs;
        outputs.reserve(k);
        let started = Instant::now();
        outputs.extend((0..k).map(|_| routine()));
        let took = started.elapsed();
        outputs.clear();
        took
    } else {
        let started = Instant::now();
        for _ in 0..k {
            black_box(routine());
        }
        started.elapsed()
    }
}

/// `k` calls of `routine` on inputs made by `gen_input` before the time starts, by value;
/// outputs are dropped after the time is read.
pub(crate) fn block_on_values<I, O>(
    k: usize,
    buffers: &mut Buffers<I, O>,
    gen_input: &mut impl FnMut() -> I,
    routine: &mut impl FnMut(I) -> O,
) -> Duration {
    let Buffers { inputs, outputs } = buffers;
    inputs.extend((0..k).map(|_| gen_input()));
    black_box(&mut *inputs);
    let started = Instant::now();
    if std::mem::needs_drop::<O>() {
        outputs.reserve(k);
        outputs.extend(inputs.drain(..).map(&mut *routine));
    } else {
        for input in inputs.drain(..) {
            black_box(routine(input));
        }
    }
    let took = started.elapsed();
    outputs.clear();
    took
}

/// `k` calls of `routine` on inputs made by `gen_input` before the time starts, by mutable
/// reference; outputs and inputs are dropped after the time is read.
pub(crate) fn block_on_refs<I, O>(
    k: usize,
    buffers: &mut Buffers<I, O>,
    gen_input: &mut impl FnMut() -> I,
    routine: &mut impl FnMut(&mut I) -> O,
) -> Duration {
    let Buffers { inputs, outputs } = buffers;
    inputs.extend((0..k).map(|_| gen_input()));
    black_box(&mut *inputs);
    if std::mem::needs_drop::<O>() {
        outputs.reserve(k);
    }
    let started = Instant::now();
    if std::mem::needs_drop::<O>() {
        outputs.extend(inputs.iter_mut().map(&mut *routine));
    } else {
        for input in inputs.iter_mut() {
            black_box(routine(input));
        }
    }
    let took = started.elapsed();
    outputs.clear();
    inputs.clear();
    took
}

/// An output kept for dropping after the time is read, or through `black_box` when it needs no
/// drop (the threaded parts of [`crew`]; the single-thread blocks keep theirs in [`Buffers`]).
#[inline(always)]
fn keep<O>(outputs: &mut Vec<O>, output: O) {
    if std::mem::needs_drop::<O>() {
        outputs.push(output);
    } else {
        black_box(output);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_median_is_of_blocks_of_equal_iterations() {
        // A block whose time is 1 µs per iteration plus 3 µs, except the very first (a cold
        // start, 500 µs): k doubles to 32 (35 µs ≥ 20 µs), each size tried three times, and
        // every block then reads (3 + 32) / 32 µs per iteration.
        let mut sizes = Vec::new();
        let got = measure(|k| {
            sizes.push(k);
            let cold = if sizes.len() == 1 { 497 } else { 0 };
            Duration::from_micros(3 + k as u64 + cold)
        });
        let tried: Vec<usize> = [1, 2, 4, 8, 16, 32].iter().flat_map(|&k| [k; 3]).collect();
        assert_eq!(&sizes[..18], &tried[..]);
        assert!(sizes[18..].iter().all(|&k| k == 32));
        assert_eq!(got.medians.len(), REPEATS);
        for m in got.medians {
            assert!((m - 35_000.0 / 32.0).abs() < 1e-9, "{m}");
        }
    }

    #[test]
    fn a_median_is_the_middle_block() {
        // Blocks cycle through 10, 90 and 20 µs per iteration: k = 1 (its three tries are 10,
        // 90 and 20 µs, the shortest under 20 µs), then k = 2 passes; the median is 20 µs.
        let mut i = 0u64;
        let got = measure(|k| {
            i += 1;
            Duration::from_micros(k as u64 * [20, 10, 90][(i % 3) as usize])
        });
        assert!(
            got.medians.iter().all(|&m| (m - 20_000.0).abs() < 1e-9),
            "{got:?}"
        );
    }

    #[test]
    fn blocks_reuse_their_buffers() {
        // A second block of the same size allocates no buffer: the outputs' and the inputs'
        // storage is where the first block left it, empty.
        let mut buffers = Buffers::<u8, String>::default();
        let mut input = || 7u8;
        let mut routine = |i: &mut u8| i.to_string();
        block_on_refs(64, &mut buffers, &mut input, &mut routine);
        let (inputs, outputs) = (buffers.inputs.as_ptr(), buffers.outputs.as_ptr());
        assert!(buffers.inputs.is_empty() && buffers.outputs.is_empty());
        assert!(buffers.outputs.capacity() >= 64);
        block_on_refs(64, &mut buffers, &mut input, &mut routine);
        assert_eq!(
            (buffers.inputs.as_ptr(), buffers.outputs.as_ptr()),
            (inputs, outputs)
        );
        let mut values = Buffers::<u8, String>::default();
        block_on_values(64, &mut values, &mut input, &mut |i| i.to_string());
        let kept = values.outputs.as_ptr();
        block_on_values(64, &mut values, &mut input, &mut |i| i.to_string());
        assert_eq!(values.outputs.as_ptr(), kept);
        assert!(values.inputs.is_empty() && values.outputs.is_empty());
    }

    #[test]
    fn outputs_are_dropped_after_the_time_is_read() {
        use std::cell::Cell;
        thread_local!(static DROPPED: Cell<usize> = const { Cell::new(0) });
        struct Counted;
        impl Drop for Counted {
            fn drop(&mut self) {
                DROPPED.with(|d| d.set(d.get() + 1));
            }
        }
        let mut seen_at_call = Vec::new();
        block_of(5, &mut Buffers::default(), &mut || {
            seen_at_call.push(DROPPED.with(|d| d.get()));
            Counted
        });
        assert_eq!(seen_at_call, vec![0; 5]);
        assert_eq!(DROPPED.with(|d| d.get()), 5);
    }
}
