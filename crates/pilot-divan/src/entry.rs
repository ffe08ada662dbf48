//! What the attributes register: an entry per `#[divan::bench]` function and per
//! `#[divan::bench_group]` module, read by [`crate::tree`] when `main` runs.

use crate::Bencher;
use crate::arg::ArgsRunner;
use crate::options::BenchOptions;

/// One registration, as submitted to `inventory`.
pub struct Registered(pub &'static Entry);

inventory::collect!(Registered);

/// A bench function or a group module.
pub struct Entry {
    /// A bench and its instances, or a group.
    pub kind: Kind,
    /// The name shown: `name = "…"`, or the function's or module's.
    pub name: &'static str,
    /// The function's or module's identifier (without `r#`).
    pub raw_name: &'static str,
    /// `module_path!()` where the attribute is (for a group: the module around it).
    pub module_path: &'static str,
    /// `file!()` of the attribute.
    pub file: &'static str,
    /// `line!()` of the attribute.
    pub line: u32,
    /// `column!()` of the attribute.
    pub col: u32,
    /// The attribute's options, made when `main` runs.
    pub options: Option<fn() -> BenchOptions>,
}

/// What an entry registers.
#[derive(Clone, Copy)]
pub enum Kind {
    /// A bench function: its instances (one per type and constant of a generic function).
    Bench(fn() -> Vec<Instance>),
    /// A group module.
    Group,
}

/// One instance of a bench function.
pub struct Instance {
    /// `types = …`: the type's name (`std::any::type_name`).
    pub ty: Option<fn() -> &'static str>,
    /// `consts = …`: the constant's name.
    pub konst: Option<fn() -> String>,
    /// How to run it.
    pub runner: Runner,
}

/// How an instance is run.
#[derive(Clone, Copy)]
pub enum Runner {
    /// Without argument values.
    Plain(fn(Bencher)),
    /// Over the values of `args = …`.
    Args(fn() -> ArgsRunner),
}
