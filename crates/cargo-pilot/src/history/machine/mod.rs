//! Telling the machine from the code. A machine that becomes slower or faster (a neighbour's
//! load, another host under the same name, a governor) moves every bench of the runs made from
//! then on; a commit moves the benches whose code it changed. So the series of one machine are
//! read together, on one axis of commits:
//!
//! 1. The machine's own series: for each commit, the median over the benches measured there of
//!    each bench's value less that bench's median (its level, whatever its cost). Its level
//!    changes are the machine's: a code change would have to move most benches at once to move
//!    a median, and then the history cannot tell it from the machine (`bisect` can, measuring
//!    the two commits side by side). The speed probe's time, recorded with each run, is a
//!    second series of the machine: its level changes are the machine's too, except where the
//!    benches of the same runs were read on both sides and did not move together (one short
//!    workload against several: they outweigh it).
//! 2. Each bench's series, less the machine's level (the segment means of its series between
//!    its changes: the machine's steps, not its run-to-run noise), gives the bench's changes:
//!    the search's, and where the history knows each run's code, those at the places the code
//!    changed that the search missed ([`same_code::at_new_code`]).
//! 3. A bench's change within a commit of a machine change is the machine's; so is one that
//!    most other benches share over the same commits (a sign test), by at least half its size,
//!    when the machine's series missed it ([`shared::shared_change`]). Neither holds for a
//!    bench the machine's changes leave where it was elsewhere ([`unmoved`]): its series is
//!    read whole. So is one between runs of one executable ([`same_code`]), and the other end
//!    of a level that such a change began or ended. The others are the code's.
//! 4. Of the code's changes, the suite names those of the series that Holm's step-down over
//!    the machine's series rejects at `--max-p` ([`suite`]), each change's p counted over the
//!    splits searched: `--max-p` is the chance of naming any commit where no code changed.

mod axis;
mod machine_changes;
mod newly_regressed;
mod same_code;
mod shared;
mod suite;
mod unmoved;

pub use newly_regressed::newly_regressed;

use super::changes::{
    ChangeOptions, FoundChange, MIN_SEGMENT, detect, level_changes_of, note_receded,
};
use super::read::Series;
use axis::{Axis, steps};
use machine_changes::{around_changes, machine_changes, placed};
use shared::shared_change;

/// A series on the machine's axis: (position, value) for each commit it has a value at.
type Placed = [(usize, f64)];

/// A change of the machine's speed.
#[derive(Debug, Clone, PartialEq)]
pub struct MachineChange {
    /// The machine's name.
    pub machine: String,
    /// Its place on the machine's axis of commits.
    position: usize,
    /// The first commit whose runs are at the new level, and the one measured before it: where
    /// among the runs it happened, not what made it.
    pub commit: Option<String>,
    pub previous: Option<String>,
    /// When the first run at the new level started (RFC 3339).
    pub started: String,
    /// What saw it: `benches` (the benches' shared level), `probe` (the speed probe alone),
    /// `shared` (the other benches moving with one bench's change), `executable` (one bench's
    /// change between runs of one executable) or `return` (the other end of a level of one
    /// bench that an `executable` change began or ended).
    pub seen_by: &'static str,
    /// The benches' shared shift (the probe's, when only it saw it): relative, with its
    /// interval and p (a t-test counted over the splits searched; the sign test's for
    /// `shared`).
    pub change: f64,
    pub change_ci: Option<(f64, f64)>,
    pub p: f64,
    /// Benches that moved the same way, of those measured on both sides.
    pub moved: (usize, usize),
    /// The speed probe's relative change over the same runs, when recorded on both sides.
    pub probe: Option<f64>,
    /// The mean load average before and after, when recorded on both sides.
    pub load: Option<(f64, f64)>,
    /// The bench changes it explains: the index of the series, and the change.
    pub explains: Vec<(usize, FoundChange)>,
}

