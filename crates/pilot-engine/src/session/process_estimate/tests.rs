//! The combination of process estimates against values worked out by hand, and the split of
//! processes into the ones an estimate stands on, left out and spanned.

use super::*;

fn process(mean: f64, half_width: f64, n: usize, q: usize) -> ProcessEstimate {
    ProcessEstimate {
        mean,
        half_width,
        n,
        subsession_size: q,
        autocorrelation: 0.05,
        rounds: 10,
        estimator: crate::settings::Estimator::Trimmed,
        plain: None,
        busy: Some(0.0),
    }
}

#[test]
fn between_process_spread_decides_when_wider() {
    // Means 100, 102, 104: mean 102, s = 2, se = 2/√3; t(0.975, 2) = 4.302652729911275
    // (scipy.stats.t.ppf), so the half-width is 4.302652729911275 · 1.1547005383792517.
    let done = [
        process(100.0, 0.5, 1000, 4),
        process(102.0, 0.5, 2000, 1),
        process(104.0, 0.5, 3000, 8),
    ];
    let e = combine(&done, &SessionConfig::default());
    let half = 4.302652729911275 * 1.1547005383792517;
    assert!((e.mean - 102.0).abs() < 1e-12);
    assert!(
        (e.ci.half_width() - half).abs() < 1e-9,
        "{}",
        e.ci.half_width()
    );
    assert!(e.between_rounds);
    assert_eq!(e.n, 6000);
    assert_eq!(e.subsession_size, 4);
    assert_eq!(e.rounds, 30);
    assert_eq!(e.subsession_means, vec![100.0, 102.0, 104.0]);
}

#[test]
fn a_process_that_ran_far_slower_decides_nothing() {
    // Six processes of a 12 ns bench, one of which ran its whole life 74% slower (a bad
    // layout): the estimate and interval are those of the five others
    // (independent_location, checked by hand in stats::robust), not Student's t over all
    // six, which would be ±28%.
    let done: Vec<ProcessEstimate> = [11.95, 11.93, 20.8, 11.97, 11.92, 11.99]
        .iter()
        .map(|&m| process(m, 0.01, 1000, 1))
        .collect();
    let e = combine(&done, &SessionConfig::default());
    assert!((e.mean - 11.95).abs() < 1e-12, "{}", e.mean);
    let half = 4.302652729911275 * (4.0 * 4e-4 / 6.0_f64).sqrt();
    assert!((e.ci.half_width() - half).abs() < 1e-9, "{:?}", e.ci);
    // With the mean estimator a slow process is part of the cost, as a slow unit is.
    let config = SessionConfig {
        estimator: crate::settings::Estimator::Mean,
        ..SessionConfig::default()
    };
    let e = combine(&done, &config);
    assert!((e.mean - 80.56 / 6.0).abs() < 1e-9, "{}", e.mean);
    assert!(e.relative_half_width() > 0.25);
}

#[test]
fn one_wild_own_interval_does_not_decide() {
    // Eight processes that agree within ±0.4%, one of which caught a warm-up in its few
    // rounds: its own interval is ±500. Combined with the rest's it would make the
    // interval √(500² + 7·0.5²)/8 ≈ ±62; left out of the own intervals, the interval is
    // the wider of Student's t over the processes and √(7·0.5²)/7.
    let means = [100.0, 100.2, 99.8, 100.4, 99.6, 100.1, 99.9, 100.0];
    let done: Vec<ProcessEstimate> = means
        .iter()
        .enumerate()
        .map(|(i, &m)| process(m, if i == 3 { 500.0 } else { 0.5 }, 1000, 1))
        .collect();
    let e = combine(&done, &SessionConfig::default());
    assert!(e.ci.half_width() < 1.0, "{:?}", e.ci);
}

#[test]
fn own_intervals_decide_when_processes_agree() {
    // Means 10, 10: no spread, so the processes' own half-widths 3 and 4 combine to
    // √(9 + 16) / 2 = 2.5.
    let done = [process(10.0, 3.0, 10, 1), process(10.0, 4.0, 10, 1)];
    let e = combine(&done, &SessionConfig::default());
    assert!((e.ci.half_width() - 2.5).abs() < 1e-12);
    assert!(!e.between_rounds);
}

