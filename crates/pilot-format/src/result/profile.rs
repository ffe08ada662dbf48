//! Where a counted bench's instructions go (`counts.profile`): each function's instructions
//! per unit, its own and with its callees', in every counting process, and the call stacks
//! they were executed in, folded, and where a `CountingAlloc` is installed, each call site's
//! allocations per unit. Two of them, one per build, tell which functions a change of the
//! instructions is in, and which call sites a change of the allocations is in.

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
    /// Where a bench that installs pilot's `CountingAlloc` allocates: each call site's calls
    /// into the allocator per unit (`alloc`, `alloc_zeroed` and `realloc`, as the
    /// `allocations` index counts them), most first; absent without a `CountingAlloc`, and
    /// in documents written before pilot 0.2. A call site is the function that called the
    /// allocator, demangled; an allocation made inside Rust's standard library (a `Vec`
    /// growing) is its callers', shared among them as their calls into it are. Sites under a
    /// thousandth of an allocation per unit are left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allocation_sites: Option<Vec<AllocationSiteDoc>>,
}

/// One call site's allocations per unit, in each counting process.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AllocationSiteDoc {
    /// The calling function's name, demangled (Rust's symbol hash left out).
    pub name: String,
    /// Its allocations per unit (per iteration in the micro form), one value per counting
    /// process.
    pub allocations: Vec<f64>,
}

impl AllocationSiteDoc {
    /// The mean over processes of its allocations per unit.
    pub fn mean(&self) -> f64 {
        mean(&self.allocations)
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_without_allocation_sites_reads_and_writes_none() {
        // As pilot 0.1 wrote it: no `allocation_sites`.
        let old = r#"{"functions":[{"name":"f","self_instructions":[1.0],"inclusive":[2.0]}],"stacks":[]}"#;
        let doc: ProfileDoc = serde_json::from_str(old).unwrap();
        assert_eq!(doc.allocation_sites, None);
        assert_eq!(serde_json::to_string(&doc).unwrap(), old);
        let with = ProfileDoc {
            allocation_sites: Some(vec![AllocationSiteDoc {
                name: "f".into(),
                allocations: vec![2.0, 4.0],
            }]),
            ..doc
        };
        let text = serde_json::to_string(&with).unwrap();
        assert!(
            text.ends_with(r#""allocation_sites":[{"name":"f","allocations":[2.0,4.0]}]}"#),
            "{text}"
        );
        assert_eq!(serde_json::from_str::<ProfileDoc>(&text).unwrap(), with);
        assert_eq!(with.allocation_sites.unwrap()[0].mean(), 3.0);
    }
}
