//! The session's decisions, tested with scripted workloads on a scripted clock: no real time
//! passes, so these run in milliseconds and give the same answer on any machine.

use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

use super::readings::{MAX_KEPT, Readings};
use super::stopping::MAX_ROUND_UNITS;
use super::*;
use crate::record::{Clock, ScriptedClock};

/// A workload whose unit readings come from `reading(global unit index, rng)`; each round costs
/// its readings plus `setup` on the scripted clock.
struct Scripted<F: FnMut(u64, &mut ChaCha8Rng) -> f64> {
    clock: ScriptedClock,
    rng: ChaCha8Rng,
    reading: F,
    setup: Duration,
    units_so_far: u64,
    works: Vec<u64>,
}

impl<F: FnMut(u64, &mut ChaCha8Rng) -> f64> Scripted<F> {
    fn new(clock: &ScriptedClock, reading: F) -> Self {
        Scripted {
            clock: clock.clone(),
            rng: ChaCha8Rng::seed_from_u64(7),
            reading,
            setup: Duration::from_micros(50),
            units_so_far: 0,
            works: Vec::new(),
        }
    }
}

impl<F: FnMut(u64, &mut ChaCha8Rng) -> f64> Workload for Scripted<F> {
    fn round(&mut self, work: u64) -> Result<RoundData, String> {
        assert!(
            work <= MAX_ROUND_UNITS,
            "the planner asked for an absurd work amount {work}"
        );
        self.works.push(work);
        let units: Vec<f64> = (0..work)
            .map(|i| (self.reading)(self.units_so_far + i, &mut self.rng).max(0.0))
            .collect();
        self.units_so_far += work;
        let total: f64 = units.iter().sum();
        self.clock
            .advance(self.setup + Duration::from_nanos(total as u64));
        Ok(RoundData::Units {
            readings: units,
            iterations: 1,
        })
    }
}

fn noise(rng: &mut ChaCha8Rng) -> f64 {
    rng.sample(StandardNormal)
}

fn run(w: &mut dyn Workload, clock: &ScriptedClock, config: &SessionConfig) -> SessionResult {
    let mut updates = 0;
    let r = run_session(w, clock, config, &mut |_, _| updates += 1);
    assert!(updates > 0 || r.estimate.is_none());
    r
}

#[test]
fn converges_on_steady_noise_and_stops_early() {
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, |_, rng| 1000.0 + 20.0 * noise(rng));
    let config = SessionConfig::default();
    let r = run(&mut w, &clock, &config);
    assert_eq!(r.status, Status::Converged, "{:?}", r.warnings);
    let e = r.estimate.unwrap();
    assert!(e.ci.contains(1000.0), "{:?}", e.ci);
    assert!(e.relative_half_width() <= config.target);
    assert!(e.subsession_means.len() >= config.min_subsessions);
    // Noise of 2% per reading needs few readings; the session still spans the minimum number
    // of rounds, and not much more: a few seconds of scripted time, far below the cap.
    assert!(e.rounds >= config.min_rounds);
    assert!(r.elapsed < Duration::from_secs(3), "{:?}", r.elapsed);
}

#[test]
fn first_rough_result_arrives_within_about_a_second() {
    // Very noisy readings: the session will not converge soon, but it must report early.
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, |_, rng| 10_000.0 * (1.0 + 0.8 * noise(rng)).abs());
    let config = SessionConfig {
        target: 0.0001,
        ..SessionConfig::default()
    };
    let mut first = None;
    run_session(&mut w, &clock, &config, &mut |_, t| {
        first.get_or_insert(t);
    });
    let first = first.expect("an estimate was reported");
    assert!(
        first <= Duration::from_millis(1200),
        "first estimate at {first:?}"
    );
}

#[test]
fn a_target_far_out_of_reach_stops_the_session_early() {
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, |_, rng| 5_000.0 * (1.0 + 0.5 * noise(rng)).abs());
    let config = SessionConfig {
        target: 0.00001,
        ..SessionConfig::default()
    };
    let r = run(&mut w, &clock, &config);
    assert_eq!(r.status, Status::OutOfReach, "{:?}", r.warnings);
    // Judged after about a second of stable data, long before the cap.
    assert!(r.elapsed < Duration::from_secs(3), "{:?}", r.elapsed);
    let warning = r
        .warning_texts()
        .into_iter()
        .find(|w| w.starts_with("out of reach"))
        .unwrap();
    assert!(warning.contains("would need about"), "{warning}");
    assert!(warning.contains("the readings vary too much"), "{warning}");
}

