//! Bencher Metric Format (BMF): `{bench: {measure: {"value", "lower_value", "upper_value"}}}`,
//! for `bencher run --adapter json`. Schema: <https://bencher.dev/bmf.json> (Bencher's
//! reference, "Bencher Metric Format"), checked in as `crates/cargo-pilot/tests/fixtures/export/bmf.schema.json`.
//!
//! Each bench has `latency` (Bencher's built-in measure, in nanoseconds): pilot's time per
//! unit and its interval; and `throughput` (units per second) when the bench names a `unit`,
//! from its throughput performance index; `allocations` and `allocated_bytes` (per unit)
//! when a `CountingAlloc` counted them (measures of the project's own in Bencher, named by
//! these slugs). A bench counted under callgrind (`--instructions`) has `instructions` too,
//! and `estimated-cycles` with a cache simulation: the measures Bencher's own callgrind
//! adapters name so, per unit; a bench counted whose time found no estimate has its counts
//! alone. A bound that does not exist (a throughput whose time interval
//! reaches 0) is left out, as the schema allows.

use pilot_format::{CiDoc, ResultDoc};
use serde_json::{Map, Value, json};

/// The documents (each with an estimate of its time or counts) as one BMF document, benches in
/// the given order.
pub fn render(documents: &[&ResultDoc]) -> String {
    let mut benches = Map::new();
    for d in documents {
        let mut measures = Map::new();
        // A bench counted without a time estimate has its counts alone.
        if let Some((mean, low, high)) = super::time(d) {
            measures.insert("latency".into(), metric(mean, low, high));
        }
        if let Some(pi) = super::throughput(d) {
            let CiDoc { low, high, .. } = pi.ci;
            let mut m = json!({"value": pi.mean});
            if let Some(low) = low {
                m["lower_value"] = json!(low);
            }
            if let Some(high) = high {
                m["upper_value"] = json!(high);
            }
            measures.insert("throughput".into(), m);
        }
        for pi in d
            .pis
            .iter()
            .filter(|pi| pilot_format::ALLOCATION_PIS.contains(&pi.name.as_str()))
        {
            if let (Some(mean), Some(low), Some(high)) = (pi.mean, pi.ci.low, pi.ci.high) {
                measures.insert(pi.name.clone(), metric(mean, low, high));
            }
        }
        for (pi, measure) in [
            (pilot_format::INSTRUCTIONS_PI, "instructions"),
            (pilot_format::CYCLES_PI, "estimated-cycles"),
        ] {
            if let Some((mean, low, high)) = super::count(d, pi) {
                measures.insert(measure.into(), metric(mean, low, high));
            }
        }
        benches.insert(super::bench_name(d), Value::Object(measures));
    }
    let mut text = serde_json::to_string_pretty(&Value::Object(benches)).expect("JSON values");
    text.push('\n');
    text
}

fn metric(value: f64, low: f64, high: f64) -> Value {
    json!({"value": value, "lower_value": low, "upper_value": high})
}
