//! One callgrind dump's instructions by function: each function's own (`fn=` and the cost
//! lines under it) and those of the calls between functions (`cfn=`, `calls=` and the cost
//! line after it), read from callgrind's own output format
//! (<https://valgrind.org/docs/manual/cl-format.html>).
//!
//! Read here rather than by a crate: no maintained crate reads this format (the few on
//! crates.io parse `callgrind_annotate`'s text, or are unmaintained tools with a command line),
//! and pilot needs two records of it, in a few dozen lines.

use super::error::DumpError;
use std::collections::{BTreeMap, HashMap};

/// Instructions (`Ir`) of one dump by function. Functions are merged by their demangled
/// name, so that a function callgrind lists in several files (code inlined from elsewhere) or
/// at several recursion depths (`f'2`) is one.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct CallGraph {
    /// Function names, demangled; an index into this is a function.
    pub(crate) names: Vec<String>,
    /// Instructions in each function's own code, by index.
    pub(crate) self_cost: Vec<u64>,
    /// Instructions of the calls from a function (first) to another (second), callee's
    /// callees included. A call of a function to itself is left out: its instructions are in
    /// the outer call's already.
    pub(crate) calls: BTreeMap<(usize, usize), u64>,
    /// How many times a function (first) called another (second), from the `calls=` lines;
    /// a call of a function to itself is left out as above.
    pub(crate) call_counts: BTreeMap<(usize, usize), u64>,
}

impl CallGraph {
    /// Reads the functions of a callgrind output file: its `positions:` and `events:` lines,
    /// and its `fn=`, `cfn=`, `calls=` (the number of calls, then the target's position) and
    /// cost lines, with callgrind's name compression
    /// (`fn=(12) name`, then `fn=(12)`; `cfn=` shares `fn=`'s numbers). Names are demangled
    /// when they are Rust's (`--demangle=no` keeps callgrind's own demangler out). Lines of
    /// other kinds (objects, files, jumps) are skipped. Time: O(length of the text).
    pub(crate) fn parse(text: &str) -> Result<CallGraph, DumpError> {
        let mut graph = CallGraph::default();
        let mut by_name: HashMap<String, usize> = HashMap::new();
        let mut by_id: HashMap<&str, usize> = HashMap::new();
        let mut positions = 1;
        let mut ir_at: Option<usize> = None;
        let mut current: Option<usize> = None;
        let mut callee: Option<usize> = None;
        let mut in_call: Option<u64> = None;
        for (n, line) in text.lines().enumerate() {
            let first = line.as_bytes().first().copied();
            if matches!(first, Some(b'0'..=b'9' | b'+' | b'-' | b'*')) {
                let Some(ir_at) = ir_at else {
                    return Err(DumpError::CostBeforeEvents { line: n + 1 });
                };
                let ir = line
                    .split_whitespace()
                    .nth(positions + ir_at)
                    .map_or(Ok(0), str::parse::<u64>)
                    .map_err(|_| DumpError::NotACostLine {
                        line: n + 1,
                        text: line.to_string(),
                    })?;
                let caller = current.ok_or(DumpError::CostBeforeFunction { line: n + 1 })?;
                if let Some(times) = in_call.take() {
                    let to = callee.ok_or(DumpError::CallBeforeCallee { line: n + 1 })?;
                    if to != caller {
                        *graph.calls.entry((caller, to)).or_default() += ir;
                        *graph.call_counts.entry((caller, to)).or_default() += times;
                    }
                } else {
                    graph.self_cost[caller] += ir;
                }
            } else if let Some(rest) = line.strip_prefix("fn=") {
                current = Some(graph.function(rest, &mut by_id, &mut by_name, n)?);
            } else if let Some(rest) = line.strip_prefix("cfn=") {
                callee = Some(graph.function(rest, &mut by_id, &mut by_name, n)?);
            } else if let Some(rest) = line.strip_prefix("calls=") {
                let times = rest.split_whitespace().next().unwrap_or("");
                in_call = Some(times.parse().map_err(|_| DumpError::NotACallCount {
                    line: n + 1,
                    text: line.to_string(),
                })?);
            } else if let Some(p) = line.strip_prefix("positions:") {
                positions = p.split_whitespace().count().max(1);
            } else if let Some(e) = line.strip_prefix("events:") {
                ir_at = e.split_whitespace().position(|e| e == "Ir");
                if ir_at.is_none() {
                    return Err(DumpError::NoInstructions);
                }
            }
        }
        Ok(graph)
    }

