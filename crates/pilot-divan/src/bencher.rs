//! divan's `Bencher`, on pilot's: each method runs the routine through the pilot `Bencher`
//! method of the same role, in units whose iteration count pilot calibrates; with several
//! threads, on that many threads at once, sharing the closure as divan shares it.

use std::time::{Duration, Instant};

use pilot::BatchSize;

use crate::counter::sealed::Sealed;
use crate::counter::{AsCountUInt, Counter, CounterSet, IntoCounter, Kind};
use crate::threads;

/// What a call of the bench function is for.
pub(crate) enum Mode<'b> {
    /// Learning its counters (pilot's throughput) before any bench runs: the function's setup
    /// and its `Bencher` calls run, its routine does not.
    Probe,
    /// A round of pilot's session (or test mode's one call).
    Run(&'b mut pilot::Bencher),
}

/// A call of a bench function: its mode, its threads, and the counters it set.
pub(crate) struct Context<'b> {
    pub(crate) mode: Mode<'b>,
    /// Threads the routine runs on at once.
    pub(crate) threads: usize,
    /// The counters the `Bencher` set (probe mode).
    pub(crate) counters: CounterSet,
}

/// How many inputs probe mode counts at most, and for how long, to learn a per-input
/// counter's mean.
const PROBE_INPUTS: usize = 16;
const PROBE_TIME: Duration = Duration::from_millis(50);

/// Runs a bench: the function receives it and calls one of its `bench` methods once.
///
/// The function is called once per round of pilot's session (divan calls it once per bench):
/// its code before the `bench` call is setup, not timed. Each method says which of pilot's
/// [`Bencher`](pilot::Bencher) methods it runs as.
///
/// ```
/// # use pilot_divan as divan;
/// use divan::{Bencher, black_box};
///
/// #[divan::bench(crate = divan)]
/// fn copy_from_slice(bencher: Bencher) {
///     let src = (0..100).collect::<Vec<i32>>();
///     let mut dst = vec![0; src.len()];
///     bencher.bench_local(move || {
///         black_box(&mut dst).copy_from_slice(black_box(&src));
///     });
/// }
/// # fn main() {}
/// ```
#[must_use = "a benchmark function must be registered"]
pub struct Bencher<'a, 'b, C = BencherConfig> {
    pub(crate) context: &'a mut Context<'b>,
    config: C,
}

/// The inputs a [`Bencher`] is configured with (none, or a generator).
pub struct BencherConfig<GenI = NoInput> {
    gen_input: GenI,
}

/// No input generator.
#[derive(Clone, Copy, Debug)]
pub struct NoInput;

impl<C> std::fmt::Debug for Bencher<'_, '_, C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bencher").finish_non_exhaustive()
    }
}

impl<'a, 'b> Bencher<'a, 'b> {
    pub(crate) fn new(context: &'a mut Context<'b>) -> Self {
        Bencher {
            context,
            config: BencherConfig { gen_input: NoInput },
        }
    }

    /// Times `benched`, on the bench's threads at once (its `threads` option); as pilot's
    /// `iter` (as `iter_batched` when its output needs dropping, which is left out of the
    /// timing as divan leaves it out).
    pub fn bench<O, B>(self, benched: B)
    where
        B: Fn() -> O + Sync,
    {
        if self.context.threads > 1 {
            self.with_inputs(|| ()).bench_values(|()| benched());
        } else {
            self.bench_local(benched);
        }
    }

    /// Times `benched` on this thread alone; as pilot's `iter`.
    pub fn bench_local<O, B>(self, mut benched: B)
    where
        B: FnMut() -> O,
    {
        let Mode::Run(b) = &mut self.context.mode else {
            return;
        };
        if std::mem::needs_drop::<O>() {
            b.iter_batched_with(|| (), |()| benched(), BatchSize::SmallInput);
        } else {
            b.iter(benched);
        }
    }

    /// Inputs for the routine, made by `gen_input` outside the timing.
    pub fn with_inputs<G>(self, gen_input: G) -> Bencher<'a, 'b, BencherConfig<G>> {
        Bencher {
            context: self.context,
            config: BencherConfig { gen_input },
        }
    }
}

impl<GenI> Bencher<'_, '_, BencherConfig<GenI>> {
    /// What every iteration processes: the bench's throughput (replacing a counter of the
    /// same kind that its attribute set).
    #[doc(alias = "throughput")]
    pub fn counter<C: IntoCounter>(self, counter: C) -> Self {
        self.context.counters.insert(counter);
        self
    }
}

