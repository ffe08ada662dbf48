//! The mean of readings that come in clusters (rounds) sharing a state, and its variance.

use crate::error::{Error, Result, check_finite, check_len};
use crate::power_of_two_scale;

/// The mean of readings grouped in clusters, from each cluster's mean `means[i]` over
/// `counts[i]` readings, and the cluster-robust variance of that mean:
/// `r/(r − 1) · Σ (nᵢ/N)² (x̄ᵢ − x̄)²`, with `x̄ = Σ nᵢ x̄ᵢ / N` (the mean of all readings),
/// `N = Σ nᵢ` and `r` clusters. With equal counts it is `s²/r`, Student's variance of a mean of
/// the cluster means; with unequal counts a small cluster weighs as little in the variance as
/// in the mean (a short first round does not widen the interval of a long session). Use it with
/// `r − 1` degrees of freedom.
///
/// Assumes the clusters are independent (the state they share changes between them) and says
/// nothing about the readings within a cluster, which may be correlated. Time: O(r).
///
/// # Errors
///
/// Fewer than two clusters, lengths that differ, a non-finite mean, or a zero count.
pub fn cluster_mean_variance(means: &[f64], counts: &[usize]) -> Result<(f64, f64)> {
    check_len(means, 2)?;
    check_finite(means)?;
    if counts.len() != means.len() || counts.contains(&0) {
        return Err(Error::InvalidParameter {
            name: "counts",
            value: counts.len() as f64,
            expected: "one positive count per cluster mean",
        });
    }
    let scale = power_of_two_scale(means);
    let total: f64 = counts.iter().map(|&n| n as f64).sum();
    let weights = counts.iter().map(|&n| n as f64 / total);
    let mean: f64 = weights
        .clone()
        .zip(means)
        .map(|(w, x)| w * (x / scale))
        .sum();
    let r = means.len() as f64;
    let sum: f64 = weights
        .zip(means)
        .map(|(w, x)| (w * (x / scale - mean)).powi(2))
        .sum();
    Ok((mean * scale, sum * r / (r - 1.0) * scale * scale))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_counts_give_students_variance_of_the_mean() {
        // Means 10, 12, 14 over 5 readings each: mean 12, s² = 4, s²/r = 4/3.
        let (m, v) = cluster_mean_variance(&[10.0, 12.0, 14.0], &[5, 5, 5]).unwrap();
        assert!((m - 12.0).abs() < 1e-12);
        assert!((v - 4.0 / 3.0).abs() < 1e-12, "{v}");
    }

    #[test]
    fn small_clusters_weigh_little() {
        // Means 20 over 1 reading and 10 over 9: x̄ = (20 + 90)/10 = 11; by hand
        // 2/1 · ((0.1 · 9)² + (0.9 · −1)²) = 2 · (0.81 + 0.81) = 3.24.
        let (m, v) = cluster_mean_variance(&[20.0, 10.0], &[1, 9]).unwrap();
        assert!((m - 11.0).abs() < 1e-12);
        assert!((v - 3.24).abs() < 1e-12, "{v}");
        // (Student's over the two means would say s²/r = 50/2 = 25.)
        assert!(cluster_mean_variance(&[1.0], &[1]).is_err());
        assert!(cluster_mean_variance(&[1.0, 2.0], &[1, 0]).is_err());
        assert!(cluster_mean_variance(&[1.0, 2.0], &[1]).is_err());
    }

    #[test]
    fn a_large_offset_keeps_its_precision() {
        // 1e9 + 1 and 1e9 + 3: mean 1e9 + 2, s²/r = 2/2 = 1.
        let (m, v) = cluster_mean_variance(&[1e9 + 1.0, 1e9 + 3.0], &[4, 4]).unwrap();
        assert_eq!(m, 1e9 + 2.0);
        assert!((v - 1.0).abs() < 1e-6, "{v}");
    }
}
