// `bench` may run its closure on several threads at once (`threads`): a closure that is not
// `Sync` is refused (`bench_local` takes it), in divan 0.1.21 as here.
use std::cell::Cell;

use divan::Bencher;

#[divan::bench]
fn count(bencher: Bencher) {
    let n = Cell::new(0u64);
    bencher.bench(|| n.set(n.get() + 1));
}

fn main() {
    divan::main();
}
