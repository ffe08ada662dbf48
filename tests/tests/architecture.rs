//! The layers of `ARCHITECTURE.md`, checked against the code: every module of a crate the page
//! lists sits in one layer, imports only modules of its own layer or below, and no imports go
//! round in a cycle.
//!
//! An import is a path `crate::<module>…` in a `use` item, a type or an expression of a
//! non-test item of a file under the crate's `src/` (doc comments, `#[cfg(test)]` items and
//! `tests` folders are not code the crate ships). The module is the path's first part under
//! `src/`: `crates/pilot/src/session/readings.rs` belongs to `session`. A name the crate root
//! re-exports (`crate::Bencher`, from `pub use record::Bencher`) counts as an import of the
//! module it comes from.
//!
//! Below the top level the page draws no layers, but the same rule holds at every depth: the
//! submodules of one module (`runner::workload`, `runner::registry`, …) never import round in a
//! cycle, `super::` and `self::` paths included.
//!
//! `PILOT_ARCHITECTURE_ROOT=<checkout> cargo test -p pilot-tests --test architecture --
//! --nocapture` counts the edges, upward edges and cycles of another checkout against this
//! page's layers (how the counts before a move are taken).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// One crate's layers, from `ARCHITECTURE.md`: its `src` folder and each module's layer.
struct Layers {
    crate_name: String,
    src: PathBuf,
    layer_of: BTreeMap<String, usize>,
    /// Its section says [`STRICT`]: an import within a layer is a fault too.
    strict: bool,
}

/// The sentence that makes a crate's layers strict.
const STRICT: &str = "Modules of one layer do not import each other.";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The crates and layers of `ARCHITECTURE.md`: a `## <crate> (`<path>`)` heading, then table
/// rows `| <layer number> | `a`, `b` | … |`.
fn layers(page: &str, root: &Path) -> Vec<Layers> {
    let mut out: Vec<Layers> = Vec::new();
    for line in page.lines() {
        if let Some(head) = line.strip_prefix("## ") {
            let Some((name, rest)) = head.split_once(" (`") else {
                continue;
            };
            let path = rest.trim_end_matches(")").trim_end_matches('`');
            out.push(Layers {
                crate_name: name.trim().to_string(),
                src: root.join(path),
                layer_of: BTreeMap::new(),
                strict: false,
            });
            continue;
        }
        if line.contains(STRICT)
            && let Some(current) = out.last_mut()
        {
            current.strict = true;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (Some(current), true) = (out.last_mut(), cells.len() > 3) else {
            continue;
        };
        let Ok(layer) = cells[1].parse::<usize>() else {
            continue;
        };
        for module in cells[2].split(',') {
            let module = module.trim().trim_matches('`');
            let old = current.layer_of.insert(module.to_string(), layer);
            assert!(
                old.is_none(),
                "`{module}` is in two layers of ARCHITECTURE.md"
            );
        }
    }
    out
}

/// The module a file under `src` belongs to (`None` for the crate root).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()?
        .as_os_str()
        .to_string_lossy()
        .into_owned();
    let name = first.trim_end_matches(".rs").to_string();
    (name != "lib" && name != "main").then_some(name)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if name != "tests" {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" {
            out.push(path);
        }
    }
}

/// The first part of every `crate::…` path in the code it visits, test items left out.
#[derive(Default)]
struct CratePaths {
    firsts: BTreeSet<String>,
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

impl<'ast> Visit<'ast> for CratePaths {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Use(u) => &u.attrs,
            syn::Item::Struct(s) => &s.attrs,
            syn::Item::Enum(e) => &e.attrs,
            syn::Item::Const(c) => &c.attrs,
            syn::Item::Static(s) => &s.attrs,
            _ => &Vec::new(),
        };
        if !is_test(attrs) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let mut segments = path.segments.iter();
        if let (Some(first), Some(second)) = (segments.next(), segments.next())
            && first.ident == "crate"
        {
            self.firsts.insert(second.ident.to_string());
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        if let syn::UseTree::Path(p) = &u.tree
            && p.ident == "crate"
        {
            firsts_of(&p.tree, &mut self.firsts);
        }
    }
}

/// The first names under `crate::` in a use tree (`crate::{a::X, b}` gives `a` and `b`).
fn firsts_of(tree: &syn::UseTree, out: &mut BTreeSet<String>) {
    match tree {
        syn::UseTree::Path(p) => {
            out.insert(p.ident.to_string());
        }
        syn::UseTree::Name(n) => {
            out.insert(n.ident.to_string());
        }
        syn::UseTree::Rename(r) => {
            out.insert(r.ident.to_string());
        }
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| firsts_of(t, out)),
        syn::UseTree::Glob(_) => {}
    }
}

