//! One bench's counts: its plan from its measured time, its counting processes, and their
//! combination into the `instructions` PI.

use std::path::Path;
use std::time::{Duration, Instant};

use super::error::CountError;
use super::valgrind::{CountRequest, Valgrind, count_process};
use crate::counts::{CountEstimate, CountPlan, ProcessCounts};
use pilot_format::{CountsDoc, Form, ResultDoc};

/// Counting processes per bench (per side with `--against`). Counts vary between processes
/// only by what a process starts with (addresses, the environment's size, hash seeds): three
/// give an interval over processes with two degrees of freedom, enough to see such a spread
/// where a bench has one, at about a second of callgrind each for a micro bench.
pub const COUNT_PROCESSES: usize = 3;

/// Counted rounds per process: two pairs of rounds (the micro form's `k` and `2k`
/// iterations a unit, a readings-only bench's `w` and `2w` work), or four rounds of the full
/// form.
const COUNT_ROUNDS: usize = 4;

/// Instructions a counted round holds at most: a round short under callgrind's slowdown, with
/// enough units that a unit's own variation averages out
/// (`tests/fixture-bench/instructions_bars.sh` measures what counting costs a run).
const ROUND_INSTRUCTIONS: f64 = 2e7;

/// Instructions per nanosecond assumed to size rounds from a measured time: more than real
/// code retires (a few instructions a cycle at best, at a few GHz; only blocks of `nop`s may
/// go faster), so that a round holds at most about [`ROUND_INSTRUCTIONS`], and code that
/// retires fewer (cache misses, system calls) gets smaller rounds, never larger.
const INSTRUCTIONS_PER_NS: f64 = 10.0;

/// Most units a counted round holds.
const MAX_WORK: u64 = 1 << 20;

/// The plan of a bench of form `form` (`full`, `micro`, `readings-only`) measured at `ns`
/// per unit (per iteration in the micro form), with `iters` iterations per timed unit (micro
/// form) and work amounts allowed in `range`. Powers of two, so that runs whose times differ
/// a little count the same rounds: a count that depends on how much work a round holds (an
/// amortised growth, a cache that fills) is then the same from run to run.
pub(crate) fn plan_for(form: Form, ns: f64, iters: Option<u64>, range: (u64, u64)) -> CountPlan {
    let per_unit = |ns: f64| (ns * INSTRUCTIONS_PER_NS).max(1.0);
    let units = |instructions: f64| {
        let n = (ROUND_INSTRUCTIONS / instructions)
            .ceil()
            .clamp(1.0, MAX_WORK as f64) as u64;
        n.next_power_of_two().min(MAX_WORK)
    };
    match form {
        Form::Micro => {
            let iters = iters.unwrap_or(1).max(1).next_power_of_two();
            // Units of k and 2k iterations: 1.5k on average.
            CountPlan {
                rounds: COUNT_ROUNDS,
                work: units(per_unit(ns) * 1.5 * iters as f64),
                iters,
            }
        }
        Form::ReadingsOnly => {
            // Work amounts w and 2w, both inside the range where it allows.
            let top = (range.1 / 2).max(range.0);
            CountPlan {
                rounds: COUNT_ROUNDS,
                work: units(per_unit(ns) * 1.5).clamp(range.0, top),
                iters: 1,
            }
        }
        _ => CountPlan {
            rounds: COUNT_ROUNDS,
            work: units(per_unit(ns)).clamp(range.0, range.1),
            iters: 1,
        },
    }
}

/// The time per unit (per iteration in the micro form) to size bench `doc`'s counting rounds
/// by: its estimate, or without one (a readings-only fit that found no slope, a session with
/// no steady state) its longest round's duration over the work it did. That share includes
/// the round's fixed cost, so it errs long, and a round sized by it holds fewer units, never
/// more. `None` without an estimate or a timed round (a bench that failed at once).
pub(crate) fn sizing_ns(doc: &ResultDoc) -> Option<f64> {
    if let Some(ns) = doc.time().and_then(|t| t.mean) {
        return Some(ns);
    }
    let iters = doc.iterations_per_unit.unwrap_or(1).max(1) as f64;
    doc.rounds
        .iter()
        .filter(|r| r.work > 0 && r.duration_ns > 0)
        .max_by_key(|r| r.work)
        .map(|r| r.duration_ns as f64 / (r.work as f64 * iters))
}

