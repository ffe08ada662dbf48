// `consts` instantiates a function generic over a constant: one without a const parameter is
// refused, in divan 0.1.21 as here.
#[divan::bench(consts = [1, 2])]
fn zero() -> u64 {
    0
}

fn main() {
    divan::main();
}
