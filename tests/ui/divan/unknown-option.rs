// A misspelt option (`samples` for `sample_count`) is an error at it, in divan 0.1.21 as here.
#[divan::bench(samples = 10)]
fn add() -> i32 {
    divan::black_box(1) + 2
}

fn main() {
    divan::main();
}