/// The names the crate root re-exports from its modules, each with its module
/// (`pub use record::{Bencher, BatchSize}` gives `Bencher` and `BatchSize` in `record`).
fn reexports(src: &Path, modules: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for root in ["lib.rs", "main.rs"] {
        let Ok(text) = std::fs::read_to_string(src.join(root)) else {
            continue;
        };
        for item in syn::parse_file(&text).unwrap().items {
            if let syn::Item::Use(u) = item
                && let syn::UseTree::Path(p) = &u.tree
                && modules.contains(&p.ident.to_string())
            {
                let mut names = BTreeSet::new();
                leaves_of(&p.tree, &mut names);
                for name in names {
                    out.insert(name, p.ident.to_string());
                }
            }
        }
    }
    out
}

/// The names a use tree brings in (`a::{B, c::D as E}` gives `B` and `E`).
fn leaves_of(tree: &syn::UseTree, out: &mut BTreeSet<String>) {
    match tree {
        syn::UseTree::Path(p) => leaves_of(&p.tree, out),
        syn::UseTree::Name(n) => {
            out.insert(n.ident.to_string());
        }
        syn::UseTree::Rename(r) => {
            out.insert(r.rename.to_string());
        }
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| leaves_of(t, out)),
        syn::UseTree::Glob(_) => {}
    }
}

/// Each module's imports of other modules of the crate.
fn edges(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeSet<String> = files.iter().filter_map(|f| module_of(src, f)).collect();
    let reexported = reexports(src, &modules);
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let Some(from) = module_of(src, file) else {
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        let ast = syn::parse_file(&text)
            .unwrap_or_else(|e| panic!("cannot parse {}: {e}", file.display()));
        let mut paths = CratePaths::default();
        paths.visit_file(&ast);
        let entry = out.entry(from.clone()).or_default();
        for first in paths.firsts {
            let to = match reexported.get(&first) {
                Some(module) => module.clone(),
                None => first,
            };
            if to != from && modules.contains(&to) {
                entry.insert(to);
            }
        }
    }
    out
}

/// The strongly connected components of more than one module (Tarjan's algorithm).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Tarjan<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        out: Vec<Vec<String>>,
    }
    impl<'g> Tarjan<'g> {
        fn visit(&mut self, v: &'g str) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            for w in self.graph.get(v).into_iter().flatten() {
                if !self.index.contains_key(w.as_str()) {
                    self.visit(w);
                    let lw = self.low[w.as_str()];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if self.stack.contains(&w.as_str()) {
                    let iw = self.index[w.as_str()];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    component.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.out.push(component);
                }
            }
        }
    }
    let mut t = Tarjan {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.out
}

