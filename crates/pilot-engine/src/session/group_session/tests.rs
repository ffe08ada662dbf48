//! The group's decisions on scripted workloads and a scripted clock, and the pair rule against
//! values computed by hand.

use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

use super::ranking_rule::compare_pair;
use super::*;
use crate::record::ScriptedClock;
use crate::session::{Estimate, RoundData};
use pilot_stats::ConfidenceInterval;

/// Unit readings of `base` ns with 2% noise, slowed by the machine's speed state at the
/// scripted time: 1.0 or `slow` (a switch every 0.7 s), the way this project's VM behaves.
struct Member {
    clock: ScriptedClock,
    rng: ChaCha8Rng,
    base: f64,
    slow: f64,
    /// Units run so far.
    units: u64,
}

impl Member {
    fn new(clock: &ScriptedClock, base: f64, seed: u64) -> Self {
        Member {
            clock: clock.clone(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            base,
            slow: 1.2,
            units: 0,
        }
    }
}

impl Workload for Member {
    fn round(&mut self, work: u64) -> Result<RoundData, String> {
        let now = self.clock.now().as_secs_f64();
        let state = if (now / 0.7) as u64 % 2 == 1 {
            self.slow
        } else {
            1.0
        };
        let units: Vec<f64> = (0..work)
            .map(|_| {
                let z: f64 = self.rng.sample(StandardNormal);
                (self.base * state * (1.0 + 0.02 * z)).max(1.0)
            })
            .collect();
        let total: f64 = units.iter().sum();
        self.units += work;
        self.clock
            .advance(Duration::from_micros(20) + Duration::from_nanos(total as u64));
        Ok(RoundData::Units {
            readings: units,
            iterations: 1,
        })
    }
}

fn member_config(cap: Duration) -> SessionConfig {
    SessionConfig {
        max_time: cap,
        max_round: Duration::from_millis(20),
        first_result: Duration::from_millis(200),
        ..SessionConfig::default()
    }
}

fn run(bases: &[f64], seed: u64, cap: Duration) -> GroupResult {
    let clock = ScriptedClock::default();
    let mut members: Vec<Member> = bases
        .iter()
        .enumerate()
        .map(|(i, &b)| Member::new(&clock, b, seed * 31 + i as u64))
        .collect();
    let mut workloads: Vec<&mut dyn Workload> =
        members.iter_mut().map(|m| m as &mut dyn Workload).collect();
    let configs = vec![member_config(cap); bases.len()];
    let config = GroupConfig {
        max_time: cap,
        ..GroupConfig::default()
    };
    run_group(&mut workloads, &configs, &clock, &config, &mut |_, _, _| {})
}

#[test]
fn clearly_different_members_are_ranked_and_settled_quickly() {
    let cap = Duration::from_secs(20);
    let r = run(&[4000.0, 1000.0, 16_000.0], 1, cap);
    assert!(r.settled, "{:?}", r.pairs);
    assert_eq!(r.ranking, vec![1, 0, 2]);
    assert!(r.pairs.iter().all(|p| p.verdict == PairVerdict::Faster));
    assert!((r.pairs[0].ratio - 4.0).abs() < 0.2, "{:?}", r.pairs[0]);
    assert!(r.pairs[0].ratio_ci.contains(r.pairs[0].ratio));
    assert!(r.elapsed < Duration::from_secs(8), "{:?}", r.elapsed);
    assert!(r.members.iter().all(|m| m.status == Status::Converged));
    // The ranking was settled at a look no later than the end.
    let settled_at = r.ranking_settled.expect("settled");
    assert!(settled_at <= r.elapsed, "{settled_at:?} {:?}", r.elapsed);
}

#[test]
fn members_stop_at_their_most_units_and_keep_their_time() {
    // Units of 0.7 and 1.4 ms, shorter than a short round, at most 10 of each: each member
    // runs 10 units and no more, and its estimate is their time (not that of the few units a
    // disturbance made long enough to count, were short rounds set aside).
    let clock = ScriptedClock::default();
    let bases = [700_000.0, 1_400_000.0];
    let mut members: Vec<Member> = bases
        .iter()
        .enumerate()
        .map(|(i, &b)| Member::new(&clock, b, 3 + i as u64))
        .collect();
    let cap = Duration::from_secs(2);
    let member = SessionConfig {
        max_units: Some(10),
        ..member_config(cap)
    };
    let config = GroupConfig {
        max_time: cap,
        ..GroupConfig::default()
    };
    let mut workloads: Vec<&mut dyn Workload> =
        members.iter_mut().map(|m| m as &mut dyn Workload).collect();
    let r = run_group(
        &mut workloads,
        &[member.clone(), member],
        &clock,
        &config,
        &mut |_, _, _| {},
    );
    assert_eq!(
        members.iter().map(|m| m.units).collect::<Vec<_>>(),
        [10, 10]
    );
    for (m, base) in r.members.iter().zip(bases) {
        let e = m.estimate.as_ref().expect("an estimate of the 10 units");
        assert!((e.mean / base - 1.0).abs() < 0.05, "{} for {base}", e.mean);
        assert_eq!(m.status, Status::TimeCap);
    }
    assert_eq!(r.ranking, vec![0, 1]);
    assert!(r.elapsed < Duration::from_millis(100), "{:?}", r.elapsed);
}

/// A group whose members cannot reach a ±0.001% target.
fn run_tight(wait_for_targets: bool) -> GroupResult {
    let clock = ScriptedClock::default();
    let cap = Duration::from_secs(4);
    let mut members: Vec<Member> = [1000.0, 4000.0, 16_000.0]
        .iter()
        .enumerate()
        .map(|(i, &b)| Member::new(&clock, b, 7 + i as u64))
        .collect();
    let mut workloads: Vec<&mut dyn Workload> =
        members.iter_mut().map(|m| m as &mut dyn Workload).collect();
    let member = SessionConfig {
        target: 0.000_01,
        ..member_config(cap)
    };
    let config = GroupConfig {
        max_time: cap,
        wait_for_targets,
        ..GroupConfig::default()
    };
    run_group(
        &mut workloads,
        &vec![member; 3],
        &clock,
        &config,
        &mut |_, _, _| {},
    )
}

#[test]
fn a_group_stops_with_its_ranking_unless_targets_were_asked_for() {
    let r = run_tight(false);
    assert!(r.settled, "{:?}", r.pairs);
    assert_eq!(r.ranking, vec![0, 1, 2]);
    // It stopped at the look that found the ranking settled, long before the cap.
    let settled_at = r.ranking_settled.expect("settled");
    assert!(
        r.elapsed - settled_at < Duration::from_millis(200),
        "{settled_at:?} {:?}",
        r.elapsed
    );
    assert!(r.elapsed < Duration::from_secs(3), "{:?}", r.elapsed);
    assert!(
        r.members.iter().all(|m| m.status == Status::Settled),
        "{:?}",
        r.members.iter().map(|m| &m.status).collect::<Vec<_>>()
    );
    // Each member has the least rounds an interval needs.
    assert!(
        r.members
            .iter()
            .all(|m| m.estimate.as_ref().unwrap().rounds >= 10)
    );

    // An explicit target: the group runs on for the members' intervals, to the cap.
    let r = run_tight(true);
    assert!(!r.settled);
    assert!(r.elapsed >= Duration::from_secs(4), "{:?}", r.elapsed);
    assert!(r.members.iter().all(|m| m.status == Status::TimeCap));
}

#[test]
fn identical_members_are_never_faster() {
    let cap = Duration::from_secs(6);
    let mut faster = 0;
    for seed in 0..12 {
        let r = run(&[1000.0, 1000.0], seed, cap);
        let verdict = r.pairs[0].verdict;
        if verdict == PairVerdict::Faster {
            faster += 1;
        }
        assert!(
            r.elapsed <= cap + Duration::from_millis(100),
            "{:?}",
            r.elapsed
        );
    }
    assert_eq!(faster, 0);
}

#[test]
fn a_five_percent_difference_is_found_in_the_right_direction() {
    let cap = Duration::from_secs(20);
    for seed in 0..5 {
        let r = run(&[1050.0, 1000.0], seed, cap);
        assert_eq!(r.ranking, vec![1, 0], "seed {seed}");
        assert_eq!(
            r.pairs[0].verdict,
            PairVerdict::Faster,
            "seed {seed}: {:?}",
            r.pairs
        );
        assert!(r.pairs[0].ratio_ci.contains(1.05), "{:?}", r.pairs[0]);
    }
}

#[test]
fn at_the_cap_a_clear_pair_is_faster_with_the_caveat_of_few_rounds() {
    // Clearly different, but a cap too short for the members' least number of rounds: the
    // group stops at the cap (within one cycle), not settled by the usual rule, and the pair
    // is `faster` by the rule for few rounds, saying so.
    let cap = Duration::from_millis(30);
    let r = run(&[1000.0, 1500.0], 3, cap);
    assert!(!r.settled, "{:?}", r.pairs);
    assert_eq!(r.ranking_settled, None);
    assert!(
        r.elapsed <= cap + Duration::from_millis(60),
        "{:?}",
        r.elapsed
    );
    assert!(
        r.members
            .iter()
            .any(|m| m.estimate.as_ref().is_some_and(|e| e.rounds < 10)),
        "{:?}",
        r.members
    );
    let pair = &r.pairs[0];
    assert_eq!(pair.verdict, PairVerdict::Faster, "{pair:?}");
    assert!(pair.few_rounds && !pair.settled(), "{pair:?}");
    assert!(pair.ratio_ci.contains(1.5), "{pair:?}");
    assert!(
        r.members
            .iter()
            .all(|m| m.status != Status::Converged || m.estimate.is_some())
    );
}

#[test]
fn the_order_changes_from_cycle_to_cycle() {
    let mut rng = SplitMix64(1);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..50 {
        let mut order = vec![0, 1, 2];
        rng.shuffle(&mut order);
        seen.insert(order);
    }
    // All six orders of three members occur: no member always follows the same one.
    assert_eq!(seen.len(), 6);
}

// --- the pair rule, by hand ---

fn estimate(mean: f64, half: f64, rounds: usize) -> Estimate {
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
        n: 1000,
        subsession_size: 1,
        autocorrelation: 0.0,
        required_n: None,
        subsession_means: Vec::new(),
        wps: None,
        variance_inflation: 1.0,
        between_rounds: true,
        rounds,
        dof: 9.0,
        round_excess: 1.0,
        modes: 0,
    }
}

