use pilot::Bencher;

#[pilot::bench(throughput = bytes())]
fn encode(b: &mut Bencher) {
    b.iter(|| 1 + 1);
}

pilot::main!();
