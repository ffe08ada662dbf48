//! The counting process's message to its parent: whether it ran its plan, or why not, written
//! as JSON to the scratch file its parent named (`--json FILE`). The parent reads this value
//! back rather than the text the process printed on standard error, which is for a person.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// The layout of [`CountMessage`]: a bench binary built with another version of pilot (the
/// base build of `cargo pilot bench --against`) may write another, or none.
const COUNT_MESSAGE_SCHEMA: &str = "pilot.count-message/1";

/// What a counting process writes for its parent as it ends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct CountMessage {
    /// [`COUNT_MESSAGE_SCHEMA`].
    schema: String,
    /// How the process ended.
    pub(super) end: CountEnd,
}

/// How a counting process ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) enum CountEnd {
    /// Every round of its plan ran, each dumped.
    Counted,
    /// It could not run its plan: the bench's error (a panic, a bench on several threads, a
    /// unit never timed, a process not under Valgrind), in its words.
    Failed(String),
}

impl CountMessage {
    /// The message of a process that ended with `end`.
    pub(super) fn new(end: CountEnd) -> CountMessage {
        CountMessage {
            schema: COUNT_MESSAGE_SCHEMA.to_string(),
            end,
        }
    }

    /// Writes this message to `path`.
    pub(super) fn write(&self, path: &Path) -> std::io::Result<()> {
        let bytes = serde_json::to_vec(self).expect("a counting process's message serialises");
        std::fs::write(path, bytes)
    }

    /// The message at `path`, when the process wrote one of this layout (a process that died
    /// before its end, or a bench binary of another version of pilot, writes none).
    pub(super) fn read(path: &Path) -> Option<CountMessage> {
        let bytes = std::fs::read(path).ok()?;
        serde_json::from_slice::<CountMessage>(&bytes)
            .ok()
            .filter(|m| m.schema == COUNT_MESSAGE_SCHEMA)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_reads_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("end.json");
        let failed = CountMessage::new(CountEnd::Failed("the bench timed no unit".into()));
        failed.write(&path).unwrap();
        assert_eq!(CountMessage::read(&path), Some(failed));
        assert_eq!(CountMessage::read(&dir.path().join("none.json")), None);
    }

    #[test]
    fn a_message_of_another_layout_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("end.json");
        std::fs::write(
            &path,
            br#"{"schema":"pilot.count-message/2","end":"Counted"}"#,
        )
        .unwrap();
        assert_eq!(CountMessage::read(&path), None);
        std::fs::write(&path, b"error: not json").unwrap();
        assert_eq!(CountMessage::read(&path), None);
    }
}
