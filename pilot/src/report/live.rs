//! The live line of a bench while it runs.
//!
//! On a terminal it is an indicatif spinner showing the current estimate, the interval reached
//! against the target and an ETA, redrawn between rounds (never from a thread of its own, which
//! would share the process with the workload). Without a terminal, a plain line every few
//! seconds; under CI (`CI` set) nothing until the bench is done, so logs stay short.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use crate::fmt::format_ns;

/// The live progress of one bench.
pub(crate) struct LiveProgress {
    name: String,
    bar: Option<ProgressBar>,
    plain: bool,
    last_line: Instant,
}

impl LiveProgress {
    /// Starts showing progress for `name`.
    pub(crate) fn start(name: &str) -> Self {
        let terminal = std::io::stderr().is_terminal();
        let ci = std::env::var_os("CI").is_some();
        let bar = terminal.then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {prefix:.bold} {wide_msg}")
                    .expect("a valid template"),
            );
            bar.set_prefix(name.to_string());
            bar.set_message("calibrating…");
            // No steady tick: it would draw from a thread of its own while the workload is
            // measured. The spinner moves with each update, between rounds.
            bar
        });
        LiveProgress {
            name: name.to_string(),
            bar,
            plain: !terminal && !ci,
            last_line: Instant::now(),
        }
    }

    /// Shows the current estimate: `mean ± half-width (reached / target) ETA`.
    pub(crate) fn update(
        &mut self,
        mean_ns: f64,
        relative_hw: f64,
        target: f64,
        eta: Option<Duration>,
    ) {
        let eta = eta.map_or(String::new(), |d| {
            format!("  ETA {:.0} s", d.as_secs_f64().ceil())
        });
        let msg = format!(
            "{} ± {:.2}% (target {:.2}%){eta}",
            format_ns(mean_ns),
            100.0 * relative_hw,
            100.0 * target
        );
        if let Some(bar) = &self.bar {
            bar.set_message(msg);
            bar.tick();
        } else if self.plain && self.last_line.elapsed() >= Duration::from_secs(2) {
            eprintln!("  {}: {msg}", self.name);
            self.last_line = Instant::now();
        }
    }

    /// Shows a free-form status, e.g. a group's cycle count.
    pub(crate) fn message(&mut self, msg: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(msg.to_string());
            bar.tick();
        } else if self.plain && self.last_line.elapsed() >= Duration::from_secs(2) {
            eprintln!("  {}: {msg}", self.name);
            self.last_line = Instant::now();
        }
    }

    /// Removes the live line.
    pub(crate) fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}