/// Ten round means, half at `exp(centre − spread)`, half at `exp(centre + spread)`: their
/// logarithms have mean `centre` and variance `spread² · 10/9`.
fn rounds(centre: f64, spread: f64) -> Vec<f64> {
    (0..10)
        .map(|i| (centre + if i % 2 == 0 { -spread } else { spread }).exp())
        .collect()
}

fn pair(b_centre: f64, spread: f64, min_rounds: usize) -> PairComparison {
    let (ra, rb) = (rounds(0.0, spread), rounds(b_centre, spread));
    pair_of(&ra, &rb, min_rounds)
}

/// The pair of members with these round means (as many analysed rounds as means), under the
/// default rule with `min_rounds`.
fn pair_of(ra: &[f64], rb: &[f64], min_rounds: usize) -> PairComparison {
    let centre = |r: &[f64]| (r.iter().map(|x| x.ln()).sum::<f64>() / r.len() as f64).exp();
    // Member intervals as wide as the larger time overlap: only the round means decide.
    let half = centre(ra).max(centre(rb));
    let (ea, eb) = (
        estimate(centre(ra), half, ra.len()),
        estimate(centre(rb), half, rb.len()),
    );
    let config = GroupConfig {
        min_rounds,
        ..GroupConfig::default()
    };
    compare_pair(
        &MemberView {
            estimate: &ea,
            round_means: ra,
        },
        &MemberView {
            estimate: &eb,
            round_means: rb,
        },
        (0, 1),
        &config,
    )
}

