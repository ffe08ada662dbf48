use pilot::Bencher;

#[pilot::bench(confidence = 1.0)]
fn sort(b: &mut Bencher) {
    b.iter(|| 1 + 1);
}

pilot::main!();
