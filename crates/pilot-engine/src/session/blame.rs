//! Whose drift it is: the machine's state sampled during the rounds (the share of a core the
//! bench's process got, and the cores others kept busy) against the rounds' mean times. A neighbour that starts or stops in
//! the middle of a bench moves its rounds while the speed probe, timed only before and after
//! the bench, sees a quiet machine; the rounds' own samples see it.
//!
//! Method: fit the analysed rounds' mean unit times on their load and their index together
//! (least squares with two predictors), so that neither takes the other's part. When more load
//! made rounds slower (a positive load coefficient, one-sided p < 0.01) and the trend beside it
//! is no drift (two-sided p ≥ 0.001, or less than half the session's drift), the drift is the
//! machine's. Assumes a round's load acts on its
//! time linearly, which holds for the sharing of cores that busy neighbours cause; cost O(rounds).

use super::SessionResult;
use super::warnings::Drift;
use crate::checks::{Kind, check, figure};

/// Least spread of the load across rounds before it can explain anything (in its unit: cores,
/// or times the work took for want of a core). Below it the load is flat; above it, whether
/// it explains the drift is for the fit's tests to say.
const LEAST_LOAD_RANGE: f64 = 0.05;

/// What the rounds' load says of a drift: the load in the first and last analysed rounds, and
/// the drift left once the load's part is removed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LoadBlame {
    pub(crate) first: f64,
    pub(crate) last: f64,
    pub(crate) remaining: f64,
}

/// Whether the `loads` (cores kept busy by others, one per round) explain the `drift` of the
/// rounds' `means`; `None` when they do not (or cannot: too few rounds, a flat load).
pub(crate) fn load_explains(means: &[f64], loads: &[f64], drift: Drift) -> Option<LoadBlame> {
    let n = means.len();
    if n < 5 || loads.len() != n {
        return None;
    }
    let (lo, hi) = loads
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    if hi - lo < LEAST_LOAD_RANGE {
        return None;
    }
    let fit = fit_load_and_trend(loads, means)?;
    let t_table = |q: f64| {
        let t = statrs::distribution::StudentsT::new(0.0, 1.0, (n - 3) as f64).ok()?;
        Some(statrs::distribution::ContinuousCDF::inverse_cdf(&t, q))
    };
    // More load, slower rounds: one-sided at p < 0.01.
    let t_load = fit.load / fit.load_se;
    if !(fit.load > 0.0 && t_load > t_table(0.99)?) {
        return None;
    }
    // The trend beside the load's part: a drift only at p < 0.001 (two-sided), as the
    // session's own drift check asks.
    let mean = means.iter().sum::<f64>() / n as f64;
    let t_trend = (fit.trend / fit.trend_se).abs();
    let remaining = if t_trend > t_table(0.9995)? {
        fit.trend * (n - 1) as f64 / mean
    } else {
        0.0
    };
    (remaining.abs() < drift.relative.abs() / 2.0 || remaining * drift.relative < 0.0).then_some(
        LoadBlame {
            first: loads[0],
            last: loads[n - 1],
            remaining,
        },
    )
}

/// The least-squares fit `mean = a + load · L + trend · i` over rounds `i` with load `L`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct LoadFit {
    load: f64,
    load_se: f64,
    trend: f64,
    trend_se: f64,
}

