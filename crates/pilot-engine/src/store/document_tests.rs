//! The documents of `pilot_format` as the store builds them from sessions: every document
//! survives a write and a read unchanged, for every status a result can have; and validation
//! names the key at fault for each range it checks.

use std::time::Duration;

use serde::Serialize;

use crate::record::ClockInfo;
use crate::session::{Estimate, RoundRecord, SessionConfig, SessionResult, Status};
use crate::store::result::{BenchRecord, document};
use pilot_format::*;
use pilot_stats::ConfidenceInterval;

fn estimate() -> Estimate {
    Estimate {
        estimator: crate::settings::Estimator::Mean,
        plain: None,
        trimmed: None,
        mean: 100.0,
        ci: ConfidenceInterval {
            low: 99.0,
            high: 101.0,
            confidence: 0.95,
        },
        n: 4000,
        subsession_size: 2,
        autocorrelation: 0.05,
        required_n: Some(3000),
        subsession_means: vec![99.0, 100.0, 101.0, 100.0],
        wps: None,
        variance_inflation: 1.2,
        between_rounds: false,
        rounds: 12,
        dof: 9.0,
        round_excess: 1.0,
        modes: 0,
    }
}

fn session(status: Status) -> SessionResult {
    let has_estimate = matches!(status, Status::Converged | Status::TimeCap);
    SessionResult {
        status,
        estimate: has_estimate.then(estimate),
        rounds: vec![RoundRecord {
            work: 1000,
            duration: Duration::from_micros(120),
            units: 1000,
            iterations: 1,
            stable: Some((10, 1000)),
            analysed: true,
            mean_ns: Some(100.0),
            bins: None,
            rss_bytes: Some(12 << 20),
            end: Duration::from_micros(120),
            marks: vec!["busy_machine"],
            machine: Some(crate::checks::sampler::Interval {
                others_cores: 1.25,
                own_cores: 1.0,
                steal: 0.01,
                cpu_pressure: Some(0.5),
                ..Default::default()
            }),
        }],
        removed: 10,
        readings: 1000,
        elapsed: Duration::from_millis(1500),
        warnings: vec![crate::session::Warning::Check("outliers".into())],
        process_means: Vec::new(),
        unresolved_fit: None,
        drift: None,
        checks: vec![crate::checks::check(
            crate::checks::Kind::Outliers,
            "a warning".into(),
            serde_json::json!({"z": 12, "share": 0.012}),
        )],
        warm_up: Some(crate::session::WarmUpClass::WarmUp),
        outliers: Some(pilot_stats::OutlierCount {
            z: 12,
            mad: 40,
            readings: 990,
            sum: 99_000.0,
            outlier_sum: 2400.0,
        }),
        overhead: Some(crate::checks::overhead::Overhead {
            per_unit_ns: 1.5,
            low: 0.5,
            high: 2.5,
            confidence: 0.95,
            blocks: 7,
            target_ns: 0.8,
            samples: vec![1.0; 7],
            time_s: 0.05,
        }),
        machine_state: Some(crate::session::MachineState::Sampled),
        warm_up_start: None,
        warm_up_work: None,
        allocations: None,
    }
}

fn result_doc(status: Status) -> ResultDoc {
    let config = SessionConfig::default();
    let s = session(status);
    document(&BenchRecord {
        name: "sort/1000",
        target: "demo",
        form: pilot_format::Form::Micro,
        throughput: Some(&crate::store::result::Rate::units("KiB")),
        config: &config,
        session: &s,
        iterations_per_unit: Some(16),
        clock: ClockInfo {
            overhead_ns: 20.0,
            resolution_ns: 1.0,
            timer: crate::record::Timer::Instant,
        },
        machine: Some(&MachineDoc::default()),
        reproducibility: None,
        started: "2026-11-23T10:00:00Z".into(),
        finished: "2026-11-23T10:00:02Z".into(),
    })
}

/// Writes `doc` and reads it back.
fn round_trip<T: Serialize + serde::de::DeserializeOwned>(doc: &T) -> T {
    let text = serde_json::to_string_pretty(doc).unwrap();
    crate::store::typed(serde_json::from_str(&text).unwrap()).unwrap()
}

