use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

use super::*;

/// Pairs (1, eˣ) of the log ratios `xs`.
fn pairs_of(xs: &[f64]) -> Vec<(f64, f64)> {
    xs.iter().map(|&x| (1.0, x.exp())).collect()
}

/// Pairs of processes, (base, new).
type Pairs = [(f64, f64)];

/// The verdict a pair loop settles on for the log ratios `xs` (pairs from the 6th to the
/// last), stopping as `stop` says, then judged by `judge` on the pairs it took.
fn run_loop(
    xs: &[f64],
    stop: &dyn Fn(&Pairs) -> bool,
    judge: &dyn Fn(&Pairs) -> Verdict,
) -> Verdict {
    let all = pairs_of(xs);
    let mut n = 6;
    while n < all.len() && !stop(&all[..n]) {
        n += 1;
    }
    judge(&all[..n])
}

#[test]
fn the_looks_of_a_busy_machine_keep_the_false_alarm_rate() {
    // Unchanged code, log ratios of sd 2% (a busy machine), up to 60 pairs, 1500 benches.
    // Testing at p < 0.01 after every pair and stopping at the first verdict (the loop
    // before this rule) flags several times 1% (lab/multiple_comparisons_reference.py
    // --sequential: 5.6% in scipy's simulation of it); the sequential p with looks only at
    // 6·2ʲ pairs stays at 1% within three Monte Carlo standard errors.
    let mut rng = ChaCha8Rng::seed_from_u64(44);
    let options = CompareOptions::default();
    let benches = 1500;
    let (mut old, mut new) = (0, 0);
    for _ in 0..benches {
        let xs: Vec<f64> = (0..60)
            .map(|_| 0.02 * rng.sample::<f64, _>(StandardNormal))
            .collect();
        let flagged = |v: Verdict| usize::from(matches!(v, Verdict::Regressed | Verdict::Improved));
        let per_look = |p: &[(f64, f64)]| compare_paired(p, 0.95, &options).unwrap().verdict;
        old += flagged(run_loop(
            &xs,
            &|p| per_look(p) != Verdict::Undecided,
            &per_look,
        ));
        new += flagged(run_loop(
            &xs,
            &|p| {
                compare_sequential(p, (6, 1), 0.95, &options)
                    .unwrap()
                    .1
                    .is_some()
            },
            &|p| {
                compare_sequential(p, (6, 1), 0.95, &options)
                    .unwrap()
                    .0
                    .verdict
            },
        ));
    }
    let se = (0.01 * 0.99 / benches as f64).sqrt();
    let (old, new) = (old as f64 / benches as f64, new as f64 / benches as f64);
    eprintln!("unchanged benches flagged: every pair {old}, sequential {new} (of {benches})");
    assert!(old > 0.03, "the old loop's rate {old}");
    assert!(new <= 0.01 + 3.0 * se, "the sequential rate {new}");
}

#[test]
fn the_sequential_p_is_the_smallest_look_over_its_share() {
    // 12 pairs: looks at 6 and 12 (the last). The p of each look by compare_paired; the
    // sequential p is min(p₁₂ / 0.9, p₆ / 0.0125, p₁₂ / 0.0125) = min(p₁₂ / 0.9, p₆ / 0.0125).
    let xs = [
        0.012, 0.008, 0.015, 0.011, 0.009, 0.013, 0.001, -0.004, 0.006, 0.002, -0.001, 0.004,
    ];
    let pairs = pairs_of(&xs);
    let options = CompareOptions::default();
    let p6 = compare_paired(&pairs[..6], 0.95, &options).unwrap().p;
    let p12 = compare_paired(&pairs, 0.95, &options).unwrap().p;
    let (seq, _) = compare_sequential(&pairs, (6, 1), 0.95, &options).unwrap();
    let want = (p12 / 0.9).min(p6 / 0.0125).min(1.0);
    assert!((seq.p - want).abs() < 1e-15, "{} vs {want}", seq.p);
    assert!(seq.method.contains("p sequential"), "{}", seq.method);
    // The change and its interval are the last look's.
    let last = compare_paired(&pairs, 0.95, &options).unwrap();
    assert_eq!((seq.change, seq.change_ci), (last.change, last.change_ci));
}