#[test]
fn imports_point_down_the_layers_and_never_round() {
    let root = std::env::var_os("PILOT_ARCHITECTURE_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(workspace);
    let page = std::fs::read_to_string(workspace().join("ARCHITECTURE.md")).unwrap();
    let crates = layers(&page, &root);
    assert!(crates.len() >= 2, "ARCHITECTURE.md lists no crates' layers");
    let mut faults = Vec::new();
    for c in &crates {
        let graph = edges(&c.src);
        let mut upward = Vec::new();
        for (from, tos) in &graph {
            let Some(&lf) = c.layer_of.get(from) else {
                faults.push(format!("{}: module `{from}` is in no layer", c.crate_name));
                continue;
            };
            for to in tos {
                match c.layer_of.get(to) {
                    Some(&lt) if lt > lf || (c.strict && lt == lf) => {
                        upward.push(format!("{from} ({lf}) -> {to} ({lt})"))
                    }
                    _ => {}
                }
            }
        }
        let found = cycles(&graph);
        println!(
            "{}: {} modules, {} edges, {} upward, {} cycles {found:?}",
            c.crate_name,
            graph.len(),
            graph.values().map(BTreeSet::len).sum::<usize>(),
            upward.len(),
            found.len()
        );
        faults.extend(
            upward
                .iter()
                .map(|u| format!("{}: upward edge {u}", c.crate_name)),
        );
        faults.extend(found.iter().map(|f| {
            format!(
                "{}: modules import each other in a cycle: {f:?}",
                c.crate_name
            )
        }));
        for module in c.layer_of.keys() {
            if !graph.contains_key(module) && !c.src.join(format!("{module}.rs")).exists() {
                faults.push(format!(
                    "{}: ARCHITECTURE.md lists `{module}`, which is no module",
                    c.crate_name
                ));
            }
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// The workspace's own crates that a crate's manifest lists under `[dependencies]` (dev- and
/// build-dependencies are not what it ships).
fn own_dependencies(manifest: &str, own: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut in_deps = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
            continue;
        }
        let key = line.split(['=', '.', ' ']).next().unwrap_or("");
        if in_deps && own.contains(key) {
            out.insert(key.to_string());
        }
    }
    out
}

/// ARCHITECTURE.md's table of crates (`| `crate` | `dep`, `dep` |`, or "none of ours").
fn crate_table(page: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    for line in page.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() != 4 || !cells[1].starts_with('`') || cells[2].contains("holds") {
            continue;
        }
        if line.starts_with("## ") {
            break;
        }
        let deps = cells[2]
            .split(',')
            .map(|d| d.trim().trim_matches('`').to_string())
            .filter(|d| d != "none of ours")
            .collect();
        out.insert(cells[1].trim_matches('`').to_string(), deps);
    }
    out
}

#[test]
fn crates_depend_as_the_page_says() {
    let page = std::fs::read_to_string(workspace().join("ARCHITECTURE.md")).unwrap();
    let head = &page[..page.find("\n## ").unwrap_or(page.len())];
    let table = crate_table(head);
    let dirs = [
        ("pilot-settings", "crates/pilot-settings"),
        ("pilot-format", "crates/pilot-format"),
        ("pilot-stats", "crates/pilot-stats"),
        ("pilot-engine", "crates/pilot-engine"),
        ("pilot-macros", "crates/pilot-macros"),
        ("pilot", "crates/pilot"),
        ("pilot-criterion", "crates/pilot-criterion"),
        ("pilot-divan-macros", "crates/pilot-divan-macros"),
        ("pilot-divan", "crates/pilot-divan"),
        ("cargo-pilot", "crates/cargo-pilot"),
    ];
    let own: BTreeSet<String> = dirs.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(
        table.keys().cloned().collect::<BTreeSet<_>>(),
        own,
        "ARCHITECTURE.md's table of crates"
    );
    for (name, dir) in dirs {
        let manifest = std::fs::read_to_string(workspace().join(dir).join("Cargo.toml")).unwrap();
        assert_eq!(
            own_dependencies(&manifest, &own),
            table[name],
            "{name}'s [dependencies] against ARCHITECTURE.md"
        );
    }
}

#[test]
fn a_manifest_dependency_on_a_crate_of_ours_is_found() {
    let own: BTreeSet<String> = ["pilot", "pilot-engine"].map(String::from).into();
    let manifest = "[package]\nname = \"x\"\n[dependencies]\npilot-engine.workspace = true\nserde = \"1\"\n[dev-dependencies]\npilot = { path = \"../pilot\" }\n";
    assert_eq!(
        own_dependencies(manifest, &own),
        ["pilot-engine".to_string()].into()
    );
    let page = "| crate | depends on |\n|---|---|\n| `a` | none of ours |\n| `b` | `a`, `c` |\n";
    let t = crate_table(page);
    assert!(t["a"].is_empty());
    assert_eq!(t["b"], ["a".to_string(), "c".to_string()].into());
}

#[test]
fn a_cycle_and_an_upward_edge_are_found() {
    let g: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a"]),
    ]
    .into_iter()
    .map(|(k, v)| (k.into(), v.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(cycles(&g), vec![vec!["a", "b", "c"]]);
    let page = "## x (`x/src`)\n| layer | modules | holds |\n|---|---|---|\n| 0 | `a`, `b` | … |\n| 1 | `c` | … |\n## y (`y/src`)\nModules of one layer do not import each other.\n";
    let l = layers(page, Path::new("/r"));
    assert!(!l[0].strict && l[1].strict);
    assert_eq!(l[0].layer_of["b"], 0);
    assert_eq!(l[0].layer_of["c"], 1);
    assert_eq!(l[0].src, Path::new("/r/x/src"));
    let mut paths = CratePaths::default();
    paths.visit_file(
        &syn::parse_file(
            "use crate::{a::X, b};\nfn f() { crate::c::g(); }\n#[cfg(test)]\nmod tests { use crate::d; }\n/// [`crate::e`]\nfn h() {}",
        )
        .unwrap(),
    );
    assert_eq!(
        paths.firsts.into_iter().collect::<Vec<_>>(),
        ["a", "b", "c"]
    );
}

/// Every `crate::`, `super::` and `self::` path of the code it visits, resolved against the
/// module the file is (`["runner", "workload"]`), test items left out: the modules they may
/// name, longest first is up to the caller.
struct ModulePaths<'m> {
    here: &'m [String],
    paths: Vec<Vec<String>>,
}

impl ModulePaths<'_> {
    /// `segments` resolved from this file's module: `crate::a::b` is `[a, b]`, `super::c` the
    /// parent's `c`, `self::d` this module's `d`; `None` for other paths.
    fn resolve(&self, segments: &[String]) -> Option<Vec<String>> {
        let (first, rest) = segments.split_first()?;
        let mut base: Vec<String> = match first.as_str() {
            "crate" => Vec::new(),
            "self" => self.here.to_vec(),
            "super" => self.here[..self.here.len().saturating_sub(1)].to_vec(),
            _ => return None,
        };
        let mut rest = rest;
        while let Some(("super", tail)) = rest.split_first().map(|(h, t)| (h.as_str(), t)) {
            base.pop();
            rest = tail;
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    fn use_tree(&mut self, tree: &syn::UseTree, prefix: &mut Vec<String>) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(&p.tree, prefix);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                prefix.push(n.ident.to_string());
                self.push(prefix);
                prefix.pop();
            }
            syn::UseTree::Rename(r) => {
                prefix.push(r.ident.to_string());
                self.push(prefix);
                prefix.pop();
            }
            syn::UseTree::Glob(_) => self.push(prefix),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(t, prefix);
                }
            }
        }
    }

    fn push(&mut self, segments: &[String]) {
        if let Some(p) = self.resolve(segments) {
            self.paths.push(p);
        }
    }
}

