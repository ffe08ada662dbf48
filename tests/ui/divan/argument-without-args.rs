// An argument after the `Bencher` needs `args` to give its values, in divan 0.1.21 as here.
use divan::Bencher;

#[divan::bench]
fn sum(bencher: Bencher, len: usize) {
    let v: Vec<usize> = (0..len).collect();
    bencher.bench(|| v.iter().sum::<usize>());
}

fn main() {
    divan::main();
}
