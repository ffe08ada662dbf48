//! The error of every statistic: input it is not defined for, or a result beyond `f64`.

/// Why a statistic has no answer: too few values, a value that is not a finite number, a
/// parameter outside its range, paired samples of different lengths, or a result beyond `f64`.
///
/// Messages are lowercase and name the thing that failed; a cause, where there is one, comes from
/// [`std::error::Error::source`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A statistic was asked of a sample with too few values.
    #[error("need at least {needed} values, got {got}")]
    TooFewValues {
        /// The least number of values the statistic is defined for.
        needed: usize,
        /// How many values it was given.
        got: usize,
    },
    /// A value is NaN or infinite.
    #[error("value {index} is not a finite number ({value})")]
    NotFinite {
        /// 0-based position of the value in its sample.
        index: usize,
        /// The value itself.
        value: f64,
    },
    /// A parameter is outside its valid range.
    #[error("invalid {name} {value}: {expected}")]
    InvalidParameter {
        /// The parameter's name, e.g. `confidence`.
        name: &'static str,
        /// The value given.
        value: f64,
        /// What is valid, e.g. `must be between 0 and 1`.
        expected: &'static str,
    },
    /// Two paired samples have different lengths.
    #[error("paired samples differ in length ({left} and {right})")]
    LengthMismatch {
        /// Length of the first sample.
        left: usize,
        /// Length of the second sample.
        right: usize,
    },
    /// A result is too large in magnitude for an `f64`, although every input is finite: values
    /// near ±1.8e308 spread so far apart that a standard deviation, an interval bound or a
    /// difference passes `f64::MAX`.
    #[error("the {quantity} is beyond the range of f64 (±1.8e308)")]
    OutOfRange {
        /// What overflowed, e.g. `confidence interval of the mean`.
        quantity: &'static str,
    },
}

/// `Result` with the statistics' [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Checks that every value of `xs` is finite; pilot's statistics refuse NaN and infinities
/// instead of letting them poison a mean.
pub(crate) fn check_finite(xs: &[f64]) -> Result<()> {
    match xs.iter().position(|x| !x.is_finite()) {
        Some(index) => Err(Error::NotFinite {
            index,
            value: xs[index],
        }),
        None => Ok(()),
    }
}

/// Checks that `xs` has at least `needed` values.
pub(crate) fn check_len(xs: &[f64], needed: usize) -> Result<()> {
    if xs.len() < needed {
        Err(Error::TooFewValues {
            needed,
            got: xs.len(),
        })
    } else {
        Ok(())
    }
}

/// Checks that an autocorrelation limit (subsession analysis's target for the lag-1
/// autocorrelation of subsession means) lies strictly between 0 and 1.
pub(crate) fn check_autocorrelation_limit(limit: f64) -> Result<()> {
    if limit > 0.0 && limit < 1.0 {
        Ok(())
    } else {
        Err(Error::InvalidParameter {
            name: "autocorrelation limit",
            value: limit,
            expected: "must be strictly between 0 and 1",
        })
    }
}

/// Checks that a confidence level lies strictly between 0 and 1.
pub(crate) fn check_confidence(confidence: f64) -> Result<()> {
    if confidence > 0.0 && confidence < 1.0 {
        Ok(())
    } else {
        Err(Error::InvalidParameter {
            name: "confidence",
            value: confidence,
            expected: "must be strictly between 0 and 1",
        })
    }
}