impl<'a, 'b, I, GenI> Bencher<'a, 'b, BencherConfig<GenI>>
where
    GenI: FnMut() -> I,
{
    /// What each input processes: the bench's throughput is the mean count of the first inputs
    /// (up to 16, or those made in 50 ms), learnt before the bench runs.
    pub fn input_counter<C, F>(mut self, make_counter: F) -> Self
    where
        F: Fn(&I) -> C + Sync + 'static,
        C: IntoCounter,
    {
        if matches!(self.context.mode, Mode::Probe) {
            let started = Instant::now();
            let (mut kind, mut total, mut n) = (None, 0.0, 0usize);
            while n < PROBE_INPUTS && (n == 0 || started.elapsed() < PROBE_TIME) {
                let input = (self.config.gen_input)();
                let (k, count) = make_counter(&input).into_counter().kind_count();
                kind = Some(k);
                total += count as f64;
                n += 1;
            }
            if let Some(k) = kind {
                self.context.counters.set(k, total / n as f64);
            }
        }
        self
    }

    /// Counts each input, an unsigned integer, as a counter of type `C`.
    pub fn count_inputs_as<C>(self) -> Self
    where
        C: Counter,
        I: AsCountUInt,
    {
        let kind = <C as Sealed>::KIND;
        match kind {
            Kind::Bytes => self.input_counter(|c: &I| crate::counter::BytesCount::from(c)),
            Kind::Chars => self.input_counter(|c: &I| crate::counter::CharsCount::from(c)),
            Kind::Cycles => self.input_counter(|c: &I| crate::counter::CyclesCount::from(c)),
            Kind::Items => self.input_counter(|c: &I| crate::counter::ItemsCount::from(c)),
        }
    }

    /// Times `benched` on each input by value, on the bench's threads at once; as pilot's
    /// `iter_batched` (inputs made, and outputs dropped, outside the timing).
    pub fn bench_values<O, B>(self, benched: B)
    where
        B: Fn(I) -> O + Sync,
        GenI: Fn() -> I + Sync,
    {
        let threads = self.context.threads;
        let Mode::Run(b) = &mut self.context.mode else {
            return;
        };
        let gen_input = self.config.gen_input;
        if threads > 1 {
            threads::run(b, threads, &|iters, ready| {
                let inputs: Vec<I> = (0..iters).map(|_| gen_input()).collect();
                threads::timed(ready, inputs, &benched)
            });
        } else {
            b.iter_batched_with(gen_input, benched, BatchSize::SmallInput);
        }
    }

    /// Times `benched` on each input by value, on this thread alone; as pilot's
    /// `iter_batched`.
    pub fn bench_local_values<O, B>(self, benched: B)
    where
        B: FnMut(I) -> O,
    {
        if let Mode::Run(b) = &mut self.context.mode {
            b.iter_batched_with(self.config.gen_input, benched, BatchSize::SmallInput);
        }
    }

    /// Times `benched` on each input by mutable reference, on the bench's threads at once; as
    /// pilot's `iter_batched_ref` (inputs made, and dropped with the outputs, outside the
    /// timing).
    pub fn bench_refs<O, B>(self, benched: B)
    where
        B: Fn(&mut I) -> O + Sync,
        GenI: Fn() -> I + Sync,
    {
        let threads = self.context.threads;
        let Mode::Run(b) = &mut self.context.mode else {
            return;
        };
        let gen_input = self.config.gen_input;
        if threads > 1 {
            threads::run(b, threads, &|iters, ready| {
                let mut inputs: Vec<I> = (0..iters).map(|_| gen_input()).collect();
                threads::timed(ready, inputs.iter_mut(), &benched)
            });
        } else {
            b.iter_batched_ref_with(gen_input, benched, BatchSize::SmallInput);
        }
    }

    /// Times `benched` on each input by mutable reference, on this thread alone; as pilot's
    /// `iter_batched_ref`.
    pub fn bench_local_refs<O, B>(self, benched: B)
    where
        B: FnMut(&mut I) -> O,
    {
        if let Mode::Run(b) = &mut self.context.mode {
            b.iter_batched_ref_with(self.config.gen_input, benched, BatchSize::SmallInput);
        }
    }
}
