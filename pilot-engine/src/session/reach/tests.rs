//! The machine's part of an interval against values computed with scipy, and the out-of-reach
//! rule against its definition.

use super::*;

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
        machine: None,
        modes: 0,
    }
}

#[test]
fn the_machine_variance_adds_by_welch_satterthwaite() {
    // Run: 100 ± 1 over 9 degrees of freedom, so se = 1 / t(0.975, 9). Machine: a robust sd
    // of 2% over 5 runs, se 2 with 0.37 · 4 = 1.48 degrees of freedom. scipy:
    // ν = (se² + 4)² / (se⁴/9 + 16/1.48) = 1.6274994491969046,
    // t.ppf(0.975, ν) · √(se² + 4) = 11.058477452322366.
    let v = MachineVariation::robust(0.02, 5, false);
    let e = estimate(100.0, 1.0, 9.0, false).with_machine(v);
    assert!(
        (e.ci.half_width() - 11.058477452322366).abs() < 1e-9,
        "{:?}",
        e.ci
    );
    assert!((e.mean - 100.0).abs() < 1e-12);
    let m = e.machine.as_ref().unwrap();
    assert_eq!(m.run_ci.half_width(), 1.0);
    assert!(m.dominant);
    assert!((e.run_relative_half_width() - 0.01).abs() < 1e-15);
    // scipy: t.ppf(0.975, 1.48) · 0.02.
    assert!((v.relative_half_width(0.95) - 0.1226372590772685).abs() < 1e-12);
}

#[test]
fn more_time_is_worth_it_only_while_the_target_is_within_reach() {
    let s = Duration::from_secs;
    let ms = Duration::from_millis;
    // ±5% after 1 s of data, target ±1%: 24 s more, within the 9 s left plus two 10 s caps.
    let e = estimate(100.0, 5.0, 30.0, false);
    assert_eq!(judge(&e, 0.01, s(1), (s(9), s(10))), None);
    // ±6%: 35 s more is beyond 29 s: the readings are what stands in the way.
    let e = estimate(100.0, 6.0, 30.0, false);
    let found = judge(&e, 0.01, s(1), (s(9), s(10))).unwrap();
    assert_eq!(found.blocker, Blocker::Readings);
    assert_eq!(found.needed, Some(s(35)));
    // The same from rounds that vary more than twice as much as their readings would.
    let e = Estimate {
        round_excess: 2.5,
        ..estimate(100.0, 6.0, 9.0, true)
    };
    assert_eq!(
        judge(&e, 0.01, s(1), (s(9), s(10))).unwrap().blocker,
        Blocker::Rounds
    );
    // A machine part of ±5.5% (a robust sd of 2% over 12 runs, 4.07 degrees of freedom):
    // the run's own part needs to reach only half of it; at ±2% it has.
    let v = MachineVariation::robust(0.02, 12, false);
    let e = estimate(100.0, 2.0, 30.0, false).with_machine(v);
    let found = judge(&e, 0.01, s(1), (s(9), s(10))).unwrap();
    assert_eq!(found.blocker, Blocker::Machine);
    assert_eq!(found.needed, None);
    // At ±4% it has not, and (4 / 2.776)² − 1 ≈ 1.08 s more is cheap: go on.
    let e = estimate(100.0, 4.0, 30.0, false).with_machine(v);
    assert_eq!(judge(&e, 0.01, s(1), (s(9), s(10))), None);
    // A small machine part (±0.41%, sd 0.2% over 30 runs): the run's part must reach
    // √(1 − 0.41²) ≈ ±0.91%; at ±0.95% it is close, and the target is in reach.
    let v = MachineVariation::robust(0.002, 30, false);
    let e = estimate(100.0, 0.95, 30.0, false).with_machine(v);
    assert_eq!(judge(&e, 0.01, ms(1500), (s(8), s(10))), None);
}

#[test]
fn processes_stop_when_the_cap_cannot_pay_for_the_ones_needed() {
    let ms = Duration::from_millis;
    // ±3% over 6 processes of 0.4 s, target ±1%: (3/1)² − 1 = 8 times as many more, 48
    // processes, 19.2 s; the cap leaves 7.6 s.
    let e = estimate(100.0, 3.0, 5.0, true);
    let found = judge_processes(&e, 0.01, 6, ms(400), ms(7600)).unwrap();
    assert_eq!(found.blocker, Blocker::Processes);
    let needed = found.needed.unwrap().as_secs_f64();
    assert!((needed - 19.2).abs() < 1e-9, "{needed}");
    // ±1.2%: 6 · (1.44 − 1) = 2.64 more processes, about 1.06 s: in reach.
    let e = estimate(100.0, 1.2, 5.0, true);
    assert_eq!(judge_processes(&e, 0.01, 6, ms(400), ms(7600)), None);
    // A machine part as wide as the target: the processes' part has reached half of it.
    let v = MachineVariation::robust(0.02, 12, false);
    let e = estimate(100.0, 2.0, 30.0, false).with_machine(v);
    let found = judge_processes(&e, 0.01, 6, ms(400), ms(7600)).unwrap();
    assert_eq!((found.blocker, found.needed), (Blocker::Machine, None));
}

#[test]
fn a_benchs_own_spread_is_taken_not_added() {
    // Run: 100 ± 1 over 9 degrees of freedom (se = 1 / t(0.975, 9)). The bench's earlier runs
    // spread by 2% (dof 3): their spread holds each run's own noise, so it is taken whole,
    // t(0.975, 3) · 2 = 3.182446305284263 · 2 (scipy.stats.t.ppf), not added to the run's.
    let v = MachineVariation {
        sd: 0.02,
        runs: 4,
        own: true,
        dof: 3.0,
    };
    let e = estimate(100.0, 1.0, 9.0, false).with_machine(v);
    assert!(
        (e.ci.half_width() - 2.0 * 3.182446305284263).abs() < 1e-6,
        "{:?}",
        e.ci
    );
    // Runs that agreed to 0.1%: this run's own interval is the wider, and stays as it is.
    let v = MachineVariation { sd: 0.001, ..v };
    let e = estimate(100.0, 1.0, 9.0, false).with_machine(v);
    assert!((e.ci.half_width() - 1.0).abs() < 1e-9, "{:?}", e.ci);
    // The run's goal beside an own part of ±0.3% against a ±1% target: the target itself.
    assert!((v.run_goal(0.01, 0.95) - 0.01).abs() < 1e-12);
}