#[test]
fn a_result_of_every_status_reads_back_unchanged_and_valid() {
    let statuses = [
        Status::Converged,
        Status::TimeCap,
        Status::NoSteadyState,
        Status::BelowResolution,
        Status::BelowShellResolution("within the shell's start-up".into()),
        Status::Unresolved,
        Status::Failed("boom".into()),
    ];
    for status in statuses {
        let name = status.as_str();
        assert!(STATUSES.contains(&name), "{name} is not a known status");
        let doc = result_doc(status);
        assert_eq!(round_trip(&doc), doc, "{name}");
        doc.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(doc.pis.is_empty(), doc.subsession.is_none(), "{name}");
    }
    assert_eq!(
        result_doc(Status::Failed("boom".into())).status_detail,
        Some("boom".into())
    );
    // Below a resolution, the document says which, and how fine it is.
    assert_eq!(
        result_doc(Status::BelowShellResolution(
            "within the shell's start-up".into()
        ))
        .status_detail,
        Some("within the shell's start-up".into())
    );
    assert_eq!(
        result_doc(Status::BelowResolution).status_detail.as_deref(),
        Some(
            "most unit readings were 0 ns: the units are shorter than the clock's resolution \
             of 1.000 ns"
        )
    );
}

// Long because it builds one full instance of each document, every field set.
#[test]
fn every_other_document_reads_back_unchanged() {
    let range = RangeDoc {
        low: 0.9,
        high: 1.1,
    };
    let compare = CompareDoc {
        schema: COMPARE_SCHEMA.into(),
        alpha: 0.01,
        noise: 0.01,
        confidence: 0.95,
        correction: Some("holm".into()),
        method: Some("paired".into()),
        against: Some("origin/main".into()),
        benches: vec![CompareBenchDoc {
            name: "sort".into(),
            target: "demo".into(),
            base: Some(100.0),
            new: None,
            change: None,
            change_ci: Some(range),
            p: Some(0.5),
            p_adjusted: Some(0.75),
            verdict: "missing".into(),
            method: "in the baseline, not in the new results".into(),
            pairs: Some(7),
            reason: Some("only 7 pairs in the time given".into()),
            pis: vec![pilot_format::ComparePiDoc {
                name: "allocations".into(),
                unit: "allocs".into(),
                base: 3.0,
                new: 4.0,
                change: Some(1.0 / 3.0),
                change_ci: Some(range),
                p: Some(0.0),
                verdict: "regressed".into(),
                method: "exact counts".into(),
            }],
            instructions: Some(pilot_format::CompareCountDoc {
                base: 12_519.0,
                new: 12_582.0,
                change: 0.005,
                change_ci: Some(range),
                p: 0.0,
                verdict: "regressed".into(),
                method: "instructions: Welch's t over 3 vs 3 counting processes".into(),
            }),
            changed: Some("code".into()),
            explained: Some(pilot_format::ExplainedDoc {
                functions: vec![pilot_format::FunctionChangeDoc {
                    name: "demo::merge".into(),
                    base_self: 100.0,
                    new_self: 110.0,
                    base_inclusive: 150.0,
                    new_inclusive: 160.0,
                }],
                base_stacks: vec![pilot_format::StackDoc {
                    frames: vec!["demo::sort".into(), "demo::merge".into()],
                    instructions: 100.0,
                }],
                new_stacks: Vec::new(),
                allocation_sites: Some(vec![pilot_format::AllocationSiteChangeDoc {
                    name: "demo::split".into(),
                    base: 2.0,
                    new: 3.0,
                }]),
            }),
        }],
    };
    assert_eq!(round_trip(&compare), compare);
    let run = RunDoc {
        schema: RUN_SCHEMA.into(),
        target: Some("demo".into()),
        started: Some("2026-11-23T10:00:00Z".into()),
        machine: Some(MachineDoc::default()),
        benches: Some(vec!["sort/1000".into()]),
        results: vec![result_doc(Status::Converged)],
        comparison: Some(compare),
        groups: Some(vec![GroupDoc {
            name: "g".into(),
            ranking: vec!["a".into(), "b".into()],
            pairs: vec![PairDoc {
                a: "a".into(),
                b: "b".into(),
                ratio: 1.5,
                ratio_ci: range,
                p: None,
                verdict: "faster".into(),
                caveat: Some(FEW_ROUNDS.into()),
            }],
            members: vec![MemberDoc {
                name: "a".into(),
                mean: 1.0,
                ci: range,
            }],
            status: "settled".into(),
            interleaved: true,
            cycles: 12,
            elapsed_s: 1.5,
            ranking_settled_s: Some(0.9),
        }]),
    };
    assert_eq!(round_trip(&run), run);
    // `cargo pilot bench --json` writes only results and comparison: the other keys are left
    // out, not null.
    let short = RunDoc {
        target: None,
        started: None,
        machine: None,
        benches: None,
        groups: None,
        ..run
    };
    let keys: Vec<String> = match serde_json::to_value(&short).unwrap() {
        serde_json::Value::Object(map) => map.keys().cloned().collect(),
        other => panic!("{other}"),
    };
    assert_eq!(keys, ["schema", "results", "comparison"]);
    assert_eq!(round_trip(&short), short);
    let progress = ProgressDoc {
        schema: PROGRESS_SCHEMA.into(),
        started: "2026-11-23T10:00:00Z".into(),
        finished: false,
        done: vec!["a".into()],
    };
    assert_eq!(round_trip(&progress), progress);
    let cargo = CargoProgressDoc {
        schema: CARGO_PROGRESS_SCHEMA.into(),
        finished: false,
        running: Some(RunningDoc {
            package: "p".into(),
            target: "t".into(),
        }),
        done: vec![FinishedTargetDoc {
            package: "p".into(),
            target: "u-v".into(),
            results_target: "u_v".into(),
            benches: vec!["x".into()],
        }],
    };
    assert_eq!(round_trip(&cargo), cargo);
}

