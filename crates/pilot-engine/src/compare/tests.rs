//! Two estimates compared against values worked out by hand and with scipy, and whole runs
//! compared: renamed, removed and failed benches, sides from other machines.

use super::*;
use crate::store::{RunToRun, SampleMoments};
use pilot_stats::summary::t_critical;

/// A one-process estimate of `mean` with standard error `se` from 100 subsession samples.
fn est(mean: f64, se: f64) -> SavedEstimate {
    let half = t_critical(0.95, 99.0) * se;
    SavedEstimate {
        mean,
        low: mean - half,
        high: mean + half,
        confidence: 0.95,
        interval_from: "readings".into(),
        dof: 99.0,
        samples: SampleMoments {
            count: 100,
            mean,
            variance: se * se * 100.0,
            variance_inflation: 1.0,
        },
        process_means: Vec::new(),
        run_to_run: None,
    }
}

fn verdict(base: SavedEstimate, new: SavedEstimate) -> Verdict {
    compare_estimates(&base, &new, &CompareOptions::default()).verdict
}

#[test]
fn the_machines_run_to_run_variation_is_a_component_of_each_side() {
    // 100 vs 104, each with se 1 over 99 degrees of freedom: alone, p ≈ 0.005, regressed.
    assert_eq!(
        verdict(est(100.0, 1.0), est(104.0, 1.0)),
        Verdict::Regressed
    );
    // The base's run-to-run sd: the speed probe's 2% with its own 1% standard error added,
    // √(2² + 1²)% over 9 degrees of freedom (as an older document's probe part reads). What
    // it adds beyond its own variance is the machine's 2% alone, given to the new side too
    // (the same machine): the variances are 1, 1, 2² and 2.08², the degrees of freedom 99,
    // 99, 9, 9; scipy: 2 · t.sf(4 / √10.3264, 27.499228249188544) = 0.22372432453315155.
    let base = SavedEstimate {
        run_to_run: Some(RunToRun {
            sd: 0.02f64.hypot(0.01),
            dof: 9.0,
            runs: 10,
        }),
        ..est(100.0, 1.0)
    };
    let found = compare_estimates(&base, &est(104.0, 1.0), &CompareOptions::default());
    assert!((found.p - 0.22372432453315155).abs() < 1e-9, "{}", found.p);
    assert_eq!(found.verdict, Verdict::Undecided);
    assert!(
        found.method.contains("run-to-run variation on each side"),
        "{}",
        found.method
    );
    // A bench's own runs spread by 2%, its run's own 1% among it: the excess is
    // 2² − 1² = 3 (relative, ×100²), and 3 · 1.04² on the new side; the variances 1, 1, 3,
    // 3.2448 over 99, 99, 9, 9 dof. scipy: ν = 31.03874278844358,
    // 2 · t.sf(4 / √8.2448, ν) = 0.1734992728351283.
    let base = SavedEstimate {
        run_to_run: Some(RunToRun {
            sd: 0.02,
            dof: 9.0,
            runs: 10,
        }),
        ..est(100.0, 1.0)
    };
    let found = compare_estimates(&base, &est(104.0, 1.0), &CompareOptions::default());
    assert!((found.p - 0.1734992728351283).abs() < 1e-9, "{}", found.p);
    // A run noisier than its runs' spread: nothing beyond its own variance to add.
    let quiet = SavedEstimate {
        run_to_run: Some(RunToRun {
            sd: 0.005,
            dof: 9.0,
            runs: 10,
        }),
        ..est(100.0, 1.0)
    };
    let alone = compare_estimates(
        &est(100.0, 1.0),
        &est(104.0, 1.0),
        &CompareOptions::default(),
    );
    let found = compare_estimates(&quiet, &est(104.0, 1.0), &CompareOptions::default());
    assert!((found.p - alone.p).abs() < 1e-12, "{} {}", found.p, alone.p);
}