impl MachineChange {
    /// `slower` or `faster`.
    pub fn verdict(&self) -> &'static str {
        if self.change > 0.0 {
            "slower"
        } else {
            "faster"
        }
    }

    /// The change as JSON (`pilot.changes/1`), with the series' names.
    pub fn to_json(&self, all: &[Series]) -> serde_json::Value {
        serde_json::json!({
            "machine": self.machine,
            "commit": self.commit,
            "previous": self.previous,
            "started": self.started,
            "seen_by": self.seen_by,
            "change": self.change,
            "change_ci": self.change_ci.map(|(lo, hi)| serde_json::json!({"low": lo, "high": hi})),
            "p": self.p,
            "benches_moved": self.moved.0,
            "benches_measured": self.moved.1,
            "probe_change": self.probe,
            "load": self.load.map(|(a, b)| serde_json::json!({"before": a, "after": b})),
            "explains": self.explains.iter().map(|(i, c)| {
                let mut j = c.to_json();
                j["target"] = serde_json::json!(all[*i].target);
                j["bench"] = serde_json::json!(all[*i].bench);
                j
            }).collect::<Vec<_>>(),
        })
    }
}

/// The changes of a selection's series.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Analysis {
    /// Per series, in the order given: the changes named, the code's, oldest first.
    pub named: Vec<Vec<FoundChange>>,
    /// The machines' changes, each with the bench changes it explains, oldest first.
    pub machine: Vec<MachineChange>,
}

/// The changes of `all`, the machine's told from the code's, one machine at a time.
///
/// Time: O(b·n·w²) for b benches of n commits (each series' changes, windows of w = 50), and
/// O(b²·n) to test a change against the other benches.
pub fn analyse(all: &[Series], options: &ChangeOptions) -> Analysis {
    let mut out = Analysis {
        named: vec![Vec::new(); all.len()],
        machine: Vec::new(),
    };
    let mut machines: Vec<(&str, &str)> = all
        .iter()
        .map(|s| (s.machine.as_str(), s.machine_detail.as_str()))
        .collect();
    machines.sort_unstable();
    machines.dedup();
    for m in machines {
        let members: Vec<usize> = (0..all.len())
            .filter(|&i| (all[i].machine.as_str(), all[i].machine_detail.as_str()) == m)
            .collect();
        let (named, machine) = analyse_machine(all, &members, options);
        for (i, n) in members.iter().zip(named) {
            out.named[*i] = n;
        }
        out.machine.extend(machine);
    }
    out
}

fn analyse_machine(
    all: &[Series],
    members: &[usize],
    options: &ChangeOptions,
) -> (Vec<Vec<FoundChange>>, Vec<MachineChange>) {
    let axis = Axis::of(all, members);
    let shared = axis.shared();
    let probe = axis.recorded(all, members, |p| {
        p.probe_ns.filter(|x| *x > 0.0).map(f64::ln)
    });
    let load = axis.recorded(all, members, |p| p.load);
    let mut machine = machine_changes(all, members, &axis, (&shared, &probe), options);
    let cuts: Vec<usize> = machine
        .iter()
        .filter(|c| c.seen_by == "benches")
        .map(|c| c.position)
        .collect();
    let step = steps(&shared, cuts);
    let digests: Vec<_> = (0..members.len())
        .map(|m| same_code::digests(all, members, &axis, m))
        .collect();
    let unmoved: Vec<bool> = (0..members.len())
        .map(|m| unmoved::unmoved(&axis, &step, &digests[m], m))
        .collect();
    let adjusted: Vec<Vec<(usize, f64)>> = axis
        .vals
        .iter()
        .zip(&unmoved)
        .map(|(v, &still)| {
            let step = |pos| if still { 0.0 } else { step(pos) };
            v.iter().map(|&(pos, _, x)| (pos, x - step(pos))).collect()
        })
        .collect();
    // Where the benches of the same runs were read on both sides of a change the probe alone
    // saw, they say the machine did not move them: such a change neither cuts a bench's series
    // nor takes a bench's change as its own (a short probe's noise, or a state that slowed it
    // alone). Where too few benches were measured, the probe is all the machine's evidence.
    let bounds: Vec<usize> = machine
        .iter()
        .filter(|c| moved_benches(&shared, c))
        .map(|c| c.position)
        .collect();
    let code = Code {
        all,
        members,
        axis: &axis,
        adjusted: &adjusted,
        bounds: &bounds,
        shared: &shared,
        digests: &digests,
        unmoved: &unmoved,
    };
    // Holm's step-down over the machine's series, each read at its step's level for the
    // changes of its code (not the machine's shared ones).
    let levels = suite::holm_levels(members.len(), options.max_p, |m, max_p| {
        let level = ChangeOptions { max_p, ..*options };
        code.changes(m, &machine, &level)
            .into_iter()
            .filter(|(_, shared)| shared.is_none())
            .map(|(f, _)| f.p)
            .reduce(f64::min)
    });
    let mut named = Vec::with_capacity(members.len());
    for (m, &s) in members.iter().enumerate() {
        // What the bench's series read alone shows where the machine changed: what it explains
        // (nothing, for a bench the machine's changes leave where it was).
        if !unmoved[m] {
            let vals: Vec<(usize, f64)> = axis.vals[m].iter().map(|v| (v.1, v.2)).collect();
            for f in detect(&all[s].points, &vals, options) {
                let (_, pos) = code.place(m, &f);
                if let Some(mc) = machine.iter_mut().find(|c| c.position.abs_diff(pos) <= 1) {
                    mc.explains.push((s, f));
                }
            }
        }
        let level = ChangeOptions {
            max_p: levels[m].max_p,
            ..*options
        };
        let mut own = Vec::new();
        for (f, shared) in code.changes(m, &machine, &level) {
            match shared {
                Some(mc) => machine.push(MachineChange {
                    explains: vec![(s, f)],
                    ..mc
                }),
                None if levels[m].named => own.push(FoundChange {
                    p_adjusted: levels[m].adjust(f.p),
                    ..f
                }),
                None => {}
            }
        }
        note_newest(&code, m, &mut own);
        named.push(own);
    }
    machine.sort_by_key(|c| c.position);
    around_changes(&mut machine, &probe, &load);
    (named, machine)
}

