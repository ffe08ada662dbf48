//! Where a bench's instructions go: each counting process's instructions per unit by function
//! and by call, from its rounds' call graphs as its total is from their totals; then, over the
//! processes, the document's functions and call stacks ([`ProfileDoc`]), and the allocations
//! by call site ([`super::sites`]) the same way.

use super::error::DumpError;
use std::collections::{BTreeMap, HashMap};

use super::callgraph::CallGraph;
use super::plan::RoundLabel;
use super::rounds::{CountedRound, per_iteration};
use super::sites::allocation_sites;
use pilot_format::{AllocationSiteDoc, FunctionDoc, ProfileDoc, StackDoc};

/// The share of a bench's instructions below which a function or a call stack is left out of
/// its [`ProfileDoc`]: a thousandth, so that a document holds a few hundred at most.
const LEAST_SHARE: f64 = 1e-3;

/// Most functions, and most stacks, a [`ProfileDoc`] holds.
const MOST_FUNCTIONS: usize = 200;
const MOST_STACKS: usize = 500;

/// The share of a profile's instructions from which a function holds the whole unit.
const WHOLE_UNIT: f64 = 0.99;

/// Deepest call stack followed; deeper calls count as their caller's own.
const DEEPEST: usize = 64;

/// Allocations per unit below which a call site is left out of a [`ProfileDoc`]: a
/// thousandth, under what a round's whole numbers of calls resolve over its units, and where
/// a slope's rounding lands for a site that allocates the same in both rounds of a pair.
const LEAST_ALLOCATIONS: f64 = 1e-3;

/// Most call sites a [`ProfileDoc`] holds.
const MOST_SITES: usize = 100;

/// One counting process's instructions per unit (per iteration in the micro form) by function
/// and by call between functions.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct ProcessProfile {
    /// Each function's own instructions and its inclusive ones.
    pub(crate) functions: BTreeMap<String, (f64, f64)>,
    /// The instructions of the calls from a function to another, callees included.
    pub(crate) calls: BTreeMap<(String, String), f64>,
    /// Allocations per unit by call site; `None` where the rounds' numbers of calls cannot be
    /// trusted (a bench binary of a pilot before 0.2, which zeroed callgrind's counts in a way
    /// that left the warm-up's calls in the first round).
    pub(crate) allocations: Option<BTreeMap<String, f64>>,
}

/// A process's profile from its rounds' call graphs, each under its label, and the empty
/// units' (`empty`): every function's and every call's instructions go through
/// [`per_iteration`] as the round's total does, so that a function's figure is per unit as the
/// bench's count is, the empty unit's share of it taken off, and a micro-form pair's slope
/// taken. A function a round did not reach counts 0 there. Time: O(rounds · functions).
pub(crate) fn process_profile(
    empty: (&RoundLabel, &CallGraph),
    rounds: &[(RoundLabel, &CallGraph)],
) -> Result<ProcessProfile, DumpError> {
    // Graph 0 is the empty units', then the rounds' in order.
    let graphs: Vec<&CallGraph> = std::iter::once(empty.1)
        .chain(rounds.iter().map(|(_, g)| *g))
        .collect();
    let indices: Vec<HashMap<&str, usize>> = graphs
        .iter()
        .map(|g| {
            g.names
                .iter()
                .enumerate()
                .map(|(i, n)| (n.as_str(), i))
                .collect()
        })
        .collect();
    let at = |k: usize, name: &str| indices[k].get(name).copied();
    // A cost of graph k, per unit as the bench's count is.
    let per_unit = |cost: &dyn Fn(usize) -> f64| -> Result<f64, DumpError> {
        let counted: Vec<CountedRound> = rounds
            .iter()
            .enumerate()
            .map(|(i, (l, _))| CountedRound {
                units: l.units,
                iterations: l.iterations,
                total: cost(i + 1),
            })
            .collect();
        let samples = per_iteration(cost(0) / empty.0.units.max(1) as f64, &counted)?;
        Ok(samples.iter().sum::<f64>() / samples.len().max(1) as f64)
    };
    let mut profile = ProcessProfile::default();
    let mut names: Vec<&str> = rounds
        .iter()
        .flat_map(|(_, g)| g.names.iter().map(String::as_str))
        .collect();
    names.sort_unstable();
    names.dedup();
    for name in names {
        let own = |k: usize| at(k, name).map_or(0.0, |i| graphs[k].self_cost[i] as f64);
        let all = |k: usize| at(k, name).map_or(0.0, |i| graphs[k].inclusive(i) as f64);
        profile
            .functions
            .insert(name.to_string(), (per_unit(&own)?, per_unit(&all)?));
    }
    let mut edges: Vec<(&str, &str)> = rounds
        .iter()
        .flat_map(|(_, g)| {
            g.calls
                .keys()
                .map(|&(f, c)| (g.names[f].as_str(), g.names[c].as_str()))
        })
        .collect();
    edges.sort_unstable();
    edges.dedup();
    for (caller, callee) in edges {
        let cost = |k: usize| match (at(k, caller), at(k, callee)) {
            (Some(f), Some(c)) => graphs[k].calls.get(&(f, c)).map_or(0.0, |&n| n as f64),
            _ => 0.0,
        };
        profile
            .calls
            .insert((caller.to_string(), callee.to_string()), per_unit(&cost)?);
    }
    let sites: Vec<BTreeMap<String, f64>> = graphs.iter().map(|g| allocation_sites(g)).collect();
    let mut allocations = BTreeMap::new();
    for name in sites[1..].iter().flat_map(BTreeMap::keys) {
        if !allocations.contains_key(name) {
            let calls = |k: usize| sites[k].get(name).copied().unwrap_or(0.0);
            allocations.insert(name.clone(), per_unit(&calls)?);
        }
    }
    profile.allocations = Some(allocations);
    Ok(profile)
}

