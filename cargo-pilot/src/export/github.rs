//! github-action-benchmark's custom format, `tool: customSmallerIsBetter`: a JSON array of
//! `{"name", "unit", "value", "range", "extra"}` (its `BenchmarkResult`: `name`, `unit` and
//! `value` required, `range` and `extra` optional strings shown in the chart's tooltip).
//!
//! `value` is pilot's time per unit in nanoseconds (smaller is better), `unit` says per what
//! (`ns/iter` in the micro form, `ns/MiB` for a bench with `unit = "MiB"`), `range` is
//! `± half-width` of the interval, and `extra` states the interval, its confidence, the
//! samples behind it and the session's status. A bench whose allocations were counted adds an
//! entry for each count, `NAME (allocations)` in `allocs/<unit>` and `NAME (allocated_bytes)` in
//! `B/<unit>` (smaller is better for them too).

use pilot_engine::schema::ResultDoc;
use serde_json::{Value, json};

use super::significant;

/// The documents (each with an estimate) as one array, benches in the given order.
pub fn render(documents: &[&ResultDoc]) -> String {
    let mut entries: Vec<Value> = Vec::new();
    for d in documents {
        let Some((mean, low, high)) = super::time(d) else {
            continue;
        };
        let pi = &d.pis[0];
        let unit = format!("ns/{}", super::work_unit(d));
        let extra = format!(
            "{}% CI [{}, {}] {unit}\n{} samples, subsession size {}\nstatus: {}",
            100.0 * pi.ci.confidence,
            significant(low, 6),
            significant(high, 6),
            pi.n,
            pi.subsession_size,
            d.status
        );
        entries.push(json!({
            "name": super::bench_name(d),
            "unit": unit,
            "value": mean,
            "range": format!("± {}", significant((high - low) / 2.0, 4)),
            "extra": extra,
        }));
        for count in d
            .pis
            .iter()
            .filter(|p| pilot_engine::schema::ALLOCATION_PIS.contains(&p.name.as_str()))
        {
            let (Some(mean), Some(low), Some(high)) = (count.mean, count.ci.low, count.ci.high)
            else {
                continue;
            };
            entries.push(json!({
                "name": format!("{} ({})", super::bench_name(d), count.name),
                "unit": format!("{}/{}", count.unit, super::work_unit(d)),
                "value": mean,
                "range": format!("± {}", significant((high - low) / 2.0, 4)),
                "extra": format!(
                    "{}% CI [{}, {}]\n{} units\nstatus: {}",
                    100.0 * count.ci.confidence,
                    significant(low, 6),
                    significant(high, 6),
                    count.n,
                    d.status
                ),
            }));
        }
    }
    let mut text = serde_json::to_string_pretty(&entries).expect("JSON values");
    text.push('\n');
    text
}
