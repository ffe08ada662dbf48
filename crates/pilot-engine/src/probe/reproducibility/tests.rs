//! The reproducibility band against values computed independently
//! (`lab/reproducibility_reference.py`, numpy and scipy), and its coverage of the next run by
//! Monte Carlo.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

use super::*;

fn band(r: Reproducibility) -> Band {
    match r {
        Reproducibility::Learnt(b) => b,
        other => panic!("not learnt: {other:?}"),
    }
}

fn run(mean: f64, se: f64, dof: f64) -> RunEstimate {
    RunEstimate { mean, se, dof }
}

fn evidence(earlier: &[f64]) -> Evidence<'_> {
    Evidence {
        earlier,
        builds: &[],
        benches: None,
        probe: None,
    }
}

#[test]
fn a_benchs_own_runs_give_a_prediction_interval_around_their_level() {
    // 100, 102, 98, 101 ns earlier and 99 ns now (lab/reproducibility_reference.py): the
    // recency-weighted level e^ȳ = 99.90596046878731, sd 0.015673038272956925 over Kish's
    // 4.816682639248384 runs (3.816682639248384 dof), and the half-width
    // t.ppf(0.975, 3.8167) · sd · √(1 + 1/4.8167) = 0.048739178045763144.
    let b = band(reproducibility(
        run(99.0, 0.001, 30.0),
        &evidence(&[100.0, 102.0, 98.0, 101.0]),
        0.95,
    ));
    assert_eq!((b.source, b.runs), (Source::Bench, 5));
    assert!((b.center - 99.905_960_468_787_31).abs() < 1e-9, "{b:?}");
    assert!((b.sd - 0.015_673_038_272_956_925).abs() < 1e-12, "{b:?}");
    assert!((b.dof - 3.816_682_639_248_384).abs() < 1e-9, "{b:?}");
    assert!((b.level_runs - 4.816_682_639_248_384).abs() < 1e-9, "{b:?}");
    assert!(
        (b.half_width / 0.048_739_178_045_763_144 - 1.0).abs() < 2e-8,
        "{b:?}"
    );
    assert!((b.low() - b.center * (-b.half_width).exp()).abs() < 1e-12);
    assert!(b.low() < 99.0 && 99.0 < b.high(), "{b:?}");
    // This run's own noise is in the runs' spread already: a noisier run does not widen it.
    let noisy = band(reproducibility(
        run(99.0, 0.01, 30.0),
        &evidence(&[100.0, 102.0, 98.0, 101.0]),
        0.95,
    ));
    assert_eq!(noisy.half_width, b.half_width);
}

/// Four earlier runs of a bench in other builds that agree to 0.01%: its own band from them
/// is far narrower than a machine's 2%.
const STEADY_BUILDS: [f64; 4] = [100.0, 100.01, 100.0, 100.01];

#[test]
fn the_machine_adds_this_runs_own_noise_by_welch_satterthwaite() {
    // This run: 100 ± 1 ns (95%) over 9 dof, se = 0.01 / t.ppf(0.975, 9) =
    // 0.00442055935124789, and no earlier run of its build: centred on 100 ns, one run in the
    // level. The probe: a robust sd of 2% over 5 runs, 0.37 · 4 = 1.48 dof. scipy:
    // ν = (0.02² + se²)² / (0.02⁴/1.48 + se⁴/9) = 1.6274994491969046, and
    // t.ppf(0.975, ν) · √(0.02² + se²) · √2 = 0.15639048792271365. The bench's runs in
    // other builds agree closely: the probe's band is the widest.
    let se = 0.004_420_559_351_247_89;
    let probe = MachineVariation::robust(0.02, 5, Source::Probe);
    let b = band(reproducibility(
        run(100.0, se, 9.0),
        &Evidence {
            builds: &STEADY_BUILDS,
            probe: Some(probe),
            ..evidence(&[])
        },
        0.95,
    ));
    assert_eq!((b.source, b.runs, b.center), (Source::Probe, 5, 100.0));
    assert!((b.dof - 1.627_499_449_196_904_6).abs() < 1e-9, "{b:?}");
    assert!((b.sd - 0.02f64.hypot(se)).abs() < 1e-15, "{b:?}");
    assert!(
        (b.half_width / 0.156_390_487_922_713_65 - 1.0).abs() < 2e-8,
        "{b:?}"
    );
    // The same variation learnt from the benches' shared shift says the same.
    let shared = MachineVariation {
        source: Source::Benches,
        ..probe
    };
    let c = band(reproducibility(
        run(100.0, se, 9.0),
        &Evidence {
            builds: &STEADY_BUILDS,
            benches: Some(shared),
            ..evidence(&[])
        },
        0.95,
    ));
    assert_eq!((c.source, c.half_width), (Source::Benches, b.half_width));
}

