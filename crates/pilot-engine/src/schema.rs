//! The documents pilot writes and reads, one serde type each: the bench result
//! (`pilot.result/1`), a run (`pilot.run/1`), a run's progress (`pilot.progress/1`), a bench
//! target's saved rankings (`pilot.rankings/1`), a comparison (`pilot.compare/1`) and `cargo
//! pilot bench`'s progress (`pilot.cargo-progress/1`). Writers build these types and readers parse into them, so both
//! agree by construction; [`ResultDoc::validate`] holds every range check a result must pass
//! before it is saved or used, and names the key at fault.
//!
//! Field order is key order in the file. A key documented as optional is left out when absent
//! (`skip_serializing_if`); keys that older writers of the same schema version did not write
//! read as their defaults. A change to a key bumps the schema's version.
//!
//! [`result`] holds the bench result, [`run`] a run and its progress, [`machine`] the
//! machine and its speed history, [`compare`] a comparison, [`validate`] a result's range
//! checks.

mod compare;
mod machine;
mod result;
mod run;
mod validate;

pub use compare::{
    COMPARE_SCHEMA, CompareBenchDoc, CompareCountDoc, CompareDoc, ComparePiDoc, RangeDoc,
};
pub use machine::{MACHINE_HISTORY_SCHEMA, MachineDoc, MachineHistoryDoc, ProbeRunDoc, SpeedDoc};
pub use result::{
    ALLOCATION_PIS, AllocationsDoc, BandDoc, CYCLES_PI, CheckDoc, CiDoc, ClockDoc, ConfigDoc,
    CountsDoc, INSTRUCTIONS_PI, LearningDoc, MAX_READING_BINS, MEAN_TIME_PI, MachinePartDoc,
    OutliersDoc, OverheadDoc, PiDoc, ProcessesDoc, RESULT_SCHEMA, RateDoc, ReproducibilityDoc,
    ResultDoc, RoundDoc, RoundMachineDoc, STATUSES, SubsessionDoc, ThreadsDoc, WARM_UP_CLASSES,
    WarmUpWorkDoc,
};
pub use run::{
    CARGO_PROGRESS_SCHEMA, CargoProgressDoc, FEW_ROUNDS, FinishedTargetDoc, GroupDoc, MemberDoc,
    PROGRESS_SCHEMA, PairDoc, ProgressDoc, RANKINGS_SCHEMA, RUN_SCHEMA, RankingsDoc, RunDoc,
    RunningDoc, row_verdict,
};
pub(crate) use validate::check_schema;

#[cfg(test)]
mod tests;