/// Fits each round's mean time on its load and its index together (two predictors, centred,
/// solved by the normal equations), so that a load which happens to grow with time does not
/// take the workload's own trend for its part, nor the reverse. `None` when the predictors
/// are collinear or there are fewer than four points. Time: O(n).
fn fit_load_and_trend(loads: &[f64], means: &[f64]) -> Option<LoadFit> {
    let n = means.len();
    if n < 4 {
        return None;
    }
    let nf = n as f64;
    let mean_of = |xs: &mut dyn Iterator<Item = f64>| xs.sum::<f64>() / nf;
    let (l0, i0, y0) = (
        mean_of(&mut loads.iter().copied()),
        (nf - 1.0) / 2.0,
        mean_of(&mut means.iter().copied()),
    );
    let (mut s11, mut s22, mut s12, mut s1y, mut s2y) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (i, (&l, &y)) in loads.iter().zip(means).enumerate() {
        let (x1, x2, y) = (l - l0, i as f64 - i0, y - y0);
        s11 += x1 * x1;
        s22 += x2 * x2;
        s12 += x1 * x2;
        s1y += x1 * y;
        s2y += x2 * y;
    }
    let det = s11 * s22 - s12 * s12;
    // Collinear (or NaN) regressors: no separate load and trend.
    if det.partial_cmp(&(1e-12 * s11 * s22)) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    let load = (s22 * s1y - s12 * s2y) / det;
    let trend = (s11 * s2y - s12 * s1y) / det;
    let sse: f64 = loads
        .iter()
        .zip(means)
        .enumerate()
        .map(|(i, (&l, &y))| {
            let r = (y - y0) - load * (l - l0) - trend * (i as f64 - i0);
            r * r
        })
        .sum();
    let s2 = sse / (nf - 3.0);
    Some(LoadFit {
        load,
        load_se: (s2 * s22 / det).sqrt(),
        trend,
        trend_se: (s2 * s11 / det).sqrt(),
    })
}

