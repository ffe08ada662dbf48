//! The live line of a bench while it runs.
//!
//! On a terminal (standard error is one) it is an indicatif spinner showing the current
//! estimate, the interval reached against the target and an ETA, redrawn between rounds (never
//! from a thread of its own, which would share the process with the workload), and removed
//! when the bench is done. Off a terminal (output piped to a file, `| cat`, CI logs) nothing is
//! shown while a bench runs: each bench's result line follows it, so a log holds one line per
//! bench rather than a stream of progress lines.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use crate::fmt::format_ns;

/// The live progress of one bench.
pub struct LiveProgress {
    bar: Option<ProgressBar>,
}

impl LiveProgress {
    /// Starts showing progress for `name`, when standard error is a terminal.
    pub fn start(name: &str) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {prefix:.bold} {wide_msg}")
                    .expect("a valid template"),
            );
            // A name is shown, never obeyed: indicatif draws the prefix as it is.
            bar.set_prefix(crate::fmt::terminal(name).into_owned());
            bar.set_message("calibrating…");
            // No steady tick: it would draw from a thread of its own while the workload is
            // measured. The spinner moves with each update, between rounds.
            bar
        });
        LiveProgress { bar }
    }

    /// Shows the current estimate: `mean ± half-width (reached / target) ETA`.
    pub fn update(&mut self, mean_ns: f64, relative_hw: f64, target: f64, eta: Option<Duration>) {
        if let Some(bar) = &self.bar {
            let eta = eta.map_or(String::new(), |d| {
                format!("  ETA {:.0} s", d.as_secs_f64().ceil())
            });
            bar.set_message(format!(
                "{} ± {:.2}% (target {:.2}%){eta}",
                format_ns(mean_ns),
                100.0 * relative_hw,
                100.0 * target
            ));
            bar.tick();
        }
    }

    /// Shows a free-form status, e.g. a group's cycle count.
    pub fn message(&mut self, msg: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(crate::fmt::terminal(msg).into_owned());
            bar.tick();
        }
    }

    /// Removes the live line.
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}
