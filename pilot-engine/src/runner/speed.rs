//! The machine's speed during a bench run: the speed probe timed as the run starts, after each
//! bench and as it ends; the run recorded in the machine's history; the run-to-run variation
//! learnt from that history, which every interval of the run then includes.

use std::path::Path;

use crate::probe::MachineVariation;
use crate::probe::history::{self, History, RUNS_NEEDED, SPACING_S};
use crate::probe::speed::probe_ns;
use crate::schema::{MachineDoc, SpeedDoc};

/// Kernel runs of the probe as a run starts and ends (about 15 ms each).
const RUN_PROBE: usize = 15;

/// Kernel runs of the probe after each bench (about 5 ms).
const BENCH_PROBE: usize = 5;

/// What a run knows of the machine's speed.
pub struct MachineSpeed {
    history: History,
    /// The machine's run-to-run variation, when enough runs are known.
    pub variation: Option<MachineVariation>,
    /// Runs known, this one included.
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
            runs: probes.len(),
            history,
            start_ns,
            last_ns: start_ns,
        };
        (speed, warnings)
    }

    /// One line for the run's header and its table: what the intervals include.
    pub fn describe(&self, confidence: f64) -> String {
        match self.variation {
            Some(v) => format!(
                "machine: run-to-run variation ±{:.2}% (sd {:.2}% over {} runs, speed probe); \
                 every interval includes it, or a bench's own spread over earlier runs of this \
                 build where that is wider; group rankings cancel it",
                100.0 * v.relative_half_width(confidence),
                100.0 * v.sd,
                v.runs
            ),
            None => format!(
                "machine: run-to-run variation not known yet ({} of the {RUNS_NEEDED} runs pilot \
                 learns it from; a run counts when it starts at least {SPACING_S} s after the \
                 last one that counted): intervals describe this run only; a later run may \
                 differ by more",
                self.runs
            ),
        }
    }

    /// A short note for the end of a run: what its intervals include.
    pub fn note(&self) -> String {
        match self.variation {
            Some(v) => format!(
                "intervals include the machine's run-to-run variation (sd {:.2}% over {} runs)",
                100.0 * v.sd,
                v.runs
            ),
            None => format!(
                "intervals describe this run only: run-to-run variation is learnt over \
                 {RUNS_NEEDED} runs at least {SPACING_S} s apart ({} so far)",
                self.runs
            ),
        }
    }

    /// The run-to-run variation an interval of bench `name` includes: the wider (at 95%) of
    /// the speed probe's and the bench's own drift over earlier runs of this build
    /// ([`history::bench_variation`]), when there are enough of either. The bench's own
    /// includes what the probe cannot see: how much this bench moves with the machine. The
    /// probe's includes what a burst of the bench's runs cannot see: the machine's slower
    /// phases, over minutes to hours (its runs count only a minute apart).
    pub fn variation_for(&self, name: &str) -> Option<MachineVariation> {
        let own = history::bench_variation(&self.history.bench_means(name));
        match (own, self.variation) {
            (Some(o), Some(p)) if p.relative_half_width(0.95) > o.relative_half_width(0.95) => {
                Some(p)
            }
            (o, p) => o.or(p),
        }
    }

    /// Notes bench `name`'s estimate for later runs of this build.
    pub fn add_bench(&mut self, name: &str, mean_ns: f64) {
        self.history.add_bench(name, mean_ns);
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
