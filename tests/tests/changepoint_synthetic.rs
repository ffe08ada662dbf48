//! Known-truth tests of `find_stable_segment` on seeded synthetic series, compared with the
//! stable segment of stock E-Divisive with Medians (`edm_multi`, the longest of its segments).
//!
//! Noise is Gaussian AR(1) with unit marginal standard deviation around a level of 100, so every
//! shift below is in noise standard deviations. Truth:
//! - abrupt warm-up / cool-down: the first (last) index of the shifted readings;
//! - exponential warm-up `A·exp(−i/τ)`: the first index where the excess is ≤ 0.5 σ. The excess
//!   left at the found start is reported too, since a start a little early leaves only a
//!   small excess.
//!
//! The fast tests (25 series per scenario) run in a few seconds in debug mode; the full
//! measurement (200 series per scenario, with the table of errors) is `#[ignore]`d:
//! `cargo test --release -p pilot-tests --test changepoint_synthetic -- --ignored --nocapture`
//! (about 2 minutes; `CP_SIZES=500,1000` picks the series lengths, default 500, 1000, 2000 and
//! 100 000; stock EDM is measured up to 1000 readings, where its O(n² log n) cost allows).

use pilot::stats::subsession_analysis;
use pilot::stats::{ChangepointConfig, edm_multi, find_stable_segment};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

const LEVEL: f64 = 100.0;

/// A seeded synthetic series with its true stable phase.
struct Case {
    xs: Vec<f64>,
    start: usize,
    end: usize,
    /// The deterministic excess over the stable level at each index (for ramps).
    excess: Vec<f64>,
}

/// AR(1) noise with lag-1 autocorrelation `phi` and marginal standard deviation 1.
fn ar1(n: usize, phi: f64, rng: &mut ChaCha8Rng) -> Vec<f64> {
    let innovation = (1.0 - phi * phi).sqrt();
    let mut x: f64 = rng.sample(StandardNormal);
    (0..n)
        .map(|_| {
            let e: f64 = StandardNormal.sample(rng);
            let out = x;
            x = phi * x + innovation * e;
            out
        })
        .collect()
}

#[derive(Debug, Clone, Copy)]
enum Scenario {
    /// `len` readings `shift` σ above the level, then stable.
    AbruptWarmup { len: usize, shift: f64, phi: f64 },
    /// Excess `amp·exp(−i/tau)`.
    ExpWarmup { amp: f64, tau: f64, phi: f64 },
    /// The last `len` readings `shift` σ above the level.
    Cooldown { len: usize, shift: f64, phi: f64 },
    /// Exponential warm-up and a cool-down together.
    Both {
        amp: f64,
        tau: f64,
        cool: usize,
        shift: f64,
        phi: f64,
    },
    /// Noise only.
    Flat { phi: f64 },
}

impl Scenario {
    fn make(self, n: usize, seed: u64) -> Case {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let noise = ar1(n, self.phi(), &mut rng);
        let mut excess = vec![0.0; n];
        let (mut start, mut end) = (0, n);
        match self {
            Scenario::AbruptWarmup { len, shift, .. } => {
                excess[..len].iter_mut().for_each(|e| *e = shift);
                start = len;
            }
            Scenario::ExpWarmup { amp, tau, .. } => {
                start = exp_ramp(&mut excess, amp, tau);
            }
            Scenario::Cooldown { len, shift, .. } => {
                excess[n - len..].iter_mut().for_each(|e| *e = shift);
                end = n - len;
            }
            Scenario::Both {
                amp,
                tau,
                cool,
                shift,
                ..
            } => {
                start = exp_ramp(&mut excess, amp, tau);
                excess[n - cool..].iter_mut().for_each(|e| *e = shift);
                end = n - cool;
            }
            Scenario::Flat { .. } => {}
        }
        let xs = noise
            .iter()
            .zip(&excess)
            .map(|(e, x)| LEVEL + e + x)
            .collect();
        Case {
            xs,
            start,
            end,
            excess,
        }
    }

    fn phi(self) -> f64 {
        match self {
            Scenario::AbruptWarmup { phi, .. }
            | Scenario::ExpWarmup { phi, .. }
            | Scenario::Cooldown { phi, .. }
            | Scenario::Both { phi, .. }
            | Scenario::Flat { phi } => phi,
        }
    }
}

/// Fills `amp·exp(−i/tau)` and returns the first index where it is ≤ 0.5.
fn exp_ramp(excess: &mut [f64], amp: f64, tau: f64) -> usize {
    for (i, e) in excess.iter_mut().enumerate() {
        *e = amp * (-(i as f64) / tau).exp();
    }
    excess
        .iter()
        .position(|&e| e <= 0.5)
        .unwrap_or(excess.len())
}