#[test]
fn later_early_processes_of_short_units_get_a_tenth_of_a_second() {
    use std::time::Duration;
    let ms = Duration::from_millis;
    // A 10 s cap over 8: a fifth of it is 0.25 s for the first; the later ones 0.1 s once
    // the first met its target (what they add is a draw of the between-process level, which
    // a longer process does not add more of), else 0.25 s too.
    assert_eq!(early_share(ms(10_000), 8, 0, false), ms(250));
    assert_eq!(early_share(ms(10_000), 8, 0, true), ms(250));
    assert_eq!(early_share(ms(10_000), 8, 3, true), ms(100));
    assert_eq!(early_share(ms(10_000), 8, 3, false), ms(250));
    // A 2 s cap over 8: a fifth is 50 ms; the first gets its least (0.15 s), the later
    // ones 0.1 s once the first met its target, else 0.15 s.
    assert_eq!(early_share(ms(2_000), 8, 0, true), ms(150));
    assert_eq!(early_share(ms(2_000), 8, 1, true), ms(100));
    assert_eq!(early_share(ms(2_000), 8, 1, false), ms(150));
    // A 6 s cap over 8: a fifth is 0.15 s, the least.
    assert_eq!(early_share(ms(6_000), 8, 0, false), ms(150));
}

#[test]
fn child_targets_by_hand() {
    // scipy: 0.01·√3·t.ppf(0.975, 1e6)/t.ppf(0.975, 2) (a process's many samples).
    let expected = 0.00788992634161618;
    let got = child_target(0.01, 3, 0.95);
    assert!((got - expected).abs() < 1e-6 * expected, "{got} {expected}");
    assert_eq!(child_target(0.4, 10, 0.95), 0.5);
}

#[test]
fn dimensioning_follows_kalibera_and_jones() {
    use std::time::Duration;
    // Means 99, 101 (s² = 2), half-widths z·1 (se² = 1): τ² = 2 − 1 = 1; measured 1 s
    // each, so σ² = 1; wall 1.25 s, so c = 0.25 s: t* = √(0.25 · 1 / 1) = 0.5 s.
    let z = t_critical(0.95, 1e6);
    let cost = |mean| ProcessCost {
        mean,
        half_width: z,
        wall: Duration::from_millis(1250),
        measured: Duration::from_secs(1),
    };
    let share = dimensioned_share(
        &[cost(99.0), cost(101.0)],
        0.95,
        (LEAST_SHARE, Duration::from_secs(9)),
    );
    let share = share.unwrap().as_secs_f64();
    assert!((share - 0.5).abs() < 1e-6, "{share}");
    // Means that agree within their own noise: no between-process variance to size for.
    assert_eq!(
        dimensioned_share(
            &[cost(100.0), cost(100.5)],
            0.95,
            (LEAST_SHARE, Duration::from_secs(9))
        ),
        None
    );
    assert_eq!(
        dimensioned_share(&[cost(1.0)], 0.95, (LEAST_SHARE, Duration::from_secs(9))),
        None
    );
}

#[test]
fn a_cheap_process_of_short_units_is_dimensioned_down_to_a_tenth_of_a_second() {
    use std::time::Duration;
    // Means 99, 101 (τ² = 1 as above), σ² = 1, and a process that costs 4 ms beyond its
    // measuring: t* = √(0.004) ≈ 63 ms, below any floor. Short units measure for 0.1 s, others
    // for 0.25 s.
    let z = t_critical(0.95, 1e6);
    let cost = |mean| ProcessCost {
        mean,
        half_width: z,
        wall: Duration::from_millis(1004),
        measured: Duration::from_secs(1),
    };
    let done = [cost(99.0), cost(101.0)];
    let nine = Duration::from_secs(9);
    assert_eq!(
        dimensioned_share(&done, 0.95, (SHORT_SHARE, nine)),
        Some(SHORT_SHARE)
    );
    assert_eq!(
        dimensioned_share(&done, 0.95, (LEAST_SHARE, nine)),
        Some(LEAST_SHARE)
    );
}

