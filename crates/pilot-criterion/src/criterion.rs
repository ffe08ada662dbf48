//! criterion's `Criterion`: the configuration a bench function receives, and where its benches
//! are announced to pilot's runner.

use std::marker::PhantomData;
use std::path::Path;
use std::time::Duration;

use crate::measurement::{Measurement, WallTime};
use crate::plot::PlottingBackend;
use crate::profiler::Profiler;
use crate::settings::Settings;

/// The benchmark manager criterion's bench functions receive (`fn f(c: &mut Criterion)`).
///
/// Its settings become each bench's session settings as the table in the crate's docs says:
/// `warm_up_time` plus `measurement_time` is the session's time cap (8 s by criterion's
/// defaults), `confidence_level` the interval's confidence; the others are accepted and checked
/// as criterion checks them, with no effect on pilot's sessions. Command-line flags win over
/// them, as criterion's do.
pub struct Criterion<M: Measurement = WallTime> {
    pub(crate) settings: Settings,
    filter: Option<regex::Regex>,
    measurement: PhantomData<M>,
}

impl Default for Criterion<WallTime> {
    /// criterion's defaults: 3 s warm-up, 5 s measurement, 100 samples, 95% confidence.
    fn default() -> Self {
        crate::args::start();
        Criterion {
            settings: Settings::default(),
            filter: None,
            measurement: PhantomData,
        }
    }
}

impl<M: Measurement> Criterion<M> {
    /// Measures with `m`. [`WallTime`] is the only measurement pilot has.
    pub fn with_measurement<M2: Measurement>(self, _m: M2) -> Criterion<M2> {
        Criterion {
            settings: self.settings,
            filter: self.filter,
            measurement: PhantomData,
        }
    }

    /// Accepted; never started (see [`profiler`](crate::profiler)).
    pub fn with_profiler<P: Profiler + 'static>(self, _p: P) -> Criterion<M> {
        self
    }

    /// Accepted, with no effect: pilot draws no plots during a run.
    pub fn plotting_backend(self, _backend: PlottingBackend) -> Criterion<M> {
        self
    }

    /// Accepted, with no effect: pilot runs rounds until the interval is as narrow as asked.
    /// Panics below 10, as criterion does.
    #[must_use]
    pub fn sample_size(mut self, n: usize) -> Criterion<M> {
        self.settings.sample_size(n);
        self
    }

    /// Part of the session's time cap (warm-up plus measurement time). Panics on zero, as
    /// criterion does.
    #[must_use]
    pub fn warm_up_time(mut self, dur: Duration) -> Criterion<M> {
        self.settings.warm_up_time(dur);
        self
    }

    /// Part of the session's time cap (warm-up plus measurement time): the session stops when
    /// its interval is narrow enough, or at the cap. Panics on zero, as criterion does.
    #[must_use]
    pub fn measurement_time(mut self, dur: Duration) -> Criterion<M> {
        self.settings.measurement_time(dur);
        self
    }

    /// Accepted, with no effect: pilot's intervals come from subsession analysis, not a
    /// bootstrap. Panics on zero, as criterion does.
    #[must_use]
    pub fn nresamples(mut self, n: usize) -> Criterion<M> {
        self.settings.nresamples(n);
        self
    }

    /// Accepted: the baseline comparison's least change is pilot's `--noise` (default 1%, as
    /// criterion's). Panics when negative, as criterion does.
    #[must_use]
    pub fn noise_threshold(mut self, threshold: f64) -> Criterion<M> {
        self.settings.noise_threshold(threshold);
        self
    }

    /// The confidence level of every interval. Panics outside (0, 1), as criterion does.
    #[must_use]
    pub fn confidence_level(mut self, cl: f64) -> Criterion<M> {
        self.settings.confidence_level(cl);
        self
    }

    /// Accepted: the baseline comparison's significance level is pilot's `--alpha` (default
    /// 0.01). Panics outside (0, 1), as criterion does.
    #[must_use]
    pub fn significance_level(mut self, sl: f64) -> Criterion<M> {
        self.settings.significance_level(sl);
        self
    }

    /// Accepted, with no effect: `cargo pilot report` draws the plots.
    #[must_use]
    pub fn with_plots(self) -> Criterion<M> {
        self
    }

    /// Accepted, with no effect.
    #[must_use]
    pub fn without_plots(self) -> Criterion<M> {
        self
    }

    /// Accepted, with no effect: save a baseline with `--save-baseline NAME`.
    #[must_use]
    pub fn save_baseline(self, _baseline: String) -> Criterion<M> {
        self
    }

    /// Accepted, with no effect: compare with a baseline with `--baseline NAME`.
    #[must_use]
    pub fn retain_baseline(self, _baseline: String, _strict: bool) -> Criterion<M> {
        self
    }

    /// Runs only the benches whose ids match `filter`, a regular expression, besides the
    /// command line's filters. Panics on an invalid one, as criterion does.
    #[must_use]
    pub fn with_filter<S: Into<String>>(mut self, filter: S) -> Criterion<M> {
        let text = filter.into();
        let re = regex::Regex::new(&text).unwrap_or_else(|err| {
            panic!("Unable to parse '{text}' as a regular expression: {err}")
        });
        self.filter = Some(re);
        self
    }

    /// Accepted, with no effect.
    #[must_use]
    pub fn with_output_color(self, _enabled: bool) -> Criterion<M> {
        self
    }

    /// Accepted, with no effect: results go to `target/pilot/`.
    #[must_use]
    pub fn output_directory(self, _path: &Path) -> Criterion<M> {
        self
    }

    /// Accepted, with no effect: pilot has no profiling mode.
    #[must_use]
    pub fn profile_time(self, _profile_time: Option<Duration>) -> Criterion<M> {
        self
    }

    /// Reads the command line (done once, when the first `Criterion` is made): criterion's
    /// flags are translated to pilot's, see the crate's docs.
    #[must_use]
    pub fn configure_from_args(self) -> Criterion<M> {
        crate::args::start();
        self
    }

    /// Ends the run: pilot's table, the baseline comparison, and the exit code (the process
    /// exits with it when it is not 0: 1 a bench failed, 3 a regression).
    pub fn final_summary(&self) {
        let code = pilot_engine::runner::driven::finish();
        if code != std::process::ExitCode::SUCCESS {
            std::process::exit(pilot_engine::runner::driven::exit_status(code));
        }
    }

    /// Whether `with_filter`'s filter lets bench `id` run.
    pub(crate) fn filter_matches(&self, id: &str) -> bool {
        self.filter.as_ref().is_none_or(|f| f.is_match(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn criterion() -> Criterion {
        Criterion {
            settings: Settings::default(),
            filter: None,
            measurement: PhantomData,
        }
    }

    #[test]
    fn with_filter_reads_a_regular_expression_as_criterion_does() {
        let c = criterion().with_filter("^(en|de)code/[0-9]+$");
        assert!(c.filter_matches("decode/3"));
        assert!(!c.filter_matches("decode_slice/3"));
        assert!(criterion().filter_matches("anything"));
    }

    #[test]
    #[should_panic(expected = "Unable to parse 'a(' as a regular expression")]
    fn an_invalid_filter_panics_as_criterions_does() {
        let _ = criterion().with_filter("a(");
    }
}
