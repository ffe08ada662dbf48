//! The benches of this binary: each `#[pilot::bench]` registration expanded into one bench per
//! argument value and thread count.
//!
//! Names: `name` for a bench without `args` and with at most one thread count; `name/arg` per
//! argument value (its `Debug` form, a string without its quotes); `…/threads=N` per thread
//! count when `threads` lists several. The module path comes first (`module::name/arg`), the
//! crate's name left out. A group's members are compared per argument value and thread count:
//! the group instance is the group's name with the same suffix (`maps/100`).

use crate::entry::BenchDef;
use crate::store::result::Rate;

/// One bench as the runner sees it: a registration, one argument value, one thread count.
pub(super) struct Bench {
    /// Display name, unique in the binary.
    pub(crate) name: String,
    pub(crate) def: &'static BenchDef,
    /// Index of the argument value in the registration's `args` list (0 without `args`).
    pub(crate) arg: usize,
    /// Threads running the workload at once.
    pub(crate) threads: usize,
    /// The group instance this bench is a member of, e.g. `maps/100`.
    pub(crate) group: Option<String>,
    /// Why the bench cannot run (its `args` could not be made): it fails with this message,
    /// and the other benches run as usual.
    pub(crate) broken: Option<String>,
    /// What its throughput counts (`unit = "…"`, `throughput = bytes(…)`), when it says.
    pub(crate) rate: Option<Rate>,
}

/// The benches of this binary in source order: registrations by (file, line) as inventory's
/// own order is unspecified (the name breaks ties, for benches a macro defines on one line),
/// each expanded in the order of its argument values and thread counts; then the members of
/// each group instance are brought together at the place of its first member, so that a group
/// runs and prints as one block (`iterate/1000`'s members, then `iterate/100000`'s).
pub(super) fn registered() -> Vec<Bench> {
    let mut defs: Vec<&'static BenchDef> = inventory::iter::<BenchDef>.into_iter().collect();
    defs.sort_by(|a, b| (a.file, a.line, a.name).cmp(&(b.file, b.line, b.name)));
    together(defs.into_iter().flat_map(expand).collect())
}

/// `benches` with each group instance's members moved up to its first member, the order
/// otherwise kept.
fn together(benches: Vec<Bench>) -> Vec<Bench> {
    let mut slots: Vec<Option<Bench>> = benches.into_iter().map(Some).collect();
    let mut out = Vec::with_capacity(slots.len());
    for i in 0..slots.len() {
        let Some(bench) = slots[i].take() else {
            continue;
        };
        let group = bench.group.clone();
        out.push(bench);
        if let Some(group) = group {
            for slot in &mut slots[i + 1..] {
                if slot
                    .as_ref()
                    .is_some_and(|b| b.group.as_ref() == Some(&group))
                {
                    out.extend(slot.take());
                }
            }
        }
    }
    out
}

/// One registration's benches.
fn expand(def: &'static BenchDef) -> Vec<Bench> {
    // The crate's own name is the same for every bench of a target: leave it out.
    let module = def
        .module_path
        .split_once("::")
        .map_or("", |(_, rest)| rest);
    let base = if module.is_empty() {
        def.name.to_string()
    } else {
        format!("{module}::{}", def.name)
    };
    let args: Vec<Option<String>> = match def.args.map(arg_names) {
        Some(Ok(names)) => names.into_iter().map(Some).collect(),
        Some(Err(msg)) => {
            return vec![Bench {
                name: base,
                def,
                arg: 0,
                threads: 1,
                group: None,
                broken: Some(format!("its `args` could not be made: {msg}")),
                rate: None,
            }];
        }
        None => vec![None],
    };
    let threads: &[usize] = if def.options.threads.is_empty() {
        &[1]
    } else {
        def.options.threads
    };
    let swept_threads = threads.len() > 1;
    let mut benches = Vec::new();
    for (index, arg) in args.iter().enumerate() {
        let (rate, broken) = match rate(def, index) {
            Ok(rate) => (rate, None),
            Err(msg) => (
                None,
                Some(format!("its `throughput` could not be computed: {msg}")),
            ),
        };
        for &n in threads {
            let mut suffix = String::new();
            if let Some(arg) = arg {
                suffix.push('/');
                suffix.push_str(arg);
            }
            if swept_threads {
                suffix.push_str(&format!("/threads={n}"));
            }
            benches.push(Bench {
                name: format!("{base}{suffix}"),
                def,
                arg: index,
                threads: n,
                group: def.options.group.map(|g| format!("{g}{suffix}")),
                broken: broken.clone(),
                rate: rate.clone(),
            });
        }
    }
    benches
}

/// What the throughput of the bench with argument value `index` counts; a panic while
/// computing the amount (a negative one) is its message.
fn rate(def: &BenchDef, index: usize) -> Result<Option<Rate>, String> {
    if let Some(throughput) = def.options.throughput {
        let amount = quietly(|| (throughput.amount)(index))?;
        return Ok(Some(Rate {
            unit: throughput.kind.unit().to_string(),
            per_unit: amount as f64,
        }));
    }
    Ok(def.options.unit.map(Rate::units))
}

/// The display names of a bench's argument values; a panic while making them (a
/// `pilot::range` value that does not fit the argument's type) is its message, so that one
/// bench fails and `--list` and the other benches still work.
fn arg_names(names: fn() -> Vec<String>) -> Result<Vec<String>, String> {
    quietly(names)
}

/// `f`'s value, or its panic's message; quiet while the registry is read: the message is
/// reported with the bench.
fn quietly<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let made = super::panics::catch(f);
    std::panic::set_hook(hook);
    made
}
