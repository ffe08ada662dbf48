use pilot::Bencher;

#[pilot::bench(min_time = 5, max_time = 2)]
fn sort(b: &mut Bencher) {
    b.iter(|| 1 + 1);
}

pilot::main!();