#[test]
fn processes_needed_follows_the_spread() {
    let config = SessionConfig {
        target: 0.01,
        ..SessionConfig::default()
    };
    // Means 80, 120, 100: variance 400, t(0.975, 2)² = 18.512820514212944, target ±1 ns:
    // ⌈400 · 18.5128…⌉ = 7406 processes.
    let done: Vec<ProcessEstimate> = [80.0, 120.0, 100.0]
        .iter()
        .map(|&m| process(m, 0.5, 100, 1))
        .collect();
    assert_eq!(processes_needed(&done, &config), Some(7406));
    assert_eq!(processes_needed(&done[..1], &config), None);
}

/// Eight processes of a 1 ms routine: one at its own speed (0.72 ms), seven slowed.
fn split_eight(busy: Option<f64>) -> Vec<ProcessEstimate> {
    [1.03, 1.04, 1.05, 0.72, 1.04, 1.035, 1.045, 1.04]
        .iter()
        .map(|&m| ProcessEstimate {
            busy,
            ..process(m, 0.002, 1000, 1)
        })
        .collect()
}

#[test]
fn a_faster_minority_on_a_busy_machine_is_spanned_not_left_out() {
    // The neighbours slowed seven of eight processes: the one at 0.72 ran at the code's
    // own speed, or a lucky layout; the run cannot tell, so the interval reaches it
    // (0.72 − its own 0.002), and the estimate says so.
    let done = split_eight(Some(0.9));
    let config = SessionConfig::default();
    let s = split(&done, &config);
    assert_eq!(s.spanned, vec![3]);
    assert!(s.left_out.is_empty());
    assert_eq!(s.kept.len(), 8);
    let e = combine(&done, &config);
    assert_eq!(e.modes, 1);
    assert!((e.ci.low - 0.718).abs() < 1e-12, "{:?}", e.ci);
    assert!(e.ci.high > 1.04, "{:?}", e.ci);
    assert!(e.relative_half_width() > 0.1, "{:?}", e.ci);
    assert!(modes_undecided(&done, &config));
    // Unsampled (no /proc/stat): no evidence either way, the same.
    let e = combine(&split_eight(None), &config);
    assert_eq!(e.modes, 1);
    assert!(e.ci.low < 0.72);
}

#[test]
fn a_faster_minority_on_a_quiet_machine_is_a_layout_left_out() {
    // The same speeds with the sampler seeing the machine quiet throughout: the fast
    // process owes its speed to its own start, and the typical process is the seven's.
    let done = split_eight(Some(0.0));
    let config = SessionConfig::default();
    let s = split(&done, &config);
    assert_eq!(s.left_out, vec![3]);
    assert!(s.spanned.is_empty());
    let e = combine(&done, &config);
    assert_eq!(e.modes, 0);
    assert!(e.ci.low > 1.0, "{:?}", e.ci);
    assert!(!modes_undecided(&done, &config));
    // One process busy for a quarter of its time is enough to doubt it.
    let mut done = done;
    done[5].busy = Some(0.25);
    assert_eq!(split(&done, &config).spanned, vec![3]);
}

#[test]
fn a_slower_minority_is_left_out_on_a_busy_machine_too() {
    // One of eight slowed for its whole life by a neighbour: interference only adds time,
    // so the rest stand for the code.
    let done: Vec<ProcessEstimate> = [1.0, 1.01, 0.99, 1.4, 1.0, 1.005, 0.995, 1.0]
        .iter()
        .map(|&m| ProcessEstimate {
            busy: Some(1.0),
            ..process(m, 0.002, 1000, 1)
        })
        .collect();
    let s = split(&done, &SessionConfig::default());
    assert_eq!(s.left_out, vec![3]);
    assert!(s.spanned.is_empty());
    assert!(combine(&done, &SessionConfig::default()).ci.high < 1.1);
}
