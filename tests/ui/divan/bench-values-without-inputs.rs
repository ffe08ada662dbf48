// `bench_values` runs on inputs: without `with_inputs` there are none to pass, and the
// method does not exist, in divan 0.1.21 as here.
use divan::Bencher;

#[divan::bench]
fn parse(bencher: Bencher) {
    bencher.bench_values(|s: String| s.parse::<u32>());
}

fn main() {
    divan::main();
}
