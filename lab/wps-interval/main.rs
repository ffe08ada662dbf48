//! How the WPS method's interval of a readings-only bench's time per unit behaves under the
//! noise a session's rounds see, for the estimator pilot uses and the alternatives it was chosen
//! against: coverage of the true time per unit at 95%, how often the estimate is positive, the
//! median half-width, how often the interval reaches 0 (the speed then has no upper bound).
//!
//! Rounds follow Pilot's bisection schedule over [250 000, 1 000 000] work units, each level in
//! ascending order as pilot's planner sweeps it (`asc`) or in van der Corput order (`vdc`), at
//! 2 ns a unit with 20 µs of fixed cost a round. Noise models:
//! - `ar RHO AMP`: the machine's speed wanders, `1 + AMP·x` with x AR(1) of coefficient RHO, plus
//!   a clock jitter of 0.5% of the longest round;
//! - `preempt SHARE SLICE_NS`: a neighbour takes slices of the core, Poisson in the round's busy
//!   time with SHARE of it taken on average, each slice 0.5 to 1.5 SLICE_NS long (the truth is
//!   then the slowed time per unit, 2·(1 + SHARE) ns).
//!
//! Estimators: `pilot` (`pilot_stats::wps`: every round's line, the merged points' standard
//! errors, never narrower than every round's fit); `merged` (the merged points' own slope and
//! interval: pilot before it kept every round's line); `newey-west` (every round's line with a
//! HAC standard error); `blocks` (the mean of blocks' own slopes, blocks grown until their
//! slopes' lag-1 autocorrelation is within 0.1); `noise-aware` (pilot's, merging stopped once
//! |r1| ≤ max(0.1, 2/√m) for m merged points).
//!
//! Usage (see run.sh): `wps-interval ar 0.9 0.03 6` or `wps-interval preempt 0.3 3000000 6`,
//! the last argument the number of bisection levels (2^L − 1 rounds).

use pilot_stats::{block_means, ols, wps};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Poisson, StandardNormal};
use statrs::distribution::{ContinuousCDF, StudentsT};

const SESSIONS: usize = 2000;
const BETA: f64 = 2.0;
const ALPHA: f64 = 20_000.0;
const RANGE: (f64, f64) = (250_000.0, 1_000_000.0);

fn bisection(levels: u32, vdc: bool) -> Vec<f64> {
    let (a, b) = RANGE;
    let mut out = vec![];
    for l in 1..=levels {
        let k = 1u64 << (l - 1);
        for j0 in 0..k {
            let j = if vdc && l > 1 { j0.reverse_bits() >> (64 - (l - 1)) } else { j0 };
            out.push((a + (2 * j + 1) as f64 * (b - a) / (2 * k) as f64).round());
        }
    }
    out
}

fn t975(df: f64) -> f64 {
    StudentsT::new(0.0, 1.0, df).unwrap().inverse_cdf(0.975)
}

fn lag1(x: &[f64]) -> f64 {
    let m = x.iter().sum::<f64>() / x.len() as f64;
    let d: f64 = x.iter().map(|v| (v - m).powi(2)).sum();
    if d == 0.0 {
        return 0.0;
    }
    (1..x.len()).map(|i| (x[i] - m) * (x[i - 1] - m)).sum::<f64>() / d
}

/// Intercept, slope, the slope's standard error, residuals.
fn line(w: &[f64], t: &[f64]) -> (f64, f64, f64, Vec<f64>) {
    let n = w.len() as f64;
    let (mw, mt) = (w.iter().sum::<f64>() / n, t.iter().sum::<f64>() / n);
    let sxx: f64 = w.iter().map(|x| (x - mw).powi(2)).sum();
    let b = w.iter().zip(t).map(|(x, y)| (x - mw) * (y - mt)).sum::<f64>() / sxx;
    let a = mt - b * mw;
    let r: Vec<f64> = w.iter().zip(t).map(|(x, y)| y - a - b * x).collect();
    let s2 = r.iter().map(|e| e * e).sum::<f64>() / (n - 2.0);
    (a, b, (s2 / sxx).sqrt(), r)
}

type Interval = (f64, f64, f64);

fn pilot(w: &[f64], t: &[f64]) -> Interval {
    let f = wps(w, t, 0.95, 0.1).unwrap();
    (f.fit.slope, f.slope_ci.low, f.slope_ci.high)
}

fn merged(w: &[f64], t: &[f64]) -> Interval {
    let q = wps(w, t, 0.95, 0.1).unwrap().subsession_size;
    let f = ols(&block_means(w, q), &block_means(t, q)).unwrap();
    let ci = f.slope_ci(0.95).unwrap();
    (f.slope, ci.low, ci.high)
}

fn newey_west(w: &[f64], t: &[f64]) -> Interval {
    let n = w.len() as f64;
    let mw = w.iter().sum::<f64>() / n;
    let (_, b, _, e) = line(w, t);
    let sxx: f64 = w.iter().map(|x| (x - mw).powi(2)).sum();
    let u: Vec<f64> = w.iter().zip(&e).map(|(x, e)| (x - mw) * e).collect();
    let lag = ((4.0 * (n / 100.0).powf(2.0 / 9.0)).floor() as usize).max(1);
    let mut s: f64 = u.iter().map(|v| v * v).sum();
    for l in 1..=lag {
        let weight = 1.0 - l as f64 / (lag as f64 + 1.0);
        s += 2.0 * weight * (l..u.len()).map(|i| u[i] * u[i - l]).sum::<f64>();
    }
    let se = (s.max(0.0) / (sxx * sxx) * n / (n - 2.0)).sqrt();
    let h = t975(n - 2.0) * se;
    (b, b - h, b + h)
}