/// Notes on member `m`'s newest change among `own` whether its newest commits left its level
/// again ([`note_receded`]), read in the segment it was searched in (from the machine's last
/// change the benches followed; the whole series for a bench they left where it was), unless
/// such a change lies after it.
fn note_newest(code: &Code, m: usize, own: &mut [FoundChange]) {
    let Some(f) = own.iter_mut().max_by_key(|f| f.point) else {
        return;
    };
    let (_, pos) = code.place(m, f);
    let bounds = if code.unmoved[m] {
        &[][..]
    } else {
        code.bounds
    };
    if bounds.iter().all(|b| *b <= pos) {
        let last = bounds.iter().copied().max();
        let vals = &code.axis.vals[m];
        let from = vals
            .iter()
            .position(|v| last.is_none_or(|b| v.0 >= b))
            .unwrap_or(vals.len());
        note_receded(vals, from, f);
    }
}

/// A machine's benches as read for their code's changes: the series on the machine's axis,
/// with the machine's steps taken out (`adjusted`), the machine's changes that moved the
/// benches (`bounds`), the machine's series (`shared`), each value's executable (`digests`)
/// and the benches the machine's changes leave where they were (`unmoved`): their series are
/// read whole, and no machine change explains their changes.
struct Code<'a> {
    all: &'a [Series],
    members: &'a [usize],
    axis: &'a Axis,
    adjusted: &'a [Vec<(usize, f64)>],
    bounds: &'a [usize],
    shared: &'a Placed,
    digests: &'a [Vec<Option<&'a str>>],
    unmoved: &'a [bool],
}