#[test]
fn the_machine_alone_makes_no_band() {
    // The probe and the benches' shift are learnt, but this bench has no run of its own
    // before this one: how much the machine moves it is unknown, and the band says what it
    // still needs (its build's runs: 2 more).
    let v = MachineVariation::robust(0.02, 12, Source::Probe);
    let r = reproducibility(
        run(100.0, 0.004, 9.0),
        &Evidence {
            benches: Some(MachineVariation {
                source: Source::Benches,
                ..v
            }),
            probe: Some(v),
            ..evidence(&[])
        },
        0.95,
    );
    assert_eq!(
        r,
        Reproducibility::Learning {
            runs: 1,
            runs_needed: 3
        }
    );
}

#[test]
fn a_benchs_runs_across_its_builds_give_a_band_from_their_successive_differences() {
    // 100, 104, 99, 103 ns in runs of earlier builds, 101 ns now, the first run of its build
    // (lab/reproducibility_reference.py): the median of |Δ ln| is 0.0394149…, over
    // Φ⁻¹(0.75)·√2 a sd of 0.041320955849524846 with 0.37 · 4 = 1.48 dof; centred on this
    // run, t.ppf(0.975, 1.48) · sd · √2 = 0.3583255671325302.
    let builds = [100.0, 104.0, 99.0, 103.0];
    let b = band(reproducibility(
        run(101.0, 0.001, 30.0),
        &Evidence {
            builds: &builds,
            ..evidence(&[])
        },
        0.95,
    ));
    assert_eq!((b.source, b.runs, b.center), (Source::Bench, 5, 101.0));
    assert!((b.sd - 0.041_320_955_849_524_846).abs() < 1e-12, "{b:?}");
    assert!((b.dof - 1.48).abs() < 1e-12, "{b:?}");
    assert!(
        (b.half_width / 0.358_325_567_132_530_2 - 1.0).abs() < 2e-8,
        "{b:?}"
    );
    // A rebuild that made the bench 50% slower is one large step of four: the median passes
    // over it, and the band is the one the other steps make.
    let moved = [100.0, 104.0, 150.0, 154.5];
    let m = successive_variation(
        &moved
            .iter()
            .chain([151.5].iter())
            .map(|x: &f64| x.ln())
            .collect::<Vec<_>>(),
    )
    .unwrap();
    assert!(m.sd < 0.05, "{m:?}");
    // Four runs are not enough.
    assert!(successive_variation(&[0.0, 0.01, 0.0, 0.01]).is_none());
}