#[test]
fn validation_names_the_key_at_fault() {
    let bad = |f: &dyn Fn(&mut ResultDoc)| {
        let mut d = result_doc(Status::Converged);
        f(&mut d);
        d.validate().unwrap_err()
    };
    assert!(bad(&|d| d.schema = "pilot.result/2".into()).contains("newer pilot"));
    assert!(bad(&|d| d.schema = "other/1".into()).contains("is not `pilot.result/1`"));
    assert_eq!(bad(&|d| d.name.clear()), "`name` is empty");
    assert!(bad(&|d| d.status = "great".into()).starts_with("`status` is `great`"));
    assert_eq!(
        bad(&|d| d.pis[0].mean = Some(f64::NAN)),
        "`pis[0].mean` is missing or not a number"
    );
    assert_eq!(
        bad(&|d| d.pis[0].mean = Some(-3.0)),
        "`pis[0].mean` is -3, expected a positive time"
    );
    assert_eq!(
        bad(&|d| d.pis[0].ci.low = Some(100.5)),
        "`pis[0].ci.low` (100.5) is above the mean (100)"
    );
    assert_eq!(
        bad(&|d| d.pis[0].ci.high = Some(99.5)),
        "`pis[0].ci.high` (99.5) is below the mean (100)"
    );
    assert_eq!(
        bad(&|d| d.pis[0].ci.high = None),
        "`pis[0].ci.high` is missing or not a number"
    );
    assert_eq!(
        bad(&|d| d.pis[0].ci.confidence = 1.0),
        "`pis[0].ci.confidence` is 1, expected between 0 and 1"
    );
    assert!(bad(&|d| d.pis[0].interval_from = Some("luck".into())).contains("`luck`"));
    assert_eq!(
        bad(&|d| d.pis[0].name = "throughput".into()),
        "`pis[0]` is not the `time` performance index"
    );
    assert!(bad(&|d| d.subsession = None).starts_with("`subsession` is missing"));
    assert_eq!(
        bad(&|d| d.subsession.as_mut().unwrap().count = 0),
        "`subsession.count` is 0, expected at least 1"
    );
    assert_eq!(
        bad(&|d| d.subsession.as_mut().unwrap().variance = -1.0),
        "`subsession.variance` is -1, expected 0 or more"
    );
    assert_eq!(
        bad(&|d| d.subsession.as_mut().unwrap().variance_inflation = 0.5),
        "`subsession.variance_inflation` is 0.5, expected 1 or more"
    );
    assert_eq!(
        bad(&|d| d.processes.means = vec![1.0, f64::INFINITY]),
        "`processes.means[1]` is not a number"
    );
    assert_eq!(
        bad(&|d| d.pis.clear()),
        "`pis` is empty but `status` is `ok`"
    );
    let learnt = |d: &mut ResultDoc, f: &dyn Fn(&mut BandDoc)| {
        let mut b = band();
        f(&mut b);
        d.pis[0].reproducibility = Some(ReproducibilityDoc::Learnt(b));
    };
    assert_eq!(
        bad(&|d| learnt(d, &|b| b.sd = f64::NAN)),
        "`pis[0].reproducibility.sd` is NaN, expected a finite number of 0 or more"
    );
    assert_eq!(
        bad(&|d| learnt(d, &|b| b.low = 101.0)),
        "`pis[0].reproducibility` [101, 102] does not hold its center (100)"
    );
    assert!(
        bad(&|d| learnt(d, &|b| b.learnt_from = "luck".into()))
            .starts_with("`pis[0].reproducibility.learnt_from` is `luck`")
    );
    assert_eq!(
        bad(&|d| {
            d.pis[0].reproducibility = Some(ReproducibilityDoc::Learning(LearningDoc {
                runs: 3,
                runs_needed: 3,
                spacing_s: 60,
            }))
        }),
        "`pis[0].reproducibility.runs` is 3, but a band still learning needs more than that (3)"
    );
}

