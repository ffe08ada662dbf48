//! The machine's run-to-run variation as one source learnt it: the speed probe, the benches of
//! earlier runs together, or one bench's own earlier runs.

use pilot_stats::RunSpread;
use pilot_stats::summary::t_critical;

/// Where a run-to-run variation was learnt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The bench's own estimates in spaced runs of its build: the whole spread of a run's
    /// estimate, its own noise included.
    Bench,
    /// The shift every bench of a run shares, from the benches of earlier runs together: the
    /// machine's part alone.
    Benches,
    /// The speed probe's times: the machine's part alone, as the probe's kernel feels it.
    Probe,
}

impl Source {
    /// How a result document names it: `bench`, `benches` or `probe`.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Bench => "bench",
            Source::Benches => "benches",
            Source::Probe => "probe",
        }
    }

    /// Whether its spread already holds each run's own noise (a bench's own runs), rather than
    /// the machine's part alone (to which a run's own standard error adds).
    pub fn holds_own_noise(self) -> bool {
        self == Source::Bench
    }
}

/// The machine's run-to-run variation, relative, as [`Source`] learnt it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MachineVariation {
    /// Standard deviation from run to run, relative (of the logarithms): of the probe's time
    /// or of the runs' shared shift (the machine's part alone), or of the bench's own
    /// estimates (its whole spread).
    pub sd: f64,
    /// Runs it was learnt from.
    pub runs: usize,
    /// Where it was learnt.
    pub source: Source,
    /// Degrees of freedom of [`sd`](Self::sd).
    pub dof: f64,
}

impl MachineVariation {
    /// A variation learnt as a robust scale (1.4826 MADs) over `runs` runs, which is as
    /// informative as a standard deviation from 37% as many runs (the MAD's asymptotic
    /// efficiency at normal data): `0.37 · (runs − 1)` degrees of freedom, at least 1.
    pub(crate) fn robust(sd: f64, runs: usize, source: Source) -> Self {
        MachineVariation {
            sd,
            runs,
            source,
            dof: (0.37 * (runs.max(2) - 1) as f64).max(1.0),
        }
    }

    /// The variation of a [`RunSpread`] over runs, with its degrees of freedom.
    pub(crate) fn of_spread(s: &RunSpread, source: Source) -> Self {
        MachineVariation {
            sd: s.sd,
            runs: s.count,
            source,
            dof: s.dof,
        }
    }

    /// Half-width of this variation alone at `confidence`, relative to the mean: Student's t
    /// over the runs it was learnt from.
    pub fn relative_half_width(&self, confidence: f64) -> f64 {
        t_critical(confidence, self.dof) * self.sd
    }
}