#[test]
fn verdicts_need_significance_and_a_change_beyond_the_noise() {
    // 5% slower, se 0.1%: p tiny, change > 1%.
    assert_eq!(
        verdict(est(100.0, 0.1), est(105.0, 0.1)),
        Verdict::Regressed
    );
    assert_eq!(verdict(est(100.0, 0.1), est(95.0, 0.1)), Verdict::Improved);
    // 0.5% slower with se 0.05%: significant, but within the 1% threshold.
    assert_eq!(
        verdict(est(100.0, 0.05), est(100.5, 0.05)),
        Verdict::NoChange
    );
    // 0.2% with se 0.1%: not significant, interval inside ±1%.
    assert_eq!(verdict(est(100.0, 0.1), est(100.2, 0.1)), Verdict::NoChange);
    // 3% with se 2%: not significant, interval reaches past 1%.
    assert_eq!(
        verdict(est(100.0, 2.0), est(103.0, 2.0)),
        Verdict::Undecided
    );
}

fn saved(name: &str, time: Option<SavedEstimate>) -> SavedResult {
    SavedResult {
        path: format!("{name}.json").into(),
        name: name.into(),
        target: "t".into(),
        status: if time.is_some() { "ok" } else { "failed" }.into(),
        status_detail: None,
        time,
        counts: Vec::new(),
        finished: None,
        warnings: Vec::new(),
        machine: None,
        timer: "instant".into(),
        instructions: None,
    }
}

#[test]
fn sides_from_other_machines_or_compilers_are_named() {
    let on = |cpu: &str, rustc: &str| {
        let mut r = saved("a", None);
        r.machine = Some(pilot_format::MachineDoc {
            cpu: Some(cpu.into()),
            cores: Some(2),
            rustc: Some(rustc.into()),
            ..Default::default()
        });
        r
    };
    let base = [on("EPYC 7B13", "rustc 1.90.0")];
    assert!(machine_mismatch(&base, &[on("EPYC 7B13", "rustc 1.90.0")]).is_empty());
    let w = machine_mismatch(&base, &[on("Xeon E5", "rustc 1.91.0")]);
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w[0].contains("`EPYC 7B13` and `Xeon E5`"), "{w:?}");
    assert!(w[1].contains("compilers"), "{w:?}");
    // A document without a machine record is not compared.
    assert!(machine_mismatch(&base, &[saved("a", None)]).is_empty());
    // Nor its timer, where both sides say the same.
    let mut tsc = saved("a", None);
    tsc.timer = "tsc".into();
    let w = machine_mismatch(&[saved("a", None)], &[tsc]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("different timers (`instant` and `tsc`)"),
        "{w:?}"
    );
}

/// `e` with a run-to-run variation learnt: sd 0.2% over 4 degrees of freedom, from 5 runs.
fn learnt(e: SavedEstimate) -> SavedEstimate {
    SavedEstimate {
        run_to_run: Some(RunToRun {
            sd: 0.002,
            dof: 4.0,
            runs: 5,
        }),
        ..e
    }
}

#[test]
fn one_process_a_side_across_runs_gives_no_verdict_until_the_machines_variation_is_learnt() {
    let pair = |b: SavedEstimate, n: SavedEstimate| {
        compare_pair(
            Some(&saved("a", Some(b))),
            Some(&saved("a", Some(n))),
            &CompareOptions::default(),
        )
    };
    // 100 vs 104 with se 1 each: p ≈ 0.005 (see above), a regression within one process each;
    // across runs nothing says how far the machine moved between them.
    let c = pair(est(100.0, 1.0), est(104.0, 1.0));
    assert_eq!(c.verdict, Verdict::Undecided);
    assert!(c.p.unwrap() < 0.01, "{:?}", c.p);
    assert!(
        c.method
            .contains("undecided across runs: one process on each side"),
        "{}",
        c.method
    );
    // Nor is a change inside the noise threshold "no change".
    assert_eq!(
        pair(est(100.0, 0.1), est(100.1, 0.1)).verdict,
        Verdict::Undecided
    );
    // The variation learnt on either side is that evidence: 100 vs 110 with se 1 each and
    // 0.2% from run to run regresses.
    assert_eq!(
        pair(learnt(est(100.0, 1.0)), est(110.0, 1.0)).verdict,
        Verdict::Regressed
    );
    assert_eq!(
        pair(est(100.0, 1.0), learnt(est(110.0, 1.0))).verdict,
        Verdict::Regressed
    );
    // So are several processes on one side (their spread is given to the other).
    let processes = SavedEstimate {
        process_means: vec![99.0, 100.0, 101.0, 100.5, 99.5],
        ..est(100.0, 1.0)
    };
    assert_eq!(pair(processes, est(110.0, 1.0)).verdict, Verdict::Regressed);
}

