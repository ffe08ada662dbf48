//! The settings criterion's configuration methods set on a `Criterion` or a group, checked as
//! criterion checks them.

use std::time::Duration;

/// The settings criterion's configuration methods set, checked as criterion checks them.
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    warm_up_time: Duration,
    measurement_time: Duration,
    confidence_level: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            warm_up_time: Duration::from_secs(3),
            measurement_time: Duration::from_secs(5),
            confidence_level: 0.95,
        }
    }
}

impl Settings {
    pub(crate) fn sample_size(&mut self, n: usize) {
        assert!(n >= 10, "Sample size must be at least 10.");
    }

    pub(crate) fn warm_up_time(&mut self, dur: Duration) {
        assert!(
            dur.as_nanos() > 0,
            "Warm-up time must be greater than zero."
        );
        self.warm_up_time = dur;
    }

    pub(crate) fn measurement_time(&mut self, dur: Duration) {
        assert!(
            dur.as_nanos() > 0,
            "Measurement time must be greater than zero."
        );
        self.measurement_time = dur;
    }

    pub(crate) fn nresamples(&mut self, n: usize) {
        assert!(n > 0, "Number of resamples must be greater than zero.");
    }

    pub(crate) fn noise_threshold(&mut self, threshold: f64) {
        assert!(threshold >= 0.0, "Noise threshold must be at least zero.");
    }

    pub(crate) fn confidence_level(&mut self, cl: f64) {
        assert!(
            cl > 0.0 && cl < 1.0,
            "Confidence level must be between 0.0 and 1.0 (exclusive)."
        );
        self.confidence_level = cl;
    }

    pub(crate) fn significance_level(&mut self, sl: f64) {
        assert!(
            sl > 0.0 && sl < 1.0,
            "Significance level must be between 0.0 and 1.0 (exclusive)."
        );
    }

    /// The session's time cap: criterion's whole time for a bench, warm-up included (pilot's
    /// warm-up is part of its session, cut off by change-point detection).
    /// The interval's confidence.
    pub(crate) fn confidence(&self) -> f64 {
        self.confidence_level
    }

    pub(crate) fn max_time(&self) -> Duration {
        self.warm_up_time + self.measurement_time
    }
}
