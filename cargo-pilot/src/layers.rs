//! The layers of cargo-pilot's modules, checked: a module names (`crate::…`) only modules of
//! layers below its own, so the module graph has no cycle and `main` only wires commands.
//!
//! A new module goes into the lowest layer whose modules it needs none of; a module that needs
//! one of its own layer, or one above, is a sign that a shared type belongs lower (as the
//! arguments several commands take live in `args`).

/// The layers, lowest first.
const LAYERS: &[&[&str]] = &[
    // Leaves: the shared clap arguments, and how a command ends.
    &["args", "exit"],
    // Ctrl-C passed on to the child processes.
    &["interrupt"],
    // Running cargo: metadata, builds, the bench binaries.
    &["cargo"],
    // The commands over saved files and programs, and the run log.
    &[
        "compare", "export", "import", "list", "report", "resume", "run",
    ],
    // Commands built on those: `analyze --from` reads through `import`; `bench --against`.
    &["analyze", "against"],
    // `cargo pilot bench`, which hands `--against` on.
    &["bench"],
];

/// The layer of top-level module `name`.
fn layer(name: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&name))
}

/// The top-level modules `code` names as `crate::m` or `crate::{m, …}`, outside comments.
fn named_modules(code: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut names = Vec::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or("");
        for (at, _) in line.match_indices("crate::") {
            let rest = &line[at + "crate::".len()..];
            match rest.strip_prefix('{') {
                Some(list) => names.extend(
                    list.split('}')
                        .next()
                        .unwrap_or("")
                        .split(',')
                        .map(|item| ident(item.trim())),
                ),
                None => names.push(ident(rest)),
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// Every file of `dir`, recursively.
    fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    #[test]
    fn every_module_names_only_layers_below_its_own() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut paths = Vec::new();
        files(&src, &mut paths);
        let mut upward = Vec::new();
        for path in paths {
            let relative = path.strip_prefix(&src).unwrap();
            let first = relative.iter().next().unwrap().to_string_lossy();
            let module = first.trim_end_matches(".rs");
            if module == "main" || module == "layers" {
                continue;
            }
            let own = layer(module)
                .unwrap_or_else(|| panic!("module `{module}` has no layer in `LAYERS`"));
            let text = std::fs::read_to_string(&path).unwrap();
            // Tests may reach anywhere: only the code before a file's test module counts.
            let code = text.split("\n#[cfg(test)]").next().unwrap_or("");
            for named in named_modules(code) {
                if named == module {
                    continue;
                }
                if layer(&named).is_none_or(|l| l >= own) {
                    upward.push(format!("{} names `crate::{named}`", relative.display()));
                }
            }
        }
        assert!(
            upward.is_empty(),
            "imports that do not point down: {upward:#?}"
        );
    }

    #[test]
    fn named_modules_are_read_from_paths_and_lists() {
        let code = "use crate::args::{A, B};\nuse crate::{cargo, exit::Failure};\n\
                    // crate::bench in a comment\nlet x = crate::interrupt::happened();";
        assert_eq!(named_modules(code), ["args", "cargo", "exit", "interrupt"]);
    }
}
