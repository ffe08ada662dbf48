//! What a bench measures. pilot measures wall time only: [`WallTime`] is the one
//! [`Measurement`], as it is criterion's default. criterion's custom measurements (CPU cycles,
//! perf counters) have no equivalent here: a type of their own cannot implement the trait.

use std::time::{Duration, Instant};

/// A quantity a bench measures; criterion's trait, sealed here: only [`WallTime`] implements it.
pub trait Measurement: private::Sealed {
    /// What [`start`](Measurement::start) takes and [`end`](Measurement::end) finishes.
    type Intermediate;
    /// A measured value: for [`WallTime`], a [`Duration`], which `iter_custom` routines return.
    type Value;
    /// Starts a measurement.
    fn start(&self) -> Self::Intermediate;
    /// Ends the measurement `i` started.
    fn end(&self, i: Self::Intermediate) -> Self::Value;
    /// The sum of two values.
    fn add(&self, v1: &Self::Value, v2: &Self::Value) -> Self::Value;
    /// The value of nothing measured.
    fn zero(&self) -> Self::Value;
    /// The value as a number (nanoseconds for [`WallTime`]).
    fn to_f64(&self, value: &Self::Value) -> f64;
    #[doc(hidden)]
    fn __duration(value: Self::Value) -> Duration;
}

/// Wall-clock time, read from the monotonic clock ([`Instant`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct WallTime;

impl Measurement for WallTime {
    type Intermediate = Instant;
    type Value = Duration;

    fn start(&self) -> Instant {
        Instant::now()
    }

    fn end(&self, i: Instant) -> Duration {
        i.elapsed()
    }

    fn add(&self, v1: &Duration, v2: &Duration) -> Duration {
        *v1 + *v2
    }

    fn zero(&self) -> Duration {
        Duration::ZERO
    }

    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }

    fn __duration(value: Duration) -> Duration {
        value
    }
}

mod private {
    pub trait Sealed {}
    impl Sealed for super::WallTime {}
}
