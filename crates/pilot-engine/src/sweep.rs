//! Parameter sweeps: the values a bench's argument takes (`#[pilot::bench(args = …)]`), after
//! Auto-pilot's `FOREACH` and `FOR … TO … FACTOR` loops.

/// Most values one [`Sweep`] holds.
pub const MAX_SWEEP: usize = 64;

/// A geometric sequence of argument values, built by [`range`] in a `const` context.
///
/// It has a fixed capacity ([`MAX_SWEEP`] values) so that it can be built by a `const fn` on
/// stable Rust; [`Sweep::as_slice`] gives the values. `#[pilot::bench(args = …)]` accepts it
/// for an argument of any integer type the values fit in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sweep {
    values: [u64; MAX_SWEEP],
    len: usize,
}

impl Sweep {
    /// The values, in order.
    pub const fn as_slice(&self) -> &[u64] {
        self.values.split_at(self.len).0
    }

    /// How many values there are.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no value (never, for a sweep made by [`range`]).
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<'a> IntoIterator for &'a Sweep {
    type Item = &'a u64;
    type IntoIter = std::slice::Iter<'a, u64>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// The values `start, start·factor, start·factor², …` up to and including `end`: Auto-pilot's
/// `FOR N=start TO end FACTOR factor` loop. `range(1, 64, 2)` is `1, 2, 4, 8, 16, 32, 64`;
/// `range(1000, 16_000, 4)` is `1000, 4000, 16000`.
///
/// A `const fn`, so it can be used wherever a constant can: `args = pilot::range(1, 64, 2)`.
///
/// # Panics
///
/// When `start` is 0, `factor` is below 2, `end < start`, or the sequence has more than
/// [`MAX_SWEEP`] values (at compile time when evaluated in a constant).
pub const fn range(start: u64, end: u64, factor: u64) -> Sweep {
    assert!(start > 0, "pilot::range: `start` must be at least 1");
    assert!(factor >= 2, "pilot::range: `factor` must be at least 2");
    assert!(end >= start, "pilot::range: `end` must be at least `start`");
    let mut values = [0u64; MAX_SWEEP];
    let mut len = 0;
    let mut value = start;
    loop {
        assert!(len < MAX_SWEEP, "pilot::range: more than 64 values");
        values[len] = value;
        len += 1;
        match value.checked_mul(factor) {
            Some(next) if next <= end => value = next,
            _ => break,
        }
    }
    Sweep { values, len }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factor_steps_include_the_end() {
        const S: Sweep = range(1, 64, 2);
        assert_eq!(S.as_slice(), &[1, 2, 4, 8, 16, 32, 64]);
        assert_eq!(range(1000, 16_000, 4).as_slice(), &[1000, 4000, 16_000]);
        assert_eq!(range(3, 10, 3).as_slice(), &[3, 9]);
        assert_eq!(range(5, 5, 2).as_slice(), &[5]);
        assert_eq!(range(1, u64::MAX, 2).len(), 64);
    }
}
