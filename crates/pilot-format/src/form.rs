//! The form of a bench: how its units are timed, as a result document names it.

use serde::{Deserialize, Serialize};

/// How a bench's units are timed: `full` (each unit timed, with set-up outside the timing),
/// `micro` (a batch of iterations timed as one unit) or `readings-only` (the bench reports its
/// own readings, with the work each did, for the WPS fit). A document names it in kebab case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Form {
    /// Each unit timed on its own.
    #[default]
    Full,
    /// A batch of iterations timed as one unit: figures are per iteration.
    Micro,
    /// Readings the bench took itself, each with its work.
    ReadingsOnly,
}

impl Form {
    /// The name a document gives it: `full`, `micro` or `readings-only`.
    pub fn as_str(self) -> &'static str {
        match self {
            Form::Full => "full",
            Form::Micro => "micro",
            Form::ReadingsOnly => "readings-only",
        }
    }
}

impl std::fmt::Display for Form {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Form;

    #[test]
    fn a_form_reads_and_writes_as_its_documented_name() {
        for (form, name) in [
            (Form::Full, "full"),
            (Form::Micro, "micro"),
            (Form::ReadingsOnly, "readings-only"),
        ] {
            assert_eq!(form.as_str(), name);
            assert_eq!(serde_json::to_string(&form).unwrap(), format!("\"{name}\""));
            assert_eq!(
                serde_json::from_str::<Form>(&format!("\"{name}\"")).unwrap(),
                form
            );
        }
        let err = serde_json::from_str::<Form>("\"nano\"")
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown variant `nano`"), "{err}");
    }
}
