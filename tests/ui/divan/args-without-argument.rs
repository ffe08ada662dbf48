// `args` passes each value to the function's argument: a function without one is refused, in
// divan 0.1.21 as here.
#[divan::bench(args = [1, 2, 3])]
fn add() -> i32 {
    divan::black_box(1) + 2
}

fn main() {
    divan::main();
}
