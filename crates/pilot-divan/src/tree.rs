//! The registered entries as benches, named as divan names them: the module path (the crate's
//! name first), each module shown by its `#[divan::bench_group(name = …)]` where it has one,
//! the function (or its `name = …`), then a generic function's type and constant, then the
//! argument value: `crate::module::function::Type::CONST::arg`. A bench with several thread
//! counts is one bench per count, `…::t=N` (divan runs the counts under one id and shows
//! them as `t=N` below it); filters match the id without the count too.
//!
//! Options cascade as divan's do: a group's options hold for the benches inside it unless a
//! bench (or a group inside it) sets its own, and [`Divan`](crate::Divan)'s over every bench's.

use std::num::NonZeroUsize;

use crate::Bencher;
use crate::arg::ArgsRunner;
use crate::entry::{Entry, Kind, Registered, Runner};
use crate::options::BenchOptions;

/// One bench: one instance, argument value and thread count of a registered function.
pub(crate) struct Bench {
    /// divan's id: the path without the thread count.
    pub id: String,
    /// The id, with `::t=N` when the function runs on several thread counts.
    pub name: String,
    /// The id's parts without the argument: the crate, modules (or groups), the function, a
    /// generic function's type, and the bench's own part last (divan's tree, `--list`).
    pub path: Vec<String>,
    /// The argument's name (`args = …`), the id's last part.
    pub arg: Option<String>,
    /// Whether the bench's own part is a constant of a generic function (sorted by value).
    pub konst: bool,
    pub call: Call,
    /// Threads the routine runs on at once.
    pub threads: usize,
    /// The options that hold for it.
    pub options: BenchOptions,
    pub file: &'static str,
    pub line: u32,
    pub col: u32,
}

/// How a bench's function is called.
#[derive(Clone, Copy)]
pub(crate) enum Call {
    Plain(fn(Bencher)),
    Args(ArgsRunner, usize),
}

impl Call {
    pub(crate) fn call(self, bencher: Bencher) {
        match self {
            Call::Plain(f) => f(bencher),
            Call::Args(runner, i) => (runner.call)(bencher, i),
        }
    }
}

/// Every registered bench, in source order, with `overrides` (a `Divan`'s options) over the
/// options of each.
pub(crate) fn benches(overrides: &BenchOptions) -> Vec<Bench> {
    let mut entries: Vec<&'static Entry> = inventory::iter::<Registered>
        .into_iter()
        .map(|r| r.0)
        .collect();
    entries.sort_by_key(|e| (e.file, e.line, e.col, e.raw_name));
    let groups: Vec<&Entry> = entries
        .iter()
        .copied()
        .filter(|e| matches!(e.kind, Kind::Group))
        .collect();
    let mut out = Vec::new();
    for entry in entries {
        let Kind::Bench(instances) = entry.kind else {
            continue;
        };
        let (parents, inherited) = parents(entry.module_path, &groups);
        let own = entry.options.map(|f| f()).unwrap_or_default();
        let options = overrides.over(&own.over(&inherited));
        for instance in instances() {
            let mut path = parents.clone();
            let generic = instance.ty.is_some() || instance.konst.is_some();
            let leaf = match (instance.ty, &instance.konst) {
                (_, Some(konst)) => {
                    path.push(entry.name.to_string());
                    if let Some(ty) = instance.ty {
                        path.push(type_name(ty()).to_string());
                    }
                    konst()
                }
                (Some(ty), None) => {
                    path.push(entry.name.to_string());
                    type_name(ty()).to_string()
                }
                (None, None) => entry.name.to_string(),
            };
            debug_assert!(generic || path.len() == parents.len());
            path.push(leaf);
            let id = path.join("::");
            let calls: Vec<(String, Option<String>, Call)> = match instance.runner {
                Runner::Plain(f) => vec![(id, None, Call::Plain(f))],
                Runner::Args(make) => {
                    let runner = make();
                    runner
                        .names
                        .iter()
                        .enumerate()
                        .map(|(i, arg)| {
                            (
                                format!("{id}::{arg}"),
                                Some(arg.to_string()),
                                Call::Args(runner, i),
                            )
                        })
                        .collect()
                }
            };
            let counts = thread_counts(options.threads.as_deref());
            for (id, arg, call) in calls {
                for &threads in &counts {
                    let name = if counts.len() > 1 {
                        format!("{id}::t={threads}")
                    } else {
                        id.clone()
                    };
                    out.push(Bench {
                        id: id.clone(),
                        name,
                        path: path.clone(),
                        arg: arg.clone(),
                        konst: instance.konst.is_some(),
                        call,
                        threads,
                        options: options.clone(),
                        file: entry.file,
                        line: entry.line,
                        col: entry.col,
                    });
                }
            }
        }
    }
    out
}

/// The shown names of the modules of `module_path` (each group's `name = …` where it is a
/// group), and the options its groups give, outermost first.
fn parents(module_path: &str, groups: &[&Entry]) -> (Vec<String>, BenchOptions) {
    let mut names = Vec::new();
    let mut options = BenchOptions::default();
    let mut prefix = String::new();
    for component in module_path.split("::") {
        let raw = component.strip_prefix("r#").unwrap_or(component);
        let group = groups
            .iter()
            .find(|g| g.module_path == prefix && g.raw_name == raw);
        match group {
            Some(g) => {
                names.push(g.name.to_string());
                if let Some(f) = g.options {
                    options = f().over(&options);
                }
            }
            None => names.push(raw.to_string()),
        }
        if !prefix.is_empty() {
            prefix.push_str("::");
        }
        prefix.push_str(component);
    }
    (names, options)
}

/// A type's name as divan shows it: `std::any::type_name` without the leading module path
/// (`alloc::vec::Vec<i32>` is `Vec<i32>`), the paths inside its generic arguments kept.
pub(crate) fn type_name(full: &'static str) -> &'static str {
    let mut name = full;
    while let Some((before, after)) = name.split_once("::") {
        if before.contains('<') {
            break;
        }
        name = after;
    }
    name
}

/// The thread counts of `threads` (0 is the available parallelism), sorted, without repeats;
/// one thread when none are given.
pub(crate) fn thread_counts(threads: Option<&[usize]>) -> Vec<usize> {
    let parallelism = || {
        std::thread::available_parallelism()
            .map(NonZeroUsize::get)
            .unwrap_or(1)
    };
    let mut counts: Vec<usize> = threads
        .unwrap_or_default()
        .iter()
        .map(|&n| if n == 0 { parallelism() } else { n })
        .collect();
    counts.sort_unstable();
    counts.dedup();
    if counts.is_empty() {
        counts.push(1);
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_as_divan_shows_them() {
        assert_eq!(type_name("alloc::vec::Vec<i32>"), "Vec<i32>");
        assert_eq!(
            type_name("alloc::vec::Vec<alloc::string::String>"),
            "Vec<alloc::string::String>"
        );
        assert_eq!(type_name("&str"), "&str");
        assert_eq!(type_name("u8"), "u8");
        assert_eq!(
            type_name(std::any::type_name::<std::collections::HashSet<u8>>()),
            "HashSet<u8>"
        );
    }

    #[test]
    fn thread_counts_sorted_and_once_each() {
        assert_eq!(thread_counts(None), [1]);
        assert_eq!(thread_counts(Some(&[])), [1]);
        assert_eq!(thread_counts(Some(&[4, 1, 4])), [1, 4]);
        let parallelism = std::thread::available_parallelism().unwrap().get();
        assert!(thread_counts(Some(&[0])) == [parallelism]);
    }
}
