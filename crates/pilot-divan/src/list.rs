//! `--list` as divan 0.1.21 prints it: the benches as a tree of their modules, groups and
//! generic functions (its `tree_painter.rs`), and with `--format terse`, what cargo-nextest
//! reads, one `ID: benchmark` line per id (an argument's value each, never a thread count).
//!
//! The tree: a crate or module is a parent named by its group's `name` where it has one; a
//! generic function is a parent of its types (a type of its constants, when it has both); a
//! bench is a leaf, its arguments not shown. Children are sorted as divan's default `--sort
//! kind` sorts them (leaves before parents, then by name with integers compared as numbers and
//! constants by value, then by place in the source), or as `--sort`/`--sortr` ask. A bench the
//! run would leave out for being ignored (or, with `--ignored`, for not being) is listed with
//! `(ignored)` past the longest name. Each crate is followed by an empty line.
//!
//! The terse lines come in the order the benches were defined (divan's order is its linker's),
//! with the ignored ones left out as divan leaves them out. With `--ignored` they are the
//! ignored benches, what nextest's `--run-ignored` asks for, where divan 0.1.21 lists none (it
//! leaves out every parent that is not ignored itself). Both forms list what the filters
//! select, as the run would.

use std::cmp::Ordering;

use pilot_engine::fmt::terminal;

use crate::cli::Sort;
use crate::filter::Filters;
use crate::tree::Bench;

/// One node of the tree.
struct Node<'a> {
    /// The name shown.
    name: &'a str,
    /// Where it is defined: a bench's place, or its first descendant's.
    location: (&'a str, u32, u32),
    /// Its first bench's place in the order of definition: what tells apart a generic
    /// function's types and constants, which share its place (divan compares their entries'
    /// addresses, in the same order).
    order: usize,
    kind: Kind<'a>,
}

enum Kind<'a> {
    Parent(Vec<Node<'a>>),
    Leaf {
        /// Its arguments' names, as the filters leave them (none without `args = …`).
        args: Vec<&'a str>,
        ignored: bool,
        /// One of a generic function's constants: compared by value.
        konst: bool,
    },
}

impl Node<'_> {
    fn children(&self) -> &[Self] {
        match &self.kind {
            Kind::Parent(children) => children,
            Kind::Leaf { .. } => &[],
        }
    }
}

/// The tree of `benches` the filters select (each bench's id or name, ignored or not), in
/// the order they come.
fn tree<'a>(benches: &'a [Bench], filters: &Filters) -> Vec<Node<'a>> {
    let mut roots: Vec<Node<'a>> = Vec::new();
    let selected = benches
        .iter()
        .enumerate()
        .filter(|(_, b)| filters.matches(&b.id, &b.name));
    for (order, b) in selected {
        let Some((leaf, parents)) = b.path.split_last() else {
            continue;
        };
        let location = (b.file, b.line, b.col);
        let mut level = &mut roots;
        for name in parents {
            let at = level
                .iter()
                .position(|n| matches!(n.kind, Kind::Parent(_)) && n.name == name.as_str());
            let at = at.unwrap_or_else(|| {
                level.push(Node {
                    name,
                    location,
                    order,
                    kind: Kind::Parent(Vec::new()),
                });
                level.len() - 1
            });
            let node = &mut level[at];
            node.location = node.location.min(location);
            let Kind::Parent(children) = &mut node.kind else {
                unreachable!("found as a parent")
            };
            level = children;
        }
        let at = level
            .iter()
            .position(|n| matches!(n.kind, Kind::Leaf { .. }) && n.name == leaf.as_str());
        let at = at.unwrap_or_else(|| {
            level.push(Node {
                name: leaf,
                location,
                order,
                kind: Kind::Leaf {
                    args: Vec::new(),
                    ignored: b.options.ignore.unwrap_or(false),
                    konst: b.konst,
                },
            });
            level.len() - 1
        });
        // Thread counts share their id: one leaf, each argument once.
        if let (Kind::Leaf { args, .. }, Some(arg)) = (&mut level[at].kind, &b.arg)
            && !args.contains(&arg.as_str())
        {
            args.push(arg);
        }
    }
    roots
}

