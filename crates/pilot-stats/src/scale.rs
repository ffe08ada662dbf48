//! Power-of-two rescaling, which keeps every statistic finite and exact on any finite input.
//!
//! A variance squares deviations: values of 1e155 give squares beyond `f64::MAX` (∞), and values
//! of 1e-155 give squares below the smallest subnormal (0). pilot's statistics therefore divide
//! their input by the power of two at or below its largest magnitude, compute on values in
//! `[-2, 2)`, and multiply the results back. Multiplying by a power of two is exact (it changes
//! only the exponent) unless the result leaves the normal range, so a statistic of `x · 2^k` is
//! exactly `2^k` times that of `x`, and a result is rounded only where it is itself beyond the
//! `f64` range (an error) or subnormal.

/// Smallest exponent used: both `2^e` and `2^−e` stay representable.
const MIN_EXPONENT: i32 = f64::MIN_EXP - 1; // −1022
/// Largest exponent used.
const MAX_EXPONENT: i32 = f64::MAX_EXP - 1; // 1023

/// The power of two `2^e` with `2^e ≤ max |x| < 2^(e+1)`: the scale pilot's statistics divide
/// their input by. `e` is kept within the normal range (−1022 ≤ e ≤ 1023), so an all-subnormal
/// sample gets `2^−1022`; an empty or all-zero sample gets 1. NaN and infinities are ignored.
///
/// Dividing by it and multiplying back are exact for every value that stays in the normal range.
/// Time: O(n).
pub fn power_of_two_scale(xs: &[f64]) -> f64 {
    pow2(scale_exponent(xs))
}

/// The exponent `e` of [`power_of_two_scale`].
pub(crate) fn scale_exponent(xs: &[f64]) -> i32 {
    let max = xs
        .iter()
        .filter(|x| x.is_finite())
        .fold(0.0_f64, |m, x| m.max(x.abs()));
    if max == 0.0 {
        return 0;
    }
    let biased = ((max.to_bits() >> 52) & 0x7ff) as i32;
    // A subnormal has biased exponent 0; it is scaled as if it were 2^−1022.
    (biased - 1023).clamp(MIN_EXPONENT, MAX_EXPONENT)
}

/// `2^e` for −1022 ≤ e ≤ 1023.
fn pow2(e: i32) -> f64 {
    debug_assert!((MIN_EXPONENT..=MAX_EXPONENT).contains(&e));
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// `x · 2^e`, exact whenever the result is a normal number; ±∞ beyond the range, rounded when
/// subnormal. Works for any `e`, applying it in steps that stay representable: the steps all
/// move `x` the same way, so an exact result is never rounded on the way.
pub(crate) fn ldexp(x: f64, e: i32) -> f64 {
    let mut x = x;
    let mut e = e;
    while e > MAX_EXPONENT {
        x *= pow2(MAX_EXPONENT);
        e -= MAX_EXPONENT;
    }
    while e < MIN_EXPONENT {
        x *= pow2(MIN_EXPONENT);
        e -= MIN_EXPONENT;
    }
    x * pow2(e)
}

/// `xs` divided by `2^e`, with `e` the [`scale_exponent`] of `xs`: the largest magnitude lands
/// in `[1, 2)` (or below 1 for subnormal data). Time and memory: O(n).
pub(crate) fn scaled(xs: &[f64]) -> (Vec<f64>, i32) {
    let e = scale_exponent(xs);
    let inverse = ldexp(1.0, -e);
    (xs.iter().map(|x| x * inverse).collect(), e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_is_the_power_of_two_at_or_below_the_largest_magnitude() {
        assert_eq!(power_of_two_scale(&[3.0, -5.0, 1.0]), 4.0);
        assert_eq!(power_of_two_scale(&[0.75]), 0.5);
        assert_eq!(power_of_two_scale(&[-8.0]), 8.0);
        assert_eq!(power_of_two_scale(&[]), 1.0);
        assert_eq!(power_of_two_scale(&[0.0, -0.0]), 1.0);
        assert_eq!(power_of_two_scale(&[f64::MAX]), 2f64.powi(1023));
        assert_eq!(power_of_two_scale(&[1e-310]), f64::MIN_POSITIVE);
        assert_eq!(power_of_two_scale(&[f64::NAN, 2.0, f64::INFINITY]), 2.0);
    }

    #[test]
    fn scaling_is_exact_and_undone_by_ldexp() {
        let xs = [f64::MAX, -1e300, 3.5e307];
        let (ys, e) = scaled(&xs);
        assert_eq!(e, 1023);
        assert!(ys.iter().all(|y| y.abs() < 2.0));
        for (x, y) in xs.iter().zip(&ys) {
            assert_eq!(ldexp(*y, e), *x);
        }
        let tiny = [5e-324, 1e-310, -2.5e-320];
        let (ys, e) = scaled(&tiny);
        assert_eq!(e, -1022);
        for (x, y) in tiny.iter().zip(&ys) {
            assert_eq!(ldexp(*y, e), *x);
        }
    }

    #[test]
    fn ldexp_steps_past_the_exponent_range() {
        assert_eq!(ldexp(1.5, 2000), f64::INFINITY);
        assert_eq!(ldexp(2f64.powi(-1000), 2000), 2f64.powi(1000));
        assert_eq!(ldexp(ldexp(1.0, -2000), 2000), 0.0);
        // 2^1023 · 2^−2045 = 2^−1022: two steps down, exact.
        assert_eq!(ldexp(2f64.powi(1023), -2045), f64::MIN_POSITIVE);
        assert_eq!(ldexp(f64::MIN_POSITIVE, 2045), 2f64.powi(1023));
        assert_eq!(ldexp(-3.0, 0), -3.0);
    }
}
