use pilot::Bencher;

#[pilot::bench(throughput = 4096)]
fn encode(b: &mut Bencher) {
    b.iter(|| 1 + 1);
}

pilot::main!();