#[test]
fn pair_rule_faster_by_hand() {
    // d = 0.05; var = 1e-4 · 10/9 each; se = sqrt(2 · var / 10) = 0.0047140;
    // t = 10.607 on ν = 18: p ≈ 3.6e-9. t(18, 0.975) = 2.1009220, half = 0.0099039;
    // ratio = e^0.05 = 1.0512711, CI = [e^0.0400961, e^0.0599039] = [1.040911, 1.061735].
    let p = pair(0.05, 0.01, 10);
    assert_eq!(p.verdict, PairVerdict::Faster);
    assert!((p.ratio - 1.0512711).abs() < 1e-6, "{p:?}");
    assert!((p.ratio_ci.low - 1.040911).abs() < 1e-5, "{p:?}");
    assert!((p.ratio_ci.high - 1.061735).abs() < 1e-5, "{p:?}");
    assert!(p.p.unwrap() < 1e-7, "{p:?}");
}

#[test]
fn pair_rule_equivalent_by_hand() {
    // d = 0.001, spread 0.001: se = 4.7140e-4, t = 2.121 (p ≈ 0.048, not < 0.01);
    // half = 2.1009220 · 4.7140e-4 = 9.904e-4: CI = [e^0.0000096, e^0.0019904] ⊂ [0.99, 1.01].
    let p = pair(0.001, 0.001, 10);
    assert_eq!(p.verdict, PairVerdict::Equivalent, "{p:?}");
    assert!((p.ratio_ci.low - 1.0000096).abs() < 1e-6, "{p:?}");
    assert!((p.ratio_ci.high - 1.0019924).abs() < 1e-6, "{p:?}");
    let p_value = p.p.unwrap();
    assert!(p_value > 0.04 && p_value < 0.055, "{p:?}");
}