/// The document's profile over `processes`: each function's figures per process (0 where a
/// process did not reach it), the functions holding the most instructions first, and the call
/// stacks of the processes' mean profile (see [`stacks`]). Functions and stacks under
/// [`LEAST_SHARE`] of the bench's instructions are left out. `None` without a process.
pub(crate) fn profile_doc(processes: &[&ProcessProfile]) -> Option<ProfileDoc> {
    if processes.is_empty() {
        return None;
    }
    let n = processes.len() as f64;
    let mut mean = ProcessProfile::default();
    for p in processes {
        for (name, &(own, all)) in &p.functions {
            let m = mean.functions.entry(name.clone()).or_default();
            m.0 += own / n;
            m.1 += all / n;
        }
        for (edge, &c) in &p.calls {
            *mean.calls.entry(edge.clone()).or_default() += c / n;
        }
    }
    let total: f64 = mean.functions.values().map(|f| f.0.max(0.0)).sum();
    let floor = total * LEAST_SHARE;
    let mut functions: Vec<FunctionDoc> = mean
        .functions
        .iter()
        .filter(|(_, (own, all))| own.abs().max(all.abs()) >= floor)
        .map(|(name, _)| {
            let of = |pick: fn(&(f64, f64)) -> f64| -> Vec<f64> {
                processes
                    .iter()
                    .map(|p| p.functions.get(name).map_or(0.0, pick))
                    .collect()
            };
            FunctionDoc {
                name: name.clone(),
                self_instructions: of(|f| f.0),
                inclusive: of(|f| f.1),
            }
        })
        .collect();
    functions.sort_by(|a, b| b.inclusive_mean().total_cmp(&a.inclusive_mean()));
    functions.truncate(MOST_FUNCTIONS);
    Some(ProfileDoc {
        functions,
        stacks: stacks(&mean, floor),
        allocation_sites: allocation_site_docs(processes),
    })
}

/// The call sites' allocations per unit in each of `processes` (0 where a process did not
/// reach a site), most first, those under [`LEAST_ALLOCATIONS`] left out; `None` when a
/// process has no allocations by site.
fn allocation_site_docs(processes: &[&ProcessProfile]) -> Option<Vec<AllocationSiteDoc>> {
    let by_process: Vec<&BTreeMap<String, f64>> = processes
        .iter()
        .map(|p| p.allocations.as_ref())
        .collect::<Option<_>>()?;
    let mut names: Vec<&String> = by_process.iter().flat_map(|a| a.keys()).collect();
    names.sort_unstable();
    names.dedup();
    let mut sites: Vec<AllocationSiteDoc> = names
        .into_iter()
        .map(|name| AllocationSiteDoc {
            name: name.clone(),
            allocations: by_process
                .iter()
                .map(|a| a.get(name).copied().unwrap_or(0.0))
                .collect(),
        })
        .filter(|s| s.mean().abs() >= LEAST_ALLOCATIONS)
        .collect();
    sites.sort_by(|a, b| b.mean().total_cmp(&a.mean()).then(a.name.cmp(&b.name)));
    sites.truncate(MOST_SITES);
    Some(sites)
}

