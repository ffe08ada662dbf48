use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

use super::*;
use crate::compare::paired::compare_paired;
use crate::compare::{Change, CountComparison};

/// A compared bench with a change, its interval, its p and its own verdict.
fn bench(name: &str, change: f64, ci: (f64, f64), p: f64, verdict: Verdict) -> Comparison {
    Comparison {
        name: name.into(),
        target: String::new(),
        base: None,
        new: None,
        change: Some(change),
        change_ci: Some(ci),
        confidence: 0.95,
        p: Some(p),
        p_adjusted: None,
        verdict,
        method: String::new(),
        pairs: None,
        reason: None,
        pis: Vec::new(),
        instructions: None,
    }
}

fn options(rule: SuiteRule) -> CompareOptions {
    CompareOptions {
        rule,
        ..CompareOptions::default()
    }
}

#[test]
fn holm_and_bh_match_the_reference_values() {
    // `python3 lab/multiple_comparisons_reference.py`: Holm by its definition, BH as scipy's
    // false_discovery_control(ps, method="bh").
    let ps = [
        0.01, 0.04, 0.03, 0.005, 0.5, 0.04, 0.2, 0.0, 1.0, 0.0101, 0.00045, 0.06,
    ];
    let holm = [
        0.09, 0.24, 0.21, 0.05, 1.0, 0.24, 0.6, 0.0, 1.0, 0.09, 0.00495, 0.24,
    ];
    let bh = [
        0.02424,
        0.06,
        0.06,
        0.02,
        0.545_454_545_454_545_4,
        0.06,
        0.24,
        0.0,
        1.0,
        0.02424,
        0.0027,
        0.08,
    ];
    for (rule, want) in [
        (SuiteRule::Holm, holm),
        (SuiteRule::BenjaminiHochberg, bh),
        (SuiteRule::PerBench, ps),
    ] {
        let got = rule.adjust(&ps);
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            assert!((g - w).abs() < 1e-12, "{rule:?} [{i}]: {g} vs {w}");
        }
    }
}

#[test]
fn a_verdict_is_taken_again_on_the_adjusted_p() {
    // Three benches tested: p 0.004 (+2%), 0.02, 0.5. Holm: 3·0.004 = 0.012 ≥ 0.01, so the
    // +2% that regressed alone is undecided in the suite; the failed and new rows are no tests.
    let mut suite = vec![
        bench("a", 0.02, (0.007, 0.033), 0.004, Verdict::Regressed),
        bench("b", 0.001, (-0.02, 0.02), 0.02, Verdict::Undecided),
        bench("c", 0.0, (-0.005, 0.005), 0.5, Verdict::NoChange),
        Comparison {
            p: None,
            verdict: Verdict::Failed,
            ..bench("d", 0.0, (0.0, 0.0), 1.0, Verdict::Failed)
        },
    ];
    let per_bench = suite.clone();
    judge_suite(&mut suite, &options(SuiteRule::Holm));
    assert_eq!(tested_count(&suite), 3);
    let adj: Vec<Option<f64>> = suite.iter().map(|c| c.p_adjusted).collect();
    assert!((adj[0].unwrap() - 0.012).abs() < 1e-15, "{adj:?}");
    assert!((adj[1].unwrap() - 0.04).abs() < 1e-15, "{adj:?}");
    assert_eq!(adj[2], Some(0.5));
    assert_eq!(adj[3], None);
    let verdicts: Vec<Verdict> = suite.iter().map(|c| c.verdict).collect();
    assert_eq!(
        verdicts,
        [
            Verdict::Undecided,
            Verdict::Undecided,
            Verdict::NoChange,
            Verdict::Failed
        ]
    );
    assert_eq!(suite[0].p, Some(0.004), "the bench's own p is kept");
    // No correction: the verdicts stand as each bench's.
    let mut alone = per_bench.clone();
    judge_suite(&mut alone, &options(SuiteRule::PerBench));
    assert_eq!(alone[0].verdict, Verdict::Regressed);
    assert_eq!(alone[0].p_adjusted, Some(0.004));
}

#[test]
fn an_undecided_bench_never_gains_a_verdict() {
    // Undecided for its own reason (too few pairs) with a tiny p: it stays undecided.
    let mut suite = vec![Comparison {
        reason: Some("only 2 pairs".into()),
        ..bench("a", 0.1, (0.08, 0.12), 1e-9, Verdict::Undecided)
    }];
    judge_suite(&mut suite, &CompareOptions::default());
    assert_eq!(suite[0].verdict, Verdict::Undecided);
}