#[test]
fn a_band_across_builds_holds_the_next_run_at_least_at_its_nominal_rate() {
    // 4000 benches of independent normal runs (sd 3%), of 12 to 30 runs over their builds, each
    // run a new build; with a level moved by 20% at every third rebuild, and without. The band
    // of a build's first run holds its next run at least 95% of the time, less three binomial
    // sds (lab/reproducibility_reference.py --successive: 95.8–97.3% over 10–30 runs without
    // the moves); with fewer runs it holds it more often still (99.3% at 5), which a check
    // there could not tell from a scale too small.
    let mut rng = ChaCha8Rng::seed_from_u64(44);
    let mut normal = move || -> f64 { rng.sample(StandardNormal) };
    for shift_every in [0usize, 3] {
        let (mut held, reps) = (0, 4000);
        for rep in 0..reps {
            let runs = 12 + rep % 19;
            let level = |i: usize| match shift_every {
                0 => 0.0,
                k => 0.2 * (i / k) as f64,
            };
            let logs: Vec<f64> = (0..runs).map(|i| level(i) + 0.03 * normal()).collect();
            let next = level(runs - 1) + 0.03 * normal();
            let means: Vec<f64> = logs.iter().map(|l| l.exp()).collect();
            let (builds, now) = means.split_at(runs - 1);
            let b = band(reproducibility(
                run(now[0], 0.001, 30.0),
                &Evidence {
                    builds,
                    ..evidence(&[])
                },
                0.95,
            ));
            held += ((next - b.center.ln()).abs() <= b.half_width) as usize;
        }
        let rate = held as f64 / reps as f64;
        let sd = (0.95 * 0.05 / reps as f64).sqrt();
        assert!(rate >= 0.95 - 3.0 * sd, "shift every {shift_every}: {rate}");
    }
}

#[test]
fn of_the_sources_the_widest_band_is_taken() {
    // Three runs of the bench agree to 0.1%: its own band is narrow. The machine's shift over
    // 12 runs, 2% (its own 11 dof): the band is the shift's, however few runs the bench's own
    // had (nothing is narrower than what any source saw).
    let earlier = [100.0, 100.1];
    let shift = MachineVariation {
        sd: 0.02,
        runs: 12,
        source: Source::Benches,
        dof: 11.0,
    };
    let with = |benches| {
        band(reproducibility(
            run(99.95, 0.0005, 30.0),
            &Evidence {
                benches,
                ..evidence(&earlier)
            },
            0.95,
        ))
    };
    let own = with(None);
    assert_eq!(own.source, Source::Bench);
    let both = with(Some(shift));
    assert_eq!((both.source, both.runs), (Source::Benches, 12));
    assert!(both.half_width > own.half_width, "{both:?} {own:?}");
    // Runs of the bench that spread by 5%: its own band is the wider, and is taken.
    let spread = [105.0, 95.0];
    let b = band(reproducibility(
        run(100.0, 0.0005, 30.0),
        &Evidence {
            benches: Some(shift),
            ..evidence(&spread)
        },
        0.95,
    ));
    assert_eq!(b.source, Source::Bench);
    // A bench whose own sd (1.5%) is smaller than the shift's (2%) but whose band, over its
    // 2 degrees of freedom, is wider: its own band is kept, not the shift's larger sd with
    // the shift's 11 degrees of freedom.
    let b = band(reproducibility(
        run(100.0, 0.0005, 30.0),
        &Evidence {
            benches: Some(shift),
            ..evidence(&[101.5, 98.5])
        },
        0.95,
    ));
    assert_eq!(b.source, Source::Bench);
    assert!(b.sd < shift.sd, "{b:?}");
}

#[test]
fn until_a_source_has_its_runs_the_band_says_how_many_more_it_needs() {
    // This run alone, the probe's 2nd run: the bench's own runs are nearest (3 needed).
    assert_eq!(
        reproducibility(run(100.0, 0.01, 9.0), &evidence(&[]), 0.95),
        Reproducibility::Learning {
            runs: 1,
            runs_needed: 3
        }
    );
    assert_eq!(
        reproducibility(run(100.0, 0.01, 9.0), &evidence(&[101.0]), 0.95),
        Reproducibility::Learning {
            runs: 2,
            runs_needed: 3
        }
    );
    // After a rebuild (no earlier run of this build), the bench's 4th run over its builds:
    // they are nearer (one more run against two).
    let e = Evidence {
        builds: &[100.0, 101.0, 99.0],
        ..evidence(&[])
    };
    assert_eq!(
        reproducibility(run(100.0, 0.01, 9.0), &e, 0.95),
        Reproducibility::Learning {
            runs: 4,
            runs_needed: 5
        }
    );
    // The third run of the build: learnt from the bench's own runs.
    let b = band(reproducibility(
        run(100.0, 0.01, 9.0),
        &evidence(&[101.0, 99.5]),
        0.95,
    ));
    assert_eq!((b.source, b.runs), (Source::Bench, 3));
}

