//! github-action-benchmark's custom format, `tool: customSmallerIsBetter`: a JSON array of
//! `{"name", "unit", "value", "range", "extra"}` (its `BenchmarkResult`: `name`, `unit` and
//! `value` required, `range` and `extra` optional strings shown in the chart's tooltip).
//!
//! `value` is pilot's time per unit in nanoseconds (smaller is better), `unit` says per what
//! (`ns/iter` in the micro form, `ns/MiB` for a bench with `unit = "MiB"`), `range` is
//! `± half-width` of the interval, and `extra` states the interval, its confidence, the
//! samples behind it and the session's status. A bench whose allocations were counted adds an
//! entry for each count, `NAME (allocations)` in `allocs/<unit>` and `NAME (allocated_bytes)` in
//! `B/<unit>` (smaller is better for them too). A bench counted under callgrind
//! (`--instructions`) has an entry of its own for its instructions, `<bench> (instructions)`
//! in `instructions/iter` (or per its unit), and one for `estimated cycles` with a cache
//! simulation: a chart of its own, as the action draws one per unit.

use pilot_format::ResultDoc;
use serde_json::{Value, json};

use super::significant;

/// The documents (each with an estimate of its time or counts) as one array, benches in the
/// given order.
pub fn render(documents: &[&ResultDoc]) -> String {
    let mut entries: Vec<Value> = Vec::new();
    for d in documents {
        entries.extend(time_entry(d));
        entries.extend(allocation_entries(d));
        for (pi, what) in [
            (pilot_format::INSTRUCTIONS_PI, "instructions"),
            (pilot_format::CYCLES_PI, "estimated cycles"),
        ] {
            entries.extend(count_entry(d, pi, what));
        }
    }
    let mut text = serde_json::to_string_pretty(&entries).expect("JSON values");
    text.push('\n');
    text
}

/// Bench `d`'s allocation counts per unit, an entry each: `<bench> (allocations)` in
/// `allocs/<unit>`, `<bench> (allocated_bytes)` in `B/<unit>`.
fn allocation_entries(d: &ResultDoc) -> Vec<Value> {
    d.pis
        .iter()
        .filter(|p| pilot_format::ALLOCATION_PIS.contains(&p.name.as_str()))
        .filter_map(|count| {
            let (mean, low, high) = (count.mean?, count.ci.low?, count.ci.high?);
            Some(json!({
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
            }))
        })
        .collect()
}

/// Bench `d`'s count PI `pi` as an entry `<bench> (what)`, when it was counted.
fn count_entry(d: &ResultDoc, pi: &str, what: &str) -> Option<Value> {
    let (mean, low, high) = super::count(d, pi)?;
    let doc = d.pis.iter().find(|p| p.name == pi)?;
    let unit = format!("{}/{}", doc.unit, super::work_unit(d));
    Some(json!({
        "name": format!("{} ({what})", super::bench_name(d)),
        "unit": unit,
        "value": mean,
        "range": format!("± {}", significant((high - low) / 2.0, 4)),
        "extra": format!(
            "{}% CI [{}, {}] {unit}\ncounted under callgrind in {} processes",
            100.0 * doc.ci.confidence,
            significant(low, 8),
            significant(high, 8),
            d.counts.as_ref().map_or(0, |c| c.process_means.len())
        ),
    }))
}

/// Bench `d`'s time entry.
fn time_entry(d: &ResultDoc) -> Option<Value> {
    let (mean, low, high) = super::time(d)?;
    let pi = d.time()?;
    let unit = format!("ns/{}", super::work_unit(d));
    // Where the next run lands, once learnt: a line of its own under this run's interval.
    let band = pilot_engine::report::band_of(d).map_or(String::new(), |b| {
        format!(
            "\nrun to run [{}, {}] {unit}",
            significant(b.low, 6),
            significant(b.high, 6)
        )
    });
    let extra = format!(
        "{}% CI [{}, {}] {unit}{band}\n{} samples, subsession size {}\nstatus: {}",
        100.0 * pi.ci.confidence,
        significant(low, 6),
        significant(high, 6),
        pi.n,
        pi.subsession_size,
        d.status
    );
    Some(json!({
        "name": super::bench_name(d),
        "unit": unit,
        "value": mean,
        "range": format!("± {}", significant((high - low) / 2.0, 4)),
        "extra": extra,
    }))
}
