//! The out-of-reach rule against its definition, and its warning.

use super::*;
use pilot_stats::ConfidenceInterval;

fn estimate(mean: f64, half: f64, dof: f64, between_rounds: bool) -> Estimate {
    Estimate {
        estimator: crate::settings::Estimator::Mean,
        plain: None,
        trimmed: None,
        mean,
        ci: ConfidenceInterval {
            low: mean - half,
            high: mean + half,
            confidence: 0.95,
        },
        n: 10_000,
        subsession_size: 1,
        autocorrelation: 0.0,
        required_n: None,
        subsession_means: Vec::new(),
        wps: None,
        variance_inflation: 1.0,
        between_rounds,
        rounds: 10,
        dof,
        round_excess: 1.0,
        modes: 0,
    }
}

#[test]
fn more_time_is_worth_it_only_while_the_target_is_within_reach() {
    let s = Duration::from_secs;
    let ms = Duration::from_millis;
    // ±5% after 1 s of data, target ±1%: (5/1)² − 1 = 24 s more, within the 9 s left plus
    // two 10 s caps.
    let e = estimate(100.0, 5.0, 30.0, false);
    assert_eq!(judge(&e, 0.01, s(1), (s(9), s(10))), None);
    // ±6%: 35 s more is beyond 29 s: the readings are what stands in the way.
    let e = estimate(100.0, 6.0, 30.0, false);
    let found = judge(&e, 0.01, s(1), (s(9), s(10))).unwrap();
    assert_eq!(found.blocker, Blocker::Readings);
    assert_eq!(found.needed, s(35));
    // The same from rounds that vary more than twice as much as their readings would.
    let e = Estimate {
        round_excess: 2.5,
        ..estimate(100.0, 6.0, 9.0, true)
    };
    assert_eq!(
        judge(&e, 0.01, s(1), (s(9), s(10))).unwrap().blocker,
        Blocker::Rounds
    );
    // Rounds that vary, but not twice as much: still the readings' time.
    let e = Estimate {
        round_excess: 1.5,
        ..estimate(100.0, 6.0, 9.0, true)
    };
    assert_eq!(
        judge(&e, 0.01, s(1), (s(9), s(10))).unwrap().blocker,
        Blocker::Readings
    );
    // Close to the target: (1.05)² − 1 ≈ 0.1 of the 1.5 s analysed is cheap: go on.
    let e = estimate(100.0, 1.05, 30.0, false);
    assert_eq!(judge(&e, 0.01, ms(1500), (s(8), s(10))), None);
    // At the target, or inside it: nothing stands in the way, however little time is left.
    let e = estimate(100.0, 1.0, 30.0, false);
    assert_eq!(judge(&e, 0.01, s(1), (s(0), s(1))), None);
    // Only this run's interval is judged: a ±2% interval against a ±1% target with 3 s
    // more needed and 21 s left is in reach, whatever the machine does between runs.
    let e = estimate(100.0, 2.0, 30.0, false);
    assert_eq!(judge(&e, 0.01, s(1), (s(1), s(10))), None);
}

#[test]
fn an_interval_reaching_zero_is_never_out_of_reach() {
    let s = Duration::from_secs;
    // A readings-only slope of 2 ± 5 ns per unit after 1 s: ±250%, which the 1/√time rule
    // would put 625 s away, beyond 9 s left plus two caps. It has measured no time per unit
    // yet; more rounds are what tell it from none.
    let e = estimate(2.0, 5.0, 30.0, false);
    assert_eq!(judge(&e, 0.01, s(1), (s(9), s(10))), None);
    // A slope fitted below zero: likewise.
    let e = estimate(-8.0, 5.0, 30.0, false);
    assert_eq!(judge(&e, 0.01, s(1), (s(9), s(10))), None);
    // The same interval over processes.
    assert_eq!(judge_processes(&e, 0.01, (4, false), s(1), s(1)), None);
    // Just above zero, the rule applies as before: ±99% needs (99)² − 1 seconds more.
    let e = estimate(100.0, 99.0, 30.0, false);
    assert!(judge(&e, 0.01, s(1), (s(9), s(10))).is_some());
    assert!(judge_processes(&e, 0.01, (4, false), s(1), s(1)).is_some());
}

