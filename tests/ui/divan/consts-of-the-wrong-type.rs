// The constants are checked against the const parameter's type even when `types = []` leaves
// no bench to run, in divan 0.1.21 as here.
#[divan::bench(types = [], consts = ['a', 'b'])]
fn bench<T, const C: i32>() {}

fn main() {
    divan::main();
}
