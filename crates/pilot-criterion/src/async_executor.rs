//! The executors `Bencher::to_async` runs futures on: pilot's [`AsyncExecutor`], implemented for
//! tokio's `Runtime` and `Handle` (and references to them) with the `async_tokio` feature, and
//! `FuturesExecutor` with `async_futures`. smol's and async-std's executors are not offered:
//! their futures need their own reactors.

pub use pilot::AsyncExecutor;

/// Runs futures on the current thread, parking it while they wait: what
/// `futures::executor::block_on` does, for futures that need no runtime's reactor.
#[cfg(feature = "async_futures")]
#[derive(Debug, Clone, Copy, Default)]
pub struct FuturesExecutor;

#[cfg(feature = "async_futures")]
impl AsyncExecutor for FuturesExecutor {
    fn block_on<T>(&self, future: impl std::future::Future<Output = T>) -> T {
        pilot::BlockingExecutor.block_on(future)
    }
}