#[test]
fn a_session_still_converging_runs_to_the_time_cap() {
    // Needs a little more than its cap for the target: within reach, so it runs on to the cap.
    // (The mean's interval: the target is set just beyond the cap for its width.)
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, |_, rng| 5_000.0 * (1.0 + 0.5 * noise(rng)).abs());
    let config = SessionConfig {
        estimator: crate::settings::Estimator::Mean,
        target: 0.000_5,
        ..SessionConfig::default()
    };
    let r = run(&mut w, &clock, &config);
    assert_eq!(r.status, Status::TimeCap, "{:?}", r.warnings);
    // Rounds are sized to the time left: the cap is overshot by less than one short round.
    assert!(r.elapsed >= config.max_time);
    assert!(
        r.elapsed <= config.max_time + Duration::from_millis(10),
        "{:?}",
        r.elapsed
    );
    assert!(
        r.warning_texts().iter().any(|w| w.contains("time cap")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn short_rounds_double_the_work_and_are_not_analysed() {
    // 10 ns units: a 2 ms round needs 200 000 of them.
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, |_, rng| 10.0 + 0.1 * noise(rng));
    w.setup = Duration::ZERO;
    let config = SessionConfig::default();
    let r = run(&mut w, &clock, &config);
    let first_long = r.rounds.iter().position(|r| r.analysed).unwrap();
    assert!(first_long >= 17, "{first_long}");
    for (i, round) in r.rounds[..first_long].iter().enumerate() {
        assert_eq!(round.work, 1 << i, "short rounds double");
        assert!(round.duration < config.short_round);
    }
    let floor = r.rounds[first_long].work;
    assert!(floor >= 200_000);
    assert!(
        r.rounds[first_long..].iter().all(|r| r.work >= floor),
        "the floor `a` moved up"
    );
}

#[test]
fn rounds_capped_below_the_short_bound_are_still_analysed() {
    // The work range allows at most 16 units of 1 µs: every round is "short", and there is no
    // room to grow, so they must be analysed anyway and the session must end.
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, |_, rng| 1000.0 + 10.0 * noise(rng));
    let config = SessionConfig {
        work_range: (1, 16),
        ..SessionConfig::default()
    };
    let r = run(&mut w, &clock, &config);
    assert!(
        matches!(r.status, Status::Converged | Status::TimeCap),
        "{:?}",
        r.status
    );
    assert!(r.rounds.iter().any(|r| r.analysed));
    assert!(r.rounds.iter().all(|r| r.work <= 16));
    assert!(r.estimate.unwrap().ci.contains(1000.0));
}

#[test]
fn a_workload_that_slows_down_is_flagged() {
    // Each unit 0.002% slower than the last: over 10 s of readings, about +40%.
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, |i, rng| {
        2000.0 * (1.0 + 2e-5 * i as f64) + 5.0 * noise(rng)
    });
    let config = SessionConfig {
        target: 0.001,
        ..SessionConfig::default()
    };
    let r = run(&mut w, &clock, &config);
    assert_ne!(r.status, Status::Converged);
    assert!(
        r.warning_texts().iter().any(|w| w.contains("slower")),
        "status {:?}, warnings {:?}",
        r.status,
        r.warnings
    );
}

