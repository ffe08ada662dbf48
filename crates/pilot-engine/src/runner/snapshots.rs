//! Whole outputs, snapshotted with insta: the end-of-run table, a group's ranking table, and a
//! comparison with a baseline as a table and as Markdown. Each comes from sessions run on the
//! scripted clock with seeded readings, through the same code as a real run (session, row,
//! result document, reader, comparison), so it is the same on any machine. After a deliberate
//! change of an output, review it with `cargo insta review` (or `INSTA_UPDATE=always`).

use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

use super::bench_mode::row;
use super::group::{GroupReport, few_rounds_note, group_report, render_report};
use crate::compare::{CompareOptions, compare};
use crate::fmt::Paint;
use crate::record::{ClockInfo, ScriptedClock};
use crate::report::TimePer::{Iteration, Unit};
use crate::report::{comparison_markdown, comparison_table, render_table};
use crate::session::group_session::{GroupConfig, GroupResult, run_group};
use crate::session::{RoundData, SessionConfig, SessionResult, Workload, run_session};
use crate::store::result::Rate;
use crate::store::{self, SavedResult, result};
use pilot_format::MachineDoc;

/// Unit readings of `mean ± spread` ns (normal, seeded), each round costing its readings plus
/// 20 µs of setup on the scripted clock; `fails` makes every round a panic.
struct Scripted {
    clock: ScriptedClock,
    rng: ChaCha8Rng,
    mean: f64,
    spread: f64,
    fails: bool,
}

impl Scripted {
    fn new(clock: &ScriptedClock, seed: u64, mean: f64, spread: f64) -> Self {
        Scripted {
            clock: clock.clone(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            mean,
            spread,
            fails: false,
        }
    }
}

impl Workload for Scripted {
    fn round(&mut self, work: u64) -> Result<RoundData, String> {
        if self.fails {
            return Err("panicked at benches/demo.rs:12:5: index out of bounds".into());
        }
        let readings: Vec<f64> = (0..work)
            .map(|_| {
                let z: f64 = self.rng.sample(StandardNormal);
                (self.mean + self.spread * z).max(1.0)
            })
            .collect();
        let total: f64 = readings.iter().sum();
        self.clock
            .advance(Duration::from_micros(20) + Duration::from_nanos(total as u64));
        Ok(RoundData::Units {
            readings,
            iterations: 1,
        })
    }
}

fn session(seed: u64, mean: f64, spread: f64, config: &SessionConfig) -> SessionResult {
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, seed, mean, spread);
    run_session(&mut w, &clock, config, &mut |_, _| {})
}

fn failing(config: &SessionConfig) -> SessionResult {
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, 0, 1.0, 0.0);
    w.fails = true;
    run_session(&mut w, &clock, config, &mut |_, _| {})
}

/// A short cap, so a noisy bench stops at it.
fn config() -> SessionConfig {
    SessionConfig {
        max_time: Duration::from_secs(2),
        ..SessionConfig::default()
    }
}

#[test]
fn end_of_run_table() {
    let c = config();
    let kib = Rate::units("KiB");
    let rows = vec![
        row("sort/1000", Unit, None, &session(1, 12_000.0, 300.0, &c)),
        row("write_1kib", Unit, Some(&kib), &session(2, 850.0, 20.0, &c)),
        row("noisy", Unit, None, &session(3, 5_000.0, 4_000.0, &c)),
        row("panics", Unit, None, &failing(&c)),
    ];
    let mut rows = rows;
    rows[0].run_to_run = "±2.41%".into();
    insta::assert_snapshot!(render_table(&rows, c.confidence, true, Paint::plain()));
}