#[test]
fn programs_readings_are_each_a_process_so_their_comparison_across_runs_decides() {
    let program = |e: SavedEstimate| SavedResult {
        target: pilot_format::PROGRAM_TARGET.into(),
        ..saved("a", Some(e))
    };
    // 100 vs 104 with se 1 each (p ≈ 0.005, above): each reading a run in a process of its
    // own, so the readings' spread is the between-process evidence a bench's one process lacks.
    let c = compare_pair(
        Some(&program(est(100.0, 1.0))),
        Some(&program(est(104.0, 1.0))),
        &CompareOptions::default(),
    );
    assert_eq!(c.verdict, Verdict::Regressed, "{}", c.method);
    assert!(
        c.method
            .starts_with("Welch's t over each program's runs, a process each"),
        "{}",
        c.method
    );
    // A program against a bench's one process: the program's side is that evidence, and the
    // bench's readings are still one process's.
    let c = compare_pair(
        Some(&program(est(100.0, 1.0))),
        Some(&saved("a", Some(est(104.0, 1.0)))),
        &CompareOptions::default(),
    );
    assert_eq!(c.verdict, Verdict::Regressed, "{}", c.method);
    assert!(
        c.method.starts_with("Welch's t within one process each"),
        "{}",
        c.method
    );
}

#[test]
fn renamed_removed_and_failed_benches_are_rows_not_errors() {
    let base = vec![
        saved("kept", Some(learnt(est(100.0, 0.1)))),
        saved("old_name", Some(est(50.0, 0.1))),
        saved("broke", Some(est(10.0, 0.1))),
    ];
    let new = vec![
        saved("kept", Some(learnt(est(100.1, 0.1)))),
        saved("new_name", Some(est(50.0, 0.1))),
        saved("broke", None),
    ];
    let cs = compare(&base, &new, &CompareOptions::default());
    let got: Vec<(&str, Verdict)> = cs.iter().map(|c| (c.name.as_str(), c.verdict)).collect();
    assert_eq!(
        got,
        vec![
            ("broke", Verdict::Failed),
            ("kept", Verdict::NoChange),
            ("new_name", Verdict::New),
            ("old_name", Verdict::Missing),
        ]
    );
    assert!(cs[0].method.contains("broke.json"), "{}", cs[0].method);
}

/// `saved(name, …)` of bench target `target`, finished at `finished`, read from `folder`.
fn of(target: &str, name: &str, mean: f64, finished: &str, folder: &str) -> SavedResult {
    let mut r = saved(name, Some(learnt(est(mean, 0.1))));
    r.target = target.into();
    r.finished = Some(finished.into());
    r.path = format!("{folder}/{target}/{name}.json").into();
    r
}

#[test]
fn the_latest_results_are_compared_only_where_the_baseline_measured_and_they_moved_on() {
    // Baseline `main` saved from a run of targets `io` and `cpu`; since then `cpu` ran again
    // (`sum` and the added `sum_small`), and `other`, a target the baseline never measured.
    let base = vec![
        of("cpu", "sum", 100.0, "10:00", "baselines/main"),
        of("io", "read", 50.0, "10:01", "baselines/main"),
        of("io", "gone", 20.0, "10:01", "baselines/main"),
    ];
    let latest = vec![
        of("cpu", "sum", 130.0, "11:00", "results"),
        of("cpu", "sum_small", 1.0, "11:00", "results"),
        of("io", "read", 50.0, "10:01", "results"),
        of("other", "spin", 7.0, "09:00", "results"),
    ];
    let (cs, left_out) = against_latest(&base, &latest, &CompareOptions::default());
    let got: Vec<(&str, &str, Verdict)> = cs
        .iter()
        .map(|c| (c.target.as_str(), c.name.as_str(), c.verdict))
        .collect();
    assert_eq!(
        got,
        vec![
            ("cpu", "sum", Verdict::Regressed),
            ("cpu", "sum_small", Verdict::New),
            ("io", "gone", Verdict::Missing),
        ]
    );
    // `io/read` is the baseline's own measurement, not compared with itself; `other` is not
    // new to a baseline that never measured its target.
    assert_eq!(
        left_out,
        LeftOut {
            not_rerun: vec!["io/read".into()],
            other_targets: vec!["other".into()],
        }
    );
    // A baseline whose results do not name their targets (an import) takes every result.
    let mut unnamed = base.clone();
    unnamed.iter_mut().for_each(|b| b.target.clear());
    let (cs, left_out) = against_latest(&unnamed, &latest, &CompareOptions::default());
    assert!(cs.iter().any(|c| c.target == "other"), "{cs:?}");
    assert!(left_out.other_targets.is_empty());
}

