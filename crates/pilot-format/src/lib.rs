//! The documents pilot writes for other tools to read, and the exit codes its programs end with:
//! the contract between pilot and a CI step, a dashboard or a script (the role
//! `nextest-metadata` plays for cargo-nextest). A tool that reads `pilot.result/1` depends on
//! this crate alone; it holds nothing of pilot's engine.
//!
//! One serde type per document: the bench result ([`ResultDoc`], `pilot.result/1`), a run
//! ([`RunDoc`], `pilot.run/1`), a run's progress ([`ProgressDoc`], `pilot.progress/1`), a bench
//! target's saved rankings ([`RankingsDoc`], `pilot.rankings/1`), a comparison ([`CompareDoc`],
//! `pilot.compare/1`), `cargo pilot bench`'s progress ([`CargoProgressDoc`],
//! `pilot.cargo-progress/1`) and the machine's speed history ([`MachineHistoryDoc`],
//! `pilot.machine-history/1`). Writers build these types and readers parse into them, so both
//! agree by construction; [`ResultDoc::validate`] holds every range check a result must pass
//! before it is saved or used, and names the key at fault.
//!
//! ```no_run
//! let text = std::fs::read_to_string("target/pilot/sort/main.json")?;
//! let doc: pilot_format::ResultDoc = serde_json::from_str(&text)?;
//! doc.validate()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Schema versions
//!
//! Each document names its schema in its `schema` key, and each version is a constant here
//! ([`RESULT_SCHEMA`], [`RUN_SCHEMA`], [`PROGRESS_SCHEMA`], [`RANKINGS_SCHEMA`],
//! [`COMPARE_SCHEMA`], [`CARGO_PROGRESS_SCHEMA`], [`MACHINE_HISTORY_SCHEMA`]). A reader checks it
//! with [`check_schema`], which tells a document of a newer pilot from another program's.
//!
//! The rule for changing them: field order is key order in the file; a key documented as
//! optional is left out when absent (`skip_serializing_if`); a key added as optional, which
//! older writers of the same version did not write and which reads as its default, keeps the
//! version. Any other change to a key (renamed, removed, retyped, made required, or a value's
//! meaning changed) bumps that document's version, and the constant with it.
//!
//! # Exit codes
//!
//! [`Exit`]: 0 ok, 1 error, 2 usage, 3 regression, 130 interrupted, the same from a bench
//! binary, `cargo pilot` and the drop-ins' benches.
#![deny(missing_docs)]

mod bins;
mod compare;
mod exit;
mod form;
mod machine;
mod result;
mod run;
mod validate;

pub use bins::ReadingBins;
pub use compare::{
    AllocationSiteChangeDoc, COMPARE_SCHEMA, CompareBenchDoc, CompareCountDoc, CompareDoc,
    ComparePiDoc, ExplainedDoc, FunctionChangeDoc, RangeDoc,
};
pub use exit::Exit;
pub use form::Form;
pub use machine::{MACHINE_HISTORY_SCHEMA, MachineDoc, MachineHistoryDoc, ProbeRunDoc, SpeedDoc};
pub use result::{
    ALLOCATION_PIS, AllocationSiteDoc, AllocationsDoc, BandDoc, CYCLES_PI, CheckDoc, CiDoc,
    ClockDoc, ConfigDoc, CountsDoc, FunctionDoc, INSTRUCTIONS_PI, LearningDoc, MAX_READING_BINS,
    MEAN_TIME_PI, MachinePartDoc, OutliersDoc, OverheadDoc, PROGRAM_TARGET, PiDoc, ProcessesDoc,
    ProfileDoc, RESULT_SCHEMA, RateDoc, ReproducibilityDoc, ResultDoc, RoundDoc, RoundMachineDoc,
    STATUSES, StackDoc, SubsessionDoc, ThreadsDoc, WARM_UP_CLASSES, WarmUpWorkDoc,
};
pub use run::{
    CARGO_PROGRESS_SCHEMA, CargoProgressDoc, FEW_ROUNDS, FinishedTargetDoc, GroupDoc, MemberDoc,
    PROGRESS_SCHEMA, PairDoc, ProgressDoc, RANKINGS_SCHEMA, RUN_SCHEMA, RankingsDoc, RunDoc,
    RunningDoc, row_verdict,
};
pub use validate::check_schema;
