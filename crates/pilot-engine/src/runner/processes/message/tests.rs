use std::time::Duration;

use super::*;
use crate::checks::overhead::Overhead;
use crate::checks::sampler::Interval;
use crate::entry::{BenchBody, BenchDef, BenchOptions};
use crate::record::{Bencher, Timer};
use crate::session::allocations::CountPi;
use crate::session::{MachineState, MeanPi};
use crate::settings::Estimator;
use pilot_stats::ConfidenceInterval;

fn body(_: usize, _: &mut Bencher) {}

static DEF: BenchDef = BenchDef {
    name: "sort",
    module_path: "",
    file: "",
    line: 0,
    body: BenchBody::Micro(body),
    options: BenchOptions::DEFAULT,
    args: None,
};

/// A micro-form bench of 4 KiB per iteration.
fn bench() -> Bench {
    Bench {
        name: "sort".into(),
        def: &DEF,
        arg: 0,
        threads: 1,
        group: None,
        broken: None,
        rate: Some(Rate {
            unit: "B".into(),
            per_unit: 4096.0,
        }),
    }
}

/// The TSC at 2.5 GHz, as a message carries it.
fn tsc_clock() -> ClockInfo {
    let tsc = serde_json::from_str(r#"{"ns_per_tick": 0.4}"#).unwrap();
    ClockInfo {
        overhead_ns: 7.5,
        resolution_ns: 0.4,
        timer: Timer::Tsc(tsc),
    }
}

fn ci(low: f64, high: f64) -> ConfidenceInterval {
    ConfidenceInterval {
        low,
        high,
        confidence: 0.95,
    }
}

/// A trimmed-mean estimate of 100 ns ± 2, its plain mean 104 ns ± 3.
fn estimate() -> Estimate {
    Estimate {
        mean: 100.0,
        estimator: Estimator::Trimmed,
        plain: Some(MeanPi {
            mean: 104.0,
            ci: ci(101.0, 107.0),
        }),
        trimmed: None,
        ci: ci(98.0, 102.0),
        n: 3000,
        subsession_size: 4,
        autocorrelation: 0.05,
        required_n: Some(2500),
        subsession_means: vec![99.0, 100.0, 101.0],
        wps: None,
        variance_inflation: 1.1,
        between_rounds: false,
        rounds: 2,
        round_excess: 1.0,
        dof: 749.0,
        modes: 0,
    }
}

/// A round of `units` units of 8 iterations (30 ms), sampled, `marks` set; analysed or not.
fn round(analysed: bool, marks: Vec<&'static str>, others_cores: f64) -> RoundRecord {
    RoundRecord {
        work: 64,
        duration: Duration::from_millis(30),
        units: 64,
        iterations: 8,
        stable: analysed.then_some((4, 64)),
        analysed,
        mean_ns: Some(100.25),
        bins: pilot_format::ReadingBins::of(&[99.0, 100.0, 101.5], 64),
        rss_bytes: Some(1 << 20),
        end: Duration::from_millis(91),
        marks,
        machine: Some(Interval {
            others_cores,
            own_cores: 1.0,
            steal: 0.001,
            iowait: 0.0,
            throttled: 0.0,
            cpu_pressure: Some(0.02),
            ..Interval::default()
        }),
    }
}

/// A session of three rounds (one short, one marked busy), every part the parent reads set.
fn session() -> SessionResult {
    let check = CheckDoc {
        kind: "busy_machine".into(),
        message: "the machine was busy".into(),
        figures: serde_json::Map::from_iter([("rounds".to_string(), 1.into())]),
    };
    SessionResult {
        status: Status::Converged,
        estimate: Some(estimate()),
        rounds: vec![
            round(false, vec![], 0.0),
            round(true, vec!["busy_machine"], 1.0),
            round(true, vec![], 0.0),
        ],
        removed: 8,
        readings: 128,
        elapsed: Duration::from_millis(95),
        warnings: vec![Warning::Check(check.kind.clone())],
        process_means: Vec::new(),
        unresolved_fit: None,
        drift: None,
        checks: vec![check],
        warm_up: Some(WarmUpClass::WarmUp),
        outliers: Some(OutlierCount {
            z: 2,
            mad: 3,
            readings: 120,
            sum: 12_000.0,
            outlier_sum: 400.0,
        }),
        overhead: Some(Overhead {
            per_unit_ns: 1.5,
            low: 1.0,
            high: 2.0,
            confidence: 0.95,
            blocks: 8,
            target_ns: 2.0,
            samples: vec![1.25, 1.75],
            time_s: 0.012345678,
        }),
        machine_state: Some(MachineState::Sampled),
        warm_up_start: None,
        warm_up_work: Some(WarmUpWork {
            iterations: 4000,
            time: Duration::from_nanos(12_345_678),
        }),
        allocations: Some(AllocationsEstimate {
            allocations: CountPi {
                mean: 2.0,
                ci: ci(2.0, 2.0),
                n: 120,
                subsession_size: 1,
                autocorrelation: 0.0,
            },
            bytes: CountPi {
                mean: 4096.0,
                ci: ci(4090.0, 4102.0),
                n: 120,
                subsession_size: 2,
                autocorrelation: 0.01,
            },
            reallocations: 0.125,
            deallocations: 2.0,
            cost_ns: Some(11.0),
        }),
    }
}

/// `message` written to a scratch file and read back as its parent reads it.
fn sent(message: &ChildMessage) -> ChildMessage {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("result.json");
    message.write(&path).unwrap();
    ChildMessage::parse(&std::fs::read(&path).unwrap(), &path).unwrap()
}

#[test]
fn a_childs_message_round_trips_every_field_the_parent_reads() {
    let measured = Measured {
        session: session(),
        iters: Some(8),
        skipped: Some(WarmUpWork {
            iterations: 5000,
            time: Duration::from_nanos(20_000_001),
        }),
    };
    let config = SessionConfig {
        confidence: 0.99,
        ..SessionConfig::default()
    };
    let message = ChildMessage::of(&bench(), &config, tsc_clock(), measured);
    let read = sent(&message);
    assert_eq!(read, message);
    // What the child built, from its session, as the parent combines it: the rounds whole
    // (their iterations, means and ends kept), the estimate with its plain mean, the busy
    // share of the two analysed rounds' time (one of two marked), the outliers' counts only.
    let expected = ProcessResult {
        estimate: ProcessEstimate {
            mean: 100.0,
            half_width: 2.0,
            n: 3000,
            subsession_size: 4,
            autocorrelation: 0.05,
            rounds: 2,
            estimator: Estimator::Trimmed,
            plain: Some((104.0, 3.0)),
            busy: Some(0.5),
        },
        rounds: session().rounds,
        removed: 8,
        readings: 128,
        warnings: session().warnings,
        checks: session().checks,
        machine_state: Some(MachineState::Sampled),
        warm_up: WarmUpFinding {
            class: Some(WarmUpClass::WarmUp),
            own: session().warm_up_work,
            skipped: Some(WarmUpWork {
                iterations: 5000,
                time: Duration::from_nanos(20_000_001),
            }),
        },
        outliers: Some(OutlierCount {
            z: 2,
            mad: 3,
            readings: 120,
            ..OutlierCount::default()
        }),
        iters: Some(8),
        unresolved: false,
        overhead_samples: vec![1.25, 1.75],
        overhead_time_s: 0.012345678,
        clock_ns: 7.5,
        allocations: session().allocations,
    };
    assert_eq!(read.outcome, Ok(expected));
    assert_eq!(read.form, pilot_format::Form::Micro);
    assert_eq!(read.rate, bench().rate);
    assert_eq!(read.clock, tsc_clock());
    assert_eq!(read.confidence, 0.99);
}

#[test]
fn a_rounds_device_figures_stay_in_its_process() {
    let mut r = round(true, vec!["saturated_device"], 0.0);
    let state = r.machine.as_mut().unwrap();
    state.disk = Some((0, 0.9));
    state.tick_cores = 0.01;
    let read: RoundRecord = serde_json::from_slice(&serde_json::to_vec(&r).unwrap()).unwrap();
    // The disk's index means nothing to the parent; the CPU states and the marks travel.
    assert_eq!(read.machine.as_ref().unwrap().disk, None);
    assert_eq!(read.machine.as_ref().unwrap().tick_cores, 0.0);
    assert_eq!(read.marks, ["saturated_device"]);
    assert_eq!(read.machine.unwrap().cpu_pressure, Some(0.02));
}

#[test]
fn an_unresolved_fit_is_a_draw_the_parent_keeps() {
    let w = [100.0, 200.0, 300.0, 400.0, 500.0, 600.0];
    let t = [900.0, 880.0, 910.0, 870.0, 890.0, 860.0];
    let fit = pilot_stats::wps(&w, &t, 0.95, 0.9).unwrap();
    assert!(fit.fit.slope < 0.0);
    let session = SessionResult {
        status: Status::Unresolved,
        estimate: None,
        unresolved_fit: Some(Estimate::from_wps(fit.clone())),
        ..session()
    };
    let measured = Measured {
        session,
        iters: None,
        skipped: None,
    };
    let message = ChildMessage::of(&bench(), &SessionConfig::default(), tsc_clock(), measured);
    let p = sent(&message).outcome.unwrap();
    assert!(p.unresolved);
    assert_eq!(p.estimate.mean, fit.fit.slope);
    assert_eq!(p.estimate.estimator, Estimator::Mean);
    assert_eq!(p.estimate.plain, None);
    // No estimate of the process's own, so no allocations per unit beside it.
    assert_eq!(p.allocations, None);
}

#[test]
fn a_process_without_an_estimate_is_the_benchs_status_not_a_failure() {
    assert_eq!(
        no_estimate_status(&Status::NoSteadyState),
        Status::NoSteadyState
    );
    assert_eq!(
        no_estimate_status(&Status::BelowResolution),
        Status::BelowResolution
    );
    assert_eq!(no_estimate_status(&Status::TimeCap), Status::TimeCap);
    assert_eq!(no_estimate_status(&Status::OutOfReach), Status::TimeCap);
    assert_eq!(
        ProcessEnd::NoEstimate(Status::NoSteadyState).to_string(),
        "the bench's process found no estimate (no steady state)"
    );
    // The status reaches the parent as it ended, typed.
    let ended = |status: Status| {
        let measured = Measured {
            session: SessionResult {
                status,
                estimate: None,
                ..session()
            },
            iters: None,
            skipped: None,
        };
        let message = ChildMessage::of(&bench(), &SessionConfig::default(), tsc_clock(), measured);
        sent(&message).outcome.err().unwrap()
    };
    assert_eq!(
        ended(Status::NoSteadyState),
        ProcessEnd::NoEstimate(Status::NoSteadyState)
    );
    assert_eq!(
        ended(Status::Failed("boom\nat line 3".into())),
        ProcessEnd::Failed("boom\nat line 3".into())
    );
}

#[test]
fn a_cut_or_corrupt_message_is_an_error_naming_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("result.json");
    let measured = Measured {
        session: session(),
        iters: Some(8),
        skipped: None,
    };
    let message = ChildMessage::of(&bench(), &SessionConfig::default(), tsc_clock(), measured);
    message.write(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let named = format!("`{}`", path.display());
    let failure = |bytes: &[u8]| ChildMessage::parse(bytes, &path).err().unwrap();
    // Cut short: the process ended while writing, or the disk filled.
    let cut = failure(&bytes[..bytes.len() / 2]);
    assert!(
        cut.contains(&named) && cut.contains("EOF while parsing"),
        "{cut}"
    );
    assert!(cut.starts_with("failed to read the message of the bench's process"));
    // Not JSON, or JSON of another shape.
    let corrupt = failure(b"\x00\x01 not json");
    assert!(
        corrupt.contains(&named) && corrupt.contains("expected value"),
        "{corrupt}"
    );
    let other = failure(br#"{"schema": "pilot.child-message/1", "outcome": 3}"#);
    assert!(other.contains(&named), "{other}");
    // A bench binary of another pilot, whose child wrote its result document.
    let older = failure(br#"{"schema": "pilot.result/1", "name": "sort", "pis": []}"#);
    assert!(
        older.contains(&named) && older.contains("`pilot.result/1`, not `pilot.child-message/1`"),
        "{older}"
    );
    assert!(older.contains("another version of pilot"), "{older}");
    // The parent's process ends as failed, with the same words.
    assert_eq!(
        super::super::child::read_message(&bytes[..10], &path).err(),
        Some(ProcessEnd::Failed(failure(&bytes[..10])))
    );
}