/// A band around 100 ns, ±2%.
fn band() -> BandDoc {
    BandDoc {
        center: 100.0,
        low: 98.0,
        high: 102.0,
        half_width: 0.02,
        sd: 0.008,
        dof: 4.0,
        runs: 5,
        learnt_from: "bench".into(),
    }
}

#[test]
fn reproducibility_reads_back_in_either_state_and_by_name() {
    let mut doc = result_doc(Status::Converged);
    doc.pis[0].reproducibility = Some(ReproducibilityDoc::Learnt(band()));
    assert_eq!(round_trip(&doc), doc);
    doc.validate().unwrap();
    let json = serde_json::to_value(&doc.pis[0]).unwrap();
    assert_eq!(json["reproducibility"]["state"], "learnt");
    assert_eq!(json["reproducibility"]["learnt_from"], "bench");
    assert_eq!(json["reproducibility"]["half_width"], 0.02);
    let learning = ReproducibilityDoc::Learning(LearningDoc {
        runs: 1,
        runs_needed: 3,
        spacing_s: 60,
    });
    doc.pis[0].reproducibility = Some(learning);
    assert_eq!(round_trip(&doc), doc);
    doc.validate().unwrap();
    assert_eq!(
        serde_json::to_value(&doc.pis[0]).unwrap()["reproducibility"],
        serde_json::json!({"state": "learning", "runs": 1, "runs_needed": 3, "spacing_s": 60})
    );
    // Written without it (a combination of processes `--against` started, an imported result):
    // no key at all.
    doc.pis[0].reproducibility = None;
    let json = serde_json::to_value(&doc.pis[0]).unwrap();
    assert!(json.get("reproducibility").is_none() && json.get("machine").is_none());
}

/// `--instructions` counts a bench whose time found no estimate: its document holds the
/// counts alone, reads back valid, and is read for its instructions.
#[test]
fn counts_without_a_time_read_back_valid() {
    use crate::counts::CountEstimate;
    let mut doc = result_doc(Status::Unresolved);
    assert!(doc.pis.is_empty());
    let per_process = [1000.0; 4];
    let e = CountEstimate::over(&[&per_process, &per_process, &per_process], 0.95).unwrap();
    let how = CountsDoc {
        tool: "callgrind (valgrind-3.19.0)".into(),
        process_means: vec![1000.0; 3],
        cycles_process_means: None,
        rounds: 4,
        units_per_round: 64,
        iterations_per_unit: 1,
        empty_unit: 3.0,
        elapsed_s: 1.5,
        profile: None,
    };
    crate::store::result::add_counts(&mut doc, &e, None, how, 0.95);
    assert_eq!(doc.pis[0].name, INSTRUCTIONS_PI);
    assert_eq!(doc.time(), None);
    assert_eq!(round_trip(&doc), doc);
    doc.validate().unwrap();
    let read = super::read::from_document(&doc, std::path::Path::new("r.json")).unwrap();
    assert!(read.time.is_none());
    assert_eq!(read.instructions.unwrap().process_means, vec![1000.0; 3]);

    // Counts alone are no result of an `ok` session, and only counts stand without a time.
    let mut ok = doc.clone();
    ok.status = "ok".into();
    assert_eq!(
        ok.validate().unwrap_err(),
        "`pis[0]` is not the `time` performance index"
    );
    let mut other = doc.clone();
    other.pis[0].name = "allocations".into();
    assert_eq!(
        other.validate().unwrap_err(),
        "`pis[0]` is `allocations`, but a document without a `time` PI holds only counts"
    );
    let mut unexplained = doc;
    unexplained.counts = None;
    assert_eq!(
        unexplained.validate().unwrap_err(),
        "`counts` is missing: the document has counts and no time"
    );
}