#[test]
fn a_time_change_the_counts_do_not_show_is_the_environment() {
    let counted = |verdict: Verdict| {
        Some(CountComparison {
            base: 1000.0,
            new: 1000.0,
            change: Change {
                change: 0.0,
                change_ci: Some((0.0, 0.0)),
                p: 1.0,
                verdict,
                method: String::new(),
            },
        })
    };
    let mut suite = vec![
        Comparison {
            instructions: counted(Verdict::NoChange),
            ..bench("same code", 0.05, (0.04, 0.06), 1e-8, Verdict::Regressed)
        },
        Comparison {
            instructions: counted(Verdict::Regressed),
            ..bench("more work", 0.05, (0.04, 0.06), 1e-8, Verdict::Regressed)
        },
        Comparison {
            instructions: counted(Verdict::NoChange),
            ..bench("faster", -0.05, (-0.06, -0.04), 1e-8, Verdict::Improved)
        },
    ];
    judge_suite(&mut suite, &CompareOptions::default());
    let verdicts: Vec<Verdict> = suite.iter().map(|c| c.verdict).collect();
    assert_eq!(
        verdicts,
        [
            Verdict::Environment,
            Verdict::Regressed,
            Verdict::Environment
        ]
    );
    assert!(!crate::compare::any_regressed(&suite[..1]));
    // Still a bench of the suite: judged again (a second look), it counts among the tested.
    assert_eq!(tested_count(&suite), 3);
    assert_eq!(
        crate::compare::what_changed(&suite[0]),
        Some(crate::compare::WhatChanged::Environment)
    );

    // Undecided because a side split into speeds (no reason given), its test significant and
    // beyond the threshold: with the same instructions the time moved with the environment.
    // Undecided by too few pairs, or by a test inside the noise or not significant: it stays.
    let mut suite = vec![
        Comparison {
            instructions: counted(Verdict::NoChange),
            ..bench("modes", 0.3, (0.25, 0.35), 1e-8, Verdict::Undecided)
        },
        Comparison {
            instructions: counted(Verdict::NoChange),
            reason: Some("only 2 pairs".into()),
            ..bench("few pairs", 0.3, (0.25, 0.35), 1e-8, Verdict::Undecided)
        },
        Comparison {
            instructions: counted(Verdict::NoChange),
            ..bench("not significant", 0.3, (-0.1, 0.7), 0.2, Verdict::Undecided)
        },
        Comparison {
            instructions: counted(Verdict::NoChange),
            ..bench("small", 0.005, (0.004, 0.006), 1e-8, Verdict::Undecided)
        },
        Comparison {
            instructions: counted(Verdict::Regressed),
            ..bench("more work", 0.3, (0.25, 0.35), 1e-8, Verdict::Undecided)
        },
    ];
    judge_suite(&mut suite, &CompareOptions::default());
    let verdicts: Vec<Verdict> = suite.iter().map(|c| c.verdict).collect();
    assert_eq!(
        verdicts,
        [
            Verdict::Environment,
            Verdict::Undecided,
            Verdict::Undecided,
            Verdict::Undecided,
            Verdict::Undecided
        ]
    );
}

/// A synthetic suite: `m` benches compared over `pairs` pairs of processes whose log ratios
/// are normal with sd `sd`, the first `changed` of them shifted by `shift` (a true change),
/// each compared with pilot's paired test. With 4 pairs nothing is trimmed and the test is
/// Student's paired t-test, whose p is exact for normal log ratios: the rule is then tested
/// on valid p-values alone (the trimmed test's far tail is liberal; see
/// `lab/multiple_comparisons_reference.py --calibration`).
fn synthetic_suite(
    rng: &mut ChaCha8Rng,
    (m, changed, shift): (usize, usize, f64),
    (pairs, sd): (usize, f64),
    options: &CompareOptions,
) -> Vec<Comparison> {
    (0..m)
        .map(|i| {
            let delta = if i < changed { shift } else { 0.0 };
            let logs: Vec<(f64, f64)> = (0..pairs)
                .map(|_| {
                    let z: f64 = rng.sample(StandardNormal);
                    (1.0, (delta + sd * z).exp())
                })
                .collect();
            let c = compare_paired(&logs, 0.95, options).expect("positive pairs");
            bench(
                &i.to_string(),
                c.change,
                c.change_ci.unwrap(),
                c.p,
                c.verdict,
            )
        })
        .collect()
}

/// The false alarms and the true changes found in a judged suite whose first `changed`
/// benches changed.
fn flags(suite: &[Comparison], changed: usize) -> (usize, usize) {
    let flagged = |c: &Comparison| matches!(c.verdict, Verdict::Regressed | Verdict::Improved);
    let false_alarms = suite[changed..].iter().filter(|c| flagged(c)).count();
    let found = suite[..changed].iter().filter(|c| flagged(c)).count();
    (false_alarms, found)
}

#[test]
fn holm_keeps_the_family_wise_rate_of_a_suite() {
    // 400 suites of 100 benches, 3 of them 15% slower.
    holm_keeps_the_family_wise_rate(44, (400, 100, 3), 0.15);
}

#[test]
fn holm_keeps_the_family_wise_rate_of_a_large_suite() {
    // 400 suites of 1000 benches, 10 of them 30% slower: the smallest p is then tested at
    // alpha/1000, far in the tail where an inexact p would show; over 4 pairs (3 degrees of
    // freedom) a change must be larger to be found there.
    holm_keeps_the_family_wise_rate(4410, (400, 1000, 10), 0.30);
}

