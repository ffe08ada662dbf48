// `sample_count` is a count: a string is a type error at it, in divan 0.1.21 as here.
#[divan::bench(sample_count = "ten")]
fn add() -> i32 {
    divan::black_box(1) + 2
}

fn main() {
    divan::main();
}