#[test]
fn pair_rule_undecided_by_hand() {
    // d = 0.005, spread 0.01: t = 1.06, p ≈ 0.30; CI [e^-0.0049, e^0.0149] crosses 1.01.
    let p = pair(0.005, 0.01, 10);
    assert_eq!(p.verdict, PairVerdict::Undecided, "{p:?}");
    assert!(p.p.unwrap() > 0.2);
    assert!(!p.few_rounds, "{p:?}");
}

/// The pair of two members known only by their estimates (no round means), by default rules.
fn by_estimates(a: &Estimate, b: &Estimate) -> PairComparison {
    let view = |estimate| MemberView {
        estimate,
        round_means: &[],
    };
    compare_pair(&view(a), &view(b), (0, 1), &GroupConfig::default())
}

#[test]
fn disjoint_member_intervals_settle_a_pair() {
    let (ea, eb) = (estimate(100.0, 1.0, 10), estimate(110.0, 1.0, 10));
    let r = by_estimates(&ea, &eb);
    assert_eq!(r.verdict, PairVerdict::Faster);
    assert_eq!(r.p, None);
    assert!((r.ratio - 1.1).abs() < 1e-12);
}

// --- the pair rule before each member has `min_rounds` rounds, by hand (scipy 1.17:
// stats.t.sf and stats.t.ppf at Welch's ν); at the default confidence 0.95 and α 0.01, with
// `min_rounds` m the early rule asks p < 0.01 / m and the interval at 1 − 0.05 / m to lie
// above 1.01 ---

#[test]
fn a_list_twelve_times_slower_is_slower_on_few_rounds_with_the_caveat() {
    // The held-out run's pair: `linked_list` 11.9× `vec_deque`, the list with 4 rounds of the
    // 10 a verdict needs. Logs: a 10 rounds at ±0.05 around 0 (var 0.05² · 10/9), b 4 rounds
    // at ±0.05 around ln 11.9 (var 0.05² · 4/3): se = 0.0333333, t = 74.30, ν = 5.142857,
    // p = 5.38e-9 < 0.001. At 95%: t(ν) = 2.549253, CI [10.93057, 12.95541]; at 99.5%:
    // t(ν) = 4.692522, CI [10.17691, 13.91484], far above 1.01.
    let b: Vec<f64> = rounds(11.9f64.ln(), 0.05).into_iter().take(4).collect();
    let p = pair_of(&rounds(0.0, 0.05), &b, 10);
    assert_eq!(p.verdict, PairVerdict::Faster, "{p:?}");
    assert!(p.few_rounds, "{p:?}");
    assert!((p.ratio - 11.9).abs() < 1e-9, "{p:?}");
    // The interval reported is the group's 95% one; only the verdict used the wider one.
    assert!((p.ratio_ci.low - 10.93057).abs() < 1e-4, "{p:?}");
    assert!((p.ratio_ci.high - 12.95541).abs() < 1e-4, "{p:?}");
    assert_eq!(p.ratio_ci.confidence, 0.95);
    let p_value = p.p.unwrap();
    assert!(p_value > 5.3e-9 && p_value < 5.5e-9, "{p:?}");
}