/// Stock EDM's stable segment: the longest of its segments (the later one on a tie).
fn stock_segment(xs: &[f64]) -> (usize, usize) {
    let cps = edm_multi(xs, &ChangepointConfig::default()).unwrap();
    let mut bounds = vec![0];
    bounds.extend(cps);
    bounds.push(xs.len());
    bounds
        .windows(2)
        .map(|w| (w[0], w[1]))
        .fold((0, 0), |best, s| {
            if s.1 - s.0 >= best.1 - best.0 {
                s
            } else {
                best
            }
        })
}

/// Quantile `q` of signed errors by |error|, reported as the |error|.
fn abs_quantile(errors: &[i64], q: f64) -> i64 {
    let mut a: Vec<i64> = errors.iter().map(|e| e.abs()).collect();
    a.sort_unstable();
    a[((a.len() - 1) as f64 * q).round() as usize]
}

/// Quantile `q` of signed errors.
fn signed_quantile(errors: &[i64], q: f64) -> i64 {
    let mut a = errors.to_vec();
    a.sort_unstable();
    a[((a.len() - 1) as f64 * q).round() as usize]
}

/// Boundary errors over many seeds, for pilot's finder and for stock EDM.
#[derive(Debug, Default)]
struct Errors {
    start: Vec<i64>,
    end: Vec<i64>,
    excess_left: Vec<f64>,
    stock_start: Vec<i64>,
    stock_end: Vec<i64>,
    stock_excess_left: Vec<f64>,
    /// Subsession size q and CI half-width on the found segment, relative to the true one.
    q: Vec<(usize, usize, usize)>,
    width_ratio: Vec<(f64, f64)>,
}

impl Errors {
    fn measure(scenario: Scenario, n: usize, seeds: std::ops::Range<u64>, stock: bool) -> Self {
        let mut e = Errors::default();
        for seed in seeds {
            let case = scenario.make(n, seed);
            let found = find_stable_segment(&case.xs, &ChangepointConfig::default()).unwrap();
            assert!(
                found.start < found.end && found.end <= n,
                "{scenario:?} seed {seed}"
            );
            e.start.push(found.start as i64 - case.start as i64);
            e.end.push(found.end as i64 - case.end as i64);
            e.excess_left.push(case.excess[found.start]);
            if stock {
                let (s, t) = stock_segment(&case.xs);
                e.stock_start.push(s as i64 - case.start as i64);
                e.stock_end.push(t as i64 - case.end as i64);
                e.stock_excess_left.push(case.excess[s]);
                let sub = |a: usize, b: usize| {
                    let s = subsession_analysis(&case.xs[a..b], 0.1, 30).unwrap();
                    (s.size, s.mean_ci(0.95).unwrap().half_width())
                };
                let (q_true, w_true) = sub(case.start, case.end);
                let (q_found, w_found) = sub(found.start, found.end);
                let (q_stock, w_stock) = sub(s, t);
                e.q.push((q_true, q_found, q_stock));
                e.width_ratio.push((w_found / w_true, w_stock / w_true));
            }
        }
        e
    }

    fn untouched(&self) -> f64 {
        let k = self
            .start
            .iter()
            .zip(&self.end)
            .filter(|(s, e)| **s == 0 && **e == 0)
            .count();
        k as f64 / self.start.len() as f64
    }

    fn print(&self, name: &str) {
        let line = |who: &str, s: &[i64], t: &[i64], x: &[f64]| {
            let mut x = x.to_vec();
            x.sort_by(f64::total_cmp);
            println!(
                "{name:<34} {who:<5} start err med {:>4} [{:>4},{:>4}] |p95| {:>4}  end err med {:>4} \
                 [{:>4},{:>4}] |p95| {:>4}  excess left p95 {:.2}",
                signed_quantile(s, 0.5),
                signed_quantile(s, 0.05),
                signed_quantile(s, 0.95),
                abs_quantile(s, 0.95),
                signed_quantile(t, 0.5),
                signed_quantile(t, 0.05),
                signed_quantile(t, 0.95),
                abs_quantile(t, 0.95),
                x[((x.len() - 1) as f64 * 0.95).round() as usize]
            );
        };
        line("pilot", &self.start, &self.end, &self.excess_left);
        if !self.stock_start.is_empty() {
            line(
                "stock",
                &self.stock_start,
                &self.stock_end,
                &self.stock_excess_left,
            );
        }
        if !self.q.is_empty() {
            let med = |mut v: Vec<f64>| {
                v.sort_by(f64::total_cmp);
                v[v.len() / 2]
            };
            println!(
                "{name:<34}       subsession q median: truth {} pilot {} stock {}; CI width / \
                 truth's, median: pilot {:.2} stock {:.2}",
                med(self.q.iter().map(|q| q.0 as f64).collect()),
                med(self.q.iter().map(|q| q.1 as f64).collect()),
                med(self.q.iter().map(|q| q.2 as f64).collect()),
                med(self.width_ratio.iter().map(|w| w.0).collect()),
                med(self.width_ratio.iter().map(|w| w.1).collect()),
            );
        }
    }
}

