// An option that sets a value, given twice (here once as a raw identifier): the compiler's
// error at the second, in divan 0.1.21 as here.
#[divan::bench(sample_count = 10, r#sample_count = 20)]
fn add() -> i32 {
    divan::black_box(1) + 2
}

fn main() {
    divan::main();
}
