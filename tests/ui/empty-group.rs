use pilot::Bencher;

#[pilot::bench(group = "")]
fn add(b: &mut Bencher) {
    b.iter(|| 1 + 1);
}

pilot::main!();
