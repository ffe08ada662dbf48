//! The machine's speed during a bench run: the speed probe timed as the run starts, after each
//! bench and as it ends; the run and its benches' estimates recorded in the machine's history;
//! and from that history, where the next run's estimate of each bench lands
//! ([`crate::probe::reproducibility`]), a figure of its own beside the run's intervals.

use std::path::Path;

use crate::probe::history::{self, History, RUNS_NEEDED, SPACING_S};
use crate::probe::speed::probe_ns;
use crate::probe::{
    Evidence, MachineVariation, Reproducibility, RunEstimate, reproducibility, shared_variation,
};
use crate::session::Estimate;
use pilot_format::{MachineDoc, SpeedDoc};
use pilot_stats::summary::t_critical;

/// Kernel runs of the probe as a run starts and ends (see `probe::speed` for a kernel run).
const RUN_PROBE: usize = 15;

/// Kernel runs of the probe after each bench: fewer, as it runs once per bench.
const BENCH_PROBE: usize = 5;

/// What a run knows of the machine's speed.
pub struct MachineSpeed {
    history: History,
    /// The speed probe's run-to-run variation, when enough runs are known.
    pub(crate) variation: Option<MachineVariation>,
    /// The shift the benches of earlier runs shared, when enough runs are known.
    benches: Option<MachineVariation>,
    /// Runs of the probe that count, this one included.
    runs: usize,
    start_ns: f64,
    last_ns: f64,
}

impl MachineSpeed {
    /// Times the probe, reads the machine's history under `root` and records this run in it.
    /// Returns warnings about the history file (unreadable, unwritable): none stops the run.
    pub fn start(root: &Path, machine: &MachineDoc, at: &str) -> (Self, Vec<String>) {
        let start_ns = probe_ns(RUN_PROBE);
        let (mut history, warning) = History::load(history::history_path(root), machine);
        let mut warnings: Vec<String> = warning.into_iter().collect();
        warnings.extend(history.record(at, start_ns, &build()));
        let probes = history.probes();
        let speed = MachineSpeed {
            variation: history::variation(&probes),
            benches: shared_variation(&history.run_effects()),
            runs: probes.len(),
            history,
            start_ns,
            last_ns: start_ns,
        };
        (speed, warnings)
    }

    /// One line for the run's header (`--verbose`): what the machine's history holds so far,
    /// and what the run's figures are.
    pub fn describe(&self) -> String {
        let probe = match self.variation {
            Some(v) => format!(
                "speed probe's run-to-run sd {:.2}% over {} runs",
                100.0 * v.sd,
                v.runs
            ),
            None => format!(
                "speed probe's run-to-run variation not learnt yet, {} of the {RUNS_NEEDED} runs \
                 it needs",
                self.runs
            ),
        };
        let benches = self.benches.map_or(String::new(), |v| {
            format!(
                ", earlier runs' benches shifted together by sd {:.2}% over {} runs",
                100.0 * v.sd,
                v.runs
            )
        });
        format!(
            "machine: {probe}{benches} (a run counts when it starts at least {SPACING_S} s after \
             the last one that counted); each interval is this run's alone, and `run to run` \
             is where the next run's estimate lands"
        )
    }

    /// Where the next run's estimate of bench `name` lands, from this run's estimate `e` and
    /// the machine's history; `e` is noted in the history for later runs. `None` for an
    /// estimate that is not a positive time.
    pub fn reproducibility(&mut self, name: &str, e: &Estimate) -> Option<Reproducibility> {
        if !(e.mean.is_finite() && e.mean > 0.0) {
            return None;
        }
        self.history.add_bench(name, e.mean);
        let dof = e.dof.max(1.0);
        let run = RunEstimate {
            mean: e.mean,
            se: e.ci.half_width() / t_critical(e.ci.confidence, dof) / e.mean,
            dof,
        };
        let earlier = self.history.bench_series(name);
        let builds = self.history.bench_builds(name);
        let evidence = Evidence {
            earlier: &earlier,
            builds: &builds,
            benches: self.benches,
            probe: self.variation,
        };
        Some(reproducibility(run, &evidence, e.ci.confidence))
    }

