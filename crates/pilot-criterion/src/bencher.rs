//! criterion's `Bencher`, on pilot's: each method runs the routine the way pilot's method of the
//! same role does, in work units whose iteration count pilot calibrates.

use std::future::Future;
use std::marker::PhantomData;

use pilot::AsyncExecutor;

use crate::BatchSize;
use crate::measurement::{Measurement, WallTime};

/// Times a bench's routine; a bench function calls one of its `iter` methods once per call.
///
/// The bench function is called once per round of pilot's session (criterion calls it once
/// per sample): code before the `iter` call is setup, not timed. Each method says which of
/// pilot's [`Bencher`](pilot::Bencher) methods it runs as.
pub struct Bencher<'a, M: Measurement = WallTime> {
    inner: &'a mut pilot::Bencher,
    measurement: PhantomData<M>,
}

impl<'a, M: Measurement> Bencher<'a, M> {
    pub(crate) fn new(inner: &'a mut pilot::Bencher) -> Self {
        Bencher {
            inner,
            measurement: PhantomData,
        }
    }

    /// Times `routine`, called over and over; its output is dropped inside the timing.
    pub fn iter<O, R>(&mut self, routine: R)
    where
        R: FnMut() -> O,
    {
        self.inner.iter(routine);
    }

    /// The routine times `iters` iterations itself and returns their total time.
    pub fn iter_custom<R>(&mut self, mut routine: R)
    where
        R: FnMut(u64) -> M::Value,
    {
        self.inner
            .iter_custom(|iters| M::__duration(routine(iters)));
    }

    /// A fresh input from `setup` for every iteration, one per work unit, as criterion's
    /// `iter_batched(setup, routine, BatchSize::PerIteration)`.
    pub fn iter_with_setup<I, O, S, R>(&mut self, setup: S, routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        self.iter_batched(setup, routine, BatchSize::PerIteration);
    }

    /// Like [`iter`](Bencher::iter), but the outputs are dropped outside the timing.
    pub fn iter_with_large_drop<O, R>(&mut self, mut routine: R)
    where
        R: FnMut() -> O,
    {
        self.iter_batched(|| (), |_| routine(), BatchSize::SmallInput);
    }

    /// criterion 0.3's form: inputs from `setup`, all of a unit's built before it.
    #[deprecated(note = "use `iter_batched` (criterion deprecated this form too)")]
    pub fn iter_with_large_setup<I, O, S, R>(&mut self, setup: S, routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        self.iter_batched(setup, routine, BatchSize::NumBatches(1));
    }

    /// Inputs made by `setup` outside the timing and passed by value; `size` says how many a
    /// work unit holds (pilot's [`BatchSize`] numbers, the same variants as criterion's).
    pub fn iter_batched<I, O, S, R>(&mut self, setup: S, routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        self.inner.iter_batched_with(setup, routine, size);
    }

    /// Like [`iter_batched`](Bencher::iter_batched), with each input passed by reference and
    /// dropped outside the timing.
    pub fn iter_batched_ref<I, O, S, R>(&mut self, setup: S, routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(&mut I) -> O,
    {
        self.inner.iter_batched_ref_with(setup, routine, size);
    }

    /// The bencher of routines that return futures, run by `runner` (see
    /// [`async_executor`](crate::async_executor)).
    pub fn to_async<'b, A: AsyncExecutor>(&'b mut self, runner: A) -> AsyncBencher<'a, 'b, A, M> {
        AsyncBencher {
            inner: self.inner.to_async(runner),
            measurement: PhantomData,
        }
    }
}

/// Times routines that return futures; made by [`Bencher::to_async`]. Each method is its
/// [`Bencher`] namesake's, with every unit's futures awaited inside one `block_on`.
pub struct AsyncBencher<'a, 'b, A: AsyncExecutor, M: Measurement = WallTime> {
    inner: pilot::AsyncBencher<'b, A>,
    measurement: PhantomData<(&'a (), M)>,
}

impl<A: AsyncExecutor, M: Measurement> AsyncBencher<'_, '_, A, M> {
    /// Times the futures `routine` returns, each awaited before the next is made.
    pub fn iter<O, R, F>(&mut self, routine: R)
    where
        R: FnMut() -> F,
        F: Future<Output = O>,
    {
        self.inner.iter(routine);
    }

    /// The future `routine(iters)` returns times `iters` iterations itself.
    pub fn iter_custom<R, F>(&mut self, mut routine: R)
    where
        R: FnMut(u64) -> F,
        F: Future<Output = M::Value>,
    {
        self.inner
            .iter_custom(|iters| async_duration::<M, F>(routine(iters)));
    }

    /// A fresh input per iteration, one per work unit.
    pub fn iter_with_setup<I, O, S, R, F>(&mut self, setup: S, routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> F,
        F: Future<Output = O>,
    {
        self.iter_batched(setup, routine, BatchSize::PerIteration);
    }

    /// Outputs dropped outside the timing.
    pub fn iter_with_large_drop<O, R, F>(&mut self, mut routine: R)
    where
        R: FnMut() -> F,
        F: Future<Output = O>,
    {
        self.iter_batched(|| (), |_| routine(), BatchSize::SmallInput);
    }

    /// criterion 0.3's form: inputs from `setup`, all of a unit's built before it.
    #[deprecated(note = "use `iter_batched` (criterion deprecated this form too)")]
    pub fn iter_with_large_setup<I, O, S, R, F>(&mut self, setup: S, routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> F,
        F: Future<Output = O>,
    {
        self.iter_batched(setup, routine, BatchSize::NumBatches(1));
    }

    /// Inputs made by `setup` outside the timing, passed by value.
    pub fn iter_batched<I, O, S, R, F>(&mut self, setup: S, routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> F,
        F: Future<Output = O>,
    {
        self.inner.iter_batched_with(setup, routine, size);
    }

    /// Inputs made by `setup` outside the timing, passed by reference.
    pub fn iter_batched_ref<I, O, S, R, F>(&mut self, setup: S, routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(&mut I) -> F,
        F: Future<Output = O>,
    {
        self.inner.iter_batched_ref_with(setup, routine, size);
    }
}

/// The duration a custom-timed future gives, as pilot reads it.
async fn async_duration<M: Measurement, F: Future<Output = M::Value>>(
    future: F,
) -> std::time::Duration {
    M::__duration(future.await)
}