/// What a person reads at the end of a run, plain (into a pipe, a file, CI's log) and on a
/// terminal with colour (escape codes shown as `␛`): each bench's line with its markers, then
/// the compact table with a change against a baseline.
#[test]
fn bench_lines_and_compact_table_plain_and_coloured() {
    let c = config();
    let kib = Rate::units("KiB");
    let mut rows = vec![
        row("sort/1000", Unit, None, &session(1, 12_000.0, 300.0, &c)),
        row("write_1kib", Unit, Some(&kib), &session(2, 850.0, 20.0, &c)),
        row("panics", Unit, None, &failing(&c)),
    ];
    let markers: [&[&str]; 3] = [&[], &["busy", "outliers"], &[]];
    let failures = [
        None,
        None,
        Some("panicked: index out of bounds\nat src/lib.rs:3"),
    ];
    // The first bench has learnt where the next run lands; the second has not yet.
    rows[0].run_to_run = "±2.41%".into();
    rows[0].change = "+12.3% regressed".into();
    rows[1].change = "-0.4% no change".into();
    rows[2].change = "failed".into();
    use crate::compare::Verdict;
    (rows[0].verdict, rows[1].verdict) = (Some(Verdict::Regressed), Some(Verdict::NoChange));
    rows[2].verdict = Some(Verdict::Failed);
    let shown = |paint: Paint| {
        let style = crate::runner::LineStyle {
            width: 10,
            paint,
            verbose: false,
        };
        let mut out = String::new();
        for ((r, m), f) in rows.iter().zip(markers).zip(failures) {
            out.push_str(&crate::runner::line(r, m, f, style));
            out.push('\n');
        }
        out.push('\n');
        out.push_str(&render_table(&rows, c.confidence, false, paint));
        out.replace('\u{1b}', "␛")
    };
    insta::assert_snapshot!("bench_lines_plain", shown(Paint::plain()));
    insta::assert_snapshot!("bench_lines_coloured", shown(Paint::new(true)));
}

/// Micro-form benches: times per iteration, throughput in bytes and elements per iteration.
#[test]
fn end_of_run_table_of_micro_benches() {
    let c = config();
    // 4096 B in 850 ns: 4096e9 / 850 = 4.819e9 B/s = 4.488 GiB/s; 1000 elements in 12 µs:
    // 8.333e7 elem/s = 83.33 Melem/s (by the session's own mean, within its ±0.01%).
    let bytes = Rate {
        unit: "B".into(),
        per_unit: 4096.0,
    };
    let elements = Rate {
        unit: "elem".into(),
        per_unit: 1000.0,
    };
    let rows = vec![
        row(
            "encode/4096",
            Iteration,
            Some(&bytes),
            &session(2, 850.0, 20.0, &c),
        ),
        row(
            "sum/1000",
            Iteration,
            Some(&elements),
            &session(1, 12_000.0, 300.0, &c),
        ),
    ];
    insta::assert_snapshot!(render_table(&rows, c.confidence, true, Paint::plain()));
}

/// Micro-form and full-form benches in one table: each row says what its time is per.
#[test]
fn end_of_run_table_of_mixed_forms() {
    let c = config();
    let rows = vec![
        row(
            "sort/1000",
            Iteration,
            None,
            &session(1, 12_000.0, 300.0, &c),
        ),
        row("noisy", Unit, None, &session(3, 5_000.0, 4_000.0, &c)),
    ];
    insta::assert_snapshot!(render_table(&rows, c.confidence, true, Paint::plain()));
}

#[test]
fn group_ranking_table() {
    let clock = ScriptedClock::default();
    let mut fast = Scripted::new(&clock, 4, 1_000.0, 30.0);
    let mut slow = Scripted::new(&clock, 5, 1_500.0, 45.0);
    let mut twin = Scripted::new(&clock, 6, 1_500.0, 45.0);
    let mut members: Vec<&mut dyn Workload> = vec![&mut slow, &mut fast, &mut twin];
    let group = GroupConfig {
        max_time: Duration::from_secs(3),
        ..GroupConfig::default()
    };
    let configs = vec![config(); 3];
    let r = run_group(&mut members, &configs, &clock, &group, &mut |_, _, _| {});
    let names = ["vec_deque", "vec", "vec_copy"];
    let report = report_of("iterate/1000", &names, r, &group);
    insta::assert_snapshot!(render_report(&report, false));
}

