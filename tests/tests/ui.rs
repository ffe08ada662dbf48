//! `#[pilot::bench]` as users meet it: each mistake in `tests/ui/<mistake>.rs` must give the one
//! error in its `.stderr`, pointing at the mistake; `tests/ui/pass/` must compile and run.
//!
//! `tests/ui/criterion/` does the same for criterion bench files compiled against pilot-criterion
//! (renamed `criterion`, as users rename it): code criterion 0.8 rejects is rejected here too,
//! at the same expression, and `tests/ui/criterion/pass/` compiles and runs (in test mode).
//! `tests/ui/criterion/check-against-criterion.sh` compiles the same files against criterion
//! 0.8 itself, to check each claim. `tests/ui/divan/` does the same for divan bench files
//! compiled against pilot-divan (renamed `divan`), checked against divan 0.1.21 by
//! `tests/ui/divan/check-against-divan.sh`.
//!
//! After changing a message, regenerate the `.stderr` files with `TRYBUILD=overwrite` and read
//! every changed one.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
    t.pass("ui/pass/*.rs");
    t.compile_fail("ui/criterion/*.rs");
    t.pass("ui/criterion/pass/*.rs");
    t.compile_fail("ui/divan/*.rs");
    t.pass("ui/divan/pass/*.rs");
}
