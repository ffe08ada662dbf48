// The attribute goes on a function, in divan 0.1.21 as here.
#[divan::bench]
struct Add;

fn main() {
    divan::main();
}
