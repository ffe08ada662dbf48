//! Plot and sampling settings: accepted, with no effect. pilot draws no plot during a run
//! (`cargo pilot report` draws them from the saved results), and its sessions choose their own
//! rounds and iterations.

/// How a summary plot's axes scale. Accepted; `cargo pilot report` chooses its own axes.
#[derive(Debug, Default, Clone, Copy)]
pub enum AxisScale {
    /// Linear axes.
    #[default]
    Linear,
    /// Logarithmic axes.
    Logarithmic,
}

/// A group's plot settings. Accepted, with no effect.
#[derive(Debug, Default, Clone)]
pub struct PlotConfiguration {
    summary_scale: AxisScale,
}

impl PlotConfiguration {
    /// Sets the summary plots' axis scale.
    #[must_use]
    pub fn summary_scale(mut self, new_scale: AxisScale) -> PlotConfiguration {
        self.summary_scale = new_scale;
        self
    }
}

/// Which library criterion would draw its plots with. Accepted, with no effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlottingBackend {
    /// gnuplot.
    Gnuplot,
    /// plotters.
    Plotters,
    /// No plots.
    None,
}

/// How criterion chooses each sample's iteration count. Accepted, with no effect: pilot
/// calibrates the iterations of a work unit so that reading the clock costs under 0.5% of it,
/// and lengthens units that turn out shorter.
#[derive(Debug, Default, Clone, Copy)]
pub enum SamplingMode {
    /// criterion chooses.
    #[default]
    Auto,
    /// Iteration counts growing linearly over the samples.
    Linear,
    /// The same iteration count in every sample.
    Flat,
}