/// `suites` synthetic suites of `m` benches, the first `changed` slower by `shift`; log ratios of sd
/// 1% over 4 pairs (an exact p); alpha 0.05 and no noise threshold, so that the rule alone
/// decides. The family-wise rate (suites with any false alarm) is at most alpha within three
/// Monte Carlo standard errors; each bench at alpha alone flags nearly every suite; BH's rule
/// over the unchanged benches alone (a suite where nothing changed) is alpha-bound too.
fn holm_keeps_the_family_wise_rate(
    seed: u64,
    (suites, m, changed): (usize, usize, usize),
    shift: f64,
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let alpha = 0.05;
    let opts = |rule| CompareOptions {
        alpha,
        noise: 0.0,
        rule,
        ..CompareOptions::default()
    };
    let (mut holm_any, mut none_any, mut found, mut bh_any) = (0, 0, 0, 0);
    for _ in 0..suites {
        let suite = synthetic_suite(
            &mut rng,
            (m, changed, shift),
            (4, 0.01),
            &opts(SuiteRule::Holm),
        );
        for (rule, count) in [
            (SuiteRule::Holm, &mut holm_any),
            (SuiteRule::PerBench, &mut none_any),
        ] {
            let mut judged = suite.clone();
            judge_suite(&mut judged, &opts(rule));
            let (false_alarms, true_found) = flags(&judged, changed);
            *count += usize::from(false_alarms > 0);
            if rule == SuiteRule::Holm {
                found += true_found;
            }
        }
        let mut unchanged = suite[changed..].to_vec();
        judge_suite(&mut unchanged, &opts(SuiteRule::BenjaminiHochberg));
        bh_any += usize::from(flags(&unchanged, 0).0 > 0);
    }
    let rate = holm_any as f64 / suites as f64;
    eprintln!(
        "Holm, {m} benches: {holm_any} of {suites} suites with a false alarm; none: {none_any}; BH where \
         nothing changed: {bh_any}; true changes found {found} of {}",
        suites * changed
    );
    let se = (alpha * (1.0 - alpha) / suites as f64).sqrt();
    assert!(rate <= alpha + 3.0 * se, "Holm's family-wise rate {rate}");
    // Not vacuous: the rule flags about as often as it allows.
    assert!(rate >= alpha / 4.0, "Holm's family-wise rate {rate}");
    assert!(
        none_any as f64 / suites as f64 > 0.9,
        "per bench: {none_any} of {suites} suites flagged"
    );
    // Where nothing changed, BH's rate of any false alarm is its false-discovery rate.
    let bh_rate = bh_any as f64 / suites as f64;
    assert!(
        bh_rate <= alpha + 3.0 * se,
        "BH's family-wise rate {bh_rate}"
    );
    // And the true changes are found in most suites.
    let power = found as f64 / (suites * changed) as f64;
    assert!(power > 0.5, "Holm found {power} of the true changes");
}

#[test]
fn benjamini_hochberg_keeps_the_false_discovery_rate() {
    // 150 suites of 400 benches, 40 of them 10% slower (many true changes, where BH is meant
    // to be used); log ratios of sd 2% over 4 pairs (an exact p); alpha 0.1, no noise
    // threshold. The false discovery proportion's mean is at most alpha·m₀/m (0.09) within
    // three Monte Carlo standard errors, and BH finds more of the true changes than Holm.
    let mut rng = ChaCha8Rng::seed_from_u64(4401);
    let alpha = 0.1;
    let (suites, m, changed) = (150, 400, 40);
    let opts = |rule| CompareOptions {
        alpha,
        noise: 0.0,
        rule,
        ..CompareOptions::default()
    };
    let mut fdp = Vec::with_capacity(suites);
    let (mut bh_found, mut holm_found) = (0, 0);
    for _ in 0..suites {
        let suite = synthetic_suite(
            &mut rng,
            (m, changed, 0.10),
            (4, 0.02),
            &opts(SuiteRule::Holm),
        );
        let mut bh = suite.clone();
        judge_suite(&mut bh, &opts(SuiteRule::BenjaminiHochberg));
        let (false_alarms, found) = flags(&bh, changed);
        fdp.push(false_alarms as f64 / (false_alarms + found).max(1) as f64);
        bh_found += found;
        let mut holm = suite;
        judge_suite(&mut holm, &opts(SuiteRule::Holm));
        holm_found += flags(&holm, changed).1;
    }
    let mean = fdp.iter().sum::<f64>() / suites as f64;
    let sd = (fdp.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (suites - 1) as f64).sqrt();
    let bound = alpha * (m - changed) as f64 / m as f64;
    eprintln!("BH: false discovery rate {mean} (sd {sd}); found BH {bh_found}, Holm {holm_found}");
    assert!(
        mean <= bound + 3.0 * sd / (suites as f64).sqrt(),
        "false discovery rate {mean} (sd {sd})"
    );
    assert!(mean > 0.0, "not vacuous");
    assert!(bh_found > holm_found, "BH {bh_found}, Holm {holm_found}");
}