/// The plan of the bench of result `doc`, sized by [`sizing_ns`], its work amounts in `range`;
/// `None` when nothing sizes it.
pub fn plan_of(doc: &ResultDoc, range: (u64, u64)) -> Option<CountPlan> {
    let ns = sizing_ns(doc)?;
    Some(plan_for(doc.form, ns, doc.iterations_per_unit, range))
}

/// A bench's counts over its processes.
#[derive(Debug, Clone)]
pub struct Counted {
    /// Instructions per unit (per iteration in the micro form).
    pub instructions: CountEstimate,
    /// Estimated cycles per unit, with a cache simulation.
    pub(crate) cycles: Option<CountEstimate>,
    /// What each process found.
    pub(crate) processes: Vec<ProcessCounts>,
    /// Valgrind's version.
    pub(crate) version: String,
    /// The time all processes took.
    pub(crate) elapsed: Duration,
}

impl Counted {
    /// The counts of `processes` (which ran under Valgrind `version`, in `elapsed`),
    /// with intervals at `confidence`; `None` without a process or with a count that is not a
    /// number.
    pub fn of(
        processes: Vec<ProcessCounts>,
        version: &str,
        elapsed: Duration,
        confidence: f64,
    ) -> Option<Counted> {
        let instructions: Vec<&[f64]> = processes.iter().map(|p| &p.instructions[..]).collect();
        let instructions = CountEstimate::over(&instructions, confidence)?;
        let cycles: Option<Vec<&[f64]>> = processes.iter().map(|p| p.cycles.as_deref()).collect();
        let cycles = match cycles {
            Some(c) => Some(CountEstimate::over(&c, confidence)?),
            None => None,
        };
        Some(Counted {
            instructions,
            cycles,
            processes,
            version: version.to_string(),
            elapsed,
        })
    }

    /// How the counts were taken, for the result document.
    pub(crate) fn doc(&self) -> CountsDoc {
        let first = self.processes.first();
        CountsDoc {
            tool: format!("callgrind ({})", self.version),
            process_means: self.instructions.process_means.clone(),
            cycles_process_means: self.cycles.as_ref().map(|c| c.process_means.clone()),
            rounds: first.map_or(0, |p| p.rounds),
            units_per_round: first.map_or(0, |p| p.units),
            iterations_per_unit: first.map_or(0, |p| p.iterations),
            empty_unit: first.map_or(0.0, |p| p.empty),
            elapsed_s: self.elapsed.as_secs_f64(),
            profile: crate::counts::profile::profile_doc(
                &self
                    .processes
                    .iter()
                    .map(|p| &p.profile)
                    .collect::<Vec<_>>(),
            ),
        }
    }

    /// Adds the counts to `doc` (see [`crate::store::result::add_counts`]).
    pub fn add_to(&self, doc: &mut ResultDoc, confidence: f64) {
        crate::store::result::add_counts(
            doc,
            &self.instructions,
            self.cycles.as_ref(),
            self.doc(),
            confidence,
        );
    }
}

/// Counts `req`'s bench in `processes` processes one after another, its intervals at
/// `confidence`. Stops at the first process that fails, with its error; `Ok(None)` when Ctrl-C
/// came.
pub(crate) fn count_bench(
    valgrind: &Valgrind,
    req: &CountRequest<'_>,
    processes: usize,
    confidence: f64,
) -> Result<Option<Counted>, CountError> {
    let start = Instant::now();
    let mut done = Vec::with_capacity(processes);
    for _ in 0..processes.max(1) {
        if crate::session::stop_request::requested() {
            return Ok(None);
        }
        match count_process(valgrind, req) {
            Ok(p) => done.push(p),
            Err(_) if crate::session::stop_request::requested() => return Ok(None),
            Err(e) => return Err(e),
        }
    }
    Counted::of(done, &valgrind.version, start.elapsed(), confidence)
        .map(Some)
        .ok_or(CountError::NoCount)
}