#[test]
fn zero_duration_units_are_reported_not_hidden() {
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, |_, _| 0.0);
    w.setup = Duration::from_millis(3);
    let config = SessionConfig::default();
    let r = run(&mut w, &clock, &config);
    assert_eq!(
        r.status,
        Status::BelowResolution,
        "a zero mean cannot meet a relative target"
    );
    // Typed as what it is: `cargo pilot run` drops it by its kind for runs below the shell.
    assert!(
        (r.warnings.iter()).any(|w| matches!(w, Warning::ZeroReadings(t) if t.contains("0 ns"))),
        "{:?}",
        r.warnings
    );
    // Stopped after a few rounds, not at the cap, and the work amount never ran away.
    assert!(r.rounds.iter().filter(|r| r.analysed).count() <= 4);
    assert!(r.rounds.iter().all(|r| r.work <= MAX_ROUND_UNITS));
    // A mean of 0 ns is no time: no estimate, and a document that reads back, saying the
    // clock's resolution.
    assert!(r.estimate.is_none(), "{:?}", r.estimate);
    let clock = crate::record::ClockInfo {
        overhead_ns: 20.0,
        resolution_ns: 25.0,
        timer: crate::record::Timer::Instant,
    };
    let doc = crate::store::result::document(&crate::store::result::BenchRecord {
        name: "zero",
        target: "t",
        form: pilot_format::Form::Full,
        throughput: None,
        config: &config,
        session: &r,
        iterations_per_unit: None,
        clock,
        machine: None,
        reproducibility: None,
        started: String::new(),
        finished: String::new(),
    });
    doc.validate().unwrap();
    assert_eq!(doc.status, "below clock resolution");
    assert!(
        doc.status_detail
            .as_deref()
            .is_some_and(|d| d.ends_with("the clock's resolution of 25.00 ns")),
        "{:?}",
        doc.status_detail
    );
}

#[test]
fn warm_up_in_every_round_is_removed() {
    // The first 200 units of every round take 10× as long.
    let clock = ScriptedClock::default();
    struct WarmUp {
        inner: Scripted<fn(u64, &mut ChaCha8Rng) -> f64>,
    }
    impl Workload for WarmUp {
        fn round(&mut self, work: u64) -> Result<RoundData, String> {
            let RoundData::Units {
                readings: mut units,
                ..
            } = self.inner.round(work)?
            else {
                unreachable!()
            };
            for u in units.iter_mut().take(200) {
                *u *= 10.0;
            }
            Ok(RoundData::Units {
                readings: units,
                iterations: 1,
            })
        }
    }
    let steady: fn(u64, &mut ChaCha8Rng) -> f64 = |_, rng| 1000.0 + 10.0 * noise(rng);
    let mut warm = WarmUp {
        inner: Scripted::new(&clock, steady),
    };
    let r = run(&mut warm, &clock, &SessionConfig::default());
    let e = r.estimate.unwrap();
    assert!(
        (e.mean - 1000.0).abs() < 10.0,
        "mean {} with the warm-up left in",
        e.mean
    );
    assert!(r.removed >= 200, "removed {}", r.removed);
}

#[test]
fn a_warm_up_longer_than_a_round_is_cut_with_its_rounds() {
    // The first 200 000 units cost 10 times the rest (a table filled over the first tens of
    // milliseconds): the short first rounds lie wholly in it, each stable in itself. Left in,
    // their level spans the between-round interval (±50% and more was seen on such a bench);
    // cut, the estimate and its interval are those of the settled level.
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, |i, rng| {
        let level = if i < 200_000 { 1000.0 } else { 100.0 };
        level * (1.0 + 0.01 * noise(rng))
    });
    let config = SessionConfig::default();
    let r = run(&mut w, &clock, &config);
    let e = r.estimate.expect("an estimate");
    assert!(e.ci.contains(100.0), "{:?}", e.ci);
    assert!(e.relative_half_width() < 0.02, "{:?}", e.ci);
    assert_eq!(r.warm_up, Some(WarmUpClass::WarmUp));
    assert!(r.removed >= 150_000, "{} removed", r.removed);
    // The work before the steady state, which later processes run unmeasured first: the
    // 200 000 slow units, and no more than a round's worth after them (change-point detection
    // places the cut within a few units; the first kept round may start a little late).
    let w = r.warm_up_work.expect("a warm-up's work");
    assert!((200_000..=260_000).contains(&w.iterations), "{w:?}");
    // Its time: the slow units' 200 ms, the rounds' set-ups and a few fast units besides.
    assert!((0.2..0.25).contains(&w.time.as_secs_f64()), "{:?}", w.time);
    // A level session loses no round: its first rounds are no slower than the rest.
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, |_, rng| 100.0 * (1.0 + 0.01 * noise(rng)));
    let r = run(&mut w, &clock, &config);
    assert_eq!(r.warm_up, Some(WarmUpClass::Flat));
    assert_eq!(r.warm_up_work, None);
    let analysed = r.rounds.iter().filter(|r| r.stable.is_some()).count();
    assert_eq!(r.estimate.unwrap().rounds, analysed);
}

