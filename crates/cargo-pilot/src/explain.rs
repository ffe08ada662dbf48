//! Which functions a bench's change is in: when its time or its instructions changed beyond
//! their noise between two counted sides, the functions whose instructions per unit changed,
//! and where both builds install pilot's `CountingAlloc`, the call sites whose allocations per
//! unit changed, from both sides' profiles (`counts.profile` of their result documents), for
//! the terminal, the Markdown and the report.

use pilot_format::{
    AllocationSiteChangeDoc, AllocationSiteDoc, CompareBenchDoc, CompareDoc, ExplainedDoc,
    FunctionChangeDoc, FunctionDoc, ProfileDoc,
};

/// Most functions the terminal and the Markdown name for a bench.
pub const SHOWN: usize = 5;

/// The smallest change of a function's instructions that is named, as a share of the bench's
/// instructions: twice the share under which a profile leaves a function out, so that a
/// function that did not change cannot seem to by falling under that cut on one side only.
const LEAST_SHARE: f64 = 2e-3;

/// The share of a bench's instructions from which a function holds the whole unit (its
/// body, and the frames above it): one whose own instructions did not change is not named.
const WHOLE: f64 = 0.99;

/// The smallest change of a call site's allocations per unit that is named: twice the least a
/// profile keeps of a site, so that a site that did not change cannot seem to by falling under
/// that cut on one side only.
const LEAST_ALLOCATIONS: f64 = 2e-3;

/// What a bench whose allocations were counted by call site, none of them changed, says.
pub const SAME_ALLOCATIONS: &str = "no call site's allocations changed";

/// What a bench with no function changed says.
pub const SAME_CODE: &str = "no function's instructions changed: the same code, so a change \
                             of its time is the machine's, or the code's layout";

