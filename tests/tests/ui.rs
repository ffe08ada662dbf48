//! `#[pilot::bench]` as users meet it: each mistake in `tests/ui/<mistake>.rs` must give the one
//! error in its `.stderr`, pointing at the mistake; `tests/ui/pass/` must compile and run.
//!
//! After changing a message, regenerate the `.stderr` files with `TRYBUILD=overwrite` and read
//! every changed one.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
    t.pass("ui/pass/*.rs");
}