#[test]
fn a_warm_up_that_ends_within_the_short_rounds_is_measured_where_it_ends() {
    // The first 2 000 units take ten times the rest; the rounds stay short for many more
    // units after that (too short to analyse), all at the steady level. The warm-up is the
    // 2 000 units, not every unit before the first analysed round.
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, |i, rng| {
        let level = if i < 2_000 { 1000.0 } else { 100.0 };
        level * (1.0 + 0.01 * noise(rng))
    });
    let r = run(&mut w, &clock, &SessionConfig::default());
    assert_eq!(r.warm_up, Some(WarmUpClass::WarmUp));
    let first = r.rounds.iter().position(|r| r.analysed).unwrap();
    let before: usize = r.rounds[..first].iter().map(|r| r.units).sum();
    assert!(
        before > 20_000,
        "{before} units before the first analysed round"
    );
    let w = r.warm_up_work.expect("a warm-up's work");
    // Change-point detection places the end within a block of readings of the 2 000th; the
    // step between the two levels places it at the reading.
    assert_eq!(w.iterations, 2_000, "{w:?}");
    // 2 000 units of 1 µs (±1% noise).
    assert!((0.00199..0.00201).contains(&w.time.as_secs_f64()), "{w:?}");
}

/// A micro-form workload whose iterations per unit rise tenfold after the first round that
/// ends past 300 ms (its calibration ran during a warm-up); each reading is per iteration,
/// 10 ns.
struct Growing {
    clock: ScriptedClock,
    rounds: usize,
    iterations: u64,
    last: u64,
    longest: Duration,
}

impl Workload for Growing {
    fn round(&mut self, work: u64) -> Result<RoundData, String> {
        self.rounds += 1;
        self.last = self.iterations;
        let took = Duration::from_nanos(work * self.iterations * 10);
        self.longest = self.longest.max(took);
        self.clock.advance(took);
        let readings = vec![10.0; work as usize];
        let iterations = self.iterations;
        if self.clock.now() > Duration::from_millis(300) && self.iterations == 100 {
            self.iterations *= 10;
        }
        Ok(RoundData::Units {
            readings,
            iterations,
        })
    }

    fn unit_growth(&self) -> f64 {
        self.iterations as f64 / self.last as f64
    }
}

#[test]
fn units_that_grow_between_rounds_are_planned_at_their_new_length() {
    // Sized from the last round's short units, the round after the change ran ten times its
    // plan: 18 times the planned length was seen on a bench whose warm-up outlasted
    // calibration, a child process capped at 0.56 s running 1.5 s.
    let clock = ScriptedClock::default();
    let config = SessionConfig {
        max_time: Duration::from_secs(2),
        ..SessionConfig::default()
    };
    let mut w = Growing {
        clock: clock.clone(),
        rounds: 0,
        iterations: 100,
        last: 100,
        longest: Duration::ZERO,
    };
    run(&mut w, &clock, &config);
    assert!(w.iterations == 1000 && w.rounds > 4, "{}", w.rounds);
    assert!(
        w.longest <= config.max_round * 2,
        "a round of {:?} (most {:?})",
        w.longest,
        config.max_round
    );
}

/// A workload whose units each make their inputs outside the timing: every unit reads 10 µs
/// and costs 2 ms of wall time, plus 50 µs a round (divan's `with_inputs` on large inputs).
struct InputsPerUnit {
    clock: ScriptedClock,
    longest: Duration,
    rounds: usize,
}

impl Workload for InputsPerUnit {
    fn round(&mut self, work: u64) -> Result<RoundData, String> {
        self.rounds += 1;
        let took = Duration::from_micros(50) + Duration::from_millis(2) * work as u32;
        self.longest = self.longest.max(took);
        self.clock.advance(took);
        Ok(RoundData::Units {
            readings: vec![10_000.0; work as usize],
            iterations: 1,
        })
    }
}

