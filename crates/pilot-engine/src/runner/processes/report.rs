//! What a child process reported, as a [`ChildReport`] for `cargo pilot bench --against`,
//! which starts the processes itself.

use std::path::Path;

use super::message::{ChildMessage, ProcessEnd, ProcessResult};
use crate::record::ClockInfo;
use crate::session::Status;
use crate::store::result::Rate;

/// One process execution's report, read from the message a bench binary writes in child mode
/// (`PILOT_CHILD=1 BINARY --bench --exact NAME --json FILE`). `cargo pilot bench --against`
/// starts the processes of two builds itself and combines each side's reports with
/// [`combine_children`](super::combine_children), as `measure_in_processes` does for one
/// build.
#[derive(Clone)]
pub struct ChildReport {
    pub(super) result: ProcessResult,
    pub(super) form: pilot_format::Form,
    /// What the bench's throughput counts, when it says.
    pub(super) rate: Option<Rate>,
    pub(super) clock: ClockInfo,
    pub(super) confidence: f64,
}

/// A process execution that ended without an estimate.
#[derive(Debug, Clone, PartialEq)]
pub struct ChildFailure {
    /// The bench's status: `failed`, or the status of a session that found no estimate (`no
    /// steady state`, `below clock resolution`, `time cap`).
    pub status: String,
    /// What happened, in words.
    pub message: String,
}

impl ChildReport {
    /// Reads a child's message, `bytes` as read from the file at `path` (which errors name).
    ///
    /// # Errors
    ///
    /// The bench failed (a panic), the session ended without an estimate, or the bytes are no
    /// child's message (cut short, corrupt, or of another version of pilot).
    pub fn parse(bytes: &[u8], path: &Path) -> Result<ChildReport, ChildFailure> {
        let failed = || Status::Failed(String::new()).as_str().to_string();
        let message = ChildMessage::parse(bytes, path).map_err(|message| ChildFailure {
            status: failed(),
            message,
        })?;
        let result = message.outcome.map_err(|end| ChildFailure {
            status: match &end {
                ProcessEnd::NoEstimate(status) => status.as_str().to_string(),
                ProcessEnd::Failed(_) => failed(),
            },
            message: end.to_string(),
        })?;
        Ok(ChildReport {
            result,
            form: message.form,
            rate: message.rate,
            clock: message.clock,
            confidence: message.confidence,
        })
    }

    /// The process's mean time per unit (ns).
    pub fn mean(&self) -> f64 {
        self.result.estimate.mean
    }
}