#[test]
fn processes_stop_when_the_cap_cannot_pay_for_the_ones_needed() {
    let ms = Duration::from_millis;
    // ±3% over 6 processes of 0.4 s with 5 degrees of freedom, target ±1%: se = 3/t(5) =
    // 1.1671%, and the fewest P with t(P − 1)·1.1671%·√(6/P) ≤ 1% are 34 (scipy, stepping
    // P: t.ppf(0.975, 33) = 2.0345, 2.0345 · 1.1671 · √(6/34) = 0.9974; at 33, 1.0136):
    // 28 more, 11.2 s; the cap leaves 7.6 s.
    let e = estimate(100.0, 3.0, 5.0, true);
    let found = judge_processes(&e, 0.01, (6, true), ms(400), ms(7600)).unwrap();
    assert_eq!(found.blocker, Blocker::Processes);
    let needed = found.needed.as_secs_f64();
    assert!((needed - 11.2).abs() < 1e-9, "{needed}");
    // With 11.25 s left it is in reach; 11.1 s is not enough.
    assert_eq!(
        judge_processes(&e, 0.01, (6, true), ms(400), ms(11_250)),
        None
    );
    assert!(judge_processes(&e, 0.01, (6, true), ms(400), ms(11_100)).is_some());
    // ±1.2%: 8 processes (2 more, 0.8 s): in reach.
    let e = estimate(100.0, 1.2, 5.0, true);
    assert_eq!(
        judge_processes(&e, 0.01, (6, true), ms(400), ms(7600)),
        None
    );
    assert!(judge_processes(&e, 0.01, (6, true), ms(400), ms(700)).is_some());
    // Four processes at ±1.6% on 3 degrees of freedom: 7 (3 more, 1.2 s), where `1/√P` alone
    // asks for 6.24 more.
    let e = estimate(100.0, 1.6, 3.0, true);
    assert_eq!(
        judge_processes(&e, 0.01, (4, true), ms(400), ms(1250)),
        None
    );
    let found = judge_processes(&e, 0.01, (4, true), ms(400), ms(1100)).unwrap();
    assert!((found.needed.as_secs_f64() - 1.2).abs() < 1e-9);
    // Before the full count, the spread is read optimistically, at its 90% lower bound
    // s·√(3/χ²(0.9, 3)) = 0.69274·s (scipy: chi2.ppf(0.9, 3) = 6.25139). Four processes of
    // 0.194 s at ±6.43% on 3 degrees of freedom with 9.2 s left: optimistically se = 1.39966%
    // and 33 processes meet ±1% (29 more, 5.63 s): in reach; at the spread seen, se = 2.02046%
    // and 66 do (62 more, 12.03 s): out of reach.
    let e = estimate(100.0, 6.43, 3.0, true);
    assert_eq!(
        judge_processes(&e, 0.01, (4, false), ms(194), ms(9200)),
        None
    );
    let found = judge_processes(&e, 0.01, (4, true), ms(194), ms(9200)).unwrap();
    assert!((found.needed.as_secs_f64() - 62.0 * 0.194).abs() < 1e-9);
    let found = judge_processes(&e, 0.01, (4, false), ms(194), ms(5000)).unwrap();
    assert!((found.needed.as_secs_f64() - 29.0 * 0.194).abs() < 1e-9);
    // At the target: nothing to buy.
    let e = estimate(100.0, 1.0, 5.0, true);
    assert_eq!(judge_processes(&e, 0.01, (6, true), ms(400), ms(0)), None);
}

#[test]
fn the_warning_names_what_stands_in_the_way_and_the_time_it_would_take() {
    let e = estimate(100.0, 6.0, 30.0, false);
    let found = OutOfReach {
        blocker: Blocker::Readings,
        needed: Duration::from_secs(35),
    };
    let w = out_of_reach_warning(&e, &found, 0.01, Duration::from_secs(10));
    assert!(
        w.starts_with("out of reach: ±6.00% after 10.00 s; the ±1.00% target would need about 35.00 s more: the readings vary"),
        "{w}"
    );
    let found = OutOfReach {
        blocker: Blocker::Processes,
        ..found
    };
    let w = out_of_reach_warning(&e, &found, 0.01, Duration::from_secs(10));
    assert!(
        w.contains("the estimates of the bench's processes differ"),
        "{w}"
    );
    assert!(!w.contains("machine's run-to-run"), "{w}");
}
