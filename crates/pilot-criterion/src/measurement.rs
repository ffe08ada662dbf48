//! What a bench measures. pilot measures wall time only: [`WallTime`] is the one
//! [`Measurement`], as it is criterion's default. criterion's custom measurements (CPU cycles,
//! perf counters) have no equivalent here: a type of their own cannot implement the trait.

use std::time::{Duration, Instant};

use crate::throughput::Throughput;

/// Scales and formats a measurement's values for people to read; criterion's trait, with its
/// methods. pilot's own reports format the results, so nothing in a run calls it; it is here
/// for code that calls [`Measurement::formatter`].
pub trait ValueFormatter {
    /// `value` with its unit, scaled.
    fn format_value(&self, value: f64) -> String {
        let mut values = [value];
        let unit = self.scale_values(value, &mut values);
        format!("{:>6.4} {unit}", values[0])
    }

    /// The throughput of an iteration taking `value`, with its unit, scaled.
    fn format_throughput(&self, throughput: &Throughput, value: f64) -> String {
        let mut values = [value];
        let unit = self.scale_throughputs(value, throughput, &mut values);
        format!("{:>6.4} {unit}", values[0])
    }

    /// Scales `values` to the unit that suits `typical_value`, and returns that unit.
    fn scale_values(&self, typical_value: f64, values: &mut [f64]) -> &'static str;

    /// Turns `values` (times per iteration) into throughputs in the unit that suits
    /// `typical_value`, and returns that unit.
    fn scale_throughputs(
        &self,
        typical_value: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str;

    /// Scales `values` to the unit machines read (nanoseconds for time), and returns it.
    fn scale_for_machines(&self, values: &mut [f64]) -> &'static str;
}

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
    /// How the values read.
    fn formatter(&self) -> &dyn ValueFormatter;
    #[doc(hidden)]
    fn __duration(_value: Self::Value) -> Duration {
        unreachable!("only WallTime implements Measurement")
    }
}

/// Time per iteration in nanoseconds, read as ps, ns, µs, ms or s; throughputs with criterion's
/// units.
struct DurationFormatter;

/// The step of each unit above the first, and the units: `values` are divided by the largest
/// power of `step` not above `typical` (at most the last unit).
fn scale(typical: f64, step: f64, units: &[&'static str], values: &mut [f64]) -> &'static str {
    let mut i = 0;
    let mut divisor = 1.0;
    while i + 1 < units.len() && typical.abs() >= divisor * step {
        divisor *= step;
        i += 1;
    }
    for v in values {
        *v /= divisor;
    }
    units[i]
}

impl ValueFormatter for DurationFormatter {
    fn scale_values(&self, ns: f64, values: &mut [f64]) -> &'static str {
        if ns.abs() < 1.0 {
            values.iter_mut().for_each(|v| *v *= 1e3);
            return "ps";
        }
        scale(ns, 1e3, &["ns", "µs", "ms", "s"], values)
    }

    fn scale_throughputs(
        &self,
        typical: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str {
        let (per_iteration, step, units): (u64, f64, &[&'static str]) = match *throughput {
            Throughput::Bits(n) => (n, 1e3, &["b/s", "Kb/s", "Mb/s", "Gb/s"]),
            Throughput::Bytes(n) => (n, 1024.0, &["B/s", "KiB/s", "MiB/s", "GiB/s"]),
            Throughput::BytesDecimal(n) => (n, 1e3, &["B/s", "KB/s", "MB/s", "GB/s"]),
            Throughput::Elements(n) | Throughput::ElementsAndBytes { elements: n, .. } => {
                (n, 1e3, &["elem/s", "Kelem/s", "Melem/s", "Gelem/s"])
            }
        };
        let per_second = |ns: f64| per_iteration as f64 * 1e9 / ns;
        for v in values.iter_mut() {
            *v = per_second(*v);
        }
        scale(per_second(typical), step, units, values)
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
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

    fn formatter(&self) -> &dyn ValueFormatter {
        &DurationFormatter
    }

    fn __duration(value: Duration) -> Duration {
        value
    }
}

mod private {
    #[diagnostic::on_unimplemented(
        message = "pilot-criterion measures wall time only: `{Self}` cannot be a `Measurement`",
        note = "criterion's custom measurements have no equivalent under pilot; `WallTime` is \
                the one `Measurement`"
    )]
    pub trait Sealed {}
    impl Sealed for super::WallTime {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wall_time_reads_in_the_unit_of_the_typical_value() {
        let f = WallTime.formatter();
        let mut v = [1500.0, 3000.0];
        assert_eq!(f.scale_values(1500.0, &mut v), "µs");
        assert_eq!(v, [1.5, 3.0]);
        let mut v = [0.5];
        assert_eq!(f.scale_values(0.5, &mut v), "ps");
        assert_eq!(v, [500.0]);
        let mut v = [2.5e9];
        assert_eq!(f.scale_values(2.5e9, &mut v), "s");
        assert_eq!(v, [2.5]);
        // 1024 bytes in 1 µs: 1.024e9 B/s = 976.5625 MiB/s.
        let mut v = [1000.0];
        assert_eq!(
            f.scale_throughputs(1000.0, &Throughput::Bytes(1024), &mut v),
            "MiB/s"
        );
        assert_eq!(v, [976.5625]);
        // 1000 elements in 1 µs: 1e9 elem/s.
        let mut v = [1000.0, 2000.0];
        let unit = f.scale_throughputs(1000.0, &Throughput::Elements(1000), &mut v);
        assert_eq!((unit, v), ("Gelem/s", [1.0, 0.5]));
        assert_eq!(f.format_value(1500.0), "1.5000 µs");
    }
}