#[test]
fn units_that_make_their_inputs_untimed_are_planned_at_their_whole_cost() {
    // The untimed part grows with the work: taken as the round's fixed cost, the planner
    // asked for sixteen times the units each round, and a child capped at a quarter second
    // ran a round of three quarters.
    let clock = ScriptedClock::default();
    let config = SessionConfig {
        max_time: Duration::from_secs(2),
        max_round: Duration::from_millis(100),
        ..SessionConfig::default()
    };
    let mut w = InputsPerUnit {
        clock: clock.clone(),
        longest: Duration::ZERO,
        rounds: 0,
    };
    run(&mut w, &clock, &config);
    assert!(w.rounds > 4, "{}", w.rounds);
    assert!(
        w.longest <= config.max_round * 3 / 2,
        "a round of {:?} (most {:?})",
        w.longest,
        config.max_round
    );
}

thread_local! {
    /// The bytes a [`Holding`] workload's process holds, as its session's memory reader sees
    /// them.
    static HELD: std::cell::Cell<f64> = const { std::cell::Cell::new(1e6) };
}

/// The memory reader of sessions of [`Holding`] workloads.
fn held_now() -> crate::checks::memory::Memory {
    crate::checks::memory::Memory {
        resident: None,
        held: Some(HELD.with(|h| h.get())),
    }
}

/// A workload whose calls keep `kept_per_call` bytes each, in a process where pilot's own
/// bytes grow by `pilot_per_round` between calls (its records of the rounds, the allocator
/// settling under them) and each round's readings are held from the call until its analysis.
struct Holding<W> {
    inner: W,
    kept_per_call: f64,
    pilot_per_round: f64,
    readings: f64,
}

impl<W: Workload> Workload for Holding<W> {
    fn round(&mut self, work: u64) -> Result<RoundData, String> {
        let data = self.inner.round(work)?;
        if let RoundData::Units { readings, .. } = &data {
            self.readings = (readings.capacity() * std::mem::size_of::<f64>()) as f64;
        }
        HELD.with(|h| h.set(h.get() + self.kept_per_call + self.readings));
        Ok(data)
    }

    fn between_rounds(&mut self) {
        HELD.with(|h| h.set(h.get() - self.readings + self.pilot_per_round));
    }
}

#[test]
fn the_leak_check_weighs_what_the_calls_keep_not_what_pilot_keeps_between_them() {
    let leak_checked = |kept_per_call: f64| {
        let clock = ScriptedClock::default();
        let mut w = Holding {
            inner: Scripted::new(&clock, |_, rng| 1000.0 + 20.0 * noise(rng)),
            kept_per_call,
            pilot_per_round: 12_288.0,
            readings: 0.0,
        };
        let config = SessionConfig {
            memory: Some(held_now),
            ..SessionConfig::default()
        };
        let r = run(&mut w, &clock, &config);
        assert!(r.rounds.len() >= 10, "{}", r.rounds.len());
        r.checks.iter().any(|c| c.kind == "leak")
    };
    // A CPU-only bench: 12 KiB more of pilot's own every round is not the bench's leak.
    assert!(!leak_checked(0.0));
    // A bench that keeps 64 KiB from every call leaks.
    assert!(leak_checked(65_536.0));
}

#[test]
fn a_panicking_workload_fails_the_session() {
    struct Panics;
    impl Workload for Panics {
        fn round(&mut self, _: u64) -> Result<RoundData, String> {
            Err("index out of bounds".into())
        }
    }
    let clock = ScriptedClock::default();
    let r = run(&mut Panics, &clock, &SessionConfig::default());
    assert_eq!(r.status, Status::Failed("index out of bounds".into()));
}