impl<'ast> Visit<'ast> for ModulePaths<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs: &[syn::Attribute] = match item {
            syn::Item::Fn(i) => &i.attrs,
            syn::Item::Mod(i) => &i.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Use(i) => &i.attrs,
            syn::Item::Const(i) => &i.attrs,
            syn::Item::Static(i) => &i.attrs,
            syn::Item::Struct(i) => &i.attrs,
            syn::Item::Enum(i) => &i.attrs,
            syn::Item::Trait(i) => &i.attrs,
            syn::Item::Type(i) => &i.attrs,
            syn::Item::Macro(i) => &i.attrs,
            _ => &[],
        };
        if is_test(attrs) {
            return;
        }
        if let syn::Item::Use(u) = item {
            self.use_tree(&u.tree, &mut Vec::new());
            return;
        }
        syn::visit::visit_item(self, item);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_test(&f.attrs) {
            syn::visit::visit_impl_item_fn(self, f);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.push(&segments);
        syn::visit::visit_path(self, path);
    }
}

/// The module path of a file under `src` (`runner/workload.rs` is `[runner, workload]`,
/// `runner/mod.rs` `[runner]`, `lib.rs` `[]`).
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if !["mod", "lib", "main"].contains(&stem) {
        parts.push(stem.to_string());
    }
    parts
}

/// For each module that has submodules, the imports between its children: an import anywhere
/// in child `a` (its own submodules included) of anything in sibling `b` is an edge `a → b`.
/// Keys are the parent's path (`runner`; `` for the crate root).
fn sibling_edges(src: &Path) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_path(src, f)).collect();
    let mut out: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for file in &files {
        let here = module_path(src, file);
        let tree = syn::parse_file(&std::fs::read_to_string(file).unwrap()).unwrap();
        let mut v = ModulePaths {
            here: &here,
            paths: Vec::new(),
        };
        v.visit_file(&tree);
        for path in v.paths {
            // The module the path names: its longest prefix that is a module.
            let Some(target) = (0..=path.len())
                .rev()
                .map(|n| path[..n].to_vec())
                .find(|p| modules.contains(p))
            else {
                continue;
            };
            let common = here.iter().zip(&target).take_while(|(a, b)| a == b).count();
            // One is the other's ancestor: a parent and its child, not siblings.
            if common == here.len() || common == target.len() {
                continue;
            }
            out.entry(here[..common].join("::"))
                .or_default()
                .entry(here[common].clone())
                .or_default()
                .insert(target[common].clone());
        }
    }
    out
}

#[test]
fn no_modules_of_one_parent_import_round_in_a_cycle() {
    let page = std::fs::read_to_string(workspace().join("ARCHITECTURE.md")).unwrap();
    let mut found = Vec::new();
    for l in layers(&page, &workspace()) {
        for (parent, graph) in sibling_edges(&l.src) {
            for cycle in cycles(&graph) {
                found.push(format!("{}: {parent}: {}", l.crate_name, cycle.join(", ")));
            }
        }
    }
    assert!(
        found.is_empty(),
        "modules of one parent import round in a cycle (crate: parent: modules): {found:#?}"
    );
}

#[test]
fn an_import_between_siblings_is_found_at_any_depth() {
    let here = vec!["runner".to_string(), "workload".to_string()];
    let mut v = ModulePaths {
        here: &here,
        paths: Vec::new(),
    };
    v.visit_file(
        &syn::parse_file(
            "use super::registry::Bench;\nuse crate::{session::Status, runner::threads};\nfn f() { self::inner::g(); }\n#[cfg(test)]\nmod tests { use super::super::overhead; }",
        )
        .unwrap(),
    );
    let got: Vec<String> = v.paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        got,
        [
            "runner::registry::Bench",
            "session::Status",
            "runner::threads",
            "runner::workload::inner::g"
        ]
    );
}
