// Constants from an item (not a literal list) are limited to 20, in divan 0.1.21 as here.
const SIZES: [usize; 21] = [0; 21];

#[divan::bench(consts = SIZES)]
fn array<const N: usize>() -> [i32; N] {
    [0; N]
}

fn main() {
    divan::main();
}
