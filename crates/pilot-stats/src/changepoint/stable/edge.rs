//! The stable segment's step 4: from each end, the leading readings that stand apart from the
//! segment's middle (a warm-up or cool-down, abrupt or gradual) are trimmed off.

use super::noise::Noise;

/// Least |z| the leading (or trailing) readings of the stable segment must reach to be trimmed
/// when nothing is known about the edge; rises to `sqrt(2 ln len)` (see [`detect_z`]).
const EDGE_DETECT_Z: f64 = 4.5;

/// One-sided z for each further trim once an edge phase is known (the rest of a gradual ramp,
/// or what is left of a phase beyond a change point).
const EDGE_CONTINUE_Z: f64 = 3.0;

/// Allowance `k` of the CUSUM that places an edge trim, in noise standard deviations: a trim
/// ends where the edge phase's excess over the stable level has fallen to about `k`.
const EDGE_ALLOWANCE: f64 = 0.5;

/// Most trims per edge.
const MAX_EDGE_STEPS: usize = 24;

/// Shortest stable segment (in readings) whose edges are still tested.
const MIN_EDGE_LEN: usize = 16;

/// The bar of a fresh edge detection over `len` values (scans up to `len / 2` prefixes).
fn detect_z(len: usize) -> f64 {
    EDGE_DETECT_Z.max((2.0 * (len as f64).ln()).sqrt())
}

/// What is known about the phase before an edge: the direction of its level relative to the
/// segment (+1 above, −1 below) and how far into the segment it may still reach.
#[derive(Debug, Clone, Copy)]
pub(super) struct Prior {
    pub(super) sign: f64,
    pub(super) reach: usize,
}

/// How many leading values of `ys` to trim: scans `S_j = Σ_{i<j} (y_i − m)`, `m` the mean of the
/// middle half, standardised by its AR(1) standard error (including the error of `m`), and trims
/// to the maximising `j` while the maximum passes the threshold, then repeats on the rest.
///
/// Without a prior the scan is two-sided over `j` up to half the values with threshold
/// [`detect_z`]. With one (a change point known to lie at this edge, or the previous trim),
/// it is one-sided in the prior's direction, up to the prior's reach, with threshold
/// [`EDGE_CONTINUE_Z`]; each trim of `j` values sets the next reach to `2j`.
/// Time: O(len) per step.
pub(super) fn edge_trim(ys: impl Iterator<Item = f64>, mut prior: Option<Prior>) -> usize {
    let ys: Vec<f64> = ys.collect();
    let cap = ys.len() / 2;
    let mut trimmed = 0;
    for _ in 0..MAX_EDGE_STEPS {
        let rest = &ys[trimmed..];
        let len = rest.len();
        if len < MIN_EDGE_LEN {
            break;
        }
        let (m, noise) = Noise::of(&rest[len / 4..len - len / 4]);
        let r = len - 2 * (len / 4);
        let ref_variance = noise.sum_factor(r) / (r * r) as f64;
        let reach = prior.map_or(len / 2, |p| p.reach.clamp(1, len / 2));
        let scan = &rest[..reach];
        if noise.variance == 0.0 {
            // A constant middle: trim up to the last leading value that differs from it.
            if let Some(last) = scan.iter().rposition(|&y| y != m)
                && trimmed + last < cap
            {
                trimmed += last + 1;
            }
            break;
        }
        let mut sum = 0.0;
        let mut best = (f64::NEG_INFINITY, 0, 0.0);
        for (j, &y) in scan.iter().enumerate() {
            let j = j + 1;
            sum += y - m;
            let j_f = j as f64;
            let se = (noise.variance * (noise.sum_factor(j) + j_f * j_f * ref_variance)).sqrt();
            let z = match prior {
                Some(p) => p.sign * sum / se,
                None => sum.abs() / se,
            };
            if z > best.0 {
                best = (z, j, sum.signum());
            }
        }
        let threshold = if prior.is_some() {
            EDGE_CONTINUE_Z
        } else {
            detect_z(len)
        };
        let (z, z_at, sign) = best;
        if z < threshold {
            break;
        }
        // Where the edge phase ends: the peak of Page's CUSUM `sign·S_j − k·j`, which keeps
        // rising while readings lie more than `k` beyond the middle's mean on the phase's side
        // and falls by `k` a reading after, so it overshoots an abrupt end by a reading or two
        // and stops a decaying ramp where its excess has fallen to about `k`.
        let allowance = EDGE_ALLOWANCE * noise.variance.sqrt();
        let mut cusum = 0.0;
        let mut peak = (0.0, 0);
        for (j, &y) in scan.iter().enumerate() {
            cusum += sign * (y - m) - allowance;
            if cusum > peak.0 {
                peak = (cusum, j + 1);
            }
        }
        // A fresh detection is usually an abrupt phase, ended best by the maximum of z (the
        // likelihood estimate of a step's end); the CUSUM's peak can overshoot it by a few
        // readings. A ramp stopped early here is followed further by the continuation steps.
        let j = if prior.is_none() {
            peak.1.min(z_at)
        } else {
            peak.1
        };
        if j == 0 || trimmed + j > cap {
            break;
        }
        trimmed += j;
        prior = Some(Prior {
            sign,
            reach: 2 * j.max(MIN_EDGE_LEN),
        });
    }
    trimmed
}