#[test]
fn long_sessions_of_tiny_units_keep_memory_bounded() {
    // 20 ns units: 6 million readings, six times what the session keeps before compacting.
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, |_, rng| 20.0 + 2.0 * noise(rng));
    let config = SessionConfig {
        target: 1e-6,
        ..SessionConfig::default()
    };
    let mut session = Readings::new(&config, &clock);
    for _ in 0..6 {
        let RoundData::Units { readings: u, .. } = w.round(MAX_KEPT as u64).unwrap() else {
            unreachable!()
        };
        session.add_units(&u, 1);
        assert!(session.stable.len() <= MAX_KEPT);
    }
    // By hand: 1M kept; 2M -> 1M pairs (×2); +0.5M = 1.5M -> 0.75M (×4); +0.25M = 1M;
    // +0.25M = 1.25M -> 0.625M (×8); +0.125M = 0.75M.
    assert_eq!(session.premerged, 8);
    assert_eq!(session.stable.len(), (1 << 20) * 3 / 4);
    let e = session.unit_estimate().unwrap();
    assert_eq!(e.n, session.stable_count);
    assert!(e.ci.contains(20.0), "{:?}", e.ci);
    assert_eq!(e.subsession_size % session.premerged, 0);
}

#[test]
fn a_machine_switching_speed_between_rounds_widens_the_interval() {
    // Readings within a round vary by 0.5%, but the machine flips between a fast (100 µs) and a
    // slow (130 µs) state every few rounds, as shared machines do. An interval from the readings
    // as if they were independent would be a fraction of a percent around whichever state the
    // session happened to see; subsession analysis or the between-round interval must see it.
    struct Switching {
        clock: ScriptedClock,
        rng: ChaCha8Rng,
        slow: bool,
    }
    impl Workload for Switching {
        fn round(&mut self, work: u64) -> Result<RoundData, String> {
            if self.rng.random_bool(0.3) {
                self.slow = !self.slow;
            }
            let level = if self.slow { 130_000.0 } else { 100_000.0 };
            let units: Vec<f64> = (0..work)
                .map(|_| level * (1.0 + 0.005 * noise(&mut self.rng)))
                .collect();
            self.clock
                .advance(Duration::from_nanos(units.iter().sum::<f64>() as u64));
            Ok(RoundData::Units {
                readings: units,
                iterations: 1,
            })
        }
    }
    let clock = ScriptedClock::default();
    let mut w = Switching {
        clock: clock.clone(),
        rng: ChaCha8Rng::seed_from_u64(5),
        slow: false,
    };
    let r = run(&mut w, &clock, &SessionConfig::default());
    let e = r.estimate.unwrap();
    assert!(e.relative_half_width() > 0.02, "{:?}", e.ci);
    // The long-run mean of the two states is inside, not just the state seen last.
    assert!(e.ci.contains(115_000.0), "{:?}", e.ci);
}

#[test]
fn a_narrow_interval_from_too_few_samples_says_what_was_missing() {
    // Units of 50 ms with 0.1% noise: the interval is narrow at once, but a 1 s cap holds only
    // about 20 units, fewer than the least number of subsession samples.
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, |_, rng| 5e7 * (1.0 + 0.001 * noise(rng)));
    let config = SessionConfig {
        max_time: Duration::from_secs(1),
        target: 0.05,
        ..SessionConfig::default()
    };
    let r = run(&mut w, &clock, &config);
    assert_eq!(r.status, Status::TimeCap, "{:?}", r.warnings);
    let cap = r
        .warning_texts()
        .into_iter()
        .find(|w| w.starts_with("time cap reached"))
        .expect("a time-cap warning");
    assert!(cap.contains("but with only"), "{cap}");
    assert!(
        cap.contains("subsession samples") || cap.contains("rounds"),
        "{cap}"
    );
}