/// The report of group `group_name` whose members are `names`, as the runner makes it.
fn report_of(group_name: &str, names: &[&str], r: GroupResult, group: &GroupConfig) -> GroupReport {
    let estimates: Vec<Option<(f64, f64, f64)>> = r
        .members
        .iter()
        .map(|s| s.estimate.as_ref().map(|e| (e.mean, e.ci.low, e.ci.high)))
        .collect();
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    group_report(
        group_name,
        &names,
        &r.ranking,
        r.pairs,
        &estimates,
        group.confidence,
        r.settled,
        r.cycles,
        r.elapsed,
        r.ranking_settled,
    )
}

#[test]
fn group_ranking_table_with_few_rounds() {
    // A short cap and long units: the members reach only a few of the 10 analysed rounds the
    // usual rule needs before the cap. `linked_list` is twelve times slower than `vec_deque`:
    // `slower`, with its caveat; `vec` and `vec_deque` are close: undecided. The note under
    // the table says why.
    let clock = ScriptedClock::default();
    let mut vec = Scripted::new(&clock, 7, 100_000.0, 3_000.0);
    let mut deque = Scripted::new(&clock, 8, 101_000.0, 3_000.0);
    let mut list = Scripted::new(&clock, 9, 1_200_000.0, 36_000.0);
    let mut members: Vec<&mut dyn Workload> = vec![&mut list, &mut vec, &mut deque];
    let group = GroupConfig {
        max_time: Duration::from_secs(1),
        ..GroupConfig::default()
    };
    let configs = vec![
        SessionConfig {
            max_time: group.max_time,
            ..config()
        };
        3
    ];
    let r = run_group(&mut members, &configs, &clock, &group, &mut |_, _, _| {});
    let rounds: Vec<usize> = r
        .members
        .iter()
        .map(|m| m.estimate.as_ref().map_or(0, |e| e.rounds))
        .collect();
    assert!(rounds[0] < group.min_rounds, "{rounds:?}");
    let names = ["linked_list/100000", "vec/100000", "vec_deque/100000"];
    let report = report_of("iterate/100000", &names, r, &group);
    let mut out = render_report(&report, false);
    // The note goes in place of the table's blank line, as the runner prints it.
    out.pop();
    out.push_str(few_rounds_note(std::slice::from_ref(&report)).unwrap_or("(no note)\n"));
    insta::assert_snapshot!(out);
}

/// A bench's result as the runner saves it and a later comparison reads it back.
fn saved(name: &str, session: &SessionResult, config: &SessionConfig) -> SavedResult {
    let record = result::BenchRecord {
        name,
        target: "demo",
        form: pilot_format::Form::Micro,
        throughput: None,
        config,
        session,
        iterations_per_unit: Some(8),
        clock: ClockInfo {
            overhead_ns: 20.0,
            resolution_ns: 1.0,
            timer: crate::record::Timer::Instant,
        },
        machine: None,
        reproducibility: None,
        started: "2026-11-23T10:00:00Z".into(),
        finished: "2026-11-23T10:00:02Z".into(),
    };
    let doc = result::document(&record);
    let path = std::path::Path::new("target/pilot/results/demo").join(name);
    store::from_document(&doc, &path).expect("a document the runner wrote reads back")
}

/// `r` as a run reads it once its bench's run-to-run variation is learnt (sd 0.2% over 8
/// degrees of freedom): the evidence a comparison across runs of one process a side needs.
fn learnt(mut r: SavedResult) -> SavedResult {
    if let Some(t) = r.time.as_mut() {
        t.run_to_run = Some(crate::store::RunToRun {
            sd: 0.002,
            dof: 8.0,
            runs: 9,
        });
    }
    r
}

