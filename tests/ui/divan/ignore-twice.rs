// `ignore` as an option and as `#[ignore]` on the same function, in divan 0.1.21 as here.
#[divan::bench(ignore = false)]
#[ignore]
fn add() -> i32 {
    divan::black_box(1) + 2
}

fn main() {
    divan::main();
}
