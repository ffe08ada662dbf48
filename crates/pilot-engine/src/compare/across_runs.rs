//! A comparison across runs, where one run is one draw of the machine's state: when a bench's
//! two results carry no evidence of how far it moves from run to run, and which results are
//! command-line programs', whose readings are that evidence.

use crate::store::{SavedEstimate, SavedResult};

/// Whether two results of a bench from two runs carry no evidence of how far a run of it moves
/// from run to run on this machine: one process on each side (a group's member, or
/// `--processes 1`) and no run-to-run variation learnt on either. A command-line program's
/// readings are each a process of its own ([`pilot_format::PROGRAM_TARGET`]): their spread is
/// that evidence. Each side is one draw of the machine's state, and a test over one process's
/// samples sees none of it: a machine that moved between the runs (a neighbour, the host's
/// state, where the build landed) reads as a change of the code, at a p as small as the
/// process's samples are many. Time: O(1).
pub(super) fn run_to_run_unseen(
    (base, base_time): (&SavedResult, &SavedEstimate),
    (new, new_time): (&SavedResult, &SavedEstimate),
) -> bool {
    let unseen = |r: &SavedResult, e: &SavedEstimate| {
        !is_program(r) && !e.is_multi_process() && e.run_to_run.is_none()
    };
    unseen(base, base_time) && unseen(new, new_time)
}

/// Whether `r` is a command-line program's result, whose readings are each a run of the
/// program in a process of its own ([`pilot_format::PROGRAM_TARGET`]).
pub(super) fn is_program(r: &SavedResult) -> bool {
    r.target == pilot_format::PROGRAM_TARGET
}

/// What `method` says of a comparison across runs that [`run_to_run_unseen`] left undecided.
pub(super) const UNSEEN_ACROSS_RUNS: &str = "; undecided across runs: one process on each side and the \
     machine's run-to-run variation not learnt yet, so the test cannot tell the code from the \
     machine (learnt from the bench's runs at least 60 s apart; or compare two builds in one \
     job, `cargo pilot bench --against REV`)";