/// In a benchmark run: counts bench `name` of this executable, of form `form`, measured at
/// `ns` per unit with `iters` iterations per timed unit, whose work amounts stay in `range`;
/// adds the counts to `doc`. `Ok(false)` when Ctrl-C came.
pub(in crate::runner) fn count_for_run(
    valgrind: &Valgrind,
    (name, form): (&str, Form),
    (ns, iters, range): (f64, Option<u64>, (u64, u64)),
    cache_sim: bool,
    doc: &mut ResultDoc,
    confidence: f64,
) -> Result<bool, CountError> {
    let exe = std::env::current_exe().map_err(|e| CountError::NoExecutable(e.to_string()))?;
    let req = CountRequest {
        exe: Path::new(&exe),
        name,
        plan: plan_for(form, ns, iters, range),
        cache_sim,
        dir: None,
    };
    match count_bench(valgrind, &req, COUNT_PROCESSES, confidence)? {
        Some(counted) => {
            counted.add_to(doc, confidence);
            Ok(true)
        }
        None => Ok(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counting rounds' size comes from the time's estimate, or without one from the
    /// longest round: its duration over its iterations (120 µs over 1 000 units of 16
    /// iterations).
    #[test]
    fn counting_is_sized_by_the_estimate_or_else_by_the_longest_round() {
        let doc = |status: &str, pis: serde_json::Value, rounds: serde_json::Value| {
            let d: ResultDoc = serde_json::from_value(serde_json::json!({
                "schema": pilot_format::RESULT_SCHEMA, "name": "b", "status": status,
                "pis": pis, "rounds": rounds, "iterations_per_unit": 16,
            }))
            .unwrap();
            d
        };
        let round = |work: u64, ns: u64| {
            serde_json::json!({"work": work, "duration_ns": ns, "units": work,
                "stable": null, "analysed": true})
        };
        let rounds = serde_json::json!([round(10, 60_000), round(1000, 120_000), round(0, 5)]);
        let time = serde_json::json!([{"name": "time", "unit": "ns", "mean": 100.0,
            "ci": {"low": 99.0, "high": 101.0, "confidence": 0.95}}]);
        assert_eq!(sizing_ns(&doc("ok", time, rounds.clone())), Some(100.0));
        let none = serde_json::json!([]);
        assert_eq!(
            sizing_ns(&doc("unresolved", none.clone(), rounds)),
            Some(7.5)
        );
        assert_eq!(sizing_ns(&doc("failed", none, serde_json::json!([]))), None);
    }

    #[test]
    fn rounds_hold_at_most_twenty_million_instructions_in_powers_of_two() {
        // 1 µs a unit: 10 000 instructions at most, 2·10⁷ / 10⁴ = 2 000 units → 2 048.
        let p = plan_for(Form::Full, 1000.0, None, (1, u64::MAX));
        assert_eq!((p.rounds, p.work, p.iters), (4, 2048, 1));
        // Within the bench's work range.
        assert_eq!(plan_for(Form::Full, 1000.0, None, (1, 100)).work, 100);
        // A unit of a second: one unit a round.
        assert_eq!(plan_for(Form::Full, 1e9, None, (1, u64::MAX)).work, 1);
        // Micro form: 2 ns an iteration, 1 000 iterations a unit → 1 024 (and 2 048): units
        // of 1.5 · 1024 · 20 = 30 720 instructions at most on average, 2·10⁷ / 30 720 = 652
        // → 1 024.
        let p = plan_for(Form::Micro, 2.0, Some(1000), (1, u64::MAX));
        assert_eq!((p.work, p.iters), (1024, 1024));
        // Readings-only: 10 ns a unit, 1.5 · 100 = 150 a unit on average: 2·10⁷ / 150 =
        // 133 334 → 262 144; w and 2w both inside the range's top.
        assert_eq!(
            plan_for(Form::ReadingsOnly, 10.0, None, (1, u64::MAX)).work,
            262_144
        );
        assert_eq!(
            plan_for(Form::ReadingsOnly, 10.0, None, (1, 1000)).work,
            500
        );
        assert_eq!(
            plan_for(Form::ReadingsOnly, 10.0, None, (800, 1000)).work,
            800
        );
    }
}
