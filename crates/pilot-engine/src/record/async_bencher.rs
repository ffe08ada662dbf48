//! Routines that return futures: the executor seam ([`AsyncExecutor`]), a runtime-free
//! executor, and the bencher that times awaited futures.

use std::future::Future;
use std::hint::black_box;
use std::time::Duration;

use super::batch::{BatchSize, UnitLimit};
use super::bencher::{Bencher, UnitMarks, custom_reading, drive};

impl Bencher {
    /// The bencher of routines that return futures: `executor` runs each call's units, and the
    /// timing covers the awaited futures, not the executor's start-up.
    ///
    /// ```
    /// #[pilot::bench]
    /// fn await_ready(b: &mut pilot::Bencher) {
    ///     b.to_async(pilot::BlockingExecutor).iter(|| async { std::future::ready(1).await });
    /// }
    /// # fn main() {}
    /// ```
    pub fn to_async<E: AsyncExecutor>(&mut self, executor: E) -> AsyncBencher<'_, E> {
        AsyncBencher::new(self, executor)
    }
}

/// Runs a future to completion on the calling thread: what [`Bencher::to_async`] needs of an
/// async runtime.
///
/// pilot implements it for [`BlockingExecutor`] and, with the `tokio` feature, for tokio's
/// `Runtime` and `Handle`; references to an executor are executors too. pilot calls `block_on`
/// once per `iter` call and runs every unit inside that one future, so the runtime starts up
/// outside the timing.
pub trait AsyncExecutor {
    /// Runs `future` to completion and returns its output.
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T;
}

impl<E: AsyncExecutor> AsyncExecutor for &E {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        (**self).block_on(future)
    }
}

/// An executor without a runtime: polls the future on the bench's thread and sleeps (parks the
/// thread) while it waits to be woken. Enough for futures that need no reactor or timer of a
/// runtime: async code that computes, or waits only on what other threads wake.
///
/// ```
/// use pilot::AsyncExecutor;
///
/// assert_eq!(pilot::BlockingExecutor.block_on(async { 6 * 7 }), 42);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct BlockingExecutor;

impl AsyncExecutor for BlockingExecutor {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        pollster::block_on(future)
    }
}

#[cfg(feature = "tokio")]
impl AsyncExecutor for tokio::runtime::Runtime {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        tokio::runtime::Runtime::block_on(self, future)
    }
}

#[cfg(feature = "tokio")]
impl AsyncExecutor for tokio::runtime::Handle {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        tokio::runtime::Handle::block_on(self, future)
    }
}

/// Times routines that return futures; made by [`Bencher::to_async`].
///
/// Each method runs like the [`Bencher`] method of the same name, with every unit inside one
/// future given to the executor: a unit's reading covers its iterations' futures, each created
/// and awaited in turn, and nothing of the executor's start-up.
///
/// ```
/// #[pilot::bench]
/// fn channel_round_trip(b: &mut pilot::Bencher) {
///     b.to_async(pilot::BlockingExecutor).iter_batched(
///         || std::sync::mpsc::channel::<u64>(),
///         |(tx, rx)| async move {
///             tx.send(7).unwrap();
///             rx.recv().unwrap()
///         },
///     );
/// }
/// # fn main() {}
/// ```
pub struct AsyncBencher<'b, E> {
    bencher: &'b mut Bencher,
    executor: E,
}

impl<'b, E: AsyncExecutor> AsyncBencher<'b, E> {
    pub(super) fn new(bencher: &'b mut Bencher, executor: E) -> Self {
        AsyncBencher { bencher, executor }
    }

    /// Times the futures `routine` returns, each awaited before the next is made; their
    /// outputs go through [`black_box`] and are dropped inside the timing.
    pub fn iter<O, F: Future<Output = O>>(&mut self, mut routine: impl FnMut() -> F) {
        let AsyncBencher { bencher, executor } = self;
        let watch = bencher.watch;
        executor.block_on(async {
            drive!(bencher, UnitLimit::Any, |iters, Marks| {
                let mark = Marks::start(watch);
                for _ in 0..iters {
                    black_box(routine().await);
                }
                watch.reading(Marks::stop(watch, mark))
            });
        });
    }

