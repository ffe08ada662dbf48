//! The machine's run-to-run variation: what the speed probe or a bench's own earlier runs say
//! a run's estimate moves by, beyond what the run itself can see.

use crate::stats::summary::t_critical;

/// The machine's run-to-run variation, learnt from the speed probe of earlier runs
/// ([`crate::probe`]) or from the bench's own estimates in earlier runs of its build: a part of
/// every interval of a run that is not cancelled by interleaving.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MachineVariation {
    /// Standard deviation from run to run, relative: of the probe's time (the machine's speed
    /// alone, added to a run's own uncertainty), or of the bench's own estimates (which already
    /// hold each run's own uncertainty, so the larger of the two is taken, not their sum).
    pub sd: f64,
    /// Runs it was learnt from.
    pub runs: usize,
    /// Whether it was learnt from the bench's own estimates in earlier runs of the same build
    /// (else from the speed probe).
    pub own: bool,
    /// Degrees of freedom of [`sd`](Self::sd).
    pub dof: f64,
}

impl MachineVariation {
    /// A variation learnt as a robust scale (1.4826 MADs) over `runs` runs, which is as
    /// informative as a standard deviation from 37% as many runs (the MAD's asymptotic
    /// efficiency at normal data): `0.37 · (runs − 1)` degrees of freedom, at least 1.
    pub(crate) fn robust(sd: f64, runs: usize, own: bool) -> Self {
        MachineVariation {
            sd,
            runs,
            own,
            dof: (0.37 * (runs.max(2) - 1) as f64).max(1.0),
        }
    }

    /// Degrees of freedom of [`sd`](Self::sd).
    pub(crate) fn dof(&self) -> f64 {
        self.dof
    }

    /// What the run's own relative half-width must reach for the whole interval to meet
    /// `target`: with a probe's variation (added in quadrature) `√(target² − m²)`, with the
    /// bench's own (the larger taken) `target`, where `m` is this variation's part alone; and
    /// at least `m / 2`, where more samples stop paying (the whole is then within 12% of the
    /// machine's part). Time: O(1).
    pub(crate) fn run_goal(&self, target: f64, confidence: f64) -> f64 {
        let m = self.relative_half_width(confidence);
        let goal = if m >= target {
            0.0
        } else if self.own {
            target
        } else {
            (target * target - m * m).sqrt()
        };
        goal.max(m / 2.0)
    }

    /// Half-width of the machine's part alone at `confidence`, relative to the mean: Student's
    /// t over the runs it was learnt from.
    pub fn relative_half_width(&self, confidence: f64) -> f64 {
        t_critical(confidence, self.dof()) * self.sd
    }
}
