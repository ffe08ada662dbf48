// An option given twice is refused as the attribute expands, in divan 0.1.21 as here.
#[divan::bench(name = "add", name = "plus")]
fn add() -> i32 {
    divan::black_box(1) + 2
}

fn main() {
    divan::main();
}
