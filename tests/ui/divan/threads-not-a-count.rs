// `threads` takes a bool, a count or counts: a string is an error at it, in divan 0.1.21 as
// here.
#[divan::bench(threads = "four")]
fn add() -> i32 {
    divan::black_box(1) + 2
}

fn main() {
    divan::main();
}
