use pilot::Bencher;

#[pilot::bench(unit = "MiB", throughput = bytes(1 << 20))]
fn copy(b: &mut Bencher) {
    b.iter(|| 1 + 1);
}

pilot::main!();