#[test]
fn a_runs_shift_is_the_mean_deviation_of_its_benches_from_their_levels() {
    // Bench a over runs 0, 1, 2 at ln-values 1.0, 1.2, 0.8 (level 1.0); bench b over runs
    // 0 and 1 at 2.0 and 2.4 (level 2.2); bench c in run 2 alone (no level). By hand: run 0
    // (0.0 − 0.2) / 2 = −0.1, run 1 (0.2 + 0.2) / 2 = 0.2, run 2 −0.2; run 3 has no bench.
    let cells = vec![
        vec![(0, 1.0), (1, 1.2), (2, 0.8)],
        vec![(0, 2.0), (1, 2.4)],
        vec![(2, 5.0)],
    ];
    let shifts = run_shifts(4, &cells);
    let expected = [-0.1, 0.2, -0.2];
    assert_eq!(shifts.len(), 3);
    for (s, x) in shifts.iter().zip(expected) {
        assert!((s - x).abs() < 1e-12, "{shifts:?}");
    }
    // Fewer than 5 runs' shifts teach nothing yet; 5 do, with their spread.
    assert!(shared_variation(&[0.01, -0.01, 0.0, 0.02]).is_none());
    let v = shared_variation(&[0.01, -0.01, 0.0, 0.02, -0.02]).unwrap();
    assert_eq!((v.source, v.runs), (Source::Benches, 5));
    let s = pilot_stats::run_spread(&[0.01, -0.01, 0.0, 0.02, -0.02]).unwrap();
    assert_eq!((v.sd, v.dof), (s.sd, s.dof));
}

/// How often the next run of each of `benches` benches lands in its band, over `reps`
/// histories of `runs` runs (the last one "this run"): each run shifts every bench by a
/// shared machine state (sd `machine`), and each bench adds its own run's noise, its standard
/// error spread evenly from `se.0` to `se.1`. The band of each source alone, the widest (as
/// pilot takes it), and, for comparison, the deviations of every bench pooled over
/// `Σ(n − 1)` degrees of freedom.
struct Coverage {
    bench: f64,
    benches: f64,
    widest: f64,
    pooled_over_benches: f64,
}

