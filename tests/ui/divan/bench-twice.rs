// The attribute given twice to one function is an error at the function, in divan 0.1.21 as
// here.
#[divan::bench]
#[divan::bench]
fn add() -> i32 {
    divan::black_box(1) + 2
}

fn main() {
    divan::main();
}