/// The functions whose instructions per unit changed between `base` and `new` beyond their
/// noise, the largest change of their own instructions first (then of their inclusive ones).
/// A function's change counts when it exceeds both the spread of its counting processes (the
/// range of the base's plus the range of the new side's: what a process's start moves, such
/// as addresses and hash seeds) and [`LEAST_SHARE`] of the bench's instructions; a function
/// one side lacks counts 0 there. Time: O(f log f) for f functions.
pub fn explain(base: &ProfileDoc, new: &ProfileDoc) -> ExplainedDoc {
    let total =
        |p: &ProfileDoc| -> f64 { p.functions.iter().map(|f| f.self_mean().max(0.0)).sum() };
    let floor = LEAST_SHARE * total(base).max(total(new));
    let mut names: Vec<&str> = base
        .functions
        .iter()
        .chain(&new.functions)
        .map(|f| f.name.as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    let find = |p: &'_ ProfileDoc, name: &str| p.functions.iter().find(|f| f.name == name).cloned();
    let mut functions: Vec<FunctionChangeDoc> = Vec::new();
    for name in names {
        let none = || FunctionDoc {
            name: name.to_string(),
            self_instructions: vec![0.0],
            inclusive: vec![0.0],
        };
        let b = find(base, name).unwrap_or_else(none);
        let n = find(new, name).unwrap_or_else(none);
        let beyond = |b: &[f64], n: &[f64], change: f64| {
            change.abs() >= floor && change.abs() > spread(b) + spread(n)
        };
        let own = n.self_mean() - b.self_mean();
        let all = n.inclusive_mean() - b.inclusive_mean();
        let own_changed = beyond(&b.self_instructions, &n.self_instructions, own);
        // A frame that holds the whole unit (the bench's body, `main` and what starts it)
        // changes with anything below it: naming it says nothing.
        let whole = |f: &FunctionDoc, total: f64| f.inclusive_mean() >= WHOLE * total;
        let whole_unit = whole(&b, total(base)) && whole(&n, total(new));
        if own_changed || (beyond(&b.inclusive, &n.inclusive, all) && !whole_unit) {
            functions.push(FunctionChangeDoc {
                name: name.to_string(),
                base_self: b.self_mean(),
                new_self: n.self_mean(),
                base_inclusive: b.inclusive_mean(),
                new_inclusive: n.inclusive_mean(),
            });
        }
    }
    let key = |f: &FunctionChangeDoc| {
        (
            (f.new_self - f.base_self).abs(),
            (f.new_inclusive - f.base_inclusive).abs(),
        )
    };
    functions.sort_by(|a, b| {
        let (a, b) = (key(a), key(b));
        b.0.total_cmp(&a.0).then(b.1.total_cmp(&a.1))
    });
    ExplainedDoc {
        functions,
        base_stacks: base.stacks.clone(),
        new_stacks: new.stacks.clone(),
        allocation_sites: allocation_changes(base, new),
    }
}

/// The call sites whose allocations per unit changed between `base` and `new` beyond their
/// noise, the largest change first: a change counts when it exceeds both the spread of the
/// sites' counting processes (the range of each side's, added) and [`LEAST_ALLOCATIONS`]; a
/// site one side lacks counts 0 there. `None` unless both profiles hold allocation sites.
/// Time: O(s log s) for s sites.
pub fn allocation_changes(
    base: &ProfileDoc,
    new: &ProfileDoc,
) -> Option<Vec<AllocationSiteChangeDoc>> {
    let (b, n) = (
        base.allocation_sites.as_ref()?,
        new.allocation_sites.as_ref()?,
    );
    let mut names: Vec<&str> = b.iter().chain(n).map(|s| s.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let find = |sites: &[AllocationSiteDoc], name: &str| {
        sites
            .iter()
            .find(|s| s.name == name)
            .map_or_else(|| vec![0.0], |s| s.allocations.clone())
    };
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let mut changed: Vec<AllocationSiteChangeDoc> = names
        .into_iter()
        .filter_map(|name| {
            let (bv, nv) = (find(b, name), find(n, name));
            let change = mean(&nv) - mean(&bv);
            (change.abs() >= LEAST_ALLOCATIONS && change.abs() > spread(&bv) + spread(&nv)).then(
                || AllocationSiteChangeDoc {
                    name: name.to_string(),
                    base: mean(&bv),
                    new: mean(&nv),
                },
            )
        })
        .collect();
    changed.sort_by(|x, y| {
        (y.new - y.base)
            .abs()
            .total_cmp(&(x.new - x.base).abs())
            .then(x.name.cmp(&y.name))
    });
    Some(changed)
}

/// The range of `v` (0 for fewer than two values).
fn spread(v: &[f64]) -> f64 {
    let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = v.iter().copied().fold(f64::INFINITY, f64::min);
    if v.len() < 2 { 0.0 } else { max - min }
}

/// Whether a bench's time or instructions changed beyond their noise: a verdict of
/// `regressed` or `improved` for either.
fn changed(b: &CompareBenchDoc) -> bool {
    let decided = |v: &str| v == "regressed" || v == "improved";
    decided(&b.verdict) || b.instructions.as_ref().is_some_and(|i| decided(&i.verdict))
}

/// Fills in `explained` for each bench of `doc` that changed, from the profiles `profile_of`
/// finds for it (`true` for the base's, then its target and name); a bench without a profile
/// on both sides is left as it is.
pub fn attach(doc: &mut CompareDoc, profile_of: &dyn Fn(bool, &str, &str) -> Option<ProfileDoc>) {
    for b in doc.benches.iter_mut().filter(|b| changed(b)) {
        let base = profile_of(true, &b.target, &b.name);
        let new = profile_of(false, &b.target, &b.name);
        if let (Some(base), Some(new)) = (base, new) {
            b.explained = Some(explain(&base, &new));
        }
    }
}

/// The profile in a result document, if it was counted with one.
pub fn profile(doc: &pilot_format::ResultDoc) -> Option<ProfileDoc> {
    doc.counts.as_ref()?.profile.clone()
}

/// `new` against `base` as a count and a relative change: `1,000 → 1,100 (+10.0%)`; `new`
/// where the base had none.
pub fn change(base: f64, new: f64) -> String {
    let count = |x: f64| if x == 0.0 { "0".to_string() } else { count(x) };
    if base == new {
        return format!("{} (same)", count(new));
    }
    let relative = if base.abs() > 0.0 {
        format!("{:+.1}%", 100.0 * (new / base - 1.0))
    } else {
        "new".to_string()
    };
    format!("{} → {} ({relative})", count(base), count(new))
}

/// A count per unit as the comparison's table writes one: a whole number with `,` between
/// thousands from 1 000 on (`12,519`), four significant digits below (`6.250`, `999.5`).
fn count(x: f64) -> String {
    let a = x.abs();
    if a < 1000.0 {
        let digits = if a >= 100.0 {
            1
        } else if a >= 10.0 {
            2
        } else {
            3
        };
        return format!("{x:.digits$}");
    }
    let digits = (a.round() as u64).to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    if x < 0.0 { format!("-{out}") } else { out }
}

/// The explained benches of `doc` for the terminal: for each, its most changed functions
/// (own instructions, then with callees) or that none changed; empty when no bench was
/// explained. Names are shown escaped, never obeyed by the terminal.
pub fn terminal(doc: &CompareDoc) -> String {
    doc.benches
        .iter()
        .filter_map(|b| Some(terminal_bench(&b.name, &b.target, b.explained.as_ref()?)))
        .collect()
}

/// One bench's explanation for the terminal: its most changed functions (own instructions,
/// then with callees) or that none changed. Names are shown escaped, never obeyed by the
/// terminal.
pub fn terminal_bench(name: &str, target: &str, e: &ExplainedDoc) -> String {
    let mut out = format!(
        "\nwhere the instructions of `{}` ({}) changed, per unit:\n",
        pilot_engine::fmt::terminal(name),
        pilot_engine::fmt::terminal(target)
    );
    if e.functions.is_empty() {
        out.push_str(&format!("  {SAME_CODE}\n"));
    } else {
        out.push_str(&terminal_functions(e));
    }
    if let Some(sites) = &e.allocation_sites {
        out.push_str(&terminal_sites(sites));
    }
    out
}

/// The most changed functions' table for the terminal.
fn terminal_functions(e: &ExplainedDoc) -> String {
    let mut out = String::new();
    let header: Vec<String> = ["function", "own code", "with callees"]
        .map(String::from)
        .to_vec();
    let rows: Vec<Vec<String>> = e
        .functions
        .iter()
        .take(SHOWN)
        .map(|f| {
            vec![
                f.name.clone(),
                change(f.base_self, f.new_self),
                change(f.base_inclusive, f.new_inclusive),
            ]
        })
        .collect();
    out.push_str(&pilot_engine::fmt::columns(&header, &rows, &[0], "  "));
    if e.functions.len() > SHOWN {
        out.push_str(&format!(
            "  and {} more (`cargo pilot report` draws them all)\n",
            e.functions.len() - SHOWN
        ));
    }
    out
}

/// The call sites whose allocations changed, for the terminal: their table, or that none did.
fn terminal_sites(sites: &[AllocationSiteChangeDoc]) -> String {
    if sites.is_empty() {
        return format!("  {SAME_ALLOCATIONS}\n");
    }
    let header: Vec<String> = ["call site", "allocations"].map(String::from).to_vec();
    let rows: Vec<Vec<String>> = sites
        .iter()
        .take(SHOWN)
        .map(|s| vec![s.name.clone(), change(s.base, s.new)])
        .collect();
    let mut out = String::from("\n");
    out.push_str(&pilot_engine::fmt::columns(&header, &rows, &[0], "  "));
    if sites.len() > SHOWN {
        out.push_str(&format!(
            "  and {} more (`cargo pilot report` lists them all)\n",
            sites.len() - SHOWN
        ));
    }
    out
}

/// The explained benches of `doc` as Markdown: a table of the most changed functions per
/// bench, or that none changed; empty when no bench was explained. Names are code spans that
/// nothing in a name can close.
pub fn markdown(doc: &CompareDoc) -> String {
    let code = pilot_engine::fmt::markdown_code;
    let mut out = String::new();
    for b in &doc.benches {
        let Some(e) = &b.explained else { continue };
        out.push_str(&format!(
            "\n#### Where the instructions of {} ({}) changed\n\n",
            code(&b.name),
            code(&b.target)
        ));
        if e.functions.is_empty() {
            out.push_str(&format!("{}.\n", capitalised(SAME_CODE)));
        } else {
            out.push_str(&markdown_functions(e));
        }
        if let Some(sites) = &e.allocation_sites {
            out.push_str(&markdown_sites(sites));
        }
    }
    out
}

/// `text` with its first letter upper-case.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

/// The most changed functions' table in Markdown.
fn markdown_functions(e: &ExplainedDoc) -> String {
    let code = pilot_engine::fmt::markdown_code;
    let mut out = String::from(
        "| function | own code, per unit | with callees, per unit |\n|---|---:|---:|\n",
    );
    for f in e.functions.iter().take(SHOWN) {
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            code(&f.name),
            change(f.base_self, f.new_self),
            change(f.base_inclusive, f.new_inclusive)
        ));
    }
    if e.functions.len() > SHOWN {
        out.push_str(&format!(
            "\nAnd {} more (`cargo pilot report` draws them all).\n",
            e.functions.len() - SHOWN
        ));
    }
    out
}

