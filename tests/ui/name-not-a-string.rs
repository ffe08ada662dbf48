use pilot::Bencher;

#[pilot::bench(name = sort_10k)]
fn sort(b: &mut Bencher) {
    b.iter(|| 1 + 1);
}

pilot::main!();
