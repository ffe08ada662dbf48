use pilot::Bencher;

#[pilot::bench(args = [100, 10_000])]
fn sort(b: &mut Bencher) {
    b.iter(|| 1);
}

pilot::main!();
