//! The overhead's estimate by hand, and the Monte Carlo coverage of its interval under the
//! probe's own stopping rule.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Exp1, StandardNormal};

use super::*;

#[test]
fn a_blocks_difference_is_per_unit_and_cancels_a_linear_drift() {
    // Rounds of 100 units, 10 ns a unit with recording on and 9 off, on a machine that slows
    // by 50 ns a round: A B B A = 1000, 900+50, 900+100, 1000+150 ns.
    let block = Block {
        work: 100,
        on_ns: [1000.0, 1150.0],
        off_ns: [950.0, 1000.0],
    };
    // ((1000 + 1150) − (950 + 1000)) / 200 = 1 ns: the drift is gone.
    assert_eq!(block.difference(), 1.0);
}

#[test]
fn the_overhead_is_the_trimmed_mean_of_the_differences() {
    // 10 differences, one an interruption: g = floor(0.2 · 10) = 2 trimmed from each end, so
    // the middle six (2, 3, 3, 3, 4, 4) give 19/6. Winsorized at 2 and 4 the ten are
    // 2 2 2 3 3 3 4 4 4 4: mean 3.1, s_w² = 6.9/9, Yuen's se = √(9 · s_w² / (6 · 5)) =
    // √0.23 = 0.479583, t(0.975, 5) = 2.570582: half-width 1.232808.
    let d = [3.0, 2.0, 4.0, 1.0, 3.0, 500.0, 4.0, 2.0, 3.0, 4.0];
    let o = estimate(&d, 0.95, 1.0).unwrap();
    assert!((o.per_unit_ns - 19.0 / 6.0).abs() < 1e-12, "{o:?}");
    assert!((o.high - o.per_unit_ns - 1.232808).abs() < 1e-5, "{o:?}");
    assert_eq!(o.blocks, 20);
    assert!(!o.reached());
    assert!(estimate(&d, 0.95, 1.3).unwrap().reached());
    // Fewer than the least samples never stop the probe, however narrow.
    assert!(!reached(&d, 0.95, 1e9));
    assert!(reached(&[5.0; MIN_SAMPLES], 0.95, 0.0));
    assert!(estimate(&d[..1], 0.95, 1.0).is_none());
    assert!(!due(MIN_SAMPLES - 1) && due(MIN_SAMPLES) && due(31) && !due(33) && due(36));
}

#[test]
fn a_sample_is_the_mean_of_two_consecutive_blocks() {
    // A first round 6 ns a unit slower: on recording in the first block, on none in the next.
    assert_eq!(samples(&[3.0 + 6.0, 3.0 - 6.0, 2.0, 4.0, 7.0]), [3.0, 3.0]);
}

#[test]
fn the_target_is_two_percent_of_a_unit_or_two_clock_reads() {
    assert_eq!(target_ns(2000.0, 10.0), 40.0);
    assert_eq!(target_ns(1000.0, 24.0), 48.0);
}

#[test]
fn the_check_fires_on_a_sure_overhead_above_one_percent() {
    let o = Overhead {
        per_unit_ns: 15.0,
        low: -5.0,
        high: 35.0,
        confidence: 0.95,
        blocks: 20,
        target_ns: 10.0,
        samples: Vec::new(),
        time_s: 0.0,
    };
    // 15 ns of 500 ns is 3%, but the interval holds 0: no check.
    assert!(overhead_check(&o, 500.0).is_none());
    let sure = Overhead { low: 5.0, ..o };
    assert_eq!(
        overhead_check(&sure, 500.0).unwrap().kind,
        "instrumentation_overhead"
    );
    assert!(overhead_check(&sure, 5000.0).is_none());
}

/// Sessions per case: the coverage's Monte Carlo standard error is then 0.5 percentage points
/// at 95%. A case passes with 93% to 99%: at least the nominal level less three standard
/// errors, and no wider than an interval that is of no use.
const SESSIONS: usize = 2000;
/// A unit's cost without recording, and what recording adds to it, ns.
const UNIT_NS: f64 = 2000.0;
const OVERHEAD_NS: f64 = 30.0;
/// A probe round's units (250 µs of them) and its setup, ns.
const WORK: u64 = 125;
const SETUP_NS: f64 = 5000.0;

/// How a case's probe rounds vary.
struct Case {
    name: &'static str,
    /// Half-width the probe aims at, ns.
    target_ns: f64,
    /// Most blocks the session's budget allows.
    most_blocks: usize,
    /// Standard deviation of a round's own noise, relative to its units' time.
    white: f64,
    /// Standard deviation and lag-1 correlation, round to round, of the machine's speed
    /// (AR(1), relative).
    drift: (f64, f64),
    /// How much slower the first round of each block runs (after a session round), relative.
    first: f64,
    /// Chance that a round is interrupted, and the interruption's mean length (exponential), ns.
    interrupts: (f64, f64),
}

