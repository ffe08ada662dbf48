use pilot::Bencher;

#[pilot::bench(args = [64, 4096], throughput = foo(n))]
fn encode(n: usize, b: &mut Bencher) {
    let input = vec![0u8; n];
    b.iter(|| input.len());
}

pilot::main!();