const ABRUPT: Scenario = Scenario::AbruptWarmup {
    len: 60,
    shift: 3.0,
    phi: 0.0,
};
const ABRUPT_SHORT: Scenario = Scenario::AbruptWarmup {
    len: 15,
    shift: 4.0,
    phi: 0.3,
};
const EXP: Scenario = Scenario::ExpWarmup {
    amp: 6.0,
    tau: 30.0,
    phi: 0.5,
};
const EXP_LONG: Scenario = Scenario::ExpWarmup {
    amp: 4.0,
    tau: 100.0,
    phi: 0.3,
};
const COOL5: Scenario = Scenario::Cooldown {
    len: 5,
    shift: 4.0,
    phi: 0.0,
};
const COOL10: Scenario = Scenario::Cooldown {
    len: 10,
    shift: 4.0,
    phi: 0.3,
};
const COOL20: Scenario = Scenario::Cooldown {
    len: 20,
    shift: 3.0,
    phi: 0.5,
};
const BOTH: Scenario = Scenario::Both {
    amp: 6.0,
    tau: 30.0,
    cool: 10,
    shift: 4.0,
    phi: 0.5,
};
const IID: Scenario = Scenario::Flat { phi: 0.0 };
const AR7: Scenario = Scenario::Flat { phi: 0.7 };

const ALL: [(&str, Scenario); 10] = [
    ("abrupt warm-up 60 @3σ iid", ABRUPT),
    ("abrupt warm-up 15 @4σ φ=.3", ABRUPT_SHORT),
    ("exp warm-up 6σ τ=30 φ=.5", EXP),
    ("exp warm-up 4σ τ=100 φ=.3", EXP_LONG),
    ("cool-down 5 @4σ iid", COOL5),
    ("cool-down 10 @4σ φ=.3", COOL10),
    ("cool-down 20 @3σ φ=.5", COOL20),
    ("exp warm-up + cool-down 10, φ=.5", BOTH),
    ("plain noise iid", IID),
    ("AR(1) noise φ=.7", AR7),
];

/// Fraction of `xs` with `f` true.
fn share<T>(xs: &[T], f: impl Fn(&T) -> bool) -> f64 {
    xs.iter().filter(|x| f(x)).count() as f64 / xs.len() as f64
}

fn median_f(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn p95_f(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * 0.95).round() as usize]
}

// The bars below hold with margin on the 200-series measurement (see the module docs for the
// command) and fail for a finder that ignores an edge: each names the stock-EDM value it beats.

/// Abrupt warm-ups: the start within a few readings. Stock EDM misses a 15-reading warm-up
/// (shorter than its minimum segment) or cuts it at its minimum of 30.
fn check_abrupt(e: &Errors, short: bool) {
    assert!(
        abs_quantile(&e.start, 0.5) <= 2,
        "start errors {:?}",
        e.start
    );
    assert!(
        abs_quantile(&e.start, 0.9) <= 12,
        "start errors {:?}",
        e.start
    );
    assert!(share(&e.end, |&x| x == 0) >= 0.95, "end errors {:?}", e.end);
    if short && !e.stock_start.is_empty() {
        assert!(
            abs_quantile(&e.stock_start, 0.5) >= 10,
            "stock {:?}",
            e.stock_start
        );
    }
}

/// Exponential warm-ups: little excess left at the found start (truth: excess ≤ 0.5 σ), and not
/// much more than the ramp trimmed. (Stock EDM's start is erratic here, from the series' start
/// to far past the ramp; its effect on the interval is shown by the measurement, not asserted.)
fn check_exp(e: &Errors, tau: f64) {
    assert!(
        median_f(&e.excess_left) <= 0.8,
        "excess left {:?}",
        e.excess_left
    );
    assert!(
        p95_f(&e.excess_left) <= 2.0,
        "excess left {:?}",
        e.excess_left
    );
    assert!(
        signed_quantile(&e.start, 0.9) as f64 <= 4.0 * tau,
        "start errors {:?}",
        e.start
    );
}

/// Cool-downs of `len` readings: the end within a few readings; stock EDM, whose minimum segment
/// is 30, misses most of them.
fn check_cooldown_end(e: &Errors, len: usize) {
    assert!(abs_quantile(&e.end, 0.5) <= 1, "end errors {:?}", e.end);
    assert!(abs_quantile(&e.end, 0.9) <= 8, "end errors {:?}", e.end);
    if !e.stock_end.is_empty() {
        assert!(
            abs_quantile(&e.stock_end, 0.5) as usize >= len / 2,
            "stock {:?}",
            e.stock_end
        );
    }
}

