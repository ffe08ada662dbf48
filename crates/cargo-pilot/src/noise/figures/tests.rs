//! The figures from scripted rounds: the engine's statistics of the right inputs, the ABBA
//! order of the pairs, the advice.

use super::*;
use crate::noise::rounds::Round;
use pilot_engine::probe::plain::{PlainReading, PlainTimes};

/// Rounds whose first processes took `first` (ns, both workloads alike) and whose second
/// ones took `second`, each process `process_s` long.
fn rounds(first: &[f64], second: &[f64], process_s: f64) -> Rounds {
    let reading = |ns: f64| PlainReading {
        calls: 200,
        workloads: vec![
            PlainTimes {
                median_ns: ns,
                min_ns: ns * 0.9,
            };
            2
        ],
    };
    Rounds {
        rounds: first
            .iter()
            .zip(second)
            .enumerate()
            .map(|(i, (&a, &b))| Round {
                at_s: 3.0 * i as f64,
                readings: [reading(a), reading(b)],
                process_s: [process_s; 2],
                busy: None,
            })
            .collect(),
        busy: None,
        elapsed_s: 3.0 * first.len() as f64,
    }
}

const ASKED: Asked = Asked {
    confidence: 0.95,
    alpha: 0.01,
    against_time_s: 20.0,
};

#[test]
fn the_figures_are_the_engine_s_statistics_of_the_first_processes() {
    let first = [100.0, 102.0, 98.0, 101.0, 99.0, 100.0];
    let doc = document(
        &rounds(&first, &first, 0.25),
        MachineDoc::default(),
        "now".into(),
        ASKED,
    );
    assert_eq!(doc.schema, "pilot.noise/1");
    assert_eq!((doc.rounds.len(), doc.spacing_s), (6, 3.0));
    let w = &doc.workloads[0];
    let logs: Vec<f64> = first.iter().map(|x: &f64| x.ln()).collect();
    let s = Summary::of(&logs).unwrap();
    assert_eq!(w.spread, s.std_dev);
    assert!((w.level_ns - s.mean.exp()).abs() < 1e-9);
    assert_eq!((w.min_ns, w.median_ns, w.max_ns), (98.0, 100.0, 102.0));
    assert_eq!(w.fastest_ns, 98.0 * 0.9);
    assert_eq!(w.next_run, sample_prediction_half_width(s.std_dev, 6, 0.95));
    let t = pilot_stats::summary::t_critical(0.95, 5.0);
    assert_eq!(w.run_to_run, Some(t * s.std_dev));
    let base = detectable_between_runs(s.std_dev, 5.0, 0.01, 0.8).unwrap();
    assert_eq!(w.baseline_detectable, Some(base.exp_m1()));
    let same = detectable_between_runs(s.std_dev, 5.0, 0.01, 0.5).unwrap();
    assert_eq!(w.same_code, Some(same.exp_m1()));
    // Identical pairs: no spread, and so nothing too small for `--against`. 20 s holds 40
    // pairs of two 0.25 s processes.
    assert_eq!(w.pair_spread, Some(0.0));
    assert_eq!((doc.against_pairs, doc.against_pair_s), (40, 0.5));
    assert_eq!(w.against_detectable, Some(0.0));
    assert_eq!(
        doc.rounds[1].medians_ns,
        [vec![102.0, 102.0], vec![102.0, 102.0]]
    );
}

#[test]
fn pairs_alternate_their_order_so_going_second_is_part_of_their_spread() {
    // The second process of every round 2% slower: in ABBA order the pairs' log ratios are
    // +ln 1.02, −ln 1.02, …, whose standard deviation over 6 is ln 1.02 · √(6/5). Short
    // processes count as `--against`'s least, 0.1 s: 20 s hold 100 pairs.
    let first = [100.0; 6];
    let second = [102.0; 6];
    let doc = document(
        &rounds(&first, &second, 0.03),
        MachineDoc::default(),
        "now".into(),
        ASKED,
    );
    let w = &doc.workloads[1];
    let expected = 1.02f64.ln() * (6.0f64 / 5.0).sqrt();
    assert!((w.pair_spread.unwrap() - expected).abs() < 1e-12, "{w:?}");
    // Winsorized at 20% (one of six from each end), the same values: the same spread.
    assert!(
        (w.pair_winsorized_sd.unwrap() - expected).abs() < 1e-12,
        "{w:?}"
    );
    assert_eq!(doc.against_pairs, 100);
    let d = detectable_in_pairs(expected, 100, DEFAULT_TRIM, 0.01, POWER).unwrap();
    assert!(
        (w.against_detectable.unwrap() - d.exp_m1()).abs() < 1e-15,
        "{w:?}"
    );
    assert_eq!(w.spread, 0.0);
}

#[test]
fn the_advice_names_a_noise_threshold_rounded_up_to_half_a_percent() {
    let first = [
        100.0, 103.0, 97.0, 101.0, 99.0, 100.5, 98.5, 102.0, 100.0, 99.5,
    ];
    let second: Vec<f64> = first.iter().map(|x| x * 1.001).collect();
    let doc = document(
        &rounds(&first, &second, 0.2),
        MachineDoc::default(),
        "now".into(),
        ASKED,
    );
    let same = doc.workloads[0].same_code.unwrap();
    let noise = doc.advice.noise.unwrap();
    assert!(noise >= same && noise < same + 0.005, "{noise} {same}");
    assert_eq!((noise * 200.0).round(), noise * 200.0);
    assert!(doc.advice.prefer_against);
    // Ten rounds: `--against`'s figure is from the winsorized spread; from fewer, the plain.
    let w = &doc.workloads[0];
    let pairs = doc.against_pairs;
    let d = detectable_in_pairs(
        w.pair_winsorized_sd.unwrap(),
        pairs,
        DEFAULT_TRIM,
        0.01,
        POWER,
    );
    assert_eq!(w.against_detectable, d.map(f64::exp_m1));
    assert_eq!(pair_sd_for_against(Some(2.0), Some(1.0), 9), Some(2.0));
    assert_eq!(pair_sd_for_against(Some(2.0), Some(1.0), 10), Some(1.0));
    assert!(
        doc.advice.lines[0].starts_with(&format!("use `--noise {noise}` or more")),
        "{:?}",
        doc.advice.lines
    );
    assert!(doc.advice.lines[1].starts_with("prefer `--against`"));
    // Ten rounds are not few.
    assert_eq!(doc.advice.lines.len(), 2, "{:?}", doc.advice.lines);
    // A quiet machine: the default threshold is enough.
    let flat = [100.0, 100.1, 99.9, 100.0, 100.05, 99.95];
    let doc = document(
        &rounds(&flat, &flat, 0.2),
        MachineDoc::default(),
        "now".into(),
        ASKED,
    );
    assert!(doc.advice.lines[0].starts_with("the default `--noise 0.01` is wide enough"));
    assert!(
        doc.advice
            .lines
            .last()
            .unwrap()
            .starts_with("6 rounds are few")
    );
}

#[test]
fn percentages_keep_two_significant_figures() {
    assert_eq!(percent(0.073), "7.3%");
    assert_eq!(percent(0.0058), "0.58%");
    assert_eq!(percent(0.000041), "0.0041%");
    assert_eq!(percent(0.123), "12%");
    assert_eq!(percent(0.0), "0%");
}

#[test]
fn the_least_against_process_is_against_s_least_session() {
    let least = crate::against::plan::PROCESS_CAP.0.as_secs_f64();
    assert_eq!(LEAST_AGAINST_PROCESS_S, least);
}
