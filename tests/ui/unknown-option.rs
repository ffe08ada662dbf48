use pilot::Bencher;

#[pilot::bench(ci = 0.01, samples = 100)]
fn sort(b: &mut Bencher) {
    b.iter(|| 1 + 1);
}

pilot::main!();
