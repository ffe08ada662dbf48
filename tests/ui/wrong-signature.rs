use pilot::Bencher;

#[pilot::bench]
fn sort(n: usize, b: &mut Bencher) {
    b.iter(|| n);
}

pilot::main!();