/// One session's probe: blocks of four rounds in the order the probe runs them, until its own
/// stopping rule (or the budget) ends it; the estimate it reports.
fn session(case: &Case, rng: &mut ChaCha8Rng) -> Overhead {
    let (drift_sd, phi) = case.drift;
    let mut speed = drift_sd * rng.sample::<f64, _>(StandardNormal);
    let mut round = |recording: bool, first: bool, rng: &mut ChaCha8Rng| {
        speed = phi * speed
            + drift_sd * (1.0 - phi * phi).sqrt() * rng.sample::<f64, _>(StandardNormal);
        let units = WORK as f64 * (UNIT_NS + if recording { OVERHEAD_NS } else { 0.0 });
        let mut t = SETUP_NS
            + units * (1.0 + speed)
            + case.white * units * rng.sample::<f64, _>(StandardNormal);
        if first {
            t += case.first * units;
        }
        if rng.random::<f64>() < case.interrupts.0 {
            t += case.interrupts.1 * rng.sample::<f64, _>(Exp1);
        }
        t
    };
    let mut differences = Vec::new();
    let mut off_first = false;
    loop {
        let a = !off_first;
        let t = [
            round(a, true, rng),
            round(!a, false, rng),
            round(!a, false, rng),
            round(a, false, rng),
        ];
        let (on_ns, off_ns) = if a {
            ([t[0], t[3]], [t[1], t[2]])
        } else {
            ([t[1], t[2]], [t[0], t[3]])
        };
        differences.push(
            Block {
                work: WORK,
                on_ns,
                off_ns,
            }
            .difference(),
        );
        off_first = !off_first;
        let done = samples(&differences);
        if differences.len() >= case.most_blocks
            || (differences.len() % 2 == 0
                && due(done.len())
                && reached(&done, 0.95, case.target_ns))
        {
            return estimate(&done, 0.95, case.target_ns).unwrap();
        }
    }
}

/// The share of [`SESSIONS`] seeded sessions of `case` whose interval holds the overhead, and
/// the median blocks and half-width they ended with.
fn coverage(case: &Case, seed: u64) -> (f64, usize, f64) {
    let mut held = 0;
    let mut blocks = Vec::new();
    let mut halves = Vec::new();
    for i in 0..SESSIONS {
        let mut rng = ChaCha8Rng::seed_from_u64(seed + i as u64);
        let o = session(case, &mut rng);
        held += usize::from(o.low <= OVERHEAD_NS && OVERHEAD_NS <= o.high);
        blocks.push(o.blocks);
        halves.push((o.high - o.low) / 2.0);
    }
    blocks.sort_unstable();
    halves.sort_by(f64::total_cmp);
    (
        held as f64 / SESSIONS as f64,
        blocks[SESSIONS / 2],
        halves[SESSIONS / 2],
    )
}

#[test]
fn the_interval_holds_the_overhead_95_percent_of_the_time_under_its_stopping_rule() {
    let quiet = Case {
        name: "quiet: 1% noise a round",
        target_ns: target_ns(UNIT_NS, 24.0),
        most_blocks: 400,
        white: 0.01,
        drift: (0.0, 0.0),
        first: 0.0,
        interrupts: (0.0, 0.0),
    };
    let cases = [
        Case {
            name: "drift (3%, φ = 0.95) and a 2% slower first round",
            drift: (0.03, 0.95),
            first: 0.02,
            ..quiet
        },
        Case {
            name: "one round in twenty interrupted for 20 µs on average",
            interrupts: (0.05, 20_000.0),
            ..quiet
        },
        Case {
            // Most samples hold an interruption: too many to trim, the heavy tail makes the
            // interval wider than it needs to be (conservative), never narrower.
            name: "one round in ten interrupted for 50 µs on average",
            interrupts: (0.1, 50_000.0),
            ..quiet
        },
        Case {
            // A target about the median half-width at 16 blocks: the stopping rule then stops
            // on the luckiest narrow intervals, the worst case for its coverage.
            name: "a target the first looks just reach",
            target_ns: 11.0,
            ..quiet
        },
        Case {
            name: "a budget that ends first: 100 blocks, all of it noisy",
            target_ns: 0.0,
            most_blocks: 100,
            drift: (0.03, 0.95),
            first: 0.02,
            interrupts: (0.1, 50_000.0),
            ..quiet
        },
        quiet,
    ];
    for (k, case) in cases.iter().enumerate() {
        let (covered, blocks, half) = coverage(case, 0x31_0000 + 1_000_000 * k as u64);
        println!(
            "{}: coverage {:.1}%, median {blocks} blocks, median half-width {half:.1} ns",
            case.name,
            100.0 * covered
        );
        assert!(
            (0.93..=0.99).contains(&covered),
            "{}: coverage {covered}",
            case.name
        );
    }
}
