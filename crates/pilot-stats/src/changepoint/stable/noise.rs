//! Stationary AR(1) noise, estimated from residuals about segment means with a guard against
//! steps the segments missed: what the change-point and edge tests standardise by.

use crate::changepoint::edm::median_in;

/// Largest lag-1 autocorrelation assumed, so that the variance factors stay finite.
const MAX_PHI: f64 = 0.99;

/// Stationary AR(1) noise: marginal variance and lag-1 autocorrelation.
#[derive(Debug, Clone, Copy)]
pub(super) struct Noise {
    pub(super) variance: f64,
    phi: f64,
}

impl Noise {
    /// Pooled from the residuals of `xs` about the means of the segments between `bounds`.
    pub(super) fn of_residuals(xs: &[f64], bounds: &[usize], means: &[f64]) -> Noise {
        let (mut ss, mut cross) = (0.0, 0.0);
        for (w, &m) in bounds.windows(2).zip(means) {
            let seg = &xs[w[0]..w[1]];
            ss += seg.iter().map(|x| (x - m) * (x - m)).sum::<f64>();
            cross += seg.windows(2).map(|p| (p[0] - m) * (p[1] - m)).sum::<f64>();
        }
        let dof = xs.len().saturating_sub(means.len()).max(1);
        Noise::from_sums(ss, cross, dof, xs.len()).capped(xs)
    }

    /// Of the values `xs` about their mean.
    pub(super) fn of(xs: &[f64]) -> (f64, Noise) {
        let m = crate::summary::mean(xs);
        let ss: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
        let cross: f64 = xs.windows(2).map(|p| (p[0] - m) * (p[1] - m)).sum();
        let dof = xs.len().saturating_sub(1).max(1);
        (m, Noise::from_sums(ss, cross, dof, xs.len()).capped(xs))
    }

    /// The lag-1 estimate `cross / ss` is biased low by about `(1 + 3φ)/n`; that is added back,
    /// and the result kept in `[0, 0.99]` (negative autocorrelation is taken as none, which
    /// overstates the noise: the safe side).
    fn from_sums(ss: f64, cross: f64, dof: usize, n: usize) -> Noise {
        let raw = if ss > 0.0 { cross / ss } else { 0.0 };
        let phi = (raw + (1.0 + 3.0 * raw.max(0.0)) / n as f64).clamp(0.0, MAX_PHI);
        Noise {
            variance: ss / dof as f64,
            phi,
        }
    }

    /// Caps φ at 0.25 above an estimate that a missed step or trend cannot inflate: for AR(1)
    /// noise `Var(x_i − x_{i−2}) / Var(x_i − x_{i−1}) = 1 + φ`, and the two spreads are taken as
    /// median absolute deviations, which a few large differences at a step do not move. (The
    /// residual estimate alone goes to 1 when the segments miss a step, and then no change is
    /// significant.) Time: O(n).
    fn capped(self, xs: &[f64]) -> Noise {
        if xs.len() < 8 {
            return self;
        }
        let mut scratch = Vec::with_capacity(xs.len());
        let mut mad = |lag: usize| {
            let d: Vec<f64> = xs.windows(lag + 1).map(|w| w[lag] - w[0]).collect();
            let centre = median_in(&d, &mut scratch);
            let dev: Vec<f64> = d.iter().map(|x| (x - centre).abs()).collect();
            median_in(&dev, &mut scratch)
        };
        let (s1, s2) = (mad(1), mad(2));
        if s1 > 0.0 {
            let robust = (s2 / s1).powi(2) - 1.0;
            Noise {
                phi: self.phi.min((robust + 0.25).max(0.0)),
                ..self
            }
        } else {
            self
        }
    }

    /// `Var(x_1 + … + x_d) / σ²` for AR(1) noise:
    /// `d(1 + φ)/(1 − φ) − 2φ(1 − φ^d)/(1 − φ)²`.
    pub(super) fn sum_factor(&self, d: usize) -> f64 {
        let phi = self.phi;
        if phi == 0.0 {
            return d as f64;
        }
        let d_f = d as f64;
        let one = 1.0 - phi;
        (d_f * (1.0 + phi) / one - 2.0 * phi * (1.0 - phi.powf(d_f)) / (one * one)).max(d_f)
    }

    /// Variance of the mean of `d` consecutive values.
    pub(super) fn mean_variance(&self, d: usize) -> f64 {
        let d_f = d as f64;
        self.variance * self.sum_factor(d) / (d_f * d_f)
    }
}