impl SessionResult {
    /// Blames the session's drift on the machine when the load sampled during its rounds
    /// explains it ([`load_explains`]): the drift's check becomes `machine_drift`, with the
    /// load's figures. Call after the rounds were given their machine state.
    pub(crate) fn blame_drift_on_load(&mut self) {
        let Some(d) = self.drift else { return };
        // The load a round ran under, two ways: how many times longer its work took for the
        // share of a core its process got (1 / the cores it kept busy), which grows with every
        // process that competes for its core; and the cores other processes kept busy, whose
        // caches and sibling threads the bench shares even when it has a core to itself.
        let sampled: Vec<(f64, f64, f64)> = self
            .rounds
            .iter()
            .filter(|r| r.analysed)
            .filter_map(|r| {
                let m = r.machine.as_ref()?;
                (m.own_cores > 0.02).then_some((r.mean_ns?, m.own_cores.min(1.0), m.others_cores))
            })
            .collect();
        let means: Vec<f64> = sampled.iter().map(|s| s.0).collect();
        let inflation: Vec<f64> = sampled.iter().map(|s| 1.0 / s.1).collect();
        let others: Vec<f64> = sampled.iter().map(|s| s.2).collect();
        let Some(blame) =
            load_explains(&means, &inflation, d).or_else(|| load_explains(&means, &others, d))
        else {
            return;
        };
        let (first, last) = (sampled[0], sampled[sampled.len() - 1]);
        let Some(at) = self.checks.iter().position(|c| {
            matches!(
                Kind::parse(&c.kind),
                Some(Kind::Slowdown | Kind::Speedup | Kind::MachineDrift)
            )
        }) else {
            return;
        };
        let kind = self.checks[at].kind.clone();
        let message = format!(
            "the bench got {} from round to round ({:+.1}% from the first analysed round to the \
             last, {}) as the share of a core its process got went from {:.2} to {:.2} \
             (others kept {:.1} to {:.1} cores busy; sampled between the rounds); with the \
             load's part taken out, {}: the machine's drift, not the workload's",
            if d.relative > 0.0 { "slower" } else { "faster" },
            100.0 * d.relative,
            crate::fmt::p_clause(d.p),
            first.1,
            last.1,
            first.2,
            last.2,
            if blame.remaining == 0.0 {
                "no drift remains".to_string()
            } else {
                format!("{:+.1}% remains", 100.0 * blame.remaining)
            }
        );
        let blamed = check(
            Kind::MachineDrift,
            message,
            serde_json::json!({
                "relative": figure(d.relative),
                "p": figure(d.p),
                "core_share_first": figure(first.1),
                "core_share_last": figure(last.1),
                "others_cores_first": figure(first.2),
                "others_cores_last": figure(last.2),
                "remaining": figure(blame.remaining),
            }),
        );
        self.replace_check(&kind, blamed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rounds of 100 ns, 2 ns slower per core kept busy by others.
    fn rounds(loads: &[f64], workload_drift: f64) -> Vec<f64> {
        let n = loads.len() as f64;
        loads
            .iter()
            .enumerate()
            .map(|(i, l)| {
                // A little noise that is neither load nor trend: a fixed ±0.3 ns pattern.
                let noise = [0.3, -0.2, 0.1, -0.3, 0.2][i % 5];
                100.0 * (1.0 + workload_drift * i as f64 / (n - 1.0)) + 20.0 * l + noise
            })
            .collect()
    }

    const DRIFT: Drift = Drift {
        relative: 0.15,
        p: 1e-6,
    };

    #[test]
    fn a_neighbour_that_starts_midway_explains_a_slowdown() {
        // 10 quiet rounds, then 20 with a neighbour on one core: 20% slower, a drift of +15%.
        let loads: Vec<f64> = (0..30).map(|i| if i < 10 { 0.0 } else { 1.0 }).collect();
        let b = load_explains(&rounds(&loads, 0.0), &loads, DRIFT).unwrap();
        assert_eq!((b.first, b.last, b.remaining), (0.0, 1.0, 0.0));
    }

    #[test]
    fn a_workload_that_slows_under_a_steady_load_is_not_the_machines() {
        // The load is flat: nothing to explain with.
        let loads = vec![1.0; 30];
        assert_eq!(load_explains(&rounds(&loads, 0.2), &loads, DRIFT), None);
        // The load moves, but the times do not follow it; the drift is the workload's.
        let loads: Vec<f64> = (0..30).map(|i| (i % 2) as f64).collect();
        let means: Vec<f64> = (0..30).map(|i| 100.0 + 0.7 * i as f64).collect();
        assert_eq!(load_explains(&means, &loads, DRIFT), None);
    }

    #[test]
    fn a_workload_drift_beside_a_neighbour_remains_the_workloads() {
        // A neighbour from round 10 on, and the workload itself 30% slower by the end: once
        // the load's part is out, most of the drift remains.
        let loads: Vec<f64> = (0..30).map(|i| if i < 10 { 0.0 } else { 1.0 }).collect();
        let drift = Drift {
            relative: 0.4,
            p: 1e-9,
        };
        assert_eq!(load_explains(&rounds(&loads, 0.3), &loads, drift), None);
    }

    #[test]
    fn the_fit_recovers_the_load_and_the_trend_it_was_built_from() {
        // mean = 2 + 3·L + 0.5·i exactly, with a load that rises and falls: both parts are
        // recovered, and without noise their standard errors are 0.
        let loads = [0.0, 1.0, 0.5, 2.0, 0.0, 1.5, 0.25];
        let means: Vec<f64> = (0..7)
            .map(|i| 2.0 + 3.0 * loads[i] + 0.5 * i as f64)
            .collect();
        let f = fit_load_and_trend(&loads, &means).unwrap();
        assert!((f.load - 3.0).abs() < 1e-12, "{f:?}");
        assert!((f.trend - 0.5).abs() < 1e-12, "{f:?}");
        assert!(f.load_se < 1e-6 && f.trend_se < 1e-6, "{f:?}");
        // A load that is the index itself cannot be told from the trend.
        let loads: Vec<f64> = (0..7).map(f64::from).collect();
        assert_eq!(fit_load_and_trend(&loads, &means), None);
    }

    #[test]
    fn too_few_rounds_explain_nothing() {
        let loads = [0.0, 0.0, 1.0, 1.0];
        assert_eq!(load_explains(&rounds(&loads, 0.0), &loads, DRIFT), None);
    }
}