#[test]
fn a_session_told_not_to_note_its_time_cap_ends_there_without_the_note() {
    // A bench's process: the parent's combination says when the bench reached its cap, so the
    // process's own session (the same one that notes it above) keeps quiet about it.
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, |_, rng| 5e7 * (1.0 + 0.001 * noise(rng)));
    let config = SessionConfig {
        max_time: Duration::from_secs(1),
        target: 0.05,
        time_cap_warning: false,
        ..SessionConfig::default()
    };
    let r = run(&mut w, &clock, &config);
    assert_eq!(r.status, Status::TimeCap, "{:?}", r.warnings);
    assert!(
        !r.warning_texts().iter().any(|w| w.starts_with("time cap")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn a_cap_reached_before_any_estimate_says_why() {
    // One call takes 3 s; the cap is 2 s: the session ends at the cap with no estimate, and
    // says so with what the round took, rather than a bare "no estimate".
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, |_, _| 1000.0);
    w.setup = Duration::from_secs(3);
    let config = SessionConfig {
        max_time: Duration::from_secs(2),
        ..SessionConfig::default()
    };
    let r = run_session(&mut w, &clock, &config, &mut |_, _| {});
    assert_eq!(r.status, Status::TimeCap);
    assert!(r.estimate.is_none());
    assert!(
        r.warning_texts().iter().any(|w| w
            .starts_with("time cap (2.000 s) reached before a first estimate")
            && w.contains("the longest took 3.000 s")),
        "{:?}",
        r.warnings
    );
}

mod checks;
mod readings_only;

/// A session of `steady`-ns units whose first 30 units take `start` times as long, and the
/// machine state of its rounds: other processes keep `others_at_start` cores busy up to the
/// end of the first stable round, none after.
fn slow_start_session(start: f64, others_at_start: f64) -> SessionResult {
    let clock = ScriptedClock::default();
    let reading = move |i: u64, rng: &mut ChaCha8Rng| {
        let steady = 1000.0 + 5.0 * noise(rng);
        if i < 30 { start * steady } else { steady }
    };
    let mut w = Scripted::new(&clock, reading);
    let mut r = run(&mut w, &clock, &SessionConfig::default());
    let first = r.rounds.iter().position(|r| r.stable.is_some()).unwrap();
    let split = r.rounds[first].end;
    let last = r.rounds.last().unwrap().end + Duration::from_secs(1);
    let intervals = vec![
        crate::checks::sampler::Interval {
            from: Duration::ZERO,
            to: split,
            others_cores: others_at_start,
            ..Default::default()
        },
        crate::checks::sampler::Interval {
            from: split,
            to: last,
            ..Default::default()
        },
    ];
    r.judge_machine(&(intervals, Default::default()), Duration::ZERO, None);
    r
}

#[test]
fn a_slow_start_while_others_were_busy_is_the_machines() {
    // 15% slower at the start, no one else busy: the workload's warm-up.
    let alone = slow_start_session(1.15, 0.0);
    assert_eq!(alone.warm_up, Some(WarmUpClass::WarmUp));
    assert!(alone.warm_up_work.is_some());
    let start = alone.warm_up_start.unwrap();
    assert!((start - 0.15).abs() < 0.02, "start {start}");
    // The same start while others kept a quarter of a core busy: the machine's.
    let busy = slow_start_session(1.15, 0.25);
    assert_eq!(busy.warm_up, Some(WarmUpClass::Flat), "{:?}", busy.warnings);
    // No warm-up for later processes to run unmeasured first, nor for the result to report.
    assert_eq!(busy.warm_up_work, None);
    assert!(
        busy.warning_texts().iter().any(|w| w.contains("15% slower")
            && w.contains("0.25 cores busy")
            && w.contains("classed flat")),
        "{:?}",
        busy.warnings
    );
    // Others cannot make a start three times as slow: that stays a warm-up.
    let big = slow_start_session(3.0, 0.25);
    assert_eq!(big.warm_up, Some(WarmUpClass::WarmUp));
    // A twentieth of a core is too little to blame.
    let little = slow_start_session(1.15, 0.05);
    assert_eq!(little.warm_up, Some(WarmUpClass::WarmUp));
}

#[test]
fn least_and_most_units_bound_the_session() {
    let steady = |_: u64, rng: &mut ChaCha8Rng| 1000.0 + 10.0 * noise(rng);
    // At most 50 units: rounds shrink to fit, and the session stops there.
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, steady);
    let config = SessionConfig {
        max_units: Some(50),
        ..SessionConfig::default()
    };
    let r = run(&mut w, &clock, &config);
    assert_eq!(w.works.iter().sum::<u64>(), 50, "{:?}", w.works);
    assert_eq!(r.status, Status::TimeCap);
    // At least twice the units the session converges in: it runs on to them.
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, steady);
    let quick = run(&mut w, &clock, &SessionConfig::default());
    let alone: u64 = w.works.iter().sum();
    assert_eq!(quick.status, Status::Converged);
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, steady);
    let config = SessionConfig {
        min_units: 2 * alone,
        ..SessionConfig::default()
    };
    let r = run(&mut w, &clock, &config);
    assert!(w.works.iter().sum::<u64>() >= 2 * alone);
    assert_eq!(r.status, Status::Converged);
}

