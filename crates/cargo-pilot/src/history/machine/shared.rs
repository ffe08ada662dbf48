//! A bench's change that the other benches share: the machine's, where the machine's own
//! series missed it (a state that moved most benches by less than the median sees).

use super::axis::{Axis, mean_in, median, sign_test};
use super::{FoundChange, MachineChange, Series, placed};

/// The sign test's level for a bench's change that the other benches share.
const SHARED_P: f64 = 0.01;

/// The machine's change that bench `m`'s change `f` (at its value `at`) is, when most other
/// benches moved the same way over the same commits (a one-sided sign test at [`SHARED_P`]) by
/// a median at least half its size.
pub(super) fn shared_change(
    all: &[Series],
    members: &[usize],
    axis: &Axis,
    adjusted: &[Vec<(usize, f64)>],
    (m, at): (usize, usize),
    f: &FoundChange,
) -> Option<MachineChange> {
    let own = &adjusted[m];
    let lo = own[at - f.before].0;
    let pos = own[at].0;
    let hi = own[at + f.after - 1].0 + 1;
    let shift = f.change.ln_1p();
    let shifts: Vec<f64> = adjusted
        .iter()
        .enumerate()
        .filter(|(o, _)| *o != m)
        .filter_map(|(_, s)| Some(mean_in(s, pos, hi)? - mean_in(s, lo, pos)?))
        .collect();
    if shifts.is_empty() {
        return None;
    }
    let same = shifts.iter().filter(|d| **d * shift > 0.0).count();
    let p = sign_test(same, shifts.len());
    let typical = median(&shifts);
    if p > SHARED_P || typical * shift <= 0.0 || typical.abs() < shift.abs() / 2.0 {
        return None;
    }
    Some(MachineChange {
        change: typical.exp_m1(),
        p,
        moved: (same + 1, shifts.len() + 1),
        ..placed(all, members, axis, pos, "shared")
    })
}
