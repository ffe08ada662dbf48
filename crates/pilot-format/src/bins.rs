//! A bounded summary of a series of readings: consecutive readings merged into bins, each kept
//! as its least, mean and greatest value, so that a plot of a million unit readings draws a few
//! thousand points and still shows their spread.

use serde::{Deserialize, Serialize};

/// Consecutive readings in bins of `per_bin` (the last bin may hold fewer): bin `i` covers
/// readings `[i · per_bin, min((i + 1) · per_bin, count))`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadingBins {
    /// Readings per bin (all but the last).
    pub per_bin: usize,
    /// Readings summarised.
    pub count: usize,
    /// Each bin's least reading.
    pub min: Vec<f64>,
    /// Each bin's mean.
    pub mean: Vec<f64>,
    /// Each bin's greatest reading.
    pub max: Vec<f64>,
}

impl ReadingBins {
    /// Bytes the bins take on the heap.
    pub fn heap_bytes(&self) -> usize {
        (self.min.capacity() + self.mean.capacity() + self.max.capacity())
            * std::mem::size_of::<f64>()
    }

    /// The readings `xs` in at most `max_bins` bins of equal size (`ceil(n / max_bins)`
    /// readings each, the last one shorter). `None` for no readings or `max_bins == 0`.
    /// Time: O(n).
    pub fn of(xs: &[f64], max_bins: usize) -> Option<Self> {
        if xs.is_empty() || max_bins == 0 {
            return None;
        }
        let per_bin = xs.len().div_ceil(max_bins);
        let mut bins = ReadingBins {
            per_bin,
            count: xs.len(),
            min: Vec::new(),
            mean: Vec::new(),
            max: Vec::new(),
        };
        for chunk in xs.chunks(per_bin) {
            let (lo, hi) = chunk
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
                    (lo.min(x), hi.max(x))
                });
            bins.min.push(lo);
            bins.mean
                .push(chunk.iter().sum::<f64>() / chunk.len() as f64);
            bins.max.push(hi);
        }
        Some(bins)
    }

    /// The same readings in bins `factor` times as wide: the least of the least values, the
    /// mean weighted by each bin's readings, the greatest of the greatest. Exact: merging the
    /// bins of `of(xs, n)` gives what binning `xs` that wide directly gives (up to rounding of
    /// the means). Time: O(bins).
    pub fn merged(&self, factor: usize) -> Self {
        let factor = factor.max(1);
        let per_bin = self.per_bin * factor;
        let mut out = ReadingBins {
            per_bin,
            count: self.count,
            min: Vec::new(),
            mean: Vec::new(),
            max: Vec::new(),
        };
        let bins = self.mean.len();
        for start in (0..bins).step_by(factor) {
            let end = (start + factor).min(bins);
            let mut sum = 0.0;
            let mut n = 0;
            for i in start..end {
                let in_bin = self.readings_in(i);
                sum += self.mean[i] * in_bin as f64;
                n += in_bin;
            }
            out.min.push(
                self.min[start..end]
                    .iter()
                    .copied()
                    .fold(f64::INFINITY, f64::min),
            );
            out.mean.push(sum / n as f64);
            out.max.push(
                self.max[start..end]
                    .iter()
                    .copied()
                    .fold(f64::NEG_INFINITY, f64::max),
            );
        }
        out
    }

    /// Readings in bin `i`.
    pub fn readings_in(&self, i: usize) -> usize {
        let start = i * self.per_bin;
        (start + self.per_bin).min(self.count).saturating_sub(start)
    }

    /// The range checks a stored summary must pass; the error names the key under `at`.
    pub fn validate(&self, at: &str) -> Result<(), String> {
        let bins = self.mean.len();
        if self.per_bin == 0 || self.count == 0 {
            return Err(format!(
                "`{at}.per_bin` and `{at}.count` must be at least 1"
            ));
        }
        if self.min.len() != bins
            || self.max.len() != bins
            || bins != self.count.div_ceil(self.per_bin)
        {
            return Err(format!(
                "`{at}` holds {bins} means, {} least and {} greatest values, expected {} of each \
                 ({} readings in bins of {})",
                self.min.len(),
                self.max.len(),
                self.count.div_ceil(self.per_bin),
                self.count,
                self.per_bin
            ));
        }
        for i in 0..bins {
            let (lo, m, hi) = (self.min[i], self.mean[i], self.max[i]);
            if !(lo.is_finite() && m.is_finite() && hi.is_finite()) {
                return Err(format!("`{at}` bin {i} is not a number"));
            }
            // The mean of a bin lies within its extremes, up to the rounding of its sum.
            let slack = 1e-9 * hi.abs().max(lo.abs());
            if lo > hi || m < lo - slack || m > hi + slack {
                return Err(format!("`{at}` bin {i}: mean {m} is outside [{lo}, {hi}]"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_by_hand() {
        let b = ReadingBins::of(&[1.0, 5.0, 3.0, 2.0, 8.0, 4.0, 7.0], 3).unwrap();
        // ceil(7 / 3) = 3 readings a bin: [1 5 3] [2 8 4] [7].
        assert_eq!(b.per_bin, 3);
        assert_eq!(b.min, vec![1.0, 2.0, 7.0]);
        assert_eq!(b.mean, vec![3.0, 14.0 / 3.0, 7.0]);
        assert_eq!(b.max, vec![5.0, 8.0, 7.0]);
        assert_eq!((b.readings_in(0), b.readings_in(2)), (3, 1));
        b.validate("r").unwrap();
        assert!(ReadingBins::of(&[], 3).is_none());
    }

    #[test]
    fn merging_bins_is_binning_wider() {
        let xs: Vec<f64> = (0..1001).map(|i| ((i * 7919) % 613) as f64).collect();
        let fine = ReadingBins::of(&xs, 100).unwrap();
        assert_eq!(fine.per_bin, 11);
        let merged = fine.merged(4);
        let direct = ReadingBins::of(&xs, xs.len().div_ceil(44)).unwrap();
        assert_eq!(merged.per_bin, 44);
        assert_eq!(merged.min, direct.min);
        assert_eq!(merged.max, direct.max);
        for (a, b) in merged.mean.iter().zip(&direct.mean) {
            assert!((a - b).abs() < 1e-9 * b.abs(), "{a} {b}");
        }
        merged.validate("r").unwrap();
    }

    #[test]
    fn a_broken_summary_is_named() {
        let mut b = ReadingBins::of(&[1.0, 2.0, 3.0], 3).unwrap();
        b.mean[1] = 9.0;
        assert!(
            b.validate("rounds[0].readings")
                .unwrap_err()
                .contains("bin 1")
        );
        b.max.pop();
        assert!(
            b.validate("rounds[0].readings")
                .unwrap_err()
                .starts_with("`rounds[0].readings` holds")
        );
    }
}