#[test]
fn p_is_symmetric_and_the_change_ci_holds_the_change() {
    let (a, b) = (est(100.0, 0.7), est(102.0, 0.4));
    let ab = compare_estimates(&a, &b, &CompareOptions::default());
    let ba = compare_estimates(&b, &a, &CompareOptions::default());
    assert!((ab.p - ba.p).abs() < 1e-12);
    let (lo, hi) = ab.change_ci.unwrap();
    assert!(lo < ab.change && ab.change < hi);
}

#[test]
fn a_baseline_whose_processes_split_into_speeds_gives_no_verdict_while_the_intervals_overlap() {
    // The baseline of a routine that runs at 0.72 ms on a quiet machine, saved while builds
    // ran: seven processes slowed to about 1.04 ms, one at 0.7336 ms, which its run could not
    // tell from the code's own speed; its interval spans both. Welch's t alone on its width
    // calls the next run on unchanged code (0.72 ms ± 0.5%) improved.
    let z = t_critical(0.95, 7.0);
    let base = SavedEstimate {
        interval_from: "modes".into(),
        dof: 7.0,
        process_means: vec![1.03, 1.04, 1.05, 0.7336, 1.04, 1.035, 1.045, 1.04],
        low: 0.7336 - 0.004,
        high: 1.06,
        ..est(1.04, (1.06 - 0.7296) / 2.0 / z)
    };
    let mut new = est(0.72, 0.0018);
    new.process_means = vec![0.719, 0.721, 0.72, 0.718, 0.722, 0.72, 0.72, 0.72];
    let found = compare_estimates(&base, &new, &CompareOptions::default());
    assert_eq!(found.verdict, Verdict::Undecided, "{found:?}");
    assert!(
        found.method.contains("could not tell apart"),
        "{}",
        found.method
    );
    // Beyond the span's fast end by 2% (the fast process was slowed a little too): the same.
    let faster = est(0.715, 0.0018);
    assert_eq!(
        compare_estimates(&base, &faster, &CompareOptions::default()).verdict,
        Verdict::Undecided
    );
    // The same without the split would be a verdict: the rule is what makes it undecided.
    let plain = SavedEstimate {
        interval_from: "processes".into(),
        ..base.clone()
    };
    assert_eq!(
        compare_estimates(&plain, &new, &CompareOptions::default()).verdict,
        Verdict::Improved
    );
    // A new run faster than the span is no improvement either: the baseline's code may have
    // run that fast under its slowed processes.
    assert_eq!(
        compare_estimates(&base, &est(0.5, 0.001), &CompareOptions::default()).verdict,
        Verdict::Undecided
    );
    // Slower than even the slowed processes is a regression whatever the code's speed was.
    assert_eq!(
        compare_estimates(&base, &est(2.0, 0.002), &CompareOptions::default()).verdict,
        Verdict::Regressed
    );
    // The new run split, the baseline clean: only an improvement below the baseline stands.
    let (clean, split) = (est(1.0, 0.002), SavedEstimate { ..base.clone() });
    assert_eq!(
        compare_estimates(&clean, &split, &CompareOptions::default()).verdict,
        Verdict::Undecided
    );
    assert_eq!(
        compare_estimates(&est(2.0, 0.002), &split, &CompareOptions::default()).verdict,
        Verdict::Improved
    );
}
