// `types` instantiates a generic function: one without a type parameter is refused, in divan
// 0.1.21 as here.
#[divan::bench(types = [u8, u64])]
fn zero() -> u64 {
    0
}

fn main() {
    divan::main();
}
