//! The options of `#[divan::bench]` and `#[divan::bench_group]` (and of [`Divan`]), as divan
//! names them; what each means under pilot is in the crate's docs.
//!
//! [`Divan`]: crate::Divan

use std::borrow::Borrow;
use std::time::Duration;

use crate::counter::CounterSet;

/// The options an attribute sets: each attribute option is a field, so an unknown option is an
/// error at it. `None` leaves the option to the enclosing group, `Divan` or the default.
#[derive(Clone, Debug, Default)]
pub struct BenchOptions {
    /// divan's samples per bench: accepted, no effect (pilot decides its rounds).
    pub sample_count: Option<u32>,
    /// divan's iterations per sample: accepted, no effect (pilot sizes its units).
    pub sample_size: Option<u32>,
    /// Thread counts, each a bench of its own; 0 is the available parallelism.
    pub threads: Option<Vec<usize>>,
    /// What one iteration processes: the bench's throughput.
    pub counters: CounterSet,
    /// The session's least time (pilot's `min_time`).
    pub min_time: Option<Duration>,
    /// The session's time cap (pilot's `max_time`).
    pub max_time: Option<Duration>,
    /// divan's time accounting without input generation: accepted, no effect.
    pub skip_ext_time: Option<bool>,
    /// Skipped unless `--ignored` or `--include-ignored`.
    pub ignore: Option<bool>,
}

impl BenchOptions {
    /// `self`'s options, with `under`'s where `self` sets none (a bench's over its group's).
    pub(crate) fn over(&self, under: &BenchOptions) -> BenchOptions {
        BenchOptions {
            sample_count: self.sample_count.or(under.sample_count),
            sample_size: self.sample_size.or(under.sample_size),
            threads: self.threads.clone().or_else(|| under.threads.clone()),
            counters: self.counters.over(&under.counters),
            min_time: self.min_time.or(under.min_time),
            max_time: self.max_time.or(under.max_time),
            skip_ext_time: self.skip_ext_time.or(under.skip_ext_time),
            ignore: self.ignore.or(under.ignore),
        }
    }
}

/// A `threads = …` value: `bool` (true: the available parallelism; false: one thread), a
/// count (0: the available parallelism), or counts. `IMP` only tells the compiler's two
/// implementations apart (an integer is not an iterator).
pub trait IntoThreads<const IMP: u32> {
    /// The thread counts, sorted, without repeats.
    fn into_threads(self) -> Vec<usize>;
}

impl IntoThreads<0> for usize {
    fn into_threads(self) -> Vec<usize> {
        vec![self]
    }
}

impl IntoThreads<0> for bool {
    fn into_threads(self) -> Vec<usize> {
        vec![if self { 0 } else { 1 }]
    }
}

impl<I> IntoThreads<1> for I
where
    I: IntoIterator,
    I::Item: Borrow<usize>,
{
    fn into_threads(self) -> Vec<usize> {
        let mut counts: Vec<usize> = self.into_iter().map(|n| *n.borrow()).collect();
        counts.sort_unstable();
        counts.dedup();
        counts
    }
}

/// A `min_time`/`max_time` value: a [`Duration`], or seconds as `u64` or `f64`.
pub trait IntoDuration {
    /// The duration.
    ///
    /// # Panics
    ///
    /// On seconds that are negative, not finite or too large, as divan does.
    fn into_duration(self) -> Duration;
}

impl IntoDuration for Duration {
    fn into_duration(self) -> Duration {
        self
    }
}

impl IntoDuration for u64 {
    fn into_duration(self) -> Duration {
        Duration::from_secs(self)
    }
}

impl IntoDuration for f64 {
    fn into_duration(self) -> Duration {
        Duration::from_secs_f64(self)
    }
}

/// A `counters = …` list's start.
pub fn new_counter_set() -> CounterSet {
    CounterSet::default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counter::{BytesCount, ItemsCount};

    #[test]
    fn thread_values() {
        assert_eq!(true.into_threads(), [0]);
        assert_eq!(false.into_threads(), [1]);
        assert_eq!(4usize.into_threads(), [4]);
        assert_eq!([4usize, 0, 1, 4].into_threads(), [0, 1, 4]);
        assert_eq!((0..=2).into_threads(), [0, 1, 2]);
        const THREADS: &[usize] = &[16, 1];
        assert_eq!(THREADS.into_threads(), [1, 16]);
    }

    #[test]
    fn durations() {
        assert_eq!(2u64.into_duration(), Duration::from_secs(2));
        assert_eq!(1.5f64.into_duration(), Duration::from_millis(1500));
    }

    #[test]
    fn a_bench_over_its_group() {
        let group = BenchOptions {
            max_time: Some(Duration::from_secs(3)),
            threads: Some(vec![1, 4]),
            counters: CounterSet::default().with(BytesCount::new(8u8)),
            ..Default::default()
        };
        let bench = BenchOptions {
            max_time: Some(Duration::from_secs(1)),
            counters: CounterSet::default().with(ItemsCount::new(2u8)),
            ..Default::default()
        };
        let merged = bench.over(&group);
        assert_eq!(merged.max_time, Some(Duration::from_secs(1)));
        assert_eq!(merged.threads, Some(vec![1, 4]));
        assert_eq!(merged.counters.shown(), Some(("B", 8.0)));
    }
}