#[test]
fn comparison_with_a_baseline() {
    let c = config();
    // `noisy` has not learnt its run-to-run variation: undecided across runs whatever p says.
    let base = vec![
        learnt(saved("sort", &session(7, 10_000.0, 200.0, &c), &c)),
        learnt(saved("hash", &session(8, 400.0, 8.0, &c), &c)),
        saved("removed", &session(9, 90.0, 2.0, &c), &c),
        saved("noisy", &session(10, 5_000.0, 4_000.0, &c), &c),
    ];
    let new = vec![
        learnt(saved("sort", &session(11, 11_000.0, 220.0, &c), &c)),
        learnt(saved("hash", &session(12, 400.0, 8.0, &c), &c)),
        saved("added", &session(13, 70.0, 2.0, &c), &c),
        saved("noisy", &session(14, 5_100.0, 4_000.0, &c), &c),
    ];
    let options = CompareOptions::default();
    let comparisons = compare(&base, &new, &options);
    insta::assert_snapshot!("comparison_table", comparison_table(&comparisons, &options));
    insta::assert_snapshot!(
        "comparison_markdown",
        comparison_markdown(&comparisons, &options)
    );
}

/// `r` with instructions counted: `per_process` per unit in each of its processes.
fn counted(mut r: SavedResult, per_process: &[f64]) -> SavedResult {
    let mean = per_process.iter().sum::<f64>() / per_process.len() as f64;
    r.instructions = Some(crate::store::SavedCount {
        mean,
        low: mean,
        high: mean,
        confidence: 0.95,
        process_means: per_process.to_vec(),
    });
    r
}

#[test]
fn comparison_with_instruction_counts() {
    let c = config();
    // `sort`: 10% slower and 0.5% more instructions: the code. `hash`: 10% slower, the same
    // instructions: the environment. `parse`: the same time, 0.5% fewer instructions.
    let side = |runs: [(&str, SessionResult, f64); 3]| -> Vec<SavedResult> {
        runs.into_iter()
            .map(|(name, s, per_unit)| learnt(counted(saved(name, &s, &c), &[per_unit; 3])))
            .collect()
    };
    let base = side([
        ("sort", session(7, 10_000.0, 200.0, &c), 12_519.0),
        ("hash", session(8, 400.0, 8.0, &c), 1_204.0),
        ("parse", session(9, 900.0, 9.0, &c), 3_000.0),
    ]);
    let new = side([
        ("sort", session(11, 11_000.0, 220.0, &c), 12_582.0),
        ("hash", session(12, 440.0, 8.0, &c), 1_204.0),
        ("parse", session(13, 900.0, 9.0, &c), 2_985.0),
    ]);
    let options = CompareOptions::default();
    let comparisons = compare(&base, &new, &options);
    insta::assert_snapshot!(
        "comparison_table_with_instructions",
        comparison_table(&comparisons, &options)
    );
    insta::assert_snapshot!(
        "comparison_markdown_with_instructions",
        comparison_markdown(&comparisons, &options)
    );
}