impl Code<'_> {
    /// Where member `m`'s change `f` is: its value's index, and its position on the axis.
    fn place(&self, m: usize, f: &FoundChange) -> (usize, usize) {
        let at = self.axis.vals[m]
            .iter()
            .position(|v| v.1 == f.point)
            .expect("a change is at a value");
        (at, self.axis.vals[m][at].0)
    }

    /// Member `m`'s changes at `options` that no machine change (of `machine`) explains, each
    /// with the machine's change it is when most other benches moved with it.
    fn changes(
        &self,
        m: usize,
        machine: &[MachineChange],
        options: &ChangeOptions,
    ) -> Vec<(FoundChange, Option<MachineChange>)> {
        let s = self.members[m];
        let vals: Vec<(usize, f64)> = self.axis.vals[m].iter().map(|v| (v.1, v.2)).collect();
        let bounds = if self.unmoved[m] { &[] } else { self.bounds };
        let mut found = by_segment(
            &self.all[s].points,
            &vals,
            &self.axis.vals[m],
            bounds,
            options,
        );
        let placed = &self.axis.vals[m];
        let segment = |k: usize| bounds.iter().filter(|b| **b <= placed[k].0).count();
        let digests = &self.digests[m];
        let missed = same_code::at_new_code(
            (self.all, self.members, self.axis),
            m,
            &segment,
            (digests, &found),
            options,
        );
        found.extend(missed);
        found.sort_by_key(|f| f.point);
        let mut out: Vec<(FoundChange, Option<MachineChange>)> = Vec::new();
        // The change kept before this one, by its place in `out`: the two may be one level.
        let mut previous: Option<usize> = None;
        for f in found {
            let (at, pos) = self.place(m, &f);
            if !self.unmoved[m]
                && machine
                    .iter()
                    .any(|c| moved_benches(self.shared, c) && c.position.abs_diff(pos) <= 1)
            {
                previous = None;
                continue;
            }
            let ruled_out = same_code::ruled_out(digests, at);
            let mut seen_by = ruled_out.then_some("executable");
            // A level that one end's executable rules out and that comes back is one excursion
            // of the machine: its other end is the machine's too.
            if let Some(i) = previous.filter(|&i| same_code::returns(&out[i].0, &f)) {
                match out[i].1.as_ref().map(|c| c.seen_by) {
                    Some("executable") if !ruled_out => seen_by = Some("return"),
                    None if ruled_out => out[i].1 = Some(self.own(m, &out[i].0, "return")),
                    _ => {}
                }
            }
            let shared = match seen_by {
                Some(seen_by) => Some(self.own(m, &f, seen_by)),
                // The others moving with a bench the machine leaves alone say nothing of it.
                None if self.unmoved[m] => None,
                None => shared_change(
                    self.all,
                    self.members,
                    self.axis,
                    self.adjusted,
                    (m, at),
                    &f,
                ),
            };
            out.push((f, shared));
            previous = Some(out.len() - 1);
        }
        out
    }

    /// Member `m`'s change `f` as the machine's, by its own evidence `seen_by`.
    fn own(&self, m: usize, f: &FoundChange, seen_by: &'static str) -> MachineChange {
        MachineChange {
            change: f.change,
            change_ci: f.change_ci,
            p: f.p,
            moved: (1, 1),
            ..placed(
                self.all,
                self.members,
                self.axis,
                self.place(m, f).1,
                seen_by,
            )
        }
    }
}

/// Whether the machine's change `c` is one that moved the benches: seen by them, or by the
/// probe alone where the machine's series `shared` (the benches' shared level) has too few
/// values on a side of it (a change's least segment) for the benches to have been read there.
fn moved_benches(shared: &Placed, c: &MachineChange) -> bool {
    let before = shared.iter().filter(|x| x.0 < c.position).count();
    c.seen_by != "probe" || before < MIN_SEGMENT || shared.len() - before < MIN_SEGMENT
}

/// The changes of a bench's values `vals` (on the axis as `placed`), each segment between the
/// machine's changes (at the positions `bounds`) read on its own: a machine's step, alike or
/// not for every bench, and the noise of a busier machine stay out of the code's changes.
fn by_segment(
    points: &[crate::history::Point],
    vals: &[(usize, f64)],
    placed: &[(usize, usize, f64)],
    bounds: &[usize],
    options: &ChangeOptions,
) -> Vec<FoundChange> {
    let segment = |i: usize| bounds.iter().filter(|b| **b <= placed[i].0).count();
    let mut out = Vec::new();
    let mut start = 0;
    while start < vals.len() {
        let k = segment(start);
        let end = (start..vals.len())
            .find(|&i| segment(i) != k)
            .unwrap_or(vals.len());
        out.extend(detect(points, &vals[start..end], options));
        start = end;
    }
    out
}

#[cfg(test)]
mod tests;
