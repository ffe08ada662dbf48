use pilot::Bencher;

#[pilot::bench(throughput = elements(2.5))]
fn halves(b: &mut Bencher) {
    b.iter(|| 1 + 1);
}

pilot::main!();
