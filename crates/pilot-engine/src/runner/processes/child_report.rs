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

/// A process execution that ended without an estimate: its status, typed, which says it in
/// words too (`Display`).
#[derive(Debug, Clone, PartialEq)]
pub struct ChildFailure {
    /// [`Status::Failed`] with what happened (a panic, a message that could not be read), or
    /// the status of a session that found no estimate ([`Status::TimeCap`],
    /// [`Status::NoSteadyState`], …).
    pub status: Status,
}

impl std::fmt::Display for ChildFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.status {
            Status::Failed(message) => write!(f, "{message} ({})", self.status.as_str()),
            status => write!(
                f,
                "the bench's process found no estimate ({})",
                status.as_str()
            ),
        }
    }
}

impl ChildReport {
    /// Reads a child's message, `bytes` as read from the file at `path` (which errors name).
    ///
    /// # Errors
    ///
    /// The bench failed (a panic), the session ended without an estimate, or the bytes are no
    /// child's message (cut short, corrupt, or of another version of pilot).
    pub fn parse(bytes: &[u8], path: &Path) -> Result<ChildReport, ChildFailure> {
        let message = ChildMessage::parse(bytes, path).map_err(|message| ChildFailure {
            status: Status::Failed(message),
        })?;
        let result = message.outcome.map_err(|end| ChildFailure {
            status: match end {
                ProcessEnd::NoEstimate(status) => status,
                ProcessEnd::Failed(message) => Status::Failed(message),
            },
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