/// Call stacks from a profile's calls between pairs of functions (callgrind keeps no whole
/// stacks). They start at the innermost function that holds the whole unit ([`unit_root`]);
/// without one, each function whose inclusive instructions its callers' calls do not explain
/// is a stack's root, with the rest. From a function reached with some of its inclusive
/// instructions, the same share of its own instructions is that stack's, and the same share
/// of each call it makes goes on down. A stack under `floor`, a call back into a function on
/// the stack, or one past [`DEEPEST`], counts as its caller's own, so the stacks add up to the
/// bench's instructions. Most first, at most [`MOST_STACKS`]. Time: O(stacks · depth).
pub(crate) fn stacks(profile: &ProcessProfile, floor: f64) -> Vec<StackDoc> {
    let mut callees: HashMap<&str, Vec<(&str, f64)>> = HashMap::new();
    let mut incoming: HashMap<&str, f64> = HashMap::new();
    for ((f, g), &c) in &profile.calls {
        callees
            .entry(f.as_str())
            .or_default()
            .push((g.as_str(), c.max(0.0)));
        *incoming.entry(g.as_str()).or_default() += c.max(0.0);
    }
    let walk = Walk {
        profile,
        callees,
        floor: floor.max(f64::MIN_POSITIVE),
    };
    let mut out: BTreeMap<Vec<&str>, f64> = BTreeMap::new();
    match unit_root(profile, &walk.callees) {
        Some((root, all)) => walk.visit(&mut vec![root], all, &mut out),
        None => {
            for (name, &(_, all)) in &profile.functions {
                let root = all - incoming.get(name.as_str()).copied().unwrap_or(0.0);
                if root >= walk.floor {
                    walk.visit(&mut vec![name.as_str()], root, &mut out);
                }
            }
        }
    }
    let mut stacks: Vec<StackDoc> = out
        .into_iter()
        .filter(|(_, c)| *c > 0.0)
        .map(|(frames, instructions)| StackDoc {
            frames: frames.iter().map(|f| f.replace(';', ",")).collect(),
            instructions,
        })
        .collect();
    stacks.sort_by(|a, b| b.instructions.total_cmp(&a.instructions));
    stacks.truncate(MOST_STACKS);
    stacks
}

/// The innermost function that holds the whole unit (at least [`WHOLE_UNIT`] of the
/// profile's instructions), with its inclusive instructions: the stacks start there. The frames
/// above it (the bench's body, pilot's runner, `main` and what starts it, which callgrind's
/// calls may join in a cycle) hold the unit but none of its work. The candidate with the fewest
/// inclusive instructions, then down the calls to another candidate with no more while there
/// is one (a caller joined to it in a cycle has more).
fn unit_root<'p>(
    profile: &'p ProcessProfile,
    callees: &HashMap<&'p str, Vec<(&'p str, f64)>>,
) -> Option<(&'p str, f64)> {
    let total: f64 = profile.functions.values().map(|f| f.0.max(0.0)).sum();
    let whole: Vec<(&str, f64)> = profile
        .functions
        .iter()
        .filter(|(_, f)| total > 0.0 && f.1 >= WHOLE_UNIT * total)
        .map(|(n, f)| (n.as_str(), f.1))
        .collect();
    let mut root = *whole.iter().min_by(|a, b| a.1.total_cmp(&b.1))?;
    let mut seen = vec![root.0];
    while let Some(next) = callees.get(root.0).and_then(|c| {
        c.iter().find_map(|(g, _)| {
            whole
                .iter()
                .find(|w| w.0 == *g && w.1 <= root.1 && !seen.contains(g))
        })
    }) {
        root = *next;
        seen.push(root.0);
    }
    Some(root)
}

/// A walk down a profile's calls (see [`stacks`]).
struct Walk<'p> {
    profile: &'p ProcessProfile,
    callees: HashMap<&'p str, Vec<(&'p str, f64)>>,
    floor: f64,
}