fn check_cooldown(e: &Errors, len: usize) {
    check_cooldown_end(e, len);
    assert!(
        share(&e.start, |&x| x == 0) >= 0.95,
        "start errors {:?}",
        e.start
    );
}

/// Noise only: the whole series in at least 96% of series, and at most 2% of series trimmed by
/// more than 5% of their length. The confirmation and edge tests are set for a false-change
/// rate near 1% per series (measured: 0–1% on 200 series of 500 to 10⁵ readings; the worst seen
/// is one AR(1) φ = 0.7 series of 500 cut at 292 by a 35-reading excursion at z > 4), so these
/// bars leave room for an unlucky draw, while raw EDM on AR(1) φ = 0.7 noise changes 10–35% of
/// series.
fn check_flat(e: &Errors, n: usize) {
    assert!(e.untouched() >= 0.96, "only {:.3} untouched", e.untouched());
    let most = (n / 20) as i64;
    let big = share(&e.start.iter().zip(&e.end).collect::<Vec<_>>(), |(s, t)| {
        **s > most || -**t > most
    });
    assert!(
        big <= 0.02,
        "{big} of series trimmed by more than 5%: {:?} {:?}",
        e.start,
        e.end
    );
}

fn check(name: &str, scenario: Scenario, e: &Errors, n: usize) {
    e.print(name);
    match scenario {
        Scenario::AbruptWarmup { len, .. } => check_abrupt(e, len < 30),
        Scenario::ExpWarmup { tau, .. } => check_exp(e, tau),
        Scenario::Cooldown { len, .. } => check_cooldown(e, len),
        Scenario::Both { tau, cool, .. } => {
            check_exp(e, tau);
            check_cooldown_end(e, cool);
        }
        Scenario::Flat { .. } => check_flat(e, n),
    }
}

// Fast versions: 25 series of 500 readings per scenario (EDM runs on all 500 values), stock
// EDM on the first 8 of them.

fn fast(scenario: Scenario, name: &str) {
    let mut e = Errors::measure(scenario, 500, 0..25, false);
    let stock = Errors::measure(scenario, 500, 0..8, true);
    (e.stock_start, e.stock_end, e.stock_excess_left) =
        (stock.stock_start, stock.stock_end, stock.stock_excess_left);
    check(name, scenario, &e, 500);
}

#[test]
fn abrupt_warmup() {
    fast(ABRUPT, "abrupt warm-up 60 @3σ iid");
    fast(ABRUPT_SHORT, "abrupt warm-up 15 @4σ φ=.3");
}

#[test]
fn exponential_warmup_with_ar_noise() {
    fast(EXP, "exp warm-up 6σ τ=30 φ=.5");
    fast(EXP_LONG, "exp warm-up 4σ τ=100 φ=.3");
}

#[test]
fn short_cooldowns() {
    fast(COOL5, "cool-down 5 @4σ iid");
    fast(COOL10, "cool-down 10 @4σ φ=.3");
    fast(COOL20, "cool-down 20 @3σ φ=.5");
}

#[test]
fn warmup_and_cooldown_together() {
    fast(BOTH, "exp warm-up + cool-down 10, φ=.5");
}

#[test]
fn no_change_in_plain_or_autocorrelated_noise() {
    fast(IID, "plain noise iid");
    fast(AR7, "AR(1) noise φ=.7");
}

#[test]
fn long_series_are_compressed_without_losing_the_edges() {
    // 20 000 readings: EDM sees block medians of 40; the edges come from full resolution.
    let n = 20_000;
    check_abrupt(&Errors::measure(ABRUPT_SHORT, n, 0..6, false), true);
    check_cooldown(&Errors::measure(COOL5, n, 0..6, false), 5);
    check_flat(&Errors::measure(AR7, n, 0..6, false), n);
}

#[test]
#[ignore = "measurement: 200 series per scenario; run in release with --nocapture"]
fn measure_boundary_accuracy() {
    let sizes: Vec<usize> = std::env::var("CP_SIZES")
        .map(|v| v.split(',').map(|x| x.parse().unwrap()).collect())
        .unwrap_or_else(|_| vec![500, 1000, 2000, 100_000]);
    for n in sizes {
        println!("n = {n}");
        for (name, scenario) in ALL {
            let e = Errors::measure(scenario, n, 0..200, n <= 1000);
            if std::env::var("CP_NO_CHECK").is_ok() {
                e.print(name);
            } else {
                check(name, scenario, &e, n);
            }
            if matches!(scenario, Scenario::Flat { .. }) {
                println!("{name:<34} pilot untouched {:.3}", e.untouched());
            }
        }
    }
}