/// The lines of `--list --format terse`: `ID: benchmark` for each id the run would run (an
/// argument's value each, the ignored left out unless asked for), in the order the benches
/// were defined.
pub(crate) fn terse(benches: &[Bench], filters: &Filters) -> String {
    fn walk(nodes: &[Node<'_>], path: &str, filters: &Filters, out: &mut String) {
        for n in nodes {
            let full = if path.is_empty() {
                terminal(n.name).into_owned()
            } else {
                format!("{path}::{}", terminal(n.name))
            };
            match &n.kind {
                Kind::Parent(children) => walk(children, &full, filters, out),
                Kind::Leaf { ignored, .. } if !filters.shows(*ignored) => {}
                Kind::Leaf { args, .. } if args.is_empty() => {
                    out.push_str(&format!("{full}: benchmark\n"));
                }
                Kind::Leaf { args, .. } => {
                    for arg in args {
                        out.push_str(&format!("{full}::{}: benchmark\n", terminal(arg)));
                    }
                }
            }
        }
    }
    let mut out = String::new();
    walk(&tree(benches, filters), "", filters, &mut out);
    out
}

/// What `--list` prints: divan's tree of the benches the filters select, sorted by `sort`
/// (descending with `reverse`). Nothing when none is selected, as divan prints nothing.
pub(crate) fn painted(benches: &[Bench], filters: &Filters, sort: Sort, reverse: bool) -> String {
    let mut roots = tree(benches, filters);
    sort_tree(&mut roots, sort, reverse);
    let mut painter = Painter {
        max_span: max_span(&roots, 0),
        prefix: String::new(),
        out: String::new(),
        filters,
    };
    painter.paint(&roots, 0);
    painter.out
}

/// Sorts every level of `nodes` as divan's `EntryTree::sort_by_attr` does.
fn sort_tree(nodes: &mut [Node<'_>], sort: Sort, reverse: bool) {
    nodes.sort_by(|a, b| {
        let o = compare(a, b, sort);
        if reverse { o.reverse() } else { o }
    });
    for n in nodes {
        if let Kind::Parent(children) = &mut n.kind {
            sort_tree(children, sort, reverse);
        }
    }
}

/// divan's order of two nodes of one level under `sort`, ties broken by the others.
fn compare(a: &Node<'_>, b: &Node<'_>, sort: Sort) -> Ordering {
    let kind = |n: &Node<'_>| matches!(n.kind, Kind::Parent(_));
    let konst = |n: &Node<'_>| matches!(n.kind, Kind::Leaf { konst: true, .. });
    for attr in sort.with_tie_breakers() {
        let o = match attr {
            Sort::Kind => kind(a).cmp(&kind(b)),
            Sort::Name if konst(a) && konst(b) => const_cmp(a.name, b.name),
            Sort::Name => natural_cmp(a.name, b.name),
            // Two benches at one place are a generic function's: in the order defined.
            Sort::Location if !kind(a) && !kind(b) => {
                a.location.cmp(&b.location).then(a.order.cmp(&b.order))
            }
            Sort::Location => a.location.cmp(&b.location),
        };
        if o.is_ne() {
            return o;
        }
    }
    Ordering::Equal
}

/// Two constants' order: divan compares their values; pilot-divan has their text, compared
/// as numbers when both are (integers, then floats), else as [`natural_cmp`] does.
fn const_cmp(a: &str, b: &str) -> Ordering {
    if let (Ok(x), Ok(y)) = (a.parse::<i128>(), b.parse::<i128>()) {
        return x.cmp(&y);
    }
    if let (Ok(x), Ok(y)) = (a.parse::<f64>(), b.parse::<f64>())
        && let Some(o) = x.partial_cmp(&y).filter(|o| o.is_ne())
    {
        return o;
    }
    natural_cmp(a, b)
}

/// divan's `natural_cmp`: the texts as runs of ASCII digits and runs of other bytes, digit runs
/// compared as whole numbers (leading zeros aside), other runs as text. Time: O(n).
pub(crate) fn natural_cmp(a: &str, b: &str) -> Ordering {
    fn tokens(mut s: &str) -> impl Iterator<Item = (bool, &str)> {
        std::iter::from_fn(move || {
            let first = s.bytes().next()?;
            let digits = first.is_ascii_digit();
            let len = s
                .bytes()
                .position(|c| c.is_ascii_digit() != digits)
                .unwrap_or(s.len());
            // A run ends where ASCII digits start or stop: a char boundary.
            let (token, rest) = s.split_at(len);
            s = rest;
            Some((digits, token))
        })
    }
    let number = |t: &str| -> (usize, String) {
        let t = t.trim_start_matches('0');
        (t.len(), t.to_string())
    };
    let mut x = tokens(a);
    let mut y = tokens(b);
    loop {
        let o = match (x.next(), y.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some((true, p)), Some((true, q))) => number(p).cmp(&number(q)),
            (Some((_, p)), Some((_, q))) => p.cmp(q),
        };
        if o.is_ne() {
            return o;
        }
    }
}

/// The widest a name and its box-drawing prefix get (three columns a level), arguments
/// counted a level below their bench's: divan's `EntryTree::max_name_span`.
fn max_span(nodes: &[Node<'_>], depth: usize) -> usize {
    nodes
        .iter()
        .map(|n| {
            let own = depth * 3 + terminal(n.name).chars().count();
            let args = match &n.kind {
                Kind::Leaf { args, .. } => args
                    .iter()
                    .map(|a| (depth + 1) * 3 + terminal(a).chars().count())
                    .max()
                    .unwrap_or(0),
                Kind::Parent(_) => 0,
            };
            own.max(args).max(max_span(n.children(), depth + 1))
        })
        .max()
        .unwrap_or(0)
}

/// divan's `TreePainter` without its columns: what `--list` writes.
struct Painter<'f> {
    /// Where `(ignored)` starts, less 2: grows past the widest line drawn so far.
    max_span: usize,
    /// The box drawing before a name at the current depth.
    prefix: String,
    out: String,
    filters: &'f Filters,
}

impl Painter<'_> {
    fn paint(&mut self, nodes: &[Node<'_>], depth: usize) {
        for (i, n) in nodes.iter().enumerate() {
            let last = i + 1 == nodes.len();
            let branch = if last { "╰─ " } else { "├─ " };
            let name = terminal(n.name);
            match &n.kind {
                Kind::Parent(children) => {
                    if depth == 0 {
                        self.out.push_str(&format!("{name}\n"));
                    } else {
                        self.out
                            .push_str(&format!("{}{branch}{name}\n", self.prefix));
                        self.prefix.push_str(if last { "   " } else { "│  " });
                    }
                    self.paint(children, depth + 1);
                    if depth == 0 {
                        // An empty line after each crate, for legibility.
                        self.out.push('\n');
                    } else {
                        let keep = self.prefix.chars().count() - 3;
                        self.prefix = self.prefix.chars().take(keep).collect();
                    }
                }
                Kind::Leaf { ignored, .. } if !self.filters.shows(*ignored) => {
                    let line = format!("{}{branch}{name}", self.prefix);
                    let width = line.chars().count();
                    let pad = 2 + self.max_span.saturating_sub(width);
                    self.max_span = self.max_span.max(width);
                    self.out
                        .push_str(&format!("{line}{}(ignored)\n", " ".repeat(pad)));
                }
                Kind::Leaf { .. } => {
                    self.out
                        .push_str(&format!("{}{branch}{name}\n", self.prefix));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::BenchOptions;
    use crate::tree::Call;

    fn nothing(_: crate::Bencher) {}

    /// A bench at `path` (its last part its own), with `arg`, defined at `line`.
    fn bench(path: &[&str], arg: Option<&str>, konst: bool, ignore: bool, line: u32) -> Bench {
        let id = path.join("::");
        let id = arg.map_or(id.clone(), |a| format!("{id}::{a}"));
        Bench {
            name: id.clone(),
            id,
            path: path.iter().map(|p| p.to_string()).collect(),
            arg: arg.map(String::from),
            konst,
            call: Call::Plain(nothing),
            threads: 1,
            options: BenchOptions {
                ignore: Some(ignore),
                ..BenchOptions::default()
            },
            file: "benches/c.rs",
            line,
            col: 1,
        }
    }

    /// A bench, a generic function over types and constants, one over constants only, and an
    /// ignored bench with an argument in a group, in the order of their definitions.
    fn benches() -> Vec<Bench> {
        let mut out = vec![bench(&["c", "plain"], None, false, false, 1)];
        for ty in ["u8", "u64"] {
            for k in ["4", "64"] {
                out.push(bench(&["c", "filled", ty, k], None, true, false, 5));
            }
        }
        for k in ["16", "2", "100"] {
            out.push(bench(&["c", "array", k], None, true, false, 9));
        }
        out.push(bench(&["c", "m", "slow"], Some("1000"), false, true, 20));
        out
    }

    #[test]
    fn the_tree_is_divans() {
        // Written by hand from divan 0.1.21's `tree_painter.rs` and `EntryTree::sort_by_attr`:
        // the bench before the parents, which go by name; constants by value, types by name
        // with their numbers as numbers; `(ignored)` two past the widest span, the argument
        // `1000` a level below `slow` (3 × 3 + 4 columns).
        let filters = Filters::default();
        assert_eq!(
            painted(&benches(), &filters, Sort::Kind, false),
            "\
c
├─ plain
├─ array
│  ├─ 2
│  ├─ 16
│  ╰─ 100
├─ filled
│  ├─ u8
│  │  ├─ 4
│  │  ╰─ 64
│  ╰─ u64
│     ├─ 4
│     ╰─ 64
╰─ m
   ╰─ slow     (ignored)

"
        );
        // divan's terse lines: each id the run would run, in the order of definition.
        assert_eq!(
            terse(&benches(), &filters),
            "\
c::plain: benchmark
c::filled::u8::4: benchmark
c::filled::u8::64: benchmark
c::filled::u64::4: benchmark
c::filled::u64::64: benchmark
c::array::16: benchmark
c::array::2: benchmark
c::array::100: benchmark
"
        );
    }

    #[test]
    fn names_compare_with_their_numbers_as_numbers() {
        // divan's own cases (its `util::sort` tests).
        let sorted = |list: &[&str]| {
            let mut copy = list.to_vec();
            copy.sort_by(|a, b| natural_cmp(a, b));
            assert_eq!(copy, list);
        };
        sorted(&["A<4>", "A<8>", "A<16>", "A<32>", "A<64>"]);
        sorted(&["4", "8", "16", "32", "64"]);
        sorted(&["4", "08"]);
        sorted(&["0", "00"]);
        assert_eq!(const_cmp("-1", "0"), Ordering::Less);
        assert_eq!(const_cmp("0.5", "0.25"), Ordering::Greater);
        assert_eq!(const_cmp("false", "true"), Ordering::Less);
    }
}
