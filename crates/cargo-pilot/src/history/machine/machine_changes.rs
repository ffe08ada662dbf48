//! The machine's own changes: the level changes of its series (the benches' shared level) and
//! of its speed probe, each placed on the machine's axis of commits, and what the probe and
//! the load read around each.

use pilot_stats::relative_interval;

use super::axis::{Axis, mean_in, moved};
use super::{ChangeOptions, MachineChange, Placed, Series, level_changes_of};

/// The machine's changes its series and its speed probe show, without the bench changes they
/// explain yet.
pub(super) fn machine_changes(
    all: &[Series],
    members: &[usize],
    axis: &Axis,
    (shared, probe): (&Placed, &Placed),
    options: &ChangeOptions,
) -> Vec<MachineChange> {
    let mut out: Vec<MachineChange> = Vec::new();
    let xs: Vec<f64> = shared.iter().map(|x| x.1).collect();
    for c in level_changes_of(&xs, options) {
        let pos = shared[c.index].0;
        let (lo, hi) = (
            shared[c.index - c.n_before].0,
            shared[c.index + c.n_after - 1].0 + 1,
        );
        out.push(MachineChange {
            moved: moved(axis, (lo, pos, hi), c.shift()),
            change: c.shift().exp_m1(),
            change_ci: c.shift_ci.map(relative_interval),
            p: c.p,
            ..placed(all, members, axis, pos, "benches")
        });
    }
    let ps: Vec<f64> = probe.iter().map(|x| x.1).collect();
    for c in level_changes_of(&ps, options) {
        let pos = probe[c.index].0;
        if out.iter().any(|m| m.position.abs_diff(pos) <= 1) {
            continue;
        }
        out.push(MachineChange {
            change: c.shift().exp_m1(),
            change_ci: c.shift_ci.map(relative_interval),
            p: c.p,
            ..placed(all, members, axis, pos, "probe")
        });
    }
    out.sort_by_key(|c| c.position);
    out
}

/// A machine change at `pos` with nothing measured yet.
pub(super) fn placed(
    all: &[Series],
    members: &[usize],
    axis: &Axis,
    pos: usize,
    seen_by: &'static str,
) -> MachineChange {
    let point = |pos: usize| {
        let (m, p) = axis.first[pos];
        &all[members[m]].points[p]
    };
    MachineChange {
        machine: all[members[0]].machine.clone(),
        position: pos,
        commit: point(pos).commit.clone(),
        previous: pos.checked_sub(1).and_then(|p| point(p).commit.clone()),
        started: point(pos).started.clone(),
        seen_by,
        change: 0.0,
        change_ci: None,
        p: 1.0,
        moved: (0, 0),
        probe: None,
        load: None,
        explains: Vec::new(),
    }
}

/// Gives each of the machine's changes (sorted by position) the speed probe's change and the
/// load before and after it, each read between its neighbouring changes.
pub(super) fn around_changes(machine: &mut [MachineChange], probe: &Placed, load: &Placed) {
    let bounds: Vec<usize> = machine.iter().map(|c| c.position).collect();
    for (i, c) in machine.iter_mut().enumerate() {
        let lo = if i == 0 { 0 } else { bounds[i - 1] };
        let hi = bounds.get(i + 1).copied().unwrap_or(usize::MAX);
        let around =
            |s: &[(usize, f64)]| Some((mean_in(s, lo, c.position)?, mean_in(s, c.position, hi)?));
        c.probe = around(probe).map(|(a, b)| (b - a).exp_m1());
        c.load = around(load);
    }
}
