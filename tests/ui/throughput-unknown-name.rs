use pilot::Bencher;

// Without `args`, there is no argument for the amount to use.
#[pilot::bench(throughput = bytes(n))]
fn encode(b: &mut Bencher) {
    b.iter(|| 1 + 1);
}

pilot::main!();