#[test]
fn a_result_document() {
    let c = config();
    let session = session(15, 2_000.0, 40.0, &c);
    // Where the next run lands, learnt from the speed probe's 8 runs (sd 1.25%) with this
    // run's own standard error added: the bench has no earlier run of its build, and its runs
    // in 4 earlier builds agree far more closely than the probe's.
    let e = session.estimate.as_ref().unwrap();
    let builds: Vec<f64> = [1.0, 1.0001, 1.0, 1.0001]
        .iter()
        .map(|k| k * e.mean)
        .collect();
    let se = e.ci.half_width() / pilot_stats::summary::t_critical(0.95, e.dof) / e.mean;
    let band = crate::probe::reproducibility(
        crate::probe::RunEstimate {
            mean: e.mean,
            se,
            dof: e.dof,
        },
        &crate::probe::Evidence {
            earlier: &[],
            builds: &builds,
            benches: None,
            probe: Some(crate::probe::MachineVariation {
                sd: 0.0125,
                runs: 8,
                source: crate::probe::Source::Probe,
                dof: 0.37 * 7.0,
            }),
        },
        0.95,
    );
    let record = result::BenchRecord {
        name: "parse/4096",
        target: "demo",
        form: pilot_format::Form::Full,
        throughput: Some(&Rate::units("KiB")),
        config: &c,
        session: &session,
        iterations_per_unit: None,
        clock: ClockInfo {
            overhead_ns: 20.0,
            resolution_ns: 1.0,
            timer: crate::record::Timer::Instant,
        },
        machine: Some(&MachineDoc {
            cpu: Some("Example CPU @ 2.0GHz".into()),
            cores: Some(2),
            governor: None,
            os: "linux".into(),
            arch: "x86_64".into(),
            kernel: Some("6.1.0".into()),
            pilot: "0.1.0".into(),
            git_commit: None,
            rustc: Some("rustc 1.91.0 (f8297e351 2025-10-28)".into()),
            memory_bytes: Some(8 << 30),
            speed: Some(pilot_format::SpeedDoc {
                probe_ns: 1_200_000.0,
                run_to_run: Some(0.0125),
                runs: 8,
            }),
            ..MachineDoc::default()
        }),
        reproducibility: Some(&band),
        started: "2026-11-23T10:00:00Z".into(),
        finished: "2026-11-23T10:00:02Z".into(),
    };
    let mut doc = result::document(&record);
    // The subsession means and rounds are long lists; their count is in the document too.
    if let Some(s) = doc.subsession.as_mut() {
        s.means = s.means.take().map(|m| m.into_iter().take(3).collect());
    }
    doc.rounds.truncate(3);
    insta::assert_json_snapshot!(doc);
    // The run's interval is its own, within its ±1% target: a sound baseline entry, however
    // far the machine moves between runs. The band is a figure of its own: the probe's 1.25%
    // (this run's own 0.004% added) at t(0.975, 2.59 dof) = 3.4873, times √2 for a level of
    // one run, ±6.16% (scipy).
    assert_eq!(crate::report::weak_baseline(&[doc.clone()], "main"), None);
    let b = crate::report::band_of(&doc).unwrap();
    assert!(b.half_width > 0.05 && b.learnt_from == "probe", "{b:?}");
    assert_eq!(crate::report::run_to_run_cell(&doc), "±6.16%");
    // Far wider than its target, saving it says so, with the command that measures it again.
    doc.config.ci = 0.00001;
    let w = crate::report::weak_baseline(&[doc], "main").unwrap();
    assert!(w.contains("1 of 1 entries"), "{w}");
    assert!(
        w.contains("cargo bench -- --save-baseline main --exact parse/4096"),
        "{w}"
    );
}

/// `cargo pilot bench`'s table, made from documents, shows a threaded bench's per-thread and
/// aggregate throughput in the bench's bytes, as the bench binary's own table does.
#[test]
fn a_threaded_documents_row_shows_both_throughputs_in_its_unit() {
    let c = config();
    let session = session(16, 2_000.0, 40.0, &c);
    let bytes = Rate {
        unit: "B".into(),
        per_unit: 4096.0,
    };
    let mut doc = result::document(&result::BenchRecord {
        name: "fill/threads=2",
        target: "demo",
        form: pilot_format::Form::Full,
        throughput: Some(&bytes),
        config: &c,
        session: &session,
        iterations_per_unit: None,
        clock: ClockInfo {
            overhead_ns: 20.0,
            resolution_ns: 1.0,
            timer: crate::record::Timer::Instant,
        },
        machine: None,
        reproducibility: None,
        started: "2026-11-23T10:00:00Z".into(),
        finished: "2026-11-23T10:00:02Z".into(),
    });
    let rate = |mean: f64| pilot_format::RateDoc {
        mean,
        low: mean,
        high: Some(mean),
    };
    doc.threads = Some(pilot_format::ThreadsDoc {
        count: 2,
        per_thread: Some(rate(1e6)),
        aggregate: Some(rate(2e6)),
    });
    // 1e6 work units/s of 4096 B: 4.096e9 B/s / 1024³ = 3.815 GiB/s; twice that on 2 threads,
    // 8.192e9 / 1024³ = 7.629 GiB/s.
    assert_eq!(
        crate::report::row_of_document(&doc, false).throughput,
        "3.815 GiB/s per thread, 7.629 GiB/s on 2"
    );
    // On one thread: the PI, 4096 B over the time per unit.
    doc.threads = None;
    let mean = doc.pis[0].mean.unwrap();
    assert_eq!(
        crate::report::row_of_document(&doc, false).throughput,
        crate::fmt::format_throughput(4096e9 / mean, "B")
    );
}