#[test]
fn a_clear_change_stops_at_an_early_look_and_not_between() {
    let options = CompareOptions::default();
    // The stop of a bench in a suite of 30.
    let stop = |pairs: &[(f64, f64)]| compare_sequential(pairs, (6, 30), 0.95, &options)?.1;
    // 10% slower with a little spread: settled at the least pairs, for a suite of 30 too.
    let clear = pairs_of(&[0.095, 0.096, 0.094, 0.0955, 0.0945, 0.095, 0.0952]);
    assert_eq!(stop(&clear[..6]), Some(Verdict::Regressed));
    // Seven pairs is no look: a change is not settled there, however clear.
    assert_eq!(stop(&clear), None);
    // Unchanged and tight: no change at any pair.
    let tight = pairs_of(&[0.001, -0.001, 0.0005, 0.0, -0.0005, 0.0002, 0.0001]);
    assert_eq!(stop(&tight), Some(Verdict::NoChange));
    assert_eq!(stop(&tight[..5]), None);
    assert!(is_early_look(6, 6) && is_early_look(12, 6) && is_early_look(768, 6));
    assert!(!is_early_look(1536, 6) && !is_early_look(7, 6));
}

/// A process whose mean is no positive time (a readings-only bench's fit over one short
/// process can give one on a busy machine) makes its pair a ratio far out on its side, which
/// the trimming cuts: the comparison is still made. Reference values from
/// `python3 lab/multiple_comparisons_reference.py --failed-process` (scipy; the failed pairs
/// as ±1000 there): trimmed mean 0.005, 95% half-width 0.011776145601799765, p 0.3248600080487433.
#[test]
fn a_failed_process_is_a_pair_far_out() {
    let logs = [
        0.010, -0.004, 0.021, 0.0, 0.003, -0.012, 0.008, 0.0, 0.015, -0.002,
    ];
    let mut pairs = pairs_of(&logs);
    pairs[3].1 = -1.98; // the new side's process failed
    pairs[7].0 = f64::NAN; // the base's
    let c = compare_paired(&pairs, 0.95, &CompareOptions::default()).expect("compared");
    let (d, half) = (0.005_f64, 0.011_776_145_601_799_765_f64);
    assert!((c.change - (d.exp() - 1.0)).abs() < 1e-12, "{c:?}");
    let (lo, hi) = c.change_ci.unwrap();
    assert!((lo - ((d - half).exp() - 1.0)).abs() < 1e-9, "{c:?}");
    assert!((hi - ((d + half).exp() - 1.0)).abs() < 1e-9, "{c:?}");
    assert!((c.p - 0.324_860_008_048_743_3).abs() < 1e-9, "{c:?}");

    // A pair whose two processes failed says nothing, and is left out.
    let mut both = pairs.clone();
    both.push((0.0, -1.0));
    let b = compare_paired(&both, 0.95, &CompareOptions::default()).expect("compared");
    assert_eq!(b.change, c.change);
    assert_eq!(b.p, c.p);

    // More failed processes at one end than the trimming cuts (2 of 10): no comparison.
    let mut three = pairs.clone();
    three[0].1 = 0.0;
    three[1].1 = f64::INFINITY;
    assert!(compare_paired(&three, 0.95, &CompareOptions::default()).is_none());
    // Fewer than 5 pairs trim nothing: one failed process is too many.
    let mut few = pairs_of(&logs[..4]);
    few[3].1 = -1.0;
    assert!(compare_paired(&few, 0.95, &CompareOptions::default()).is_none());
}