impl<'p> Walk<'p> {
    /// The stacks under `path`, whose last function was reached with `amount` of its
    /// inclusive instructions, added to `out`.
    fn visit(&self, path: &mut Vec<&'p str>, amount: f64, out: &mut BTreeMap<Vec<&'p str>, f64>) {
        let f = *path.last().expect("a stack has a function");
        let (own, all) = self.profile.functions.get(f).copied().unwrap_or_default();
        let share = if all > 0.0 {
            (amount / all).min(1.0)
        } else {
            0.0
        };
        let mut here = own.max(0.0) * share;
        for &(g, c) in self.callees.get(f).map_or(&[][..], Vec::as_slice) {
            let down = c * share;
            if down < self.floor || path.contains(&g) || path.len() >= DEEPEST {
                here += down;
            } else {
                path.push(g);
                self.visit(path, down, out);
                path.pop();
            }
        }
        if here > 0.0 {
            *out.entry(path.clone()).or_default() += here;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counts::plan::RoundKind;

    fn label(kind: RoundKind, units: u64, iterations: u64) -> RoundLabel {
        RoundLabel {
            kind,
            index: 1,
            units,
            iterations,
        }
    }

    /// A round of `units` units in which `body` runs `iters` times a unit: the bench's loop
    /// (`bench`, 3 instructions a unit of its own) calls `body` (10 an iteration, and `inner`
    /// at `inner` an iteration).
    fn round(units: u64, iters: u64, inner: u64) -> CallGraph {
        CallGraph {
            names: vec!["bench".into(), "body".into(), "inner".into()],
            self_cost: vec![3 * units, 10 * units * iters, inner * units * iters],
            calls: [
                ((0, 1), (10 + inner) * units * iters),
                ((1, 2), inner * units * iters),
            ]
            .into(),
            call_counts: [((0, 1), units * iters), ((1, 2), units * iters)].into(),
        }
    }

    #[test]
    fn a_functions_figures_are_per_iteration_as_the_total_is() {
        // Micro form: 100 units of 4 then 8 iterations; the empty units count the loop alone.
        let empty = CallGraph {
            names: vec!["bench".into()],
            self_cost: vec![300],
            ..CallGraph::default()
        };
        let (a, b) = (round(100, 4, 20), round(100, 8, 20));
        let p = process_profile(
            (&label(RoundKind::Empty, 100, 1), &empty),
            &[
                (label(RoundKind::Counted, 100, 4), &a),
                (label(RoundKind::Counted, 100, 8), &b),
            ],
        )
        .unwrap();
        assert_eq!(p.functions["body"], (10.0, 30.0));
        assert_eq!(p.functions["inner"], (20.0, 20.0));
        // The loop's own 3 a unit do not grow with the iterations: the slope takes them out.
        assert_eq!(p.functions["bench"], (0.0, 30.0));
        assert_eq!(p.calls[&("body".to_string(), "inner".to_string())], 20.0);
        assert_eq!(p.allocations, Some(BTreeMap::new()));
    }

    #[test]
    fn a_sites_allocations_are_per_iteration_as_the_total_is() {
        // `body` calls `malloc` twice an iteration, and `bench` 5 times a round whatever its
        // iterations (a cost of the round, which the pair's slope takes out).
        let round = |units: u64, iters: u64| {
            let mut g = round(units, iters, 20);
            g.names.push("malloc".into());
            g.self_cost.push(0);
            g.call_counts.insert((1, 3), 2 * units * iters);
            g.call_counts.insert((0, 3), 5);
            g
        };
        let empty = CallGraph {
            names: vec!["bench".into()],
            self_cost: vec![300],
            ..CallGraph::default()
        };
        let (a, b) = (round(100, 4), round(100, 8));
        let p = process_profile(
            (&label(RoundKind::Empty, 100, 1), &empty),
            &[
                (label(RoundKind::Counted, 100, 4), &a),
                (label(RoundKind::Counted, 100, 8), &b),
            ],
        )
        .unwrap();
        let sites = p.allocations.as_ref().unwrap();
        assert_eq!(sites["body"], 2.0);
        assert_eq!(sites["bench"], 0.0);
        let doc = profile_doc(&[&p, &p]).unwrap();
        let docs = doc.allocation_sites.unwrap();
        // `bench`'s 0 is under the least that is kept.
        assert_eq!(docs.len(), 1);
        assert_eq!(
            (docs[0].name.as_str(), &docs[0].allocations[..]),
            ("body", &[2.0, 2.0][..])
        );
        // A process whose calls cannot be trusted: no sites in the document.
        let old = ProcessProfile {
            allocations: None,
            ..p.clone()
        };
        assert_eq!(profile_doc(&[&p, &old]).unwrap().allocation_sites, None);
    }

    /// A profile of `functions` (name, own, inclusive) and `calls` (caller, callee, count).
    fn profile(functions: &[(&str, f64, f64)], calls: &[(&str, &str, f64)]) -> ProcessProfile {
        let mut p = ProcessProfile::default();
        for &(name, own, all) in functions {
            p.functions.insert(name.into(), (own, all));
        }
        for &(f, g, c) in calls {
            p.calls.insert((f.into(), g.into()), c);
        }
        p
    }

    /// Each stack as its frames joined by `;` and its instructions rounded to 1e-6.
    fn joined(stacks: &[StackDoc]) -> Vec<(String, f64)> {
        stacks
            .iter()
            .map(|s| (s.frames.join(";"), (s.instructions * 1e6).round() / 1e6))
            .collect()
    }

    #[test]
    fn stacks_share_a_functions_instructions_among_its_callers() {
        // `a` and `b` each call `leaf` (40 and 20 of its 60); `leaf` calls `deep` (30 of
        // its 60 inclusive), so `a;leaf;deep` gets 30 · 40/60 = 20.
        let p = profile(
            &[
                ("a", 10.0, 50.0),
                ("b", 5.0, 25.0),
                ("leaf", 30.0, 60.0),
                ("deep", 30.0, 30.0),
            ],
            &[
                ("a", "leaf", 40.0),
                ("b", "leaf", 20.0),
                ("leaf", "deep", 30.0),
            ],
        );
        let s = stacks(&p, 0.1);
        assert_eq!(
            joined(&s),
            [
                ("a;leaf".to_string(), 20.0),
                ("a;leaf;deep".to_string(), 20.0),
                ("a".to_string(), 10.0),
                ("b;leaf".to_string(), 10.0),
                ("b;leaf;deep".to_string(), 10.0),
                ("b".to_string(), 5.0),
            ]
        );
        let sum: f64 = s.iter().map(|s| s.instructions).sum();
        assert!((sum - 75.0).abs() < 1e-9, "{sum}");
        // Under the floor, the call is its caller's own: `b`'s 25 in one stack.
        let coarse = stacks(&p, 21.0);
        assert!(
            coarse
                .iter()
                .any(|s| s.frames == ["b"] && (s.instructions - 25.0).abs() < 1e-9)
        );
    }

    #[test]
    fn stacks_start_at_the_innermost_function_that_holds_the_whole_unit() {
        // `start` and `a_main` call each other (as callgrind's frames below `main` may), and
        // hold the unit with `body`, which calls `work` and `tiny`.
        let p = profile(
            &[
                ("start", 0.0, 200.0),
                ("a_main", 0.0, 100.0),
                ("body", 0.4, 100.0),
                ("work", 90.0, 90.0),
                ("tiny", 9.6, 9.6),
            ],
            &[
                ("start", "a_main", 100.0),
                ("a_main", "start", 100.0),
                ("a_main", "body", 100.0),
                ("body", "work", 90.0),
                ("body", "tiny", 9.6),
            ],
        );
        assert_eq!(
            joined(&stacks(&p, 0.01)),
            [
                ("body;work".to_string(), 90.0),
                ("body;tiny".to_string(), 9.6),
                ("body".to_string(), 0.4),
            ]
        );
    }

    #[test]
    fn a_document_keeps_every_process_and_leaves_out_what_is_below_a_thousandth() {
        let mut p = ProcessProfile::default();
        p.functions.insert("big".into(), (1000.0, 1000.5));
        p.functions.insert("tiny".into(), (0.5, 0.5));
        p.calls.insert(("big".into(), "tiny".into()), 0.5);
        let mut q = p.clone();
        q.functions.insert("big".into(), (1002.0, 1002.5));
        let doc = profile_doc(&[&p, &q]).unwrap();
        assert_eq!(doc.functions.len(), 1);
        assert_eq!(doc.functions[0].self_instructions, [1000.0, 1002.0]);
        assert_eq!(doc.stacks.len(), 1);
        assert_eq!(doc.stacks[0].frames, ["big"]);
        assert!(profile_doc(&[]).is_none());
    }
}
