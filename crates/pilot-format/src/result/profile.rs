//! Where a counted bench's instructions go (`counts.profile`): each function's instructions
//! per unit, its own and with its callees', in every counting process, and the call stacks
//! they were executed in, folded. Two of them, one per build, tell which functions a change
//! of the instructions is in.

use serde::{Deserialize, Serialize};

/// A bench's instructions per unit by function, from callgrind's own output of its counted
/// rounds (its `fn=`, `cfn=` and `calls=` records), per unit as the bench's count is (per
/// iteration in the micro form): what an empty unit counted is taken off, and a micro-form
/// pair of rounds gives the slope between its `k` and `2k` iterations, as for the total.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct ProfileDoc {
    /// The functions that hold the most instructions (with their callees'), most first;
    /// functions below a thousandth of the bench's instructions are left out.
    pub functions: Vec<FunctionDoc>,
    /// The call stacks, outermost function first, with the instructions executed in the
    /// innermost one's own code per unit, most first. Built from callgrind's calls between
    /// pairs of functions (it keeps no whole stacks): a function's instructions are shared
    /// among the stacks that reach it in the proportion its callers' calls hold.
    pub stacks: Vec<StackDoc>,
}

/// One function's instructions per unit, in each counting process.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionDoc {
    /// Its name, demangled (Rust's symbol hash left out).
    pub name: String,
    /// Instructions in its own code, one value per counting process.
    pub self_instructions: Vec<f64>,
    /// Instructions in it and in everything it calls, one value per counting process.
    pub inclusive: Vec<f64>,
}

/// One call stack of a [`ProfileDoc`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StackDoc {
    /// The functions from the outermost in, each name with any `;` written `,` so that the
    /// stack can be written in the folded format (`a;b;c`).
    pub frames: Vec<String>,
    /// Instructions per unit in the innermost function's own code on this stack, the mean
    /// over the counting processes.
    pub instructions: f64,
}

impl FunctionDoc {
    /// The mean over processes of its own instructions per unit.
    pub fn self_mean(&self) -> f64 {
        mean(&self.self_instructions)
    }

    /// The mean over processes of its inclusive instructions per unit.
    pub fn inclusive_mean(&self) -> f64 {
        mean(&self.inclusive)
    }
}

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}