    /// The function a `fn=` or `cfn=` value names (`(id) name`, `(id)` or `name`), added when
    /// new.
    fn function<'t>(
        &mut self,
        value: &'t str,
        by_id: &mut HashMap<&'t str, usize>,
        by_name: &mut HashMap<String, usize>,
        line: usize,
    ) -> Result<usize, DumpError> {
        let (id, name) = match value.strip_prefix('(') {
            Some(rest) => {
                let (id, name) = rest.split_once(')').ok_or_else(|| DumpError::Unclosed {
                    line: line + 1,
                    value: value.to_string(),
                })?;
                (Some(id), name.trim())
            }
            None => (None, value.trim()),
        };
        if name.is_empty() {
            let id = id.unwrap_or("");
            return by_id.get(id).copied().ok_or_else(|| DumpError::Unnamed {
                line: line + 1,
                id: id.to_string(),
            });
        }
        let name = demangle(name);
        let index = match by_name.get(&name) {
            Some(&i) => i,
            None => {
                self.names.push(name.clone());
                self.self_cost.push(0);
                by_name.insert(name, self.names.len() - 1);
                self.names.len() - 1
            }
        };
        if let Some(id) = id {
            by_id.insert(id, index);
        }
        Ok(index)
    }

    /// The instructions of function `f` with those of everything it calls.
    pub(crate) fn inclusive(&self, f: usize) -> u64 {
        let calls: u64 = self
            .calls
            .range((f, 0)..=(f, usize::MAX))
            .map(|(_, c)| c)
            .sum();
        self.self_cost[f] + calls
    }
}

/// A symbol as a person reads it: Rust's demangled without its hash (`sort::merge`, from
/// `_ZN4sort5merge17h…E`), a recursion depth callgrind appends (`'2`) dropped, others as they
/// are.
pub(crate) fn demangle(symbol: &str) -> String {
    let symbol = match symbol.rsplit_once('\'') {
        Some((base, depth)) if !depth.is_empty() && depth.bytes().all(|b| b.is_ascii_digit()) => {
            base
        }
        _ => symbol,
    };
    match rustc_demangle::try_demangle(symbol) {
        Ok(d) => format!("{d:#}"),
        Err(_) => symbol.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `main` calls `outer` (2 calls, 130 instructions with its callees), which calls
    /// `inner_a` twice (40) and `inner_b` (50), and itself once (recursion, left out); the
    /// names mangled as `--demangle=no` writes them, `outer` at a second recursion depth too.
    const DUMP: &str = "\
# callgrind format
version: 1
positions: line
events: Ir Dr
summary: 150 0
totals: 150 0

ob=(1) /tmp/bench
fl=(1) ???
fn=(1) main
0 20 3
cfn=(2) _ZN5bench5outer17h0123456789abcdefE
calls=2 0
0 130
fn=(2)
0 30
cfn=(3) _ZN5bench7inner_a17h0123456789abcdefE
calls=2 0
0 40
cfn=(4) _ZN5bench7inner_b17h0123456789abcdefE
calls=1 0
0 50
cfn=(5) _ZN5bench5outer17h0123456789abcdefE'2
calls=1 0
0 7
fn=(3)
0 40
fl=(2) src/lib.rs
fn=(4)
+2 45
* 5
fn=(5)
0 7
";

    #[test]
    fn functions_own_and_inclusive_instructions_with_names_demangled() {
        let g = CallGraph::parse(DUMP).unwrap();
        assert_eq!(
            g.names,
            ["main", "bench::outer", "bench::inner_a", "bench::inner_b"]
        );
        // `outer'2` is `outer`: its own 7 are outer's, the call to itself is left out.
        assert_eq!(g.self_cost, [20, 37, 40, 50]);
        assert_eq!(g.inclusive(0), 150);
        assert_eq!(g.inclusive(1), 37 + 40 + 50);
        assert_eq!(g.inclusive(3), 50);
        assert_eq!(g.calls.get(&(1, 1)), None);
        assert_eq!(g.call_counts[&(0, 1)], 2);
        assert_eq!(g.call_counts[&(1, 2)], 2);
        assert_eq!(g.call_counts[&(1, 3)], 1);
        assert_eq!(g.call_counts.get(&(1, 1)), None);
    }

    #[test]
    fn symbols_that_are_not_rusts_stay_as_they_are() {
        assert_eq!(demangle("memcpy"), "memcpy");
        assert_eq!(demangle("0x0000000000003410"), "0x0000000000003410");
        assert_eq!(demangle("it's"), "it's");
        assert_eq!(
            demangle("_ZN4core3ptr13drop_in_place17h0123456789abcdefE'3"),
            "core::ptr::drop_in_place"
        );
    }

    #[test]
    fn a_broken_file_is_refused_with_the_line() {
        assert_eq!(
            CallGraph::parse("events: Ir\nfn=(1)\n")
                .unwrap_err()
                .to_string(),
            "line 2: function (1) was never named"
        );
        assert_eq!(
            CallGraph::parse("0 5\n").unwrap_err().to_string(),
            "line 1: a cost before the `events:` line"
        );
        assert_eq!(
            CallGraph::parse("events: Ir\nfn=f\n0 x\n")
                .unwrap_err()
                .to_string(),
            "line 3: `0 x` is not a cost line"
        );
        assert_eq!(
            CallGraph::parse("events: Ir\nfn=f\ncfn=g\ncalls=x 0\n0 1\n")
                .unwrap_err()
                .to_string(),
            "line 4: `calls=x 0` does not start with a number of calls"
        );
        assert_eq!(
            CallGraph::parse("events: Dr\n").unwrap_err().to_string(),
            "its `events:` line has no `Ir`"
        );
    }
}
