use pilot::Bencher;

#[pilot::bench(group = "sorts")]
fn sort(n: usize, b: &mut Bencher) {
    b.iter(|| n);
}

pilot::main!();
