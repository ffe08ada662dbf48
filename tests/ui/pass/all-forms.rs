//! Every form and every option of `#[pilot::bench]`, compiled under `#![deny(warnings)]`; `main`
//! checks what each attribute registered rather than running the benches.
#![deny(warnings)]

use pilot::__private::{BenchBody, BenchDef, inventory};
use pilot::{Bencher, Recorder};

/// Full form with every option.
#[pilot::bench(
    name = "full_all_options",
    unit = "MiB",
    work = 1..=4096,
    ci = 0.02,
    confidence = 0.99,
    max_time = 2.5,
    min_time = 1,
    estimator = "mean",
    ignore,
)]
pub fn full(work: u64, rec: &mut Recorder) {
    for _ in 0..work {
        rec.unit(|| pilot::black_box(1 + 1));
    }
}

/// Full form with a qualified type and `_` patterns.
#[pilot::bench]
#[inline(never)]
fn full_qualified(_: u64, _: &mut pilot::Recorder) {}

/// Micro form, explicit unit return type, exclusive work range with underscores.
#[pilot::bench(work = 1_000..1_000_001, ignore = false, max_time = 5)]
fn micro(b: &mut Bencher) -> () {
    b.iter(|| pilot::black_box(2) * 2);
}

/// Readings-only form as a `const fn`; `min_time = 0` is the least allowed.
#[pilot::bench(min_time = 0, ignore = true, estimator = "trimmed")]
const fn readings_only(_work: u64) {}

/// A raw identifier: the bench is named `match`.
#[pilot::bench]
fn r#match(_b: &mut Bencher) {}

/// A `#[cfg]` that is off removes the registration with the function.
#[pilot::bench]
#[cfg(any())]
fn compiled_out(_b: &mut Bencher) {}

mod nested {
    /// A bench in a module, named by `crate = …` through a re-export.
    #[pilot::bench(crate = crate::reexport::pilot)]
    pub(crate) fn in_module(_work: u64) {}
}

mod reexport {
    pub use ::pilot;
}

/// Benches may also be declared inside a function body.
fn declares_a_bench() {
    #[pilot::bench(name = "in_a_block")]
    fn local(_b: &mut Bencher) {}
}

/// Stands in for `pilot::main!()`: checks the registrations instead of running them.
fn main() {
    declares_a_bench();
    // The function is still there, unchanged, and callable as usual.
    readings_only(1);
    nested::in_module(1);

    let mut defs: Vec<&BenchDef> = inventory::iter::<BenchDef>.into_iter().collect();
    defs.sort_by_key(|def| (def.module_path, def.name));
    // trybuild names the crate, so module paths are compared below the crate root.
    let root = module_path!();
    let names: Vec<(String, &str)> = defs
        .iter()
        .map(|def| (def.module_path.replacen(root, "crate", 1), def.name))
        .collect();
    let expected = [
        ("crate", "full_all_options"),
        ("crate", "full_qualified"),
        ("crate", "in_a_block"),
        ("crate", "match"),
        ("crate", "micro"),
        ("crate", "readings_only"),
        ("crate::nested", "in_module"),
    ];
    assert_eq!(names, expected.map(|(path, name)| (path.to_owned(), name)));
    let def = |name: &str| *defs.iter().find(|def| def.name == name).unwrap();

    let full = def("full_all_options");
    assert!(matches!(full.body, BenchBody::Full(_)));
    assert!(full.file.ends_with("all-forms.rs"), "{}", full.file);
    assert_eq!(full.line, 20, "the line of the `fn`");
    let options = full.options;
    assert_eq!(options.unit, Some("MiB"));
    assert_eq!(options.work, Some((1, 4096)));
    assert_eq!(options.ci, Some(0.02));
    assert_eq!(options.confidence, Some(0.99));
    assert_eq!(options.max_time, Some(2.5));
    assert_eq!(options.min_time, Some(1.0));
    assert!(options.ignore);
    assert_eq!(options.estimator, Some("mean"));

    let qualified = def("full_qualified");
    assert!(matches!(qualified.body, BenchBody::Full(_)));
    assert_eq!(qualified.options.unit, None);
    assert_eq!(qualified.options.work, None);
    assert_eq!(qualified.options.ci, None);
    assert_eq!(qualified.options.confidence, None);
    assert_eq!(qualified.options.max_time, None);
    assert_eq!(qualified.options.min_time, None);
    assert!(!qualified.options.ignore);

    let micro = def("micro");
    assert!(matches!(micro.body, BenchBody::Micro(_)));
    assert_eq!(micro.options.work, Some((1_000, 1_000_000)));
    assert_eq!(micro.options.max_time, Some(5.0));
    assert!(!micro.options.ignore);

    let readings_only = def("readings_only");
    assert!(matches!(readings_only.body, BenchBody::ReadingsOnly(_)));
    assert_eq!(readings_only.options.min_time, Some(0.0));
    assert!(readings_only.options.ignore);

    assert!(matches!(def("match").body, BenchBody::Micro(_)));
    assert!(matches!(def("in_a_block").body, BenchBody::Micro(_)));
    // The registered pointer calls the function itself (0: no argument).
    match def("in_module").body {
        BenchBody::ReadingsOnly(f) => f(0, 3),
        _ => panic!("`in_module` is readings-only"),
    }
}