fn blocks(w: &[f64], t: &[f64]) -> Interval {
    let mut q = 2;
    loop {
        let slopes: Vec<f64> = w
            .chunks_exact(q)
            .zip(t.chunks_exact(q))
            .map(|(wb, tb)| line(wb, tb).1)
            .filter(|s| s.is_finite())
            .collect();
        if (lag1(&slopes).abs() <= 0.1 || w.len() / (q + 1) < 5) && slopes.len() >= 2 {
            let k = slopes.len() as f64;
            let m = slopes.iter().sum::<f64>() / k;
            let v = slopes.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (k - 1.0);
            let h = t975(k - 1.0) * (v / k).sqrt();
            return (m, m - h, m + h);
        }
        q += 1;
    }
}

fn noise_aware(w: &[f64], t: &[f64]) -> Interval {
    let (_, b, se_all, r) = line(w, t);
    let (mut q, mut se, mut m, mut r1) = (1, se_all, w.len(), lag1(&r));
    while r1.abs() > 0.1f64.max(2.0 / (m as f64).sqrt()) && w.len() / (q + 1) >= 3 {
        q += 1;
        let (mw, mt) = (block_means(w, q), block_means(t, q));
        let (_, _, s, rr) = line(&mw, &mt);
        (se, m, r1) = (s, mw.len(), lag1(&rr));
    }
    let h = (t975(m as f64 - 2.0) * se).max(t975(w.len() as f64 - 2.0) * se_all);
    (b, b - h, b + h)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, default: f64| args.get(i).map_or(default, |s| s.parse().unwrap());
    let model = args.get(1).map_or("ar", |s| s.as_str()).to_string();
    let (p1, p2, levels) = (arg(2, 0.9), arg(3, 0.03), arg(4, 6.0) as u32);
    let n = (1usize << levels) - 1;
    let estimators: [(&str, fn(&[f64], &[f64]) -> Interval); 5] = [
        ("pilot", pilot),
        ("merged", merged),
        ("newey-west", newey_west),
        ("blocks", blocks),
        ("noise-aware", noise_aware),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    // (order, estimator) → covered, positive, reaches 0, half-widths
    let mut tally = vec![(0usize, 0usize, 0usize, Vec::new()); 2 * estimators.len()];
    let truth = if model == "ar" { BETA } else { BETA * (1.0 + p1) };
    for _ in 0..SESSIONS {
        // One noise path in time, the same for both orders.
        let mut x: f64 = rng.sample(StandardNormal);
        let speed: Vec<f64> = (0..n)
            .map(|_| {
                x = p1 * x + (1.0 - p1 * p1).sqrt() * rng.sample::<f64, _>(StandardNormal);
                x
            })
            .collect();
        let jitter: Vec<f64> = (0..n).map(|_| rng.sample(StandardNormal)).collect();
        let seed: u64 = rng.random();
        for (o, vdc) in [false, true].into_iter().enumerate() {
            let w = bisection(levels, vdc);
            let mut slices = ChaCha8Rng::seed_from_u64(seed);
            let t: Vec<f64> = w
                .iter()
                .enumerate()
                .map(|(i, wi)| match model.as_str() {
                    "ar" => {
                        ALPHA + BETA * wi * (1.0 + p2 * speed[i])
                            + 0.005 * BETA * RANGE.1 * jitter[i]
                    }
                    _ => {
                        let busy = BETA * wi;
                        let k = Poisson::new(busy * p1 / p2).unwrap().sample(&mut slices) as usize;
                        let taken: f64 =
                            (0..k).map(|_| p2 * (0.5 + slices.random::<f64>())).sum();
                        ALPHA + busy + taken
                    }
                })
                .collect();
            for (e, (_, estimate)) in estimators.iter().enumerate() {
                let (b, low, high) = estimate(&w, &t);
                let s = &mut tally[o * estimators.len() + e];
                s.0 += usize::from(low <= truth && truth <= high);
                s.1 += usize::from(b > 0.0);
                s.2 += usize::from(low <= 0.0);
                if b > 0.0 {
                    s.3.push((high - low) / 2.0 / b);
                }
            }
        }
    }
    let pct = |k: usize| 100.0 * k as f64 / SESSIONS as f64;
    println!("{model} {p1} {p2}, {n} rounds, {SESSIONS} sessions");
    for (o, order) in ["asc", "vdc"].iter().enumerate() {
        for (e, (name, _)) in estimators.iter().enumerate() {
            let s = &mut tally[o * estimators.len() + e];
            s.3.sort_by(f64::total_cmp);
            let median = s.3.get(s.3.len() / 2).copied().unwrap_or(f64::NAN);
            println!(
                "  {order} {name:12} coverage {:5.1}%  positive {:5.1}%  median half-width \
                 {:6.2}%  reaches 0 {:5.1}%",
                pct(s.0),
                pct(s.1),
                100.0 * median,
                pct(s.2)
            );
        }
    }
}
