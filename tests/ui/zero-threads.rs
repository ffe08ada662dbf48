use pilot::Bencher;

#[pilot::bench(threads = 0)]
fn add(b: &mut Bencher) {
    b.iter(|| 1 + 1);
}

pilot::main!();
