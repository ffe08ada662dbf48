//! The machine's run-to-run variation as one source learnt it: the speed probe, the benches of
//! earlier runs together, or one bench's own earlier runs.

use pilot_stats::RunSpread;

/// Where a run-to-run variation was learnt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
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
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Source::Bench => "bench",
            Source::Benches => "benches",
            Source::Probe => "probe",
        }
    }
}

/// The machine's run-to-run variation, relative, as [`Source`] learnt it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct MachineVariation {
    /// Standard deviation from run to run, relative (of the logarithms): of the probe's time
    /// or of the runs' shared shift (the machine's part alone), or of the bench's own
    /// estimates (its whole spread).
    pub(crate) sd: f64,
    /// Runs it was learnt from.
    pub(crate) runs: usize,
    /// Where it was learnt.
    pub(crate) source: Source,
    /// Degrees of freedom of [`sd`](Self::sd).
    pub(crate) dof: f64,
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
}