#[test]
fn a_clear_difference_with_one_round_short_is_slower_with_the_caveat() {
    // d = 0.05, spread 0.01, 10 rounds each, 11 needed: p = 3.58e-9 < 0.01 / 11; at
    // 1 − 0.05 / 11: t(18) = 3.239896, CI [1.035337, 1.067450], above 1.01.
    let early = pair(0.05, 0.01, 11);
    assert_eq!(early.verdict, PairVerdict::Faster, "{early:?}");
    assert!(early.few_rounds, "{early:?}");
    let settled = pair(0.05, 0.01, 10);
    assert_eq!(settled.verdict, PairVerdict::Faster, "{settled:?}");
    assert!(!settled.few_rounds, "{settled:?}");
}

#[test]
fn a_difference_near_the_noise_band_waits_for_enough_rounds() {
    // d = 0.02, spread 0.01: p = 4.90e-4, so with 10 rounds (10 needed) the usual rule says
    // faster; with 11 needed, p < 0.01 / 11 = 9.1e-4 still, but the interval at 1 − 0.05 / 11
    // is [1.004738, 1.035902]: it does not clear 1.01, so the pair waits.
    assert_eq!(pair(0.02, 0.01, 10).verdict, PairVerdict::Faster);
    let early = pair(0.02, 0.01, 11);
    assert_eq!(early.verdict, PairVerdict::Undecided, "{early:?}");
    assert!(early.few_rounds, "{early:?}");
    // d = 0.08, spread 0.045, 10 needed of 10 and of 11: t = 3.771, p = 0.00140: faster by
    // the usual rule; early, the interval at 99.5% [1.012265, 1.159292] clears 1.01 but p is
    // not below 0.01 / 11 = 9.1e-4.
    assert_eq!(pair(0.08, 0.045, 10).verdict, PairVerdict::Faster);
    let early = pair(0.08, 0.045, 11);
    assert_eq!(early.verdict, PairVerdict::Undecided, "{early:?}");
    let p_value = early.p.unwrap();
    assert!(p_value > 0.00139 && p_value < 0.00141, "{early:?}");
}

#[test]
fn equivalence_on_few_rounds_needs_the_wider_interval_inside_the_band() {
    // d = 0.001, spread 0.0005, 11 needed: the interval at 1 − 0.05 / 11 is
    // [1.000236, 1.001765], inside 1 ± 0.01.
    let p = pair(0.001, 0.0005, 11);
    assert_eq!(p.verdict, PairVerdict::Equivalent, "{p:?}");
    assert!(p.few_rounds, "{p:?}");
    // d = 0.001, spread 0.001: [0.999473, 1.002530] at 1 − 0.05 / 11, also inside.
    assert_eq!(pair(0.001, 0.001, 11).verdict, PairVerdict::Equivalent);
    // d = 0.005, spread 0.01: the 95% interval already crosses 1.01.
    assert_eq!(pair(0.005, 0.01, 11).verdict, PairVerdict::Undecided);
}

#[test]
fn member_intervals_alone_do_not_settle_a_pair_on_few_rounds() {
    // Disjoint member intervals settle a pair without round means once the members have
    // their rounds (`disjoint_member_intervals_settle_a_pair`); with 3 of 10 they do not.
    let (ea, eb) = (estimate(100.0, 1.0, 3), estimate(1000.0, 1.0, 3));
    let r = by_estimates(&ea, &eb);
    assert_eq!(r.verdict, PairVerdict::Undecided, "{r:?}");
    assert!(r.few_rounds);
}