#[test]
fn most_units_shorter_than_a_short_round_are_measured_not_set_aside() {
    // Units of 0.7 ms, at most 5: a short round is set aside only while a longer one still
    // fits, so 4 of the 5 are the estimate (and no more run).
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, |_, rng| 700_000.0 + 7000.0 * noise(rng));
    let config = SessionConfig {
        max_units: Some(5),
        ..SessionConfig::default()
    };
    let r = run(&mut w, &clock, &config);
    assert_eq!(w.works, [1, 2, 2]);
    assert_eq!(r.status, Status::TimeCap);
    let e = r.estimate.expect("an estimate of the last 4 units");
    assert!((e.mean / 700_000.0 - 1.0).abs() < 0.02, "{}", e.mean);
}

/// [`Scripted`] whose time runs out in round `last`, after `kept` of its units.
struct OutOfTime<W> {
    inner: W,
    rounds: usize,
    last: usize,
    kept: usize,
}

impl<W: Workload> Workload for OutOfTime<W> {
    fn round(&mut self, work: u64) -> Result<RoundData, String> {
        self.rounds += 1;
        let data = self.inner.round(work)?;
        match data {
            RoundData::Units {
                mut readings,
                iterations,
            } if self.rounds == self.last => {
                readings.truncate(self.kept);
                Ok(RoundData::Units {
                    readings,
                    iterations,
                })
            }
            data => Ok(data),
        }
    }

    fn out_of_time(&self) -> bool {
        self.rounds >= self.last
    }
}

#[test]
fn a_workload_out_of_time_ends_the_session_with_what_it_completed() {
    for kept in [3, 0] {
        let clock = ScriptedClock::default();
        let mut w = OutOfTime {
            inner: Scripted::new(&clock, |_, rng| 1000.0 + 20.0 * noise(rng)),
            rounds: 0,
            last: 20,
            kept,
        };
        // Nothing else stops it.
        let config = SessionConfig {
            min_units: u64::MAX,
            ..SessionConfig::default()
        };
        let r = run(&mut w, &clock, &config);
        assert_eq!(w.rounds, 20);
        assert_eq!(r.status, Status::TimeCap, "{:?}", r.warnings);
        assert!(r.estimate.is_some());
        // A round cut with units counts them; one cut before any is not recorded.
        match kept {
            0 => assert_eq!(r.rounds.len(), 19),
            _ => assert_eq!(r.rounds.last().unwrap().units, kept),
        }
    }
}

#[test]
fn correlated_samples_are_no_basis_for_giving_up() {
    // Units of 100 ms on a machine that switches between two speeds 40% apart every ten
    // units: the target of 1% is out of reach, but over the first seconds the samples are so
    // correlated that the interval cannot be trusted. The session runs on to its cap for
    // samples far enough apart; the same spread without the phases is judged out of reach.
    let phases = |i: u64, rng: &mut ChaCha8Rng| {
        let level = if (i / 10).is_multiple_of(2) {
            100e6
        } else {
            140e6
        };
        level * (1.0 + 0.02 * noise(rng))
    };
    let independent = |_: u64, rng: &mut ChaCha8Rng| {
        let level = if rng.random::<bool>() { 100e6 } else { 140e6 };
        level * (1.0 + 0.02 * noise(rng))
    };
    let config = SessionConfig {
        max_time: Duration::from_secs(20),
        ..SessionConfig::default()
    };
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, independent);
    let alone = run(&mut w, &clock, &config);
    assert_eq!(alone.status, Status::OutOfReach, "{:?}", alone.warnings);
    assert!(
        alone.elapsed < Duration::from_secs(9),
        "{:?}",
        alone.elapsed
    );
    let clock = ScriptedClock::default();
    let mut w = Scripted::new(&clock, phases);
    let r = run(&mut w, &clock, &config);
    assert!(
        r.elapsed > Duration::from_secs(12),
        "{:?} {:?}",
        r.elapsed,
        r.status
    );
}
