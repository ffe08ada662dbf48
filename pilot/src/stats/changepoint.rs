//! Change-point detection (E-Divisive with Medians) and the stable segment of a series.
//!
//! (Being written: see the module's public API below, which the rest of pilot relies on.)

use crate::error::Result;

/// Settings of E-Divisive with Medians in its penalised multi-change form.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChangepointConfig {
    /// Penalty per change point on the [0, 1]-rescaled data (BreakoutDetection's `beta`).
    pub beta: f64,
    /// Least number of values between two change points (BreakoutDetection's `min_size`).
    pub min_segment: usize,
    /// Degree of the penalty's dependence on the number of change points (0, 1 or 2).
    pub degree: u32,
}

impl Default for ChangepointConfig {
    fn default() -> Self {
        ChangepointConfig { beta: 0.008, min_segment: 30, degree: 1 }
    }
}

/// The stable phase of a series and the change points that bound the phases around it.
#[derive(Debug, Clone, PartialEq)]
pub struct StableSegment {
    /// First index of the stable phase (0-based).
    pub start: usize,
    /// One past the last index of the stable phase.
    pub end: usize,
    /// Every change point found, ascending; a change point `c` starts a new segment at `c`.
    pub changepoints: Vec<usize>,
    /// Whether the stable segment holds more than half of the series (Pilot's rule). When it
    /// does not, the series has no steady state and `start..end` is the longest segment.
    pub dominant: bool,
}

/// Finds the stable phase of `xs`.
pub fn find_stable_segment(xs: &[f64], config: &ChangepointConfig) -> Result<StableSegment> {
    crate::error::check_finite(xs)?;
    let _ = config;
    Ok(StableSegment { start: 0, end: xs.len(), changepoints: Vec::new(), dominant: true })
}