fn coverage(reps: usize, benches: usize, runs: usize, machine: f64, se: (f64, f64)) -> Coverage {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let mut normal = move || -> f64 { rng.sample(StandardNormal) };
    let ses: Vec<f64> = (0..benches)
        .map(|b| se.0 + (se.1 - se.0) * b as f64 / (benches - 1) as f64)
        .collect();
    let (mut own, mut shared, mut widest, mut pooled, mut total) = (0, 0, 0, 0, 0);
    for _ in 0..reps {
        let shift: Vec<f64> = (0..=runs).map(|_| machine * normal()).collect();
        // y[b][r]: bench b's log estimate in run r (runs..=runs is the next one).
        let y: Vec<Vec<f64>> = ses
            .iter()
            .map(|se| {
                let level = normal();
                shift.iter().map(|m| level + m + se * normal()).collect()
            })
            .collect();
        // The shifts of the runs before this one, from every bench's cell of those runs.
        let cells: Vec<Vec<(usize, f64)>> = y
            .iter()
            .map(|ys| ys[..runs - 1].iter().copied().enumerate().collect())
            .collect();
        let shifts = run_shifts(runs - 1, &cells);
        let v = shared_variation(&shifts).expect("enough runs");
        // The brief's pool: every bench's deviations from its own mean over the runs seen.
        let (sum, dof) = y.iter().fold((0.0, 0.0), |(sum, dof), ys| {
            let seen = &ys[..runs];
            let mean = seen.iter().sum::<f64>() / runs as f64;
            let ss: f64 = seen.iter().map(|x| (x - mean).powi(2)).sum();
            (sum + ss, dof + (runs - 1) as f64)
        });
        let pooled_sd = (sum / dof).sqrt();
        for (ys, se) in y.iter().zip(&ses) {
            let means: Vec<f64> = ys[..runs].iter().map(|x| x.exp()).collect();
            let (earlier, now) = means.split_at(runs - 1);
            let this_run = run(now[0], *se, 30.0);
            let next = ys[runs];
            let band_of = |benches| {
                band(reproducibility(
                    this_run,
                    &Evidence {
                        benches,
                        ..evidence(earlier)
                    },
                    0.95,
                ))
            };
            let holds = |b: &Band| (next - b.center.ln()).abs() <= b.half_width;
            let alone = band_of(None);
            let with = band_of(Some(v));
            let shared_alone = {
                // The shared source's band alone, as `reproducibility` makes it.
                let d = pilot_stats::satterthwaite_dof(&[(v.sd * v.sd, v.dof), (se * se, 30.0)]);
                let sd = v.sd.hypot(*se);
                pilot_stats::prediction_half_width(sd, d, alone.level_runs, 0.95)
            };
            own += holds(&alone) as usize;
            widest += holds(&with) as usize;
            shared += ((next - alone.center.ln()).abs() <= shared_alone) as usize;
            let h = pilot_stats::prediction_half_width(pooled_sd, dof, alone.level_runs, 0.95);
            pooled += ((next - alone.center.ln()).abs() <= h) as usize;
            total += 1;
        }
    }
    let share = |n: usize| n as f64 / total as f64;
    Coverage {
        bench: share(own),
        benches: share(shared),
        widest: share(widest),
        pooled_over_benches: share(pooled),
    }
}

#[test]
fn the_band_holds_the_next_run_at_about_its_nominal_rate() {
    // 8 benches, a machine that shifts every bench of a run by 2% (sd), each bench's own run
    // noise 0.1% to 0.5%; learnt from 5 runs (this one the 6th, the benches' shifts over the
    // 5 before it). 2000 histories of 8 benches: the coverage of one source is within about
    // ±1% of its share (the 8 benches of a history share its machine, so the histories, not
    // the benches, are the independent draws: ±0.5% standard error at 95%).
    let c = coverage(2000, 8, 6, 0.02, (0.001, 0.005));
    assert!((c.bench - 0.95).abs() < 0.015, "bench {}", c.bench);
    assert!((c.benches - 0.95).abs() < 0.015, "benches {}", c.benches);
    // The widest of the two holds it at least as often as each, and not much more.
    assert!(c.widest >= c.bench.max(c.benches), "widest {}", c.widest);
    assert!(c.widest < 0.985, "widest {}", c.widest);
    // Every bench's deviations pooled over Σ(n − 1) = 40 degrees of freedom: the machine's
    // part had 5 runs, not 40, and the band falls short.
    assert!(
        c.pooled_over_benches < 0.925,
        "pooled {}",
        c.pooled_over_benches
    );
    // Benches of very different noise (0.1% to 4%, as wide as the machine's): each bench's
    // own noise joins the shared part, so the quiet ones are not given the noisy ones'.
    let c = coverage(1000, 8, 6, 0.02, (0.001, 0.04));
    assert!((c.bench - 0.95).abs() < 0.02, "bench {}", c.bench);
    assert!((c.benches - 0.95).abs() < 0.02, "benches {}", c.benches);
    assert!(c.widest >= 0.95 && c.widest < 0.99, "widest {}", c.widest);
}
