//! E-Divisive means (Matteson and James, 2014): the split of a segment that maximises the
//! energy distance between its two sides, as Apache Otava computes it.

/// The best split of one segment: the index of the first value of its right side, and the
/// statistic `Q̂` there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DivisiveCandidate {
    /// 0-based index (into the whole series) of the first value after the split.
    pub index: usize,
    /// The E-Divisive statistic `Q̂(τ, κ)` at the split.
    pub qhat: f64,
    /// 0-based index (into the whole series) one past the right side that gave `Q̂`: `κ`.
    /// Below the segment's end, the right side is a level that came back (an up-and-back
    /// change), whose end is `κ`.
    pub end: usize,
}

/// The split of `xs[start..end]` that E-Divisive means picks: the pair `(τ, κ)`,
/// `start < τ < κ ≤ end`, maximising
///
/// `Q̂(τ, κ) = 2/(n+m) Σ|Xᵢ−Yⱼ| − 2m/((n+m)(n−1)) Σᵢ<ₖ|Xᵢ−Xₖ| − 2n/((n+m)(m−1)) Σⱼ<ₖ|Yⱼ−Yₖ|`
///
/// with `X = xs[start..τ]` (n values) and `Y = xs[τ..κ]` (m values), the within-side terms
/// taken as 0 for a side of one value (Matteson and James, "A nonparametric approach for
/// multiple change point analysis of multivariate data", JASA 2014, with exponent α = 1).
/// The split is `τ`. Ties and the layout follow Apache Otava's `PairDistanceCalculator`
/// exactly: the statistic is laid out as a matrix over `(τ, κ)` whose entries with `κ ≤ τ` are
/// 0, and the first greatest entry in row-major order (least `τ`, then least `κ`) wins, so a
/// segment whose every split has `Q̂ < 0` yields the split at `start + 2` with `Q̂ = 0`, as
/// Otava's does. `None` for a segment of fewer than two values.
///
/// Assumes nothing about the distribution (energy distance). Time: O(w²) for a segment of w
/// values (a two-dimensional prefix sum of the distances); memory O(w²).
pub fn divisive_candidate(xs: &[f64], start: usize, end: usize) -> Option<DivisiveCandidate> {
    let end = end.min(xs.len());
    if end < start + 2 {
        return None;
    }
    let z = &xs[start..end];
    let w = z.len();
    // prefix[a][b] = Σ_{i<a, j<b} |z_i − z_j|, (w+1)² entries.
    let stride = w + 1;
    let mut prefix = vec![0.0; stride * stride];
    for a in 0..w {
        let mut row = 0.0;
        for b in 0..w {
            row += (z[a] - z[b]).abs();
            prefix[(a + 1) * stride + b + 1] = prefix[a * stride + b + 1] + row;
        }
    }
    let rect = |r0: usize, r1: usize, c0: usize, c1: usize| {
        prefix[r1 * stride + c1] - prefix[r0 * stride + c1] - prefix[r1 * stride + c0]
            + prefix[r0 * stride + c0]
    };
    // Rows: τ = 1..w (relative to start); columns: κ = 2..=w. Entry (τ, κ) is 0 when κ ≤ τ.
    let mut best = DivisiveCandidate {
        index: start + 1,
        qhat: f64::NEG_INFINITY,
        end,
    };
    for tau in 1..w {
        let n = tau as f64;
        let within_x = rect(0, tau, 0, tau) / 2.0;
        for kappa in 2..=w {
            let q = if kappa <= tau {
                0.0
            } else {
                let m = (kappa - tau) as f64;
                let cross = rect(0, tau, tau, kappa);
                let within_y = rect(tau, kappa, tau, kappa) / 2.0;
                let x_term = if tau > 1 {
                    2.0 * m / ((n + m) * (n - 1.0)) * within_x
                } else {
                    0.0
                };
                let y_term = if kappa - tau > 1 {
                    2.0 * n / ((n + m) * (m - 1.0)) * within_y
                } else {
                    0.0
                };
                2.0 / (n + m) * cross - x_term - y_term
            };
            if q > best.qhat {
                best = DivisiveCandidate {
                    index: start + tau,
                    qhat: q,
                    end: start + kappa.max(tau + 1),
                };
            }
        }
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Q̂` of the split `(τ, κ)` of `z` straight from its definition.
    fn q_direct(z: &[f64], tau: usize, kappa: usize) -> f64 {
        let (x, y) = (&z[..tau], &z[tau..kappa]);
        let (n, m) = (x.len() as f64, y.len() as f64);
        let cross: f64 = x
            .iter()
            .flat_map(|a| y.iter().map(move |b| (a - b).abs()))
            .sum();
        let pairs = |s: &[f64]| -> f64 {
            let mut t = 0.0;
            for i in 0..s.len() {
                for k in i + 1..s.len() {
                    t += (s[i] - s[k]).abs();
                }
            }
            t
        };
        let xt = if x.len() > 1 {
            2.0 * m / ((n + m) * (n - 1.0)) * pairs(x)
        } else {
            0.0
        };
        let yt = if y.len() > 1 {
            2.0 * n / ((n + m) * (m - 1.0)) * pairs(y)
        } else {
            0.0
        };
        2.0 / (n + m) * cross - xt - yt
    }

    #[test]
    fn the_candidate_maximises_the_statistic_by_its_definition() {
        let z = [1.0, 1.2, 0.9, 1.1, 3.0, 3.2, 2.9, 3.1, 3.05];
        let c = divisive_candidate(&z, 0, z.len()).unwrap();
        let mut best = (0, f64::NEG_INFINITY, 0);
        for tau in 1..z.len() {
            for kappa in tau + 1..=z.len() {
                let q = q_direct(&z, tau, kappa);
                if q > best.1 {
                    best = (tau, q, kappa);
                }
            }
        }
        assert_eq!((c.index, c.end), (best.0, best.2));
        assert!(
            (c.qhat - best.1).abs() < 1e-12 * best.1.abs(),
            "{c:?} {best:?}"
        );
        assert_eq!(c.index, 4);
    }

    #[test]
    fn a_level_that_comes_back_ends_its_right_side() {
        let z = [1.0, 1.1, 0.9, 1.0, 3.0, 3.1, 2.9, 3.0, 1.0, 1.1, 0.9, 1.05];
        let c = divisive_candidate(&z, 0, z.len()).unwrap();
        assert_eq!((c.index, c.end), (4, 8), "{c:?}");
    }

    #[test]
    fn a_segment_is_split_inside_itself() {
        let z = [5.0, 5.0, 5.0, 1.0, 1.0, 9.0, 9.0, 9.0, 9.0];
        let c = divisive_candidate(&z, 3, 9).unwrap();
        assert_eq!(c.index, 5);
        assert!(divisive_candidate(&z, 3, 4).is_none());
        // Two values: the only split, its statistic their distance.
        let c = divisive_candidate(&z, 4, 6).unwrap();
        assert_eq!((c.index, c.qhat), (5, 8.0));
    }

    #[test]
    fn a_constant_segment_splits_after_its_first_value_with_zero() {
        let c = divisive_candidate(&[2.0; 6], 0, 6).unwrap();
        assert_eq!((c.index, c.qhat), (1, 0.0));
    }
}
