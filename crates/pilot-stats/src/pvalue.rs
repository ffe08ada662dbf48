//! How a p-value is written: two significant digits down to a floor, below which more digits
//! would claim a precision the tests' assumptions do not have.

/// The smallest p-value [`format_p`] writes as a number; below it, `<0.0001`.
pub const P_FLOOR: f64 = 0.0001;

/// A p-value as every terminal output writes it: two significant digits in fixed notation
/// (`0.50`, `0.043`, `0.0065`, `0.00015`), and `<0.0001` below [`P_FLOOR`], where more
/// digits claim a precision the test's assumptions do not have. `-` when not a number.
pub fn format_p(p: f64) -> String {
    if p.is_nan() {
        return "-".to_string();
    }
    if p < P_FLOOR {
        return format!("<{P_FLOOR}");
    }
    // Decimals for two significant digits; one fewer when rounding carries into a new digit
    // (0.0999 is 0.10, not 0.100).
    let decimals = |x: f64| (1 - x.log10().floor() as i32).max(1) as usize;
    let mut d = decimals(p);
    let rounded: f64 = format!("{p:.d$}").parse().unwrap_or(p);
    if rounded > 0.0 && decimals(rounded) < d {
        d = decimals(rounded);
    }
    format!("{p:.d$}")
}

/// A p-value in a sentence: `p = 0.0065`, or `p < 0.0001` (see [`format_p`]).
pub fn p_clause(p: f64) -> String {
    if p < P_FLOOR {
        format!("p < {P_FLOOR}")
    } else {
        format!("p = {}", format_p(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_values_keep_two_significant_digits_down_to_the_floor() {
        assert_eq!(format_p(1.0), "1.0");
        assert_eq!(format_p(0.5), "0.50");
        assert_eq!(format_p(0.04321), "0.043");
        assert_eq!(format_p(6.5e-3), "0.0065");
        assert_eq!(format_p(1.5e-4), "0.00015");
        assert_eq!(format_p(0.0001), "0.00010");
        assert_eq!(format_p(0.0999), "0.10");
        assert_eq!(format_p(0.00995), "0.010");
        assert_eq!(format_p(9.9e-5), "<0.0001");
        assert_eq!(format_p(0.0), "<0.0001");
        assert_eq!(format_p(f64::NAN), "-");
        assert_eq!(p_clause(6.5e-3), "p = 0.0065");
        assert_eq!(p_clause(1e-300), "p < 0.0001");
    }
}
