//! One CSV row per bench and performance index, with the columns of Auto-pilot's Getstats
//! report (COUNT MEAN MEDIAN LOW HIGH MIN MAX SDEV% HW%, Wright et al., "Auto-pilot", §3.3) and
//! what a spreadsheet needs besides:
//!
//! `bench, pi, unit, count, mean, median, low, high, min, max, sdev%, hw%, samples,
//! confidence, status`
//!
//! `count` is the samples behind the estimate as the result states them (`pis[].n`: stable
//! unit readings, or rounds in readings-only mode); `mean`, `low` and `high` are the
//! performance index and its interval; `hw%` is the half-width over the mean, in percent.
//! `median`, `min`, `max` and `sdev%` (standard deviation over mean, in percent) describe the
//! estimate's independent samples (`subsession.means`: subsession means, or process
//! estimates), `samples` of them (`sdev%` is 0 for one), converted to the index's unit (a throughput's samples are
//! `1e9 / time`), and for `instructions` and `estimated_cycles` the counting processes'
//! counts; they are empty where the result does not keep those samples (a readings-only
//! fit, or more than 10 000, or the counts per unit `allocations` and `allocated_bytes`,
//! whose samples a result does not keep). Numbers are written in full precision.

use pilot_engine::fmt::csv_text;
use pilot_format::{ALLOCATION_PIS, PiDoc, ResultDoc};
use pilot_stats::Summary;

const HEADER: [&str; 15] = [
    "bench",
    "pi",
    "unit",
    "count",
    "mean",
    "median",
    "low",
    "high",
    "min",
    "max",
    "sdev%",
    "hw%",
    "samples",
    "confidence",
    "status",
];

/// The documents (each with an estimate) as CSV, benches in the given order, `time` before
/// `throughput`.
pub fn render(documents: &[&ResultDoc]) -> anyhow::Result<String> {
    let mut out = ::csv::Writer::from_writer(Vec::new());
    out.write_record(HEADER)?;
    for d in documents {
        let stored = d.subsession.as_ref().and_then(|s| s.means.as_deref());
        for pi in d.pis.iter().filter(|pi| pi.mean.is_some()) {
            // Throughput is the inverse of the time per unit, in units per second.
            // A count's samples are its counting processes' counts; the allocation counts
            // per unit have no samples of their own in the result.
            let counted = d.counts.as_ref().and_then(|c| match pi.name.as_str() {
                pilot_format::INSTRUCTIONS_PI => Some(c.process_means.clone()),
                pilot_format::CYCLES_PI => c.cycles_process_means.clone(),
                _ => None,
            });
            let samples: Option<Vec<f64>> = counted.or_else(|| {
                stored
                    .filter(|_| !ALLOCATION_PIS.contains(&pi.name.as_str()))
                    .map(|m| match pi.name.as_str() {
                        "throughput" => m.iter().map(|t| 1e9 / t).collect(),
                        _ => m.to_vec(),
                    })
            });
            out.write_record(row(d, pi, samples.as_deref()))?;
        }
    }
    Ok(String::from_utf8(out.into_inner()?).expect("CSV of UTF-8 fields"))
}

fn row(d: &ResultDoc, pi: &PiDoc, samples: Option<&[f64]>) -> Vec<String> {
    let num = |x: Option<f64>| x.map_or(String::new(), |x| x.to_string());
    let mean = pi.mean.expect("filtered: a mean");
    // This run's interval (an older document's `time` widened its `ci`).
    let ci = pi.run_ci();
    let hw = ci
        .low
        .zip(ci.high)
        // An exact count (of 0 too) has no width: 0%, not 0/0.
        .map(|(low, high)| match high - low {
            0.0 => 0.0,
            width => 100.0 * width / 2.0 / mean,
        });
    let described = samples.and_then(|s| Summary::of(s).ok());
    vec![
        csv_text(&super::bench_name(d)).into_owned(),
        csv_text(&pi.name).into_owned(),
        csv_text(&pi.unit).into_owned(),
        pi.n.to_string(),
        mean.to_string(),
        num(described.map(|s| s.median)),
        num(ci.low),
        num(ci.high),
        num(described.map(|s| s.min)),
        num(described.map(|s| s.max)),
        num(described.map(|s| 100.0 * s.std_dev / s.mean)),
        num(hw),
        if pi.name == pilot_format::INSTRUCTIONS_PI || pi.name == pilot_format::CYCLES_PI {
            samples.map_or(String::new(), |s| s.len().to_string())
        } else {
            d.subsession
                .as_ref()
                .map_or(String::new(), |s| s.count.to_string())
        },
        pi.ci.confidence.to_string(),
        csv_text(&d.status).into_owned(),
    ]
}