    /// Times the probe after a bench: the relative change of its time since the last probe
    /// (before the bench).
    pub fn after_bench(&mut self) -> f64 {
        let now = probe_ns(BENCH_PROBE);
        let change = now / self.last_ns - 1.0;
        self.last_ns = now;
        change
    }

    /// The speed section of the run's machine record.
    pub fn doc(&self) -> SpeedDoc {
        SpeedDoc {
            probe_ns: self.start_ns,
            run_to_run: self.variation.map(|v| v.sd),
            runs: self.runs,
        }
    }

    /// Times the probe as the run ends and records the run's mean probe time.
    pub fn finish(&mut self) -> Option<String> {
        let end = probe_ns(RUN_PROBE);
        self.history.finish(end)
    }
}

/// The bench executable's identity: its file name, size and modification time. Runs of one
/// build measure the same code; a rebuild starts the bench's own history afresh.
fn build() -> String {
    let Ok(exe) = std::env::current_exe() else {
        return String::new();
    };
    let Ok(meta) = std::fs::metadata(&exe) else {
        return String::new();
    };
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    format!(
        "{}:{}:{modified}",
        exe.file_name().unwrap_or_default().to_string_lossy(),
        meta.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An estimate of `mean` ± 0.5% over 29 degrees of freedom.
    fn estimate(mean: f64) -> Estimate {
        Estimate {
            estimator: crate::settings::Estimator::Mean,
            plain: None,
            trimmed: None,
            mean,
            ci: pilot_stats::ConfidenceInterval {
                low: 0.995 * mean,
                high: 1.005 * mean,
                confidence: 0.95,
            },
            n: 1000,
            subsession_size: 1,
            autocorrelation: 0.0,
            required_n: None,
            subsession_means: Vec::new(),
            wps: None,
            variance_inflation: 1.0,
            between_rounds: false,
            rounds: 10,
            dof: 29.0,
            round_excess: 1.0,
            modes: 0,
        }
    }

    #[test]
    fn a_bench_learns_where_its_next_run_lands_from_runs_a_minute_apart() {
        let dir = tempfile::tempdir().unwrap();
        let at = |s: u64| {
            let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_790_000_000 + s);
            humantime::format_rfc3339_seconds(t).to_string()
        };
        // One run of this build: it runs the bench at `mean`; what it learnt.
        let run = |s: u64, mean: f64| {
            let (mut speed, _) = MachineSpeed::start(dir.path(), &MachineDoc::default(), &at(s));
            let r = speed.reproducibility("sort", &estimate(mean)).unwrap();
            speed.finish();
            r
        };
        assert_eq!(
            run(0, 100.0),
            Reproducibility::Learning {
                runs: 1,
                runs_needed: 3
            }
        );
        // A burst seconds later is the same state of the machine: it stands for the run
        // before it, and the bench still needs 2 more runs.
        assert_eq!(
            run(5, 101.0),
            Reproducibility::Learning {
                runs: 1,
                runs_needed: 3
            }
        );
        assert_eq!(
            run(70, 102.0),
            Reproducibility::Learning {
                runs: 2,
                runs_needed: 3
            }
        );
        let r = run(140, 99.0);
        let Reproducibility::Learnt(b) = r else {
            panic!("{r:?}")
        };
        // The runs at 5, 70 and 140 s (the one at 0 s shared its state with 5 s).
        assert_eq!((b.source, b.runs), (crate::probe::Source::Bench, 3));
        let s = pilot_stats::run_spread(&[101f64.ln(), 102f64.ln(), 99f64.ln()]).unwrap();
        assert!((b.center - s.level.exp()).abs() < 1e-9, "{b:?}");
    }
}
