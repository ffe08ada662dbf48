//! Throughput: what a bench's throughput PI counts, and its interval from the time's.

/// What a bench's throughput counts: `per_unit` of `unit` in each work unit (each iteration
/// in the micro form). `unit = "MiB"` is 1 `MiB` per work unit; `throughput = bytes(4096)` is
/// 4096 `B`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rate {
    /// `B`, `elem`, or the bench's own `unit`.
    pub unit: String,
    /// How many of `unit` one work unit holds.
    pub per_unit: f64,
}

impl Rate {
    /// One `unit` per work unit: `unit = "MiB"`.
    pub fn units(unit: &str) -> Rate {
        Rate {
            unit: unit.to_string(),
            per_unit: 1.0,
        }
    }

    /// The throughput interval, in `unit`s per second, of a time interval in ns per work unit
    /// (see [`throughput`]).
    pub(crate) fn bounds(&self, mean_ns: f64, low_ns: f64, high_ns: f64) -> Bounds {
        let scale = |x: Option<f64>| x.map(|x| x * self.per_unit);
        let (mean, low, high) = throughput(mean_ns, low_ns, high_ns);
        (scale(mean), scale(low), scale(high))
    }

    /// The PI's unit: `B/s`, `elem/s`, `MiB/s`.
    pub(crate) fn pi_unit(&self) -> String {
        format!("{}/s", self.unit)
    }
}

/// A throughput interval from a time interval (ns per unit): `1e9 / time`, bounds swapped.
pub(crate) fn throughput(
    mean_ns: f64,
    low_ns: f64,
    high_ns: f64,
) -> (Option<f64>, Option<f64>, Option<f64>) {
    let inv = |t: f64| if t > 0.0 { Some(1e9 / t) } else { None };
    (inv(mean_ns), inv(high_ns), inv(low_ns))
}

/// A PI's `(mean, low, high)`; a bound is `None` where it does not exist (a throughput's
/// bound when the time's interval reaches 0).
pub(super) type Bounds = (Option<f64>, Option<f64>, Option<f64>);