    /// Like [`Bencher::iter_custom`]: the future `routine(iters)` returns times the `iters`
    /// iterations itself, and its duration is the unit reading.
    pub fn iter_custom<F: Future<Output = Duration>>(&mut self, mut routine: impl FnMut(u64) -> F) {
        let AsyncBencher { bencher, executor } = self;
        executor.block_on(async {
            drive!(bencher, UnitLimit::Any, |iters, Marks| {
                Marks::custom();
                let d = routine(iters).await;
                Marks::custom();
                custom_reading(d)
            });
        });
    }

    /// Like [`Bencher::iter_batched`]: inputs made by `setup` outside the timing, up to 4096 a
    /// unit ([`BatchSize::SmallInput`]); outputs dropped outside it.
    pub fn iter_batched<I, O, F: Future<Output = O>>(
        &mut self,
        setup: impl FnMut() -> I,
        routine: impl FnMut(I) -> F,
    ) {
        self.iter_batched_with(setup, routine, BatchSize::SmallInput);
    }

    /// Like [`Bencher::iter_batched_with`]: `size` says how many inputs a unit holds.
    pub fn iter_batched_with<I, O, F: Future<Output = O>>(
        &mut self,
        mut setup: impl FnMut() -> I,
        mut routine: impl FnMut(I) -> F,
        size: BatchSize,
    ) {
        let AsyncBencher { bencher, executor } = self;
        let mut inputs: Vec<I> = Vec::new();
        let mut outputs: Vec<O> = Vec::new();
        let watch = bencher.watch;
        executor.block_on(async {
            drive!(bencher, UnitLimit::batched(size), |iters, Marks| {
                inputs.extend((0..iters).map(|_| setup()));
                black_box(&mut inputs);
                if std::mem::needs_drop::<O>() {
                    outputs.reserve(iters as usize);
                }
                let mark = Marks::start(watch);
                for input in inputs.drain(..) {
                    crate::record::bencher::keep(&mut outputs, routine(input).await);
                }
                let lap = Marks::stop(watch, mark);
                outputs.clear();
                watch.reading(lap)
            });
        });
    }

    /// Like [`Bencher::iter_batched_ref`]: inputs made by `setup` outside the timing and
    /// passed by reference, 4096 a unit at most ([`BatchSize::SmallInput`]).
    pub fn iter_batched_ref<I, O, F: Future<Output = O>>(
        &mut self,
        setup: impl FnMut() -> I,
        routine: impl FnMut(&mut I) -> F,
    ) {
        self.iter_batched_ref_with(setup, routine, BatchSize::SmallInput);
    }

    /// Like [`Bencher::iter_batched_ref_with`]: `size` says how many inputs a unit holds; the
    /// inputs and outputs are dropped after the unit's timing.
    pub fn iter_batched_ref_with<I, O, F: Future<Output = O>>(
        &mut self,
        mut setup: impl FnMut() -> I,
        mut routine: impl FnMut(&mut I) -> F,
        size: BatchSize,
    ) {
        let AsyncBencher { bencher, executor } = self;
        let mut inputs: Vec<I> = Vec::new();
        let mut outputs: Vec<O> = Vec::new();
        let watch = bencher.watch;
        executor.block_on(async {
            drive!(bencher, UnitLimit::batched(size), |iters, Marks| {
                inputs.extend((0..iters).map(|_| setup()));
                black_box(&mut inputs);
                if std::mem::needs_drop::<O>() {
                    outputs.reserve(iters as usize);
                }
                let mark = Marks::start(watch);
                for input in inputs.iter_mut() {
                    crate::record::bencher::keep(&mut outputs, routine(input).await);
                }
                let lap = Marks::stop(watch, mark);
                outputs.clear();
                inputs.clear();
                watch.reading(lap)
            });
        });
    }
}