/// The call sites whose allocations changed in Markdown: their table, or that none did.
fn markdown_sites(sites: &[AllocationSiteChangeDoc]) -> String {
    let code = pilot_engine::fmt::markdown_code;
    if sites.is_empty() {
        return format!("\n{}.\n", capitalised(SAME_ALLOCATIONS));
    }
    let mut out = String::from("\n| call site | allocations, per unit |\n|---|---:|\n");
    for s in sites.iter().take(SHOWN) {
        out.push_str(&format!(
            "| {} | {} |\n",
            code(&s.name),
            change(s.base, s.new)
        ));
    }
    if sites.len() > SHOWN {
        out.push_str(&format!(
            "\nAnd {} more (`cargo pilot report` lists them all).\n",
            sites.len() - SHOWN
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn function(name: &str, own: [f64; 3], all: [f64; 3]) -> FunctionDoc {
        FunctionDoc {
            name: name.into(),
            self_instructions: own.to_vec(),
            inclusive: all.to_vec(),
        }
    }

    /// A bench whose loop (`bench`) calls `outer`, which calls `pair` (which calls `a` and
    /// `b`) and `c`, each of 10 000 instructions; `b` gets `extra` more, and every count
    /// moves by `jitter` from one process to the next.
    fn profile(extra: f64, jitter: f64) -> ProfileDoc {
        let j = |x: f64| [x, x + jitter, x - jitter];
        let b = 10_000.0 + extra;
        ProfileDoc {
            functions: vec![
                function("bench", j(30.0), j(30_030.0 + extra)),
                function("outer", j(0.0), j(30_000.0 + extra)),
                function("pair", j(0.0), j(20_000.0 + extra)),
                function("a", j(10_000.0), j(10_000.0)),
                function("b", j(b), j(b)),
                function("c", j(10_000.0), j(10_000.0)),
            ],
            stacks: Vec::new(),
            allocation_sites: None,
        }
    }

    fn site(name: &str, allocations: &[f64]) -> AllocationSiteDoc {
        AllocationSiteDoc {
            name: name.into(),
            allocations: allocations.to_vec(),
        }
    }

    #[test]
    fn the_call_sites_whose_allocations_changed_are_named_largest_change_first() {
        let mut base = profile(0.0, 0.0);
        let mut new = base.clone();
        base.allocation_sites = Some(vec![
            site("bench::split", &[2.0, 2.0, 2.0]),
            site("bench::same", &[5.0, 5.0, 5.0]),
            site("bench::hashed", &[3.0, 3.5, 3.0]),
            site("bench::gone", &[1.0, 1.0, 1.0]),
        ]);
        new.allocation_sites = Some(vec![
            site("bench::split", &[3.0, 3.0, 3.0]),
            site("bench::same", &[5.0, 5.0, 5.0]),
            // Within the processes' spread (0.5 + 0.5): not named.
            site("bench::hashed", &[3.5, 3.0, 4.0]),
            site("bench::fresh", &[0.5, 0.5, 0.5]),
        ]);
        let e = explain(&base, &new);
        let sites = e.allocation_sites.as_ref().unwrap();
        let named: Vec<(&str, f64, f64)> = sites
            .iter()
            .map(|s| (s.name.as_str(), s.base, s.new))
            .collect();
        assert_eq!(
            named,
            [
                ("bench::gone", 1.0, 0.0),
                ("bench::split", 2.0, 3.0),
                ("bench::fresh", 0.0, 0.5),
            ]
        );
        let text = terminal_bench("b", "t", &e);
        assert!(text.contains("call site"), "{text}");
        assert!(text.contains("2.000 → 3.000 (+50.0%)"), "{text}");
        // Unchanged: said so; one side without sites: nothing said of them.
        let same = explain(&base, &base);
        assert_eq!(same.allocation_sites, Some(Vec::new()));
        assert!(terminal_bench("b", "t", &same).contains(SAME_ALLOCATIONS));
        let without = explain(&base, &profile(0.0, 0.0));
        assert_eq!(without.allocation_sites, None);
        assert!(!terminal_bench("b", "t", &without).contains("call site"));
    }

    #[test]
    fn the_function_given_more_work_is_named_first_and_its_callers_after() {
        let e = explain(&profile(0.0, 3.0), &profile(1000.0, 3.0));
        let names: Vec<&str> = e.functions.iter().map(|f| f.name.as_str()).collect();
        // `pair` (which calls `a` and `b`) holds b's change with its callees'; `bench` and
        // `outer` hold the whole unit, which says nothing.
        assert_eq!(names, ["b", "pair"]);
        assert_eq!(e.functions[0].base_self, 10_000.0);
        assert_eq!(e.functions[0].new_self, 11_000.0);
        assert_eq!(change(10_000.0, 11_000.0), "10,000 → 11,000 (+10.0%)");
        assert_eq!(count(1_234_567.4), "1,234,567");
        assert_eq!(count(-999.5), "-999.5");
        assert_eq!(count(6.25), "6.250");
    }

    #[test]
    fn the_same_code_names_no_function_whatever_its_noise() {
        // The same build on two machines: counts that differ only by their processes' spread.
        let e = explain(&profile(0.0, 3.0), &profile(5.0, 3.0));
        assert!(e.functions.is_empty(), "{:?}", e.functions);
        // Exactly the same counts: nothing either.
        assert!(
            explain(&profile(0.0, 0.0), &profile(0.0, 0.0))
                .functions
                .is_empty()
        );
        // A change of a thousandth, within no process's spread, is under the floor.
        assert!(
            explain(&profile(0.0, 0.0), &profile(30.0, 0.0))
                .functions
                .is_empty()
        );
    }

    #[test]
    fn a_function_one_side_lacks_counts_zero_there() {
        let mut new = profile(0.0, 0.0);
        new.functions
            .push(function("fresh", [500.0; 3], [500.0; 3]));
        let e = explain(&profile(0.0, 0.0), &new);
        assert_eq!(e.functions[0].name, "fresh");
        assert_eq!(change(0.0, 500.0), "0 → 500.0 (new)");
        assert_eq!(change(4.0, 4.0), "4.000 (same)");
    }

    fn doc(verdict: &str, explained: Option<ExplainedDoc>) -> CompareDoc {
        CompareDoc {
            schema: pilot_format::COMPARE_SCHEMA.into(),
            alpha: 0.01,
            noise: 0.01,
            confidence: 0.95,
            method: None,
            against: None,
            correction: None,
            benches: vec![CompareBenchDoc {
                name: "spin|`x`\u{1b}[2J".into(),
                target: "cost".into(),
                base: Some(1.0),
                new: Some(1.1),
                change: Some(0.1),
                change_ci: None,
                p: Some(0.0),
                p_adjusted: None,
                verdict: verdict.into(),
                method: "paired".into(),
                pairs: None,
                reason: None,
                pis: Vec::new(),
                instructions: None,
                changed: None,
                explained,
            }],
        }
    }

    #[test]
    fn only_a_bench_that_changed_is_explained_and_its_names_are_escaped() {
        let profiles = |_: bool, _: &str, _: &str| Some(profile(0.0, 0.0));
        let mut unchanged = doc("no change", None);
        attach(&mut unchanged, &profiles);
        assert_eq!(unchanged.benches[0].explained, None);
        assert_eq!(terminal(&unchanged), "");
        let mut same = doc("regressed", None);
        attach(&mut same, &profiles);
        assert!(terminal(&same).contains(SAME_CODE), "{}", terminal(&same));
        assert!(markdown(&same).contains("No function's instructions changed"));
        let mut moved = doc("regressed", None);
        attach(&mut moved, &|base, _, _| {
            Some(profile(if base { 0.0 } else { 1000.0 }, 0.0))
        });
        let text = terminal(&moved);
        assert!(!text.contains('\u{1b}'), "{text}");
        let md = markdown(&moved);
        assert!(md.contains("| `b` | 10,000 → 11,000 (+10.0%) |"), "{md}");
        assert!(!md.contains("call site"), "{md}");
        let mut allocating = doc("regressed", None);
        attach(&mut allocating, &|base, _, _| {
            let mut p = profile(0.0, 0.0);
            p.allocation_sites = Some(vec![site("x|`y`", &[if base { 2.0 } else { 3.0 }])]);
            Some(p)
        });
        let md = markdown(&allocating);
        assert!(
            md.contains("| call site | allocations, per unit |\n|---|---:|\n| `` x\\|`y` `` | 2.000 → 3.000 (+50.0%) |"),
            "{md}"
        );
        assert!(md.contains("spin\\|"), "{md}");
        // Without a profile on one side: nothing to say.
        let mut one = doc("regressed", None);
        attach(&mut one, &|base, _, _| base.then(|| profile(0.0, 0.0)));
        assert_eq!(one.benches[0].explained, None);
    }
}
